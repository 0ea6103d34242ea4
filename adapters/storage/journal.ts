// The journal: the append-only file every commit is written to before it is
// acknowledged (docs/journal-format.md gives its bytes). A record is one line: the
// CRC-32 of its JSON in 8 hex digits, a space, the JSON, a newline. The JSON holds
// the commit: new players whole, a stored player's change as the fields it changed
// from the version it read (a changed list as an edit of the list it replaced),
// sessions, idempotency records and the replay-log entry. A checkpoint rotates the
// file to journal.<seq>.log and starts a fresh one; a start replays the rotated
// journals, then journal.log, and cuts a torn tail off.
//
// This file holds the journal file and its writer; beside it:
//   journal-records.ts  a record's line encoded, its states whole or as deltas (list edits), a delta applied;
//   journal-scan.ts     journal bytes read back into records, damage found and reported.
import { open, readdir, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { syncDir, writeWhole } from './durable.js';
import type { JournalRecord } from './journal-records.js';
import { JournalDamaged, scanJournal, type JournalScan } from './journal-scan.js';

export {
  applyDelta,
  deltaJson,
  encodeRecord,
  journaled,
  listEdit,
  type Delta,
  type Journaled,
  type JournalRecord,
} from './journal-records.js';
export { JournalDamaged, parseJournal, scanJournal, type JournalDamage, type JournalScan } from './journal-scan.js';

/** Journals rotated by checkpoints (journal.<seq>.log), oldest first. */
export const rotatedJournals = async (dir: string): Promise<Array<{ seq: number; path: string }>> =>
  (await readdir(dir))
    .map((f) => /^journal\.(\d+)\.log$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ seq: Number(m[1]), path: join(dir, m[0]) }))
    .sort((a, b) => a.seq - b.seq);

/** Test hooks on the journal's write and fsync (FileStorageOptions.faults). */
export interface JournalFaults {
  /** Runs before a batch is written (tests throw here: a full disk). */
  readonly beforeWrite?: () => void;
  /** Wraps the journal's fsync of a batch (tests hold it back: no commit of the batch may resolve before it does). */
  readonly sync?: (datasync: () => Promise<void>) => Promise<void>;
}

/** journal.log, open for appending: the records a start must replay, and the writer. */
export class Journal {
  private constructor(
    private readonly dir: string,
    private fh: FileHandle,
    private bytes: number,
    private readonly faults: JournalFaults | undefined,
  ) {}

  /**
   * Opens (creating) DATA_DIR/journal.log. Returns the records to replay, the
   * rotated journals' first (older), and how many torn bytes were cut off the end:
   * a record torn by a crash mid-write was never acknowledged, so it is dropped whole.
   * Any other damage (a bad record followed by whole ones, a whole record that is
   * wrong, a gap in seq, anything wrong in a rotated journal, which was whole when
   * rotated) throws JournalDamaged and changes no file.
   */
  static async open(
    dir: string,
    faults?: JournalFaults,
    checkpointSeq = 0,
  ): Promise<{ journal: Journal; records: JournalRecord[]; torn: number }> {
    const path = join(dir, 'journal.log');
    const records: JournalRecord[] = [];
    let prevSeq: number | undefined;
    /** The first record must follow the checkpoint's (or come before it: a rotated journal not yet removed). */
    const checkFirst = (scan: JournalScan) => {
      const first = scan.records[0];
      if (prevSeq !== undefined || first === undefined || first.seq <= checkpointSeq + 1) return;
      throw new JournalDamaged({
        ...scan,
        damage: [
          {
            file: scan.file,
            offset: scan.offsets[0] as number,
            length: scan.sizes[0] as number,
            afterSeq: undefined,
            reason: `records ${checkpointSeq + 1} to ${first.seq - 1} are missing before it (checkpoint.json covers seq ${checkpointSeq})`,
            excerpt: `seq ${first.seq}`,
          },
          ...scan.damage,
        ],
      });
    };
    // Journals rotated by checkpoints that had not finished: whole files, older than journal.log.
    for (const f of await rotatedJournals(dir)) {
      const scan = scanJournal(await readFile(f.path), f.path, prevSeq);
      if (scan.verdict !== 'clean') throw new JournalDamaged(scan);
      checkFirst(scan);
      records.push(...scan.records);
      prevSeq = scan.records.at(-1)?.seq ?? prevSeq;
    }
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      bytes = Buffer.alloc(0);
    }
    const current = scanJournal(bytes, path, prevSeq);
    if (current.verdict === 'corrupt') throw new JournalDamaged(current);
    checkFirst(current);
    records.push(...current.records);
    const created = await open(path, 'a');
    await created.close();
    const fh = await open(path, 'r+');
    const torn = bytes.length - current.good;
    if (torn > 0) {
      await fh.truncate(current.good);
      await fh.datasync();
    }
    await syncDir(dir);
    return { journal: new Journal(dir, fh, current.good, faults), records, torn };
  }

  /** Bytes in journal.log (a checkpoint is due past a bound). */
  get size(): number {
    return this.bytes;
  }

  /**
   * Appends records and fsyncs them: when this resolves they survive a crash. A
   * write may be short (a nearly full disk) without an error: it is continued until
   * every byte is down, so a lack of space surfaces as ENOSPC, not a torn record.
   * On failure the file is cut back to where it was and the error rethrown.
   */
  async append(buf: Buffer): Promise<void> {
    try {
      this.faults?.beforeWrite?.();
      await writeWhole(this.fh, buf, this.bytes, 'journal');
      const datasync = () => this.fh.datasync();
      await (this.faults?.sync ? this.faults.sync(datasync) : datasync());
    } catch (e) {
      try {
        await this.fh.truncate(this.bytes);
      } catch {
        /* the next write overwrites from size */
      }
      throw e;
    }
    this.bytes += buf.length;
  }

  /** Renames journal.log to journal.<seq>.log and starts a fresh one (a checkpoint's cut); nothing to do when empty. */
  async rotate(seq: number): Promise<void> {
    if (this.bytes === 0) return;
    await this.fh.close();
    await rename(join(this.dir, 'journal.log'), join(this.dir, `journal.${seq}.log`));
    this.fh = await open(join(this.dir, 'journal.log'), 'w+');
    this.bytes = 0;
    await syncDir(this.dir);
  }

  async close(): Promise<void> {
    await this.fh.close();
  }
}
