// Reads a JSON-file store's directory as files, never opening one for writing, so
// a tool (the replay) can run beside a server that has it open: a player's stored
// state (its snapshot and the journal records after the checkpoint), and the
// replay log (its kept segments, oplog/ and oplog.jsonl, each through its index, and
// entries only the journal holds yet).
// A server may checkpoint while this reads (rotate the journal, write snapshots,
// checkpoint.json, remove the rotated journal): a read that saw that happen under it
// is read again.
import { join } from 'node:path';
import { decodeState, type PlayerState } from '../../core/state.js';
import { readSnapshot } from './checkpoint.js';
import { readOrNone } from './durable.js';
import { applyDelta, JournalDamaged, rotatedJournals, scanJournal, type JournalRecord } from './journal.js';
import { readSegments } from './oplog-segments.js';
import type { StoredLogEntry } from './replay-log.js';
import { unseal } from './sealed.js';
import { passesFilter, StorageError, type LogFilter } from './storage.js';

/** A player as the directory stores it, and what its journal holds. */
export interface StoredPlayer {
  /** The state a server would load (undefined: no such player). */
  readonly state: PlayerState | undefined;
  /** The player's state after each log entry the journal still holds that changed it, by the entry's seq. */
  readonly recorded: ReadonlyMap<number, PlayerState>;
  /** The log entries in the journal after the checkpoint (the oplog may not have them yet). */
  readonly journalLog: ReadonlyArray<StoredLogEntry>;
}

/** The journal record the last checkpoint covers (0: none yet). */
const checkpointSeq = async (dir: string): Promise<number> => {
  const path = join(dir, 'checkpoint.json');
  const bytes = await readOrNone(path);
  if (bytes === undefined) return 0;
  const seq = (unseal(bytes, path) as { seq?: unknown } | null)?.seq;
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq)) throw new StorageError(`${path} names no seq`);
  return seq;
};

/** One try; why to try again when a checkpoint moved under it. */
const readOnce = async (dir: string, playerId: number): Promise<StoredPlayer | { readonly again: string }> => {
  const seq = await checkpointSeq(dir);
  let state = await readSnapshot(dir, playerId);
  const rotated = await rotatedJournals(dir);
  const records: JournalRecord[] = [];
  for (const f of [...rotated.map((r) => r.path), join(dir, 'journal.log')]) {
    const bytes = await readOrNone(f);
    if (bytes === undefined) {
      if (f === join(dir, 'journal.log')) continue;
      return { again: `${f} was removed (a checkpoint finished)` };
    }
    // A torn tail is a write in progress (or a crash's): its whole records are read.
    const scan = scanJournal(bytes, f);
    if (scan.verdict === 'corrupt') throw new JournalDamaged(scan);
    records.push(...scan.records);
  }
  const same = (await rotatedJournals(dir)).map((r) => r.path).join() === rotated.map((r) => r.path).join();
  if (!same || (await checkpointSeq(dir)) !== seq) return { again: 'a checkpoint began or finished' };
  const after = records.filter((r) => r.seq > seq);
  // A journal rotated between the listing and the read leaves a gap.
  if (after.some((r, i) => r.seq !== seq + 1 + i))
    return { again: `the journal records after seq ${seq} are not all there` };
  const recorded = new Map<number, PlayerState>();
  for (const r of after) {
    for (const p of r.players) {
      const d = decodeState(p);
      if (d._tag === 'Left') throw new StorageError(`journal record ${r.seq}: a player state does not decode`);
      // A snapshot a checkpoint still writing may be past this record.
      if (d.right.playerId === playerId && (state === undefined || state.version < d.right.version)) state = d.right;
    }
    for (const d of r.deltas ?? []) {
      if (d.playerId !== playerId || (state !== undefined && state.version >= d.base + 1)) continue;
      if (state === undefined || state.version !== d.base)
        return {
          again: `journal record ${r.seq}: player ${playerId}'s delta is from version ${d.base}, the state is at ${state?.version ?? 'none'}`,
        };
      state = applyDelta(state, d, `journal record ${r.seq}`);
    }
    for (const e of r.log ?? []) {
      // The state this entry made: a snapshot already past it (a checkpoint still writing) is not, and that state is not known.
      const made = e.results.find((x) => x.playerId === playerId);
      if (e.seq !== undefined && state !== undefined && made?.version === state.version) recorded.set(e.seq, state);
    }
  }
  return { state, recorded, journalLog: after.flatMap((r) => r.log ?? []) };
};

/** A player's stored state, read from the files of a directory a server may have open. */
export const readStoredPlayer = async (dir: string, playerId: number): Promise<StoredPlayer> => {
  // Stryker disable next-line StringLiteral: equivalent (each of the 20 tries sets it before the throw reads it)
  let why = '';
  for (let attempt = 1; attempt <= 20; attempt++) {
    const got = await readOnce(dir, playerId);
    if (!('again' in got)) return got;
    why = got.again;
  }
  throw new StorageError(`player ${playerId} could not be read from ${dir} in 20 tries: ${why}`);
};

/**
 * The directory's kept replay log, all or as filtered: its segments (through their
 * indexes for a filter), and the entries of `journalLog` (StoredPlayer's) they do not
 * hold yet, in seq order.
 */
export const readLogAt = async (
  dir: string,
  journalLog: ReadonlyArray<StoredLogEntry>,
  filter?: LogFilter,
): Promise<StoredLogEntry[]> => {
  const fromOplog = await readSegments(dir, filter);
  const have = new Set(fromOplog.map((e) => e.seq));
  const more = journalLog.filter((e) => !have.has(e.seq) && passesFilter(e, filter));
  return more.length === 0 ? fromOplog : [...fromOplog, ...more].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
};
