// The JSON-file store's replay log as segments (issue 36, "Sustained load"): a day
// of a live game's traffic writes gigabytes of it, so it is not one file for ever.
//
//   DATA_DIR/oplog.jsonl, oplog.idx     the live segment, appended to (oplog.ts)
//   DATA_DIR/oplog/<firstSeq>.jsonl     sealed segments, each with its .idx, named by
//                                       their first entry's seq (12 digits, zero-padded)
//   DATA_DIR/oplog-archive/<first>-<last>.jsonl.gz   segments past the retention (oplog-archive.ts)
//
// At a checkpoint, once the live segment holds `segmentBytes` or its first entry is
// `segmentAgeMs` old, it is renamed into oplog/ (and its index beside it) and a new
// live segment begins: the cost is two renames, whatever the log's size. The kept
// log is always a run of whole segments ending with the live one; retention takes
// segments off its front only. A directory written before segments (oplog.jsonl
// alone) is a log whose live segment holds everything: it opens and reads as before.
//
// Crash safety of a rotation: oplog.jsonl is renamed first (the commit point), then
// its index; a crash between leaves a sealed segment without its index (rebuilt at
// the next open) and an index without its oplog (which the new live segment's open
// finds does not fit, and rewrites). The live segment was synced before it is
// renamed, and a segment is never renamed over an existing one.
import { mkdir, readFile, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { listOrNone, syncDir } from './durable.js';
import { OplogIndex } from './oplog-index.js';
import { endEntryOf, indexPathOf, OplogFile, parseLog, readOplog } from './oplog.js';
import type { LogEntry, StoredLogEntry } from './replay-log.js';
import { StorageError, type LogFilter } from './storage.js';
import { ARCHIVE_DIR, archiveSegment, listArchives, pastRetention, type ArchivedSegment } from './oplog-archive.js';
import { eraseArchive, eraseSegment } from './oplog-erase.js';
import { needsScrub } from './erase.js';

type Log = (event: string, data: Record<string, unknown>) => void;

export const LIVE_FILE = 'oplog.jsonl';
export const SEGMENT_DIR = 'oplog';

/** A sealed segment's file name: its first entry's seq, zero-padded so a listing sorts as the log does. */
export const segmentName = (firstSeq: number): string => `${String(firstSeq).padStart(12, '0')}.jsonl`;

/** A sealed segment: its file and its first entry's seq. */
export interface Segment {
  readonly first: number;
  readonly path: string;
}

/** The sealed segments of a data directory, oldest first (none: a directory of one oplog.jsonl). */
export const listSegments = async (dir: string): Promise<Segment[]> => {
  return (await listOrNone(join(dir, SEGMENT_DIR)))
    .flatMap((n) => {
      const m = /^(\d+)\.jsonl$/.exec(n);
      return m ? [{ first: Number(m[1]), path: join(dir, SEGMENT_DIR, n) }] : [];
    })
    .sort((a, b) => a.first - b.first);
};

/**
 * A data directory's kept log, read without opening anything for writing (a replay
 * beside a running server): each sealed segment and the live one, through their
 * indexes for a filter, in seq order. A rotation while it reads is caught by listing
 * the segments again after: a segment sealed meanwhile is read too (an entry read
 * twice, in the live segment and then in the segment it became, is kept once). A
 * segment archived meanwhile reads as none (it was before the rest).
 */
export const readSegments = async (dir: string, filter?: LogFilter): Promise<StoredLogEntry[]> => {
  const before = await listSegments(dir);
  const live = await readOplog(join(dir, LIVE_FILE), filter);
  const parts: StoredLogEntry[][] = [];
  for (const s of before) parts.push(await readOplog(s.path, filter));
  const after = await listSegments(dir);
  const read = new Set(before.map((s) => s.first));
  for (const s of after) if (!read.has(s.first)) parts.push(await readOplog(s.path, filter));
  // A directory of one oplog.jsonl reads as it always has (line for line).
  if (parts.length === 0) return live;
  parts.push(live);
  const bySeq = new Map<number, StoredLogEntry>();
  for (const part of parts) for (const e of part) bySeq.set(e.seq ?? 0, e);
  return [...bySeq.values()].sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
};

/** An oplog file's first entry's seq (undefined: no such file, or no whole entry). */
const firstSeqOf = async (path: string): Promise<number | undefined> => {
  try {
    return (await endEntryOf(path, 'first'))?.seq;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
};

/**
 * The first entry's seq of a data directory's kept log (undefined: it keeps none).
 * The segments are listed after the live one is read: one it became meanwhile is seen.
 */
export const keptFromAt = async (dir: string): Promise<number | undefined> => {
  const live = await firstSeqOf(join(dir, LIVE_FILE));
  return (await listSegments(dir))[0]?.first ?? live;
};

/** When the live segment is sealed: at this size, or once its first entry is this old (ms; 0: never by age). */
export interface RotateWhen {
  readonly bytes: number;
  readonly ageMs: number;
}

/**
 * The store's replay log: the sealed segments (read only) and the live segment
 * (OplogFile, written). Reads take the segments as they are when they start; a
 * live segment sealed under a read is closed once that read is done.
 */
export class OplogSegments {
  /** Reads in flight of each live segment (one rotated away is closed when its last read ends). */
  private readonly reading = new Map<OplogFile, number>();
  private readonly retired = new Set<OplogFile>();
  /** The live file was renamed into oplog/ but no new live file could be opened yet: the next rotation opens it. */
  private moved = false;
  /** The archiving run in progress (one at a time), and whether the store is closing (no new run, the current one stops). */
  private archiving: Promise<ArchivedSegment[]> | null = null;
  private closing = false;

  private constructor(
    private readonly dir: string,
    private live: OplogFile,
    private sealed: Array<Segment & { bytes: number }>,
    private readonly log: Log | undefined,
  ) {}

  static async open(dir: string, log?: Log): Promise<OplogSegments> {
    const segments = await listSegments(dir);
    const sealed: Array<Segment & { bytes: number }> = [];
    for (const s of segments) {
      const idx = indexPathOf(s.path);
      let idxBytes = (await stat(idx).catch(() => undefined))?.size;
      // The newest segment lacks its index after a crash mid-rotation: rebuilt from it, as the live one's would be.
      // (The oldest may after a crash mid-archive: read whole until the next run archives it.)
      if (idxBytes === undefined && s === segments.at(-1)) {
        const made = await OplogIndex.open(idx, parseLog(await readFile(s.path)).at);
        idxBytes = made.bytes;
        await made.close();
        await syncDir(join(dir, SEGMENT_DIR));
      }
      sealed.push({ ...s, bytes: (await stat(s.path)).size + (idxBytes ?? 0) });
    }
    const newest = segments.at(-1);
    const after = newest === undefined ? 0 : ((await endEntryOf(newest.path, 'last'))?.seq ?? newest.first - 1);
    return new OplogSegments(dir, await OplogFile.open(join(dir, LIVE_FILE), after), sealed, log);
  }

  /** The seq of the last entry given to the log. */
  get seq(): number {
    return this.live.seq;
  }

  /** The first entry's seq of the kept log (undefined: none kept). */
  get keptFrom(): number | undefined {
    return this.sealed[0]?.first ?? this.live.first?.seq;
  }

  /** Bytes of the kept log: its segments and their indexes, on disk. */
  get bytes(): number {
    return this.sealed.reduce((n, s) => n + s.bytes, this.live.bytes);
  }

  /** Entries in the kept log (the store numbers them 1, 2, … with no gap). */
  get entries(): number {
    const from = this.keptFrom;
    return from === undefined ? 0 : this.seq - from + 1;
  }

  catchUp(fromJournal: ReadonlyArray<StoredLogEntry>): Promise<void> {
    return this.live.catchUp(fromJournal);
  }
  add(entries: ReadonlyArray<LogEntry>): Promise<void> {
    return this.live.add(entries);
  }
  flush(): Promise<void> {
    return this.live.flush();
  }
  sync(): Promise<void> {
    return this.live.sync();
  }

  /** The kept log, all or those the filter lets through: the sealed segments, then the live one. */
  async read(filter?: LogFilter): Promise<StoredLogEntry[]> {
    const sealed = [...this.sealed];
    const live = this.live;
    this.reading.set(live, (this.reading.get(live) ?? 0) + 1);
    try {
      const out: StoredLogEntry[] = [];
      // A segment archived since the read began reads as none: it was the oldest.
      for (const s of sealed) out.push(...(await readOplog(s.path, filter)));
      out.push(...(await live.read(filter)));
      return out;
    } finally {
      const n = (this.reading.get(live) ?? 1) - 1;
      if (n > 0) this.reading.set(live, n);
      else {
        this.reading.delete(live);
        if (this.retired.delete(live)) await live.close();
      }
    }
  }

  /**
   * Seals the live segment when it is due (the writer's turn, between batches: nothing
   * is appended meanwhile) and begins a new one. Returns the segment sealed, if any.
   * A failure is logged (oplog.rotate_failed) and the live segment goes on: nothing of
   * the log is lost, the checkpoint is not held back, and the next checkpoint tries again.
   */
  async rotate(now: number, when: RotateWhen): Promise<Segment | undefined> {
    const first = this.live.first;
    if (first?.seq === undefined) return undefined;
    const due = this.moved || this.live.bytes >= when.bytes || (when.ageMs > 0 && now - first.at >= when.ageMs);
    if (!due) return undefined;
    try {
      return await this.seal(first.seq);
    } catch (e) {
      this.log?.('oplog.rotate_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) });
      return undefined;
    }
  }

  private async seal(firstSeq: number): Promise<Segment> {
    const segDir = join(this.dir, SEGMENT_DIR);
    const target = join(segDir, segmentName(firstSeq));
    if (!this.moved) {
      await this.live.sync();
      await mkdir(segDir, { recursive: true });
      if (
        await stat(target).then(
          () => true,
          () => false,
        )
      )
        throw new StorageError(`${target} exists already: the live oplog is not renamed over it`);
      await rename(join(this.dir, LIVE_FILE), target);
      this.moved = true;
      // Derived data: a segment without its index is read whole, and the next open rebuilds it.
      await rename(indexPathOf(join(this.dir, LIVE_FILE)), indexPathOf(target)).catch(() => undefined);
      await syncDir(segDir);
      await syncDir(this.dir);
    }
    // Until this opens, the renamed file stays the live one (its handles write to it: on disk it is the newest segment).
    const next = await OplogFile.open(join(this.dir, LIVE_FILE), this.live.seq);
    const old = this.live;
    this.sealed.push({ first: firstSeq, path: target, bytes: old.bytes });
    this.live = next;
    this.moved = false;
    if (this.reading.has(old)) this.retired.add(old);
    else await old.close();
    this.log?.('oplog.rotated', { segment: target, firstSeq, lastSeq: old.seq, bytes: old.bytes });
    return { first: firstSeq, path: target };
  }

  /**
   * Purges the entries of deleted players from the sealed segments and the archives
   * (oplog-erase.ts), between archiving runs (a segment is never archived while it is
   * written again, nor written again once archived). The live segment must hold none:
   * the checkpoint sealed it first; one that still does (its sealing failed) fails the
   * purge, which the next checkpoint tries again. Answers the files written.
   */
  async erase(ids: ReadonlySet<number>): Promise<string[]> {
    while (this.archiving !== null) await this.archiving.catch(() => undefined);
    const run = (async () => {
      const live = await this.live.read({ players: [...ids] });
      if (live.some((e) => needsScrub(e, ids)))
        throw new StorageError("the live oplog holds a deleted player's entries: it was not sealed");
      const written: string[] = [];
      for (const s of [...this.sealed]) if (await eraseSegment(s.path, ids)) written.push(s.path);
      for (const a of await listArchives(this.dir)) if (await eraseArchive(a.path, ids)) written.push(a.path);
      return written;
    })();
    this.archiving = run.then(
      () => [],
      () => [],
    );
    try {
      return await run;
    } finally {
      this.archiving = null;
    }
  }

  /**
   * Starts archiving the segments past the retention unless a run is on (a
   * checkpoint's background part calls it and does not wait: a long run never holds
   * the next checkpoint back). A failure is logged (oplog.archive_failed).
   */
  retain(cutoff: number): void {
    if (this.archiving === null && !this.closing) this.archive(cutoff).catch(() => undefined);
  }

  /**
   * Archives the sealed segments whose newest entry is older than `cutoff`, oldest
   * first, stopping at the first one that is not (the kept log stays a run of whole
   * segments) or after `max` (a run's work is bounded; the next checkpoint's goes
   * on). Waits for a run in progress first. Logs oplog.archived with what it moved.
   */
  async archive(cutoff: number, max = 8): Promise<ArchivedSegment[]> {
    while (this.archiving !== null) await this.archiving.catch(() => undefined);
    const run = this.archiveRun(cutoff, max);
    this.archiving = run;
    try {
      return await run;
    } finally {
      this.archiving = null;
    }
  }

  private async archiveRun(cutoff: number, max: number): Promise<ArchivedSegment[]> {
    const moved: ArchivedSegment[] = [];
    try {
      while (moved.length < max && !this.closing) {
        const oldest = this.sealed[0];
        if (oldest === undefined) break;
        const last = await pastRetention(oldest, cutoff);
        if (last?.seq === undefined) break;
        moved.push(await archiveSegment(this.dir, oldest, last.seq));
        this.sealed.shift();
      }
    } catch (e) {
      this.log?.('oplog.archive_failed', {
        error: (e as NodeJS.ErrnoException).code ?? String(e),
        segment: this.sealed[0]?.path,
        archived: moved.length,
      });
      throw e;
    } finally {
      const first = moved[0];
      const last = moved.at(-1);
      if (first !== undefined && last !== undefined) {
        this.log?.('oplog.archived', {
          segments: moved.length,
          firstSeq: first.first,
          lastSeq: last.last,
          bytes: moved.reduce((n, m) => n + m.bytes, 0),
          archiveBytes: moved.reduce((n, m) => n + m.archiveBytes, 0),
          to: join(this.dir, ARCHIVE_DIR),
          keptFrom: this.keptFrom ?? null,
        });
      }
    }
    return moved;
  }

  async close(): Promise<void> {
    // An archiving run stops after the segment it is moving.
    this.closing = true;
    while (this.archiving !== null) await this.archiving.catch(() => undefined);
    for (const f of this.retired) await f.close();
    this.retired.clear();
    await this.live.close();
  }
}
