// oplog.jsonl, the JSON-file store's replay log: one JSON entry a line, only ever
// appended to, with its index by player (oplog.idx, oplog-index.ts). The writer is
// OplogFile (the store's); readOplog reads a data directory's log without opening
// anything for writing (a replay beside a running server). A file of this format is
// also each sealed segment of the log (oplog-segments.ts rotates oplog.jsonl into one).
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { writeWhole } from './durable.js';
import { endOf, OplogIndex, parseIndex, readIndexFile, sameIndexed, type IndexedEntry } from './oplog-index.js';
import type { LogEntry, StoredLogEntry } from './replay-log.js';
import { passesFilter, type LogFilter } from './storage.js';

/**
 * Parses oplog bytes (one JSON entry a line); `good` is the offset after the last
 * whole line (a torn tail is left out); `at` is where each entry is, from `base`
 * (the bytes' offset in the file).
 */
export const parseLog = (buf: Buffer, base = 0): { entries: StoredLogEntry[]; at: IndexedEntry[]; good: number } => {
  const entries: StoredLogEntry[] = [];
  const at: IndexedEntry[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const line = buf.subarray(pos, nl).toString('utf8');
    try {
      if (line.trim() !== '') {
        const e = JSON.parse(line) as StoredLogEntry;
        entries.push(e);
        at.push({ seq: e.seq ?? 0, offset: base + pos, length: nl + 1 - pos, players: e.playerIds });
      }
    } catch {
      break;
    }
    pos = nl + 1;
  }
  return { entries, at, good: pos };
};

/**
 * The oplog's entries that changed one of `players`, read through its index: the
 * lines the index names (a run of adjacent ones in one read), then the oplog past
 * what the index covers (the oplog is written first: an index may be behind, never
 * ahead). Null when the index does not fit the oplog (a line at an offset is not
 * the entry the index names): the caller reads the whole oplog instead.
 */
const readIndexed = async (
  oplog: FileHandle,
  size: number,
  index: ReadonlyArray<IndexedEntry>,
  players: ReadonlyArray<number>,
): Promise<StoredLogEntry[] | null> => {
  const last = index.at(-1);
  const end = last === undefined ? 0 : endOf(last);
  if (end > size) return null;
  const wanted = new Set(players);
  const hits = index.filter((x) => x.players.some((id) => wanted.has(id)));
  const out: StoredLogEntry[] = [];
  for (let i = 0; i < hits.length;) {
    let j = i + 1;
    while (j < hits.length && (hits[j] as IndexedEntry).offset === endOf(hits[j - 1] as IndexedEntry)) j++;
    const run = hits.slice(i, j);
    const from = (run[0] as IndexedEntry).offset;
    const buf = Buffer.alloc(endOf(run.at(-1) as IndexedEntry) - from);
    await oplog.read(buf, 0, buf.length, from);
    const got = parseLog(buf, from);
    // Each line is the entry the index names, where it names it (an edited oplog is read whole).
    // Then the lines cover the run's bytes exactly: a short read (the oplog cut) leaves zeros
    // at the end, no line feed, so a line missing, which this refuses.
    if (got.at.length !== run.length || !got.at.every((x, k) => sameIndexed(x, run[k] as IndexedEntry))) return null;
    out.push(...got.entries);
    i = j;
  }
  if (size > end) {
    const tail = Buffer.alloc(size - end);
    const { bytesRead } = await oplog.read(tail, 0, tail.length, end);
    // A line that does not start where the index ends: the index is not of this oplog.
    if (bytesRead > 0 && end > 0) {
      const before = Buffer.alloc(1);
      await oplog.read(before, 0, 1, end - 1);
      if (before[0] !== 0x0a) return null;
    }
    for (const e of parseLog(tail.subarray(0, bytesRead)).entries) if (passesFilter(e, { players })) out.push(e);
  }
  return out;
};

/** An oplog's entries, all or those the filter lets through, through its index where it fits. */
const readFiltered = async (
  fh: FileHandle,
  size: number,
  index: () => Promise<IndexedEntry[]>,
  filter: LogFilter | undefined,
): Promise<StoredLogEntry[]> => {
  const players = filter?.players;
  if (players !== undefined) {
    const got = await readIndexed(fh, size, await index(), players);
    if (got !== null) return got;
  }
  const buf = Buffer.alloc(size);
  if (size > 0) await fh.read(buf, 0, size, 0);
  const all = parseLog(buf).entries;
  return all.filter((e) => passesFilter(e, filter));
};

/**
 * An oplog file's first or last whole entry (undefined: it holds none), read from
 * that end in growing chunks: a segment's ends, not its gigabytes.
 */
export const endEntryOf = async (path: string, which: 'first' | 'last'): Promise<StoredLogEntry | undefined> => {
  const fh = await open(path, 'r');
  try {
    const size = (await fh.stat()).size;
    for (let chunk = 64 * 1024; ; chunk *= 4) {
      const len = Math.min(chunk, size);
      const from = which === 'first' ? 0 : size - len;
      const buf = Buffer.alloc(len);
      const { bytesRead } = await fh.read(buf, 0, len, from);
      const got = buf.subarray(0, bytesRead);
      if (which === 'first') {
        const nl = got.indexOf(0x0a);
        if (nl >= 0 || len === size) return parseLog(got.subarray(0, nl + 1)).entries[0];
      } else {
        // The last line feed ends the last whole line (a torn tail after it is no entry); the one before it starts it.
        const end = got.lastIndexOf(0x0a);
        const start = end < 0 ? -1 : got.lastIndexOf(0x0a, end - 1);
        if (start >= 0 || len === size)
          return end < 0 ? undefined : parseLog(got.subarray(start + 1, end + 1)).entries[0];
      }
    }
  } finally {
    await fh.close();
  }
};

