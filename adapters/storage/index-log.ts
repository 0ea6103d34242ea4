// The player keys (uuid, friend code, move code → player) and the sessions on disk
// (issue 36: every checkpoint rewrote them all, ~20 MB with 100,000 players).
// index.<seq>.log is a line a checkpoint, each framed as a journal record is (CRC,
// space, JSON, line feed): its first line holds them all (`full`), and each later
// checkpoint appends only what changed since the one before (a key or session to
// null: removed). checkpoint.json names the log and how many of its bytes it
// covers; bytes past that (a checkpoint that died before checkpoint.json) are not
// read, and the next line is written over them. Once the log has grown past twice
// its full line (and 4 MiB), a checkpoint starts a new one with a full line: a
// checkpoint costs what changed, and now and then, in pieces, everything.
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Session } from './storage.js';
import { writeWhole } from './durable.js';
import { FileDamaged, seal, unsealText } from './sealed.js';
import { writeSealedPieces, type PieceValue } from './sealed-pieces.js';
import { StorageError } from './storage.js';

export const INDEX_LOG = /^index\.\d+\.log$/;

/** A line: every key and session (full), or those that changed (null: removed). */
export interface IndexLine {
  readonly full: boolean;
  readonly maxPlayerId: number;
  readonly uuid: ReadonlyArray<readonly [string, number | null]>;
  readonly myCode: ReadonlyArray<readonly [string, number | null]>;
  readonly moveCode: ReadonlyArray<readonly [string, number | null]>;
  readonly sessions: ReadonlyArray<readonly [string, Session | null]>;
}

/** The log checkpoint.json names: its file, the bytes it covers, and its full line's bytes (when to start anew). */
export interface IndexLogState {
  readonly file: string;
  readonly bytes: number;
  readonly fullBytes: number;
}

/** Whether the next checkpoint starts a new log with a full line. */
export const startsAnew = (log: IndexLogState | undefined): boolean =>
  log === undefined || log.bytes > Math.max(4 * 1024 * 1024, 2 * log.fullBytes);

/** Writes a new log holding one full line (made in pieces); answers its state. */
export const writeFullLog = async (dir: string, seq: number, line: PieceValue): Promise<IndexLogState> => {
  const file = `index.${seq}.log`;
  const bytes = await writeSealedPieces(join(dir, file), line);
  return { file, bytes, fullBytes: bytes };
};

/** Appends a line of changes where the covered bytes end (over anything past them), and syncs it; answers the log's new state. */
export const appendLine = async (dir: string, log: IndexLogState, line: IndexLine): Promise<IndexLogState> => {
  const buf = Buffer.from(seal(JSON.stringify(line)), 'utf8');
  const fh = await open(join(dir, log.file), 'r+');
  try {
    await writeWhole(fh, buf, log.bytes, 'index log');
    await fh.truncate(log.bytes + buf.length);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  return { ...log, bytes: log.bytes + buf.length };
};

const isLine = (x: unknown): x is IndexLine => {
  if (typeof x !== 'object' || x === null) return false;
  const l = x as Record<string, unknown>;
  return (
    typeof l['full'] === 'boolean' &&
    Number.isSafeInteger(l['maxPlayerId']) &&
    ['uuid', 'myCode', 'moveCode', 'sessions'].every((k) => Array.isArray(l[k]))
  );
};

/** The lines of a log checkpoint.json names, up to the bytes it covers. Throws FileDamaged naming the file. */
export const readIndexLog = async (dir: string, file: string, bytes: number): Promise<IndexLine[]> => {
  const path = join(dir, file);
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT')
      throw new FileDamaged(path, 'it is missing (checkpoint.json names it)', e);
    throw new StorageError(`cannot read ${path}`, e);
  }
  if (buf.length < bytes) throw new FileDamaged(path, `it holds ${buf.length} bytes, checkpoint.json covers ${bytes}`);
  const lines: IndexLine[] = [];
  for (let pos = 0; pos < bytes;) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0 || nl >= bytes) throw new FileDamaged(path, `its line at byte ${pos} is cut short`);
    const { json } = unsealText(buf.subarray(pos, nl + 1), path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (e) {
      throw new FileDamaged(path, `its line at byte ${pos} does not parse`, e);
    }
    if (!isLine(parsed) || (lines.length === 0) !== parsed.full)
      throw new FileDamaged(path, `its line at byte ${pos} is not an index line`);
    lines.push(parsed);
    pos = nl + 1;
  }
  return lines;
};
