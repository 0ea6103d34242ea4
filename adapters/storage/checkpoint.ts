// Checkpoints: what lets the journal go. At a checkpoint every player changed since
// the last one gets its snapshot (players/<id % 256>/<id>.json, canonical JSON
// behind its CRC (sealed.ts), written whole: temp file, fsync, rename), the player keys go to keys.<seq>.json
// (only when they changed), the answers kept for Idempotency-Keys whose rings changed
// go to their files (answer-files.ts), and checkpoint.json names the last journal
// record it covers, the keys file, and holds the sessions. Only then
// are the rotated journals it covers removed. A start reads checkpoint.json, then
// replays the journal records after its seq (storage/journal.ts).
import { mkdir, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeState, type PlayerState } from '../../core/state.js';
import { canonicalJson } from './canonical.js';
import { mapLimit, syncDir, writeAtomic } from './durable.js';
import { IndexModel } from './index-model.js';
import { rotatedJournals } from './journal.js';
import { writeAnswers } from './answer-files.js';
import type { Ring } from './kept-answers.js';
import { writeSealedPieces, type PieceValue } from './sealed-pieces.js';
import { StorageError } from './storage.js';
import { FileDamaged, seal, unseal } from './sealed.js';

type IndexJson = Parameters<typeof IndexModel.fromJSON>[0];

/** checkpoint.json: the last journal record it covers, the keys file, sessions (and, before issue 36, idempotency records). */
interface Checkpoint {
  readonly seq: number;
  readonly keysFile?: string;
  readonly index: Partial<IndexJson>;
}

/** The keys file a checkpoint named, and the index's keysVersion it holds. */
export interface KeysWritten { readonly version: number; readonly file: string }

const SHARDS = 256;

export const snapshotPath = (dir: string, id: number): string => join(dir, 'players', String(id % SHARDS), `${id}.json`);

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
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new FileDamaged(path, `it is missing (${by} names it)`, e);
    throw new StorageError(`cannot read ${path}`, e);
  }
};

/** The last checkpoint: its indexes, the journal record it covers and the keys file it named (a fresh directory: empty, 0). */
export const readCheckpoint = async (dir: string): Promise<{ index: IndexModel; seq: number; keysWritten: KeysWritten | undefined }> => {
  const cpPath = join(dir, 'checkpoint.json');
  let cpBytes: Buffer;
  try {
    cpBytes = await readFile(cpPath);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StorageError(`cannot read ${cpPath}`, e);
    return { index: new IndexModel(), seq: 0, keysWritten: undefined };
  }
  // Each file checked against its own CRC, so the error names the one at fault.
  // null, a number, a string or a list has no seq either.
  const cp = (unseal(cpBytes, cpPath) ?? {}) as Checkpoint;
  if (!Number.isSafeInteger(cp.seq) || (cp.keysFile !== undefined && !/^keys\.\d+\.json$/.test(cp.keysFile))) {
    throw new FileDamaged(cpPath, 'it is not a checkpoint (seq, keysFile, index)');
  }
  // The player keys in a file of their own (written when they change); before, in checkpoint.json.
  const keysPath = cp.keysFile === undefined ? undefined : join(dir, cp.keysFile);
  const keys = keysPath === undefined ? {} : unseal(await readNamed(keysPath, 'checkpoint.json'), keysPath);
  if (typeof keys !== 'object' || keys === null) throw new FileDamaged(keysPath ?? cpPath, 'it does not hold the player keys');
  let index: IndexModel;
  try {
    index = IndexModel.fromJSON({ ...keys, ...cp.index } as IndexJson);
  } catch (e) {
    throw new FileDamaged(keysPath === undefined ? cpPath : `${cpPath} with ${keysPath}`, 'the indexes they hold do not load', e);
  }
  // The keys file holds the keys as of the checkpoint (before the journal replays).
  return { index, seq: cp.seq, keysWritten: cp.keysFile === undefined ? undefined : { version: index.keysVersion, file: cp.keysFile } };
};

/** A checkpoint captured between two journal batches, to be written beside the commits that follow. */
export interface CheckpointPlan {
  readonly seq: number;
  readonly players: ReadonlyArray<readonly [number, PlayerState]>;
  /** The rings of kept answers changed since the last checkpoint, by scope. */
  readonly answers: ReadonlyArray<readonly [string, Ring]>;
  /** The keys file's content (written in pieces, sealed-pieces.ts); undefined when the keys did not change. */
  readonly keys: { readonly written: KeysWritten; readonly json: PieceValue | undefined };
  /** checkpoint.json's content, written the same way. */
  readonly checkpoint: PieceValue;
}

/** Captures the indexes as of journal record `seq`; the player keys are encoded only when they changed since `keysWritten`. */
export const planCheckpoint = (
  index: IndexModel, seq: number, keysWritten: KeysWritten | undefined, players: ReadonlyArray<readonly [number, PlayerState]>,
  answers: ReadonlyArray<readonly [string, Ring]> = [],
): CheckpointPlan => {
  // Copies taken now (a few milliseconds with 100,000 players), made into JSON as they are written.
  const frozen = index.frozen();
  const keys = keysWritten?.version === index.keysVersion
    ? { written: keysWritten, json: undefined }
    : { written: { version: index.keysVersion, file: `keys.${seq}.json` }, json: frozen.keys };
  return { seq, players, answers, keys, checkpoint: { seq, keysFile: keys.written.file, index: frozen.rest } };
};

/**
 * Writes a captured checkpoint: the snapshots, the keys file, checkpoint.json, and
 * then removes the rotated journals it covers and keys files no longer named. A
 * crash or failure before the end leaves the rotated journals, which the next start
 * replays (or the next checkpoint covers).
 */
export const writeCheckpoint = async (dir: string, plan: CheckpointPlan): Promise<void> => {
  const shards = new Set<number>();
  for (const [id] of plan.players) shards.add(id % SHARDS);
  await mapLimit([...shards], 16, (sh) => mkdir(join(dir, 'players', String(sh)), { recursive: true }).then(() => undefined));
  await mapLimit(plan.players, 16, ([id, st]) => writeAtomic(snapshotPath(dir, id), seal(canonicalJson(st))));
  await mapLimit([...shards], 16, (sh) => syncDir(join(dir, 'players', String(sh))));
  await writeAnswers(dir, plan.answers);
  if (plan.keys.json !== undefined) await writeSealedPieces(join(dir, plan.keys.written.file), plan.keys.json);
  await writeSealedPieces(join(dir, 'checkpoint.json'), plan.checkpoint);
  await syncDir(dir);
  for (const f of await rotatedJournals(dir)) if (f.seq <= plan.seq) await unlink(f.path);
  for (const f of await readdir(dir)) if (/^keys\.\d+\.json$/.test(f) && f !== plan.keys.written.file) await unlink(join(dir, f));
  await syncDir(dir);
};
