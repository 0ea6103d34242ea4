// A deleted player's entries purged from the JSON-file store's replay log (docs/privacy.md):
// each entry the player made is written again with its personal fields emptied
// (erase.ts scrubEntry), in place of its line and padded with spaces to the line's
// length, so every entry keeps its offset and length and the segment's index stays
// true. A sealed segment is written whole beside itself (temp file, fsync, rename: a
// crash leaves the old one or the new one) and so is an archive, decompressed and
// compressed again. The live segment is never written here: the checkpoint that purges
// seals it first (oplog-segments.ts erase).
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { readOrNone, syncDir } from './durable.js';
import { needsScrub, scrubEntry } from './erase.js';
import { parseIndex, readIndexFile } from './oplog-index.js';
import { indexPathOf } from './oplog.js';
import type { StoredLogEntry } from './replay-log.js';
import { StorageError } from './storage.js';

/** The lines of oplog bytes whose text names one of `ids` as a player (`"playerId":7,`): their starts and ends. */
const linesNaming = (buf: Buffer, ids: ReadonlySet<number>): Array<[number, number]> => {
  const lines = new Map<number, number>();
  for (const needle of [...ids].flatMap((id) =>
    [`"playerId":${id},`, `"playerId":${id}}`].map((n) => Buffer.from(n)),
  )) {
    for (let at = buf.indexOf(needle); at >= 0; at = buf.indexOf(needle, at + needle.length)) {
      const end = buf.indexOf(0x0a, at);
      // A torn last line (no line feed) is no entry.
      if (end >= 0) lines.set(buf.lastIndexOf(0x0a, at) + 1, end);
    }
  }
  return [...lines].sort((a, b) => a[0] - b[0]);
};

/**
 * Oplog bytes with each line of an entry to scrub written again at its place, padded
 * to its length; undefined when no line changes. Only the lines whose text names one
 * of the players are parsed (the bytes are searched, not decoded).
 */
export const scrubLines = (buf: Buffer, ids: ReadonlySet<number>): Buffer | undefined => {
  let out: Buffer | undefined;
  for (const [start, end] of linesNaming(buf, ids)) {
    let e: StoredLogEntry | undefined;
    try {
      e = JSON.parse(buf.toString('utf8', start, end)) as StoredLogEntry;
    } catch {
      e = undefined;
    }
    if (e === undefined || !needsScrub(e, ids)) continue;
    const next = Buffer.from(JSON.stringify(scrubEntry(e, ids)), 'utf8');
    // Never longer: it only empties strings and drops fields.
    if (next.length > end - start) throw new StorageError(`entry ${e.seq ?? '?'} grew when scrubbed`);
    out ??= Buffer.from(buf);
    next.copy(out, start);
    out.fill(0x20, start + next.length, end);
  }
  return out;
};

// zlib's own threads: an archive of a 64 MiB segment is seconds of work the event loop does not wait on.
const gunzipped = promisify(gunzip);
const gzipped = promisify(gzip);

/** Writes a file whole beside the one it replaces (temp file, fsync, rename, the directory fsynced). */
const replaceWhole = async (path: string, bytes: Buffer): Promise<void> => {
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(bytes);
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
  await syncDir(dirname(path));
};

/** Whether a segment's index names one of `ids` among the players an entry changed (no index: it may). */
const indexNames = async (segment: string, ids: ReadonlySet<number>): Promise<boolean> => {
  const idx = await readIndexFile(indexPathOf(segment));
  if (idx.length === 0) return true;
  return parseIndex(idx).entries.some((x) => x.players.some((p) => ids.has(p)));
};

/** Scrubs a sealed segment's entries of `ids` (read whole when its index names one): whether it was written. */
export const eraseSegment = async (path: string, ids: ReadonlySet<number>): Promise<boolean> => {
  if (!(await indexNames(path, ids))) return false;
  const bytes = await readOrNone(path);
  const out = bytes === undefined ? undefined : scrubLines(bytes, ids);
  if (out === undefined) return false;
  await replaceWhole(path, out);
  return true;
};

/** Scrubs an archived segment's entries of `ids` (decompressed whole): whether it was written. */
export const eraseArchive = async (path: string, ids: ReadonlySet<number>): Promise<boolean> => {
  const gz = await readOrNone(path);
  if (gz === undefined) return false;
  let plain: Buffer;
  try {
    plain = await gunzipped(gz);
  } catch (e) {
    throw new StorageError(`${path} does not decompress: ${(e as Error).message}`, e);
  }
  const out = scrubLines(plain, ids);
  if (out === undefined) return false;
  await replaceWhole(path, await gzipped(out));
  return true;
};
