// Checkpoints: what lets the journal go. At a checkpoint every player changed since
// the last one gets its snapshot (players/<id % 256>/<id>.json, canonical JSON
// behind its CRC (sealed.ts), written whole: temp file, fsync, rename), the answers
// kept for Idempotency-Keys whose rings changed go to their files (answer-files.ts),
// the player keys and sessions that changed to a line of the index log (index-log.ts),
// and checkpoint.json names the last journal record it covers and the bytes of the
// index log it covers. Only then
// are the rotated journals it covers removed. A start reads checkpoint.json, then
// replays the journal records after its seq (storage/journal.ts).
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeState, type PlayerState } from '../../core/state.js';
import { canonicalPieces } from './canonical.js';
import { loopTurns, mapLimit, syncDir, writeAtomic } from './durable.js';
import { IndexModel } from './index-model.js';
import { rotatedJournals } from './journal.js';
import { writeAnswers } from './answer-files.js';
import type { Ring } from './kept-answers.js';
import { writeSealedText, type PieceValue } from './sealed-pieces.js';
import {
  appendLine,
  INDEX_LOG,
  readIndexLog,
  startsAnew,
  writeFullLog,
  type IndexLine,
  type IndexLogState,
} from './index-log.js';
import { StorageError } from './storage.js';
import { FileDamaged, seal, unseal } from './sealed.js';

type IndexJson = Parameters<typeof IndexModel.fromJSON>[0];

/**
 * checkpoint.json: the last journal record it covers and the index log (index-log.ts)
 * with the bytes of it that it covers; before issue 36, the keys file and the
 * sessions (and idempotency records) itself.
 */
interface Checkpoint {
  readonly seq: number;
  readonly indexLog?: string;
  readonly indexBytes?: number;
  readonly indexFullBytes?: number;
  readonly keysFile?: string;
  readonly index?: Partial<IndexJson>;
}

const SHARDS = 256;

export const snapshotPath = (dir: string, id: number): string =>
  join(dir, 'players', String(id % SHARDS), `${id}.json`);

/** A player's snapshot, checked against its CRC and decoded; undefined when it has none. Throws FileDamaged naming the file. */
export const readSnapshot = async (dir: string, id: number): Promise<PlayerState | undefined> => {
  const path = snapshotPath(dir, id);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StorageError(`cannot read player ${id}`, e);
  }
  const d = decodeState(unseal(bytes, path));
  if (d._tag === 'Left') throw new FileDamaged(path, `player ${id}'s snapshot does not decode`);
  return d.right;
};

/** A file's bytes; a file checkpoint.json names that is missing is damage. */
const readNamed = async (path: string, by: string): Promise<Buffer> => {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new FileDamaged(path, `it is missing (${by} names it)`, e);
    throw new StorageError(`cannot read ${path}`, e);
  }
};

