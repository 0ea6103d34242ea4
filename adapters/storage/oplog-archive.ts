// Replay-log retention on the JSON-file store (REPLAY_LOG_RETENTION_DAYS): sealed
// segments whose newest entry is older than the cutoff leave the kept log, oldest
// first, for DATA_DIR/oplog-archive/<firstSeq>-<lastSeq>.jsonl.gz. Archived rather
// than deleted: the log is the operator's evidence in a dispute about a player's
// history, deleting it cannot be undone, and a gzipped segment is several times
// smaller than the segment; the server never reads an archive, so the operator moves
// it to cheaper storage or deletes it as they see fit (docs/replay.md), and
// `npm run replay -- --archive` reads it.
//
// The cost of a run is that of the segments it moves (streamed through zlib, which
// works beside the event loop), never the whole log's. A crash at any point loses
// nothing: the archive is written whole (temp file, fsync, rename, the directory
// fsynced) before the segment's index and then the segment are removed. A crash
// before the removals leaves the segment kept, and the next run archives it again
// over the same name; a crash between them leaves a segment without its index, read
// whole until it is archived.
import { createGunzip, createGzip } from 'node:zlib';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { listOrNone, syncDir, writeWhole } from './durable.js';
import { endEntryOf, indexPathOf, parseLog } from './oplog.js';
import type { StoredLogEntry } from './replay-log.js';
import { passesFilter, StorageError, type LogFilter } from './storage.js';

export const ARCHIVE_DIR = 'oplog-archive';

const pad = (n: number): string => String(n).padStart(12, '0');

/** An archived segment's file name: its first and last entries' seqs. */
export const archiveName = (first: number, last: number): string => `${pad(first)}-${pad(last)}.jsonl.gz`;

/** An archived segment: its file and the seqs it holds. */
export interface Archived {
  readonly first: number;
  readonly last: number;
  readonly path: string;
}

/** The archived segments of a data directory, oldest first (none when it has no archive). */
export const listArchives = async (dir: string): Promise<Archived[]> => {
  return (await listOrNone(join(dir, ARCHIVE_DIR)))
    .flatMap((n) => {
      const m = /^(\d+)-(\d+)\.jsonl\.gz$/.exec(n);
      return m ? [{ first: Number(m[1]), last: Number(m[2]), path: join(dir, ARCHIVE_DIR, n) }] : [];
    })
    .sort((a, b) => a.first - b.first);
};

/** What one segment's archiving moved. */
/** A sealed segment of the replay log (oplog-segments.ts lists them; it imports this module). */
interface Segment {
  readonly first: number;
  readonly path: string;
}

export interface ArchivedSegment {
  readonly first: number;
  readonly last: number;
  /** The segment's bytes (with its index) that left the kept log. */
  readonly bytes: number;
  /** The archive written, and its size. */
  readonly archive: string;
  readonly archiveBytes: number;
}

/**
 * Whether a sealed segment is past the retention: its newest (last) entry is older
 * than `cutoff`; its last entry, or undefined when it is not (or holds none).
 */
export const pastRetention = async (segment: Segment, cutoff: number): Promise<StoredLogEntry | undefined> => {
  const last = await endEntryOf(segment.path, 'last');
  return last !== undefined && last.seq !== undefined && last.at < cutoff ? last : undefined;
};

/** Writes a sealed segment's archive and then removes the segment (`last`: its last entry's seq). */
export const archiveSegment = async (
  dir: string,
  segment: Segment & { readonly bytes: number },
  last: number,
): Promise<ArchivedSegment> => {
  const archiveDir = join(dir, ARCHIVE_DIR);
  await mkdir(archiveDir, { recursive: true });
  const path = join(archiveDir, archiveName(segment.first, last));
  const tmp = `${path}.tmp`;
  const src = await open(segment.path, 'r');
  let archiveBytes = 0;
  try {
    const out = await open(tmp, 'w');
    // The write's own error (a full disk), not the abort it makes of the streams before it.
    let failed: unknown;
    try {
      await pipeline(src.createReadStream({ autoClose: false }), createGzip(), async (gz: AsyncIterable<Buffer>) => {
        try {
          for await (const chunk of gz) {
            await writeWhole(out, chunk, archiveBytes, 'oplog archive');
            archiveBytes += chunk.length;
          }
        } catch (e) {
          failed = e;
          throw e;
        }
      }).catch((e: unknown) => {
        throw failed ?? e;
      });
      await out.datasync();
    } finally {
      await out.close();
    }
  } catch (e) {
    // The segment is untouched; the partial archive goes (the next run writes it again).
    await unlink(tmp).catch(() => undefined);
    throw e;
  } finally {
    await src.close();
  }
  await rename(tmp, path);
  await syncDir(archiveDir);
  await unlink(indexPathOf(segment.path)).catch((e: NodeJS.ErrnoException) => {
    if (e.code !== 'ENOENT') throw e;
  });
  await unlink(segment.path);
  await syncDir(dirname(segment.path));
  return { first: segment.first, last, bytes: segment.bytes, archive: path, archiveBytes };
};

/**
 * The archived entries, all or those the filter lets through, in seq order: every
 * archive read whole (decompressed one at a time). For `npm run replay -- --archive`.
 */
export const readArchives = async (dir: string, filter?: LogFilter): Promise<StoredLogEntry[]> => {
  const out: StoredLogEntry[] = [];
  for (const a of await listArchives(dir)) {
    const fh = await open(a.path, 'r');
    const chunks: Buffer[] = [];
    try {
      await pipeline(
        fh.createReadStream({ autoClose: false }),
        createGunzip(),
        async (plain: AsyncIterable<Buffer>) => {
          for await (const c of plain) chunks.push(c);
        },
      );
    } catch (e) {
      throw new StorageError(`${a.path} does not decompress: ${(e as Error).message}`, e);
    } finally {
      await fh.close();
    }
    for (const e of parseLog(Buffer.concat(chunks)).entries) if (passesFilter(e, filter)) out.push(e);
  }
  return out;
};
