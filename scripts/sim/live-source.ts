// Where --compare-live reads from, never writing: a sample of the stored players (a
// JSON-file data directory read as files, as the replay reads it beside a running
// server, or PostgreSQL), and the game data's versions the store keeps (the one in
// force now, and a candidate by hash or from a directory laid out as fixtures/).
import { existsSync } from 'node:fs';
import type { Master } from '../../core/master/index.js';
import type { PlayerState } from '../../core/state.js';
import { loadMaster } from '../../adapters/master/load.js';
import { MasterBook } from '../../adapters/master/book.js';
import { FileMasterRegistry, type MasterRegistry } from '../../adapters/master/registry.js';
import { readStoredPlayer } from '../../adapters/storage/file-reader.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { evenly } from '../../core/shared/sample.js';

export interface LiveSource {
  readonly states: ReadonlyArray<PlayerState>;
  /** The version in force at `now`, and its hash. */
  readonly inForce: { readonly master: Master; readonly version: string };
  /** A kept version by hash (undefined when the store has none such). */
  readonly version: (hash: string) => Promise<Master | undefined>;
  readonly close: () => Promise<void>;
}

/** Stops looking for more players after this many ids in a row that hold none. */
const GAP = 1000;

const fileStates = async (dir: string, n: number): Promise<PlayerState[]> => {
  const ids: number[] = [];
  for (let id = 1, misses = 0; misses < GAP; id++) {
    if ((await readStoredPlayer(dir, id)).state) {
      ids.push(id);
      misses = 0;
    } else misses++;
  }
  const states: PlayerState[] = [];
  for (const id of evenly(ids, n)) {
    const s = (await readStoredPlayer(dir, id)).state;
    if (s) states.push(s);
  }
  return states;
};

/** The store's versions and schedule over the bundled fixtures (what a server with no schedule serves). */
const bookOf = async (registry: MasterRegistry): Promise<MasterBook> => {
  const book = new MasterBook({ master: loadMaster(), version: 'the bundled fixtures' }, registry);
  await book.refresh();
  return book;
};

/** The source of a preview: a data directory (read as files) or a PostgreSQL database (read only). */
export const openLiveSource = async (
  where: { readonly dataDir?: string; readonly databaseUrl?: string; readonly schema?: string },
  players: number,
  now: number,
): Promise<LiveSource> => {
  if (where.databaseUrl) {
    const storage = await PostgresStorage.open({
      connectionString: where.databaseUrl,
      schema: where.schema ?? 'hoshi',
      poolSize: 4,
    });
    const book = await bookOf(storage.masterRegistry());
    const states = (await Promise.all(evenly(await storage.playerIds(), players).map((id) => storage.load(id)))).filter(
      (s): s is PlayerState => s !== undefined,
    );
    return { states, inForce: book.at(now), version: (h) => book.version(h), close: () => storage.close() };
  }
  const dir = where.dataDir ?? './data';
  if (!existsSync(dir)) throw new Error(`no data directory ${dir}`);
  const book = await bookOf(new FileMasterRegistry(dir));
  return {
    states: await fileStates(dir, players),
    inForce: book.at(now),
    version: (h) => book.version(h),
    close: async () => undefined,
  };
};

/** A version's name for a report: a hash's first 12 digits; anything else (the bundled fixtures) whole. */
export const shortVersion = (v: string): string => (/^[0-9a-f]{64}$/.test(v) ? v.slice(0, 12) : v);

/** A candidate: a version the store keeps (64 hex digits) or a directory laid out as fixtures/. */
export const candidateOf = async (source: LiveSource, given: string): Promise<{ name: string; master: Master }> => {
  if (/^[0-9a-f]{64}$/.test(given)) {
    const m = await source.version(given);
    if (!m) throw new Error(`the store keeps no version ${given}`);
    return { name: shortVersion(given), master: m };
  }
  return { name: given, master: loadMaster(given) };
};