/** The index file beside an oplog. */
export const indexPathOf = (oplogPath: string): string => oplogPath.replace(/(\.jsonl)?$/, '.idx');

/**
 * A data directory's log, read without opening anything for writing: whole lines
 * only (a writer's append in progress is left out), through the index for a filter.
 * None when there is no oplog.
 */
export const readOplog = async (oplogPath: string, filter?: LogFilter): Promise<StoredLogEntry[]> => {
  // The index first: read after it, the oplog is at least as long as what it covers.
  const indexBytes = filter?.players === undefined ? Buffer.alloc(0) : await readIndexFile(indexPathOf(oplogPath));
  let fh: FileHandle;
  try {
    fh = await open(oplogPath, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  try {
    return await readFiltered(fh, (await fh.stat()).size, async () => parseIndex(indexBytes).entries, filter);
  } finally {
    await fh.close();
  }
};

/**
 * oplog.jsonl: appended after the journal record that holds the same entries is
 * fsynced, so an append need not be synced (a crash loses only lines the journal
 * still has, which the next open appends again); a checkpoint syncs it before it
 * lets the journal go. A failed append is cut back and retried with the next.
 * Its index (oplog.idx) is appended after it, and checked or rebuilt on open.
 */
export class OplogFile {
  /** Entries in the journal but not yet written here (a failed append is retried). */
  private backlog: StoredLogEntry[] = [];

  private constructor(
    private readonly fh: FileHandle,
    private readonly index: OplogIndex,
    private size: number,
    private lastSeq: number,
    private firstEntry: StoredLogEntry | undefined,
  ) {}

  /**
   * Opens (creating) the file; a torn last line, never acknowledged as a line, is cut off; the index is made to fit.
   * `after`: the seq of the last entry before this file (the sealed segments'), its seq while it holds none.
   */
  static async open(path: string, after = 0): Promise<OplogFile> {
    const created = await open(path, 'a');
    await created.close();
    const fh = await open(path, 'r+');
    const bytes = await readFile(path);
    const parsed = parseLog(bytes);
    if (parsed.good < bytes.length) {
      // A torn oplog line: its entry is still in the journal and is appended again (catchUp).
      await fh.truncate(parsed.good);
      await fh.datasync();
    }
    const index = await OplogIndex.open(indexPathOf(path), parsed.at);
    return new OplogFile(fh, index, parsed.good, Math.max(after, parsed.entries.at(-1)?.seq ?? 0), parsed.entries[0]);
  }

  /** The seq of the last entry given to this file. */
  get seq(): number {
    return this.lastSeq;
  }

  /** The first entry given to this file (undefined: none yet): where it starts, and since when (rotation by age). */
  get first(): StoredLogEntry | undefined {
    return this.firstEntry;
  }

  /** The file's bytes on disk and its index's. */
  get bytes(): number {
    return this.size + this.index.bytes;
  }

  /** Entries of a replayed journal that the file lacks (a crash before their append): appended and synced. */
  async catchUp(fromJournal: ReadonlyArray<StoredLogEntry>): Promise<void> {
    for (const e of fromJournal)
      if ((e.seq ?? 0) > this.lastSeq) {
        this.backlog.push(e);
        this.lastSeq = e.seq ?? this.lastSeq;
      }
    this.firstEntry ??= this.backlog[0];
    if (this.backlog.length > 0) {
      await this.flush();
      await this.fh.datasync();
    }
  }

  /** Takes entries a journal write made durable and appends them; an append that fails is kept for the next. */
  async add(entries: ReadonlyArray<LogEntry>): Promise<void> {
    this.backlog.push(...entries);
    this.firstEntry ??= this.backlog[0];
    const last = entries.at(-1)?.seq;
    if (last !== undefined) this.lastSeq = last;
    await this.flush();
  }

  /** Appends the backlog, then its index lines (neither synced: the journal keeps the entries until a checkpoint syncs this file). */
  async flush(): Promise<void> {
    if (this.backlog.length === 0) return;
    const lines = this.backlog.map((e) => `${JSON.stringify(e)}\n`);
    const buf = Buffer.from(lines.join(''), 'utf8');
    try {
      await writeWhole(this.fh, buf, this.size, 'oplog');
    } catch (e) {
      try {
        await this.fh.truncate(this.size);
      } catch {
        /* the next append overwrites from size */
      }
      throw e;
    }
    let offset = this.size;
    const at = this.backlog.map((e, i): IndexedEntry => {
      const length = Buffer.byteLength(lines[i] as string);
      offset += length;
      return { seq: e.seq ?? 0, offset: offset - length, length, players: e.playerIds };
    });
    this.size += buf.length;
    this.backlog = [];
    // The oplog holds the entries now; an index write that fails is retried with the next (reads check the index).
    await this.index.add(at);
  }

  /** Makes the file whole on disk: what a checkpoint does before it lets the journal go. */
  async sync(): Promise<void> {
    await this.flush();
    await this.fh.datasync();
    await this.index.sync();
  }

  /** The log: the file's entries and any not appended yet, all or those the filter lets through (by the index). */
  async read(filter?: LogFilter): Promise<StoredLogEntry[]> {
    return [
      ...(await readFiltered(this.fh, this.size, () => this.index.entries(), filter)),
      ...this.backlog.filter((e) => passesFilter(e, filter)),
    ];
  }

  async close(): Promise<void> {
    await this.fh.close();
    await this.index.close();
  }
}