/** The last checkpoint: its indexes, the journal record it covers and the index log it named (a fresh directory: empty, 0). */
export const readCheckpoint = async (
  dir: string,
): Promise<{ index: IndexModel; seq: number; indexLog: IndexLogState | undefined }> => {
  const cpPath = join(dir, 'checkpoint.json');
  let cpBytes: Buffer;
  try {
    cpBytes = await readFile(cpPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StorageError(`cannot read ${cpPath}`, e);
    return { index: new IndexModel(), seq: 0, indexLog: undefined };
  }
  // Each file checked against its own CRC, so the error names the one at fault.
  // null, a number, a string or a list has no seq either.
  const cp = (unseal(cpBytes, cpPath) ?? {}) as Checkpoint;
  if (
    !Number.isSafeInteger(cp.seq) ||
    (cp.keysFile !== undefined && !/^keys\.\d+\.json$/.test(cp.keysFile)) ||
    (cp.indexLog !== undefined &&
      (!INDEX_LOG.test(cp.indexLog) ||
        !Number.isSafeInteger(cp.indexBytes) ||
        !Number.isSafeInteger(cp.indexFullBytes)))
  ) {
    throw new FileDamaged(cpPath, 'it is not a checkpoint (seq, indexLog, indexBytes; or keysFile, index)');
  }
  if (cp.indexLog !== undefined) {
    const indexLog = { file: cp.indexLog, bytes: cp.indexBytes as number, fullBytes: cp.indexFullBytes as number };
    return { index: IndexModel.fromLog(await readIndexLog(dir, indexLog.file, indexLog.bytes)), seq: cp.seq, indexLog };
  }
  // The player keys in a file of their own (written when they change); before, in checkpoint.json.
  const keysPath = cp.keysFile === undefined ? undefined : join(dir, cp.keysFile);
  const keys = keysPath === undefined ? {} : unseal(await readNamed(keysPath, 'checkpoint.json'), keysPath);
  if (typeof keys !== 'object' || keys === null)
    throw new FileDamaged(keysPath ?? cpPath, 'it does not hold the player keys');
  let index: IndexModel;
  try {
    index = IndexModel.fromJSON({ ...keys, ...cp.index } as IndexJson);
  } catch (e) {
    throw new FileDamaged(
      keysPath === undefined ? cpPath : `${cpPath} with ${keysPath}`,
      'the indexes they hold do not load',
      e,
    );
  }
  // Written before the index log: the next checkpoint starts one.
  return { index, seq: cp.seq, indexLog: undefined };
};

/** A checkpoint captured between two journal batches, to be written beside the commits that follow. */
export interface CheckpointPlan {
  readonly seq: number;
  readonly players: ReadonlyArray<readonly [number, PlayerState]>;
  /** The rings of kept answers changed since the last checkpoint, by scope. */
  readonly answers: ReadonlyArray<readonly [string, Ring]>;
  /** The index log's next line: a new log's full line (written in pieces) or the changes appended to the current one. */
  readonly index: { readonly full: PieceValue } | { readonly changes: IndexLine; readonly log: IndexLogState };
}

/**
 * Captures the indexes as of journal record `seq`: what changed since the last
 * checkpoint, to append to `log`, or (a new log: none yet, or it has grown past its
 * bound) all of them, copied now (a few milliseconds with 100,000 players) and made
 * into JSON as they are written.
 */
export const planCheckpoint = (
  index: IndexModel,
  seq: number,
  log: IndexLogState | undefined,
  players: ReadonlyArray<readonly [number, PlayerState]>,
  answers: ReadonlyArray<readonly [string, Ring]> = [],
): CheckpointPlan => ({
  seq,
  players,
  answers,
  index: log === undefined || startsAnew(log) ? { full: index.full() } : { changes: index.changes(), log },
});

/**
 * Writes a captured checkpoint: the snapshots, the kept answers, the index log's
 * line, checkpoint.json, and then removes the rotated journals it covers, and index
 * logs and keys files no longer named; answers the index log's state. A crash or
 * failure before the end leaves the rotated journals, which the next start replays
 * (or the next checkpoint covers).
 */
export const writeCheckpoint = async (dir: string, plan: CheckpointPlan): Promise<IndexLogState> => {
  const shards = new Set<number>();
  for (const [id] of plan.players) shards.add(id % SHARDS);
  await mapLimit([...shards], 16, (sh) =>
    mkdir(join(dir, 'players', String(sh)), { recursive: true }).then(() => undefined),
  );
  // Each batch of a state's JSON (up to 64 kB) made in its own turn of the event loop: sixteen
  // workers starting at once encoded sixteen states in one stretch, and one seasoned player's
  // ~600 kB in one go held the loop for tens of ms (with seasoned players, over 100 ms the requests waited).
  const turn = loopTurns();
  await mapLimit(plan.players, 16, async ([id, st]) => {
    await writeSealedText(snapshotPath(dir, id), canonicalPieces(st), turn);
  });
  await mapLimit([...shards], 16, (sh) => syncDir(join(dir, 'players', String(sh))));
  await writeAnswers(dir, plan.answers);
  const log =
    'full' in plan.index
      ? await writeFullLog(dir, plan.seq, plan.index.full)
      : await appendLine(dir, plan.index.log, plan.index.changes);
  const checkpoint: Checkpoint = {
    seq: plan.seq,
    indexLog: log.file,
    indexBytes: log.bytes,
    indexFullBytes: log.fullBytes,
  };
  await writeAtomic(join(dir, 'checkpoint.json'), seal(JSON.stringify(checkpoint)));
  await syncDir(dir);
  for (const f of await rotatedJournals(dir)) if (f.seq <= plan.seq) await unlink(f.path);
  for (const f of await readdir(dir))
    if ((/^keys\.\d+\.json$/.test(f) || INDEX_LOG.test(f)) && f !== log.file) await unlink(join(dir, f));
  await syncDir(dir);
  return log;
};
