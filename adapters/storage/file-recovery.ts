// JSON-file storage's recovery at open: its files opened (the checkpoint, the journal, the oplog),
// then the journal's records after the checkpoint replayed into the store and the oplog caught up.
// The directory is marked as held (dir-holder.ts) from the open to the close (letGoDir).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeState, type PlayerState } from '../../core/state.js';
import { readCheckpoint } from './checkpoint.js';
import { DirHeld, holdDir } from './dir-holder.js';
import { withDefaults, type FileOptions, type FileStorageOptions } from './file-options.js';
import type { IndexLogState } from './index-log.js';
import type { IndexModel } from './index-model.js';
import { Journal } from './journal.js';
import { applyDelta, type JournalRecord } from './journal-records.js';
import { scopeOf, type KeptAnswers, type Ring } from './kept-answers.js';
import { OplogSegments } from './oplog-segments.js';
import { eraseAnswers } from './file-batch.js';
import type { PlayerCache } from './player-cache.js';
import { StorageError } from './storage.js';

/** A store's files as open finds them, before the store is made. */
export interface OpenedFiles {
  readonly opts: FileOptions;
  readonly index: IndexModel;
  /** The seq checkpoint.json covers. */
  readonly seq: number;
  readonly indexLog: IndexLogState | undefined;
  readonly journal: Journal;
  /** The journals' records (those after `seq` to replay). */
  readonly records: JournalRecord[];
  readonly oplog: OplogSegments;
}

/** The options with their defaults, the data directory made, the checkpoint read, the journal and the oplog opened. */
export const openFiles = async (o: FileStorageOptions): Promise<OpenedFiles> => {
  const opts = withDefaults(o);
  await mkdir(opts.dir, { recursive: true });
  // The directory marked as this process's (DATA_DIR/server.pid, removed at close), before anything is written in it:
  // a directory another live process holds is refused (its journal has one writer), and so are the tools that change
  // files meanwhile. Made exclusively, the mark settles two opens at once. A mark that cannot be written (a full
  // disk) does not keep the server from starting: it is logged.
  await holdDir(opts.dir).catch((e: unknown) => {
    if (e instanceof DirHeld) throw e;
    opts.log?.('storage.hold_failed', { dir: opts.dir, error: e instanceof Error ? e.message : String(e) });
  });
  await mkdir(join(opts.dir, 'players'), { recursive: true });
  const { index, seq, indexLog } = await readCheckpoint(opts.dir);
  // Damage a crash cannot explain throws here (JournalDamaged), before any file is changed.
  const { journal, records, torn } = await Journal.open(opts.dir, opts.faults, seq);
  // A torn tail from a crash mid-write: never acknowledged, so dropped whole.
  if (torn > 0) opts.log?.('journal.torn', { dropped: torn });
  const oplog = await OplogSegments.open(opts.dir, opts.log);
  return { opts, index, seq, indexLog, journal, records, oplog };
};

/** The store being opened, as the replay changes it. */
export interface Recovering {
  readonly index: IndexModel;
  readonly answers: KeptAnswers;
  /** The states changed since the checkpoint (not yet in a snapshot). */
  readonly dirty: Map<number, PlayerState>;
  readonly cache: PlayerCache<PlayerState>;
  /** The store's load (`observe`: whether the observer is told). */
  readonly load: (playerId: number, observe: boolean) => Promise<PlayerState | undefined>;
  /** A scope's kept answers (the store's ring). */
  readonly ring: (scope: string) => Promise<Ring>;
  /** Players deleted since the checkpoint: the next checkpoint purges the log of them. */
  readonly erasing: Set<number>;
}

/**
 * Brings `store` up to its journal: the answers an old checkpoint held moved to their
 * rings, the records after the checkpoint's seq replayed, and the oplog caught up with
 * their entries. Returns the seq of the last record replayed (the checkpoint's when none).
 */
export const recover = async (
  store: Recovering,
  { opts, index, seq, records, oplog }: OpenedFiles,
): Promise<number> => {
  // A checkpoint written before issue 36 held the answers itself: they move to their rings (written by the next checkpoint).
  for (const [key, record] of store.index.legacyAnswers) store.answers.put(key, record, await store.ring(scopeOf(key)));
  store.index.legacyAnswers = [];
  let last = seq;
  for (const r of records) {
    if (r.seq <= seq) continue;
    const states = r.players.map((p) => {
      const d = decodeState(p);
      if (d._tag === 'Left') throw new StorageError(`journal record ${r.seq}: a player state does not decode`);
      return d.right;
    });
    // Stryker disable next-line BooleanLiteral: equivalent (the observer is set after open returns: during the replay it is {}, so no load is reported either way)
    for (const s of states) await store.load(s.playerId, false);
    for (const d of r.deltas ?? []) {
      // Stryker disable next-line BooleanLiteral: equivalent (as above: no observer during the replay)
      const base = await store.load(d.playerId, false);
      // A snapshot from a checkpoint that did not finish may already be past this record.
      if (base && base.version >= d.base + 1) continue;
      if (!base || base.version !== d.base)
        throw new StorageError(
          `journal record ${r.seq}: player ${d.playerId}'s delta is from version ${d.base}, the state is at ${base?.version ?? 'none'}`,
        );
      states.push(applyDelta(base, d, `journal record ${r.seq}`));
    }
    store.index.replay(states, r.sessions, (id) => store.dirty.get(id) ?? store.cache.get(id));
    for (const x of r.idempotency ?? []) store.answers.put(x.key, x.record, await store.ring(scopeOf(x.key)));
    if (r.erase) {
      const rings = new Map<string, Ring>();
      for (const sc of r.erase.scrub) rings.set(sc, await store.ring(sc));
      eraseAnswers(r.erase, { answers: store.answers, rings });
      store.erasing.add(r.erase.playerId);
    }
    for (const s of states) {
      store.dirty.set(s.playerId, s);
      store.cache.delete(s.playerId);
    }
    last = r.seq;
  }
  // Every logged entry still in the journal (a checkpoint syncs the oplog before it lets the journal go).
  await oplog.catchUp(records.flatMap((r) => r.log ?? []));
  opts.log?.('storage.open', {
    dir: opts.dir,
    replayed: records.filter((r) => r.seq > seq).length,
    players: index.maxPlayerId,
  });
  return last;
};

export { letGoDir } from './dir-holder.js';
