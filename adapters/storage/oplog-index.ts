// oplog.idx: where each entry of oplog.jsonl is and which players it changed, so a
// read of one player's entries reads that player's lines and no others (a replay
// of one player among many; issue 20). One line an oplog entry, in the same order:
//
//   <seq> <offset> <length> <playerId>[,<playerId>...]\n
//
// (offset and length in bytes of oplog.jsonl, the length with its line feed). It is
// derived data: appended after the oplog's lines, never synced on its own, checked
// against the oplog when the store opens and rebuilt from it when it is missing,
// behind, torn or does not match. A reader that finds a line at an offset that is
// not the entry the index names reads the whole oplog instead (oplog.ts), so the
// index makes a read faster, never wrong.
import { open, type FileHandle } from 'node:fs/promises';
import { readOrNone, writeAtomic, writeWhole } from './durable.js';

/** Where one oplog entry is, and the players it changed. */
export interface IndexedEntry {
  readonly seq: number;
  readonly offset: number;
  readonly length: number;
  readonly players: ReadonlyArray<number>;
}

const lineOf = (x: IndexedEntry): string => `${x.seq} ${x.offset} ${x.length} ${x.players.join(',')}\n`;

const LINE = /^(\d+) (\d+) (\d+) (\d+(?:,\d+)*)?$/;

/** The byte after an entry's line in the oplog. */
export const endOf = (x: IndexedEntry): number => x.offset + x.length;

/**
 * The index's lines, as long as each is whole, well formed and after the one
 * before (offsets and seqs rising); `good` is the byte after the last such line
 * (a torn or wrong tail is left out).
 */
export const parseIndex = (buf: Buffer): { entries: IndexedEntry[]; good: number } => {
  const entries: IndexedEntry[] = [];
  let pos = 0;
  let end = 0;
  let seq = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const m = LINE.exec(buf.subarray(pos, nl).toString('latin1'));
    if (!m) break;
    const x: IndexedEntry = {
      seq: Number(m[1]),
      offset: Number(m[2]),
      length: Number(m[3]),
      players: m[4] === undefined ? [] : m[4].split(',').map(Number),
    };
    if (x.offset < end || x.length < 2 || x.seq <= seq) break;
    entries.push(x);
    end = endOf(x);
    seq = x.seq;
    pos = nl + 1;
  }
  return { entries, good: pos };
};

/** Whether two index entries name the same line (seq, place and players). */
export const sameIndexed = (a: IndexedEntry, b: IndexedEntry): boolean =>
  a.seq === b.seq &&
  a.offset === b.offset &&
  a.length === b.length &&
  a.players.length === b.players.length &&
  a.players.every((id, i) => b.players[i] === id);

/** An index file's bytes (none when it is missing). */
export const readIndexFile = async (path: string): Promise<Buffer> => (await readOrNone(path)) ?? Buffer.alloc(0);

/** The writer's oplog.idx, kept in step with oplog.jsonl by OplogFile. */
export class OplogIndex {
  /** Lines not written yet (a failed write is retried with the next). */
  private pending: IndexedEntry[] = [];

  private constructor(
    private readonly fh: FileHandle,
    private size: number,
  ) {}

  /**
   * Opens the index of an oplog whose entries are `oplog` (as its open read them):
   * the index is kept when its lines are the oplog's first entries (a torn tail cut
   * off, the entries it lacks appended), and rewritten whole from the oplog when it
   * is missing or any line does not match.
   */
  static async open(path: string, oplog: ReadonlyArray<IndexedEntry>): Promise<OplogIndex> {
    const bytes = await readIndexFile(path);
    const { entries, good } = parseIndex(bytes);
    const fits = entries.length <= oplog.length && entries.every((x, i) => sameIndexed(x, oplog[i] as IndexedEntry));
    let size = good;
    if (!fits) {
      const rebuilt = oplog.map(lineOf).join('');
      await writeAtomic(path, rebuilt);
      size = Buffer.byteLength(rebuilt);
    }
    const created = await open(path, 'a');
    await created.close();
    const fh = await open(path, 'r+');
    const index = new OplogIndex(fh, size);
    if (fits) {
      if (good < bytes.length) await fh.truncate(good);
      await index.add(oplog.slice(entries.length));
    }
    return index;
  }

  /** Appends lines for oplog lines just written; a failed write keeps them for the next. */
  async add(xs: ReadonlyArray<IndexedEntry>): Promise<void> {
    this.pending.push(...xs);
    // Nothing pending: an empty buffer, which writeWhole does not write (no file call).
    const buf = Buffer.from(this.pending.map(lineOf).join(''), 'latin1');
    try {
      await writeWhole(this.fh, buf, this.size, 'oplog index');
    } catch (e) {
      try {
        await this.fh.truncate(this.size);
      } catch {
        /* the next write overwrites from size */
      }
      throw e;
    }
    this.size += buf.length;
    this.pending = [];
  }

  /** The file's bytes. */
  get bytes(): number {
    return this.size;
  }

  /** Every line: the file's and any not written yet. */
  async entries(): Promise<IndexedEntry[]> {
    const buf = Buffer.alloc(this.size);
    if (this.size > 0) await this.fh.read(buf, 0, this.size, 0);
    return [...parseIndex(buf).entries, ...this.pending];
  }

  async sync(): Promise<void> {
    await this.add([]);
    await this.fh.datasync();
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}
