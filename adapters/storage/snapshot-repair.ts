// A damaged player snapshot replaced (issue 33: one used to leave its player answering
// 503/105 for good). The files' side of `npm run storage:repair`: the replay log's
// entries the journals hold (read without any snapshot, so a damaged one does not stop
// the read), the player's last result in the log (the version and state hash the new
// snapshot must have), and the snapshot written in place of the damaged one, which is
// kept beside it. The rebuild itself (a replay, or an export) is the script's.
import { constants, copyFile, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PlayerState } from '../../core/state.js';
import { canonicalPieces, stateHash } from './canonical.js';
import { readSnapshot, snapshotPath } from './checkpoint.js';
import { readOrNone, syncDir } from './durable.js';
import { JournalDamaged, rotatedJournals, scanJournal } from './journal.js';
import type { LogResult, StoredLogEntry } from './replay-log.js';
import { writeSealedText } from './sealed-pieces.js';
import { FileDamaged } from './sealed.js';

/** The replay-log entries every journal of the directory holds (the oplog may not have them yet); damage is thrown. */
export const journalLogEntries = async (dir: string): Promise<StoredLogEntry[]> => {
  const entries: StoredLogEntry[] = [];
  for (const f of [...(await rotatedJournals(dir)).map((r) => r.path), join(dir, 'journal.log')]) {
    const bytes = await readOrNone(f);
    if (bytes === undefined) continue;
    const scan = scanJournal(bytes, f);
    if (scan.verdict === 'corrupt') throw new JournalDamaged(scan);
    for (const r of scan.records) entries.push(...(r.log ?? []));
  }
  return entries;
};

/** The state the log's last entry that changed the player made (undefined: none did). */
export const lastResultOf = (log: ReadonlyArray<StoredLogEntry>, playerId: number): LogResult | undefined => {
  for (let i = log.length - 1; i >= 0; i--) {
    const made = log[i]?.results.find((r) => r.playerId === playerId);
    if (made !== undefined) return made;
  }
  return undefined;
};

/** Whether `state` is the one the log says the player is at now: its version and state hash (else why not). */
export const mismatchWith = (state: PlayerState, last: LogResult): string | undefined => {
  if (state.version !== last.version)
    return `it is at version ${state.version}, the log's last entry made ${last.version}`;
  const hash = stateHash(state);
  if (hash !== last.stateHash)
    return `its state hash ${hash} is not the log's ${last.stateHash} (version ${last.version})`;
  return undefined;
};

/** What the player's snapshot is: damaged (why), missing, or whole (its state). */
export const snapshotCondition = async (
  dir: string,
  playerId: number,
): Promise<{ damaged: string } | { missing: true } | { whole: PlayerState }> => {
  try {
    const state = await readSnapshot(dir, playerId);
    if (state === undefined) return { missing: true };
    // Another player's state in its file is damage too (storage:check says so).
    return state.playerId === playerId ? { whole: state } : { damaged: `it holds player ${state.playerId}` };
  } catch (e) {
    if (e instanceof FileDamaged) return { damaged: e.reason };
    throw e;
  }
};

/**
 * Writes `state` as its player's snapshot (sealed, synced, renamed into place); a file there
 * before is first copied beside it as `<id>.json.damaged` (`.damaged.1`, … when taken), so
 * nothing is destroyed and there is no moment without a snapshot. Returns the copy's name.
 */
export const replaceSnapshot = async (dir: string, state: PlayerState): Promise<string | undefined> => {
  const path = snapshotPath(dir, state.playerId);
  let kept: string | undefined;
  if ((await readOrNone(path)) !== undefined) {
    kept = `${path}.damaged`;
    for (let n = 1; (await readOrNone(kept)) !== undefined; n++) kept = `${path}.damaged.${n}`;
    await copyFile(path, kept, constants.COPYFILE_EXCL);
  }
  await writeSealedText(path, canonicalPieces(state));
  await syncDir(dirname(path));
  return kept;
};

/** A file's JSON (an export document). */
export const readJsonFile = async (path: string): Promise<unknown> => JSON.parse(await readFile(path, 'utf8'));
