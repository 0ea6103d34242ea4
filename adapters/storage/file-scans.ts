// The operator API's searches over every player of the JSON-file storage: each player
// as stored, none of them kept (the state in memory, else its snapshot's text), by name
// and by draw history.
import { readFile } from 'node:fs/promises';
import type { DrawRecord, PlayerState } from '../../core/state.js';
import { snapshotPath } from './checkpoint.js';
import { mapLimit } from './durable.js';
import { unsealText } from './sealed.js';

/** A player as stored: the state in memory, else its snapshot's JSON text. */
export type Stored = { readonly state: PlayerState } | { readonly text: string };
/** eachStored bound to a store: visits every player as stored; `done` ends the walk early. */
export type Scan = (visit: (stored: Stored) => void, done?: () => boolean) => Promise<void>;

/**
 * Each player as stored, none of them kept: the state in memory, else its
 * snapshot's JSON text (a damaged snapshot is passed over: its player's requests
 * answer 105 naming it). About a second per 30,000 players. For the operator API.
 * `inMemory`: the state the store holds for a player (dirty or cached), if any.
 */
export const eachStored = async (
  dir: string,
  ids: ReadonlyArray<number>,
  inMemory: (id: number) => PlayerState | undefined,
  visit: (stored: Stored) => void,
  done = () => false,
): Promise<void> => {
  await mapLimit(ids, 16, async (id) => {
    if (done()) return;
    const mem = inMemory(id);
    if (mem) {
      visit({ state: mem });
      return;
    }
    const path = snapshotPath(dir, id);
    let text: string;
    try {
      text = unsealText(await readFile(path), path).json;
    } catch {
      return;
    }
    // A commit or checkpoint may have put a newer state in memory while we read.
    const now = inMemory(id);
    visit(now ? { state: now } : { text });
  });
};

/** Players named `name`, by id: the texts that cannot hold it are not parsed. */
export const playersNamed = async (scan: Scan, name: string, limit: number): Promise<number[]> => {
  const needle = JSON.stringify(name);
  const found = new Set<number>();
  await scan(
    (stored) => {
      if ('text' in stored && !stored.text.includes(needle)) return;
      const state =
        'state' in stored ? stored.state : (JSON.parse(stored.text) as { playerId: number; name?: unknown });
      if (state.name === name) found.add(state.playerId);
    },
    () => found.size >= limit,
  );
  return [...found].sort((a, b) => a - b).slice(0, limit);
};

/** Each player's draw history, as stored: the players visited. */
export const eachDrawHistory = async (
  scan: Scan,
  visit: (history: ReadonlyArray<DrawRecord>) => void,
): Promise<number> => {
  let players = 0;
  await scan((stored) => {
    players++;
    visit(
      'state' in stored
        ? stored.state.gachaHistory
        : ((JSON.parse(stored.text) as { gachaHistory?: DrawRecord[] }).gachaHistory ?? []),
    );
  });
  return players;
};
