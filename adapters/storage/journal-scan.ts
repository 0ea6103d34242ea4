// Journal bytes read back into records: leniently to the first bad line (parseJournal), or to
// the end past any damage, each bad stretch named (scanJournal), and the error a start throws for it.
import { crc32 } from './crc32.js';
import type { JournalRecord } from './journal-records.js';
import { StorageError } from './storage.js';

/** Parses journal bytes into whole records; `good` is the offset after the last whole one. */
export const parseJournal = (buf: Buffer): { records: JournalRecord[]; good: number } => {
  const records: JournalRecord[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break; // no newline: the write was torn
    const line = buf.subarray(pos, nl);
    if (line.length < 10 || line[8] !== 0x20) break;
    const body = line.subarray(9);
    if (Number.parseInt(line.subarray(0, 8).toString('latin1'), 16) !== crc32(body)) break;
    try {
      records.push(JSON.parse(body.toString('utf8')) as JournalRecord);
    } catch {
      break;
    }
    pos = nl + 1;
  }
  return { records, good: pos };
};

/** A stretch of journal bytes that is not a whole record, or a record out of sequence. */
export interface JournalDamage {
  /** The file's path. */
  readonly file: string;
  /** Where the bad bytes start, from the file's start. */
  readonly offset: number;
  /** How many bytes (to the next line feed, or to the end). */
  readonly length: number;
  /** The seq of the last whole record before it (undefined: none in this file). */
  readonly afterSeq: number | undefined;
  /** What is wrong: no line feed, a CRC that does not match, JSON that does not parse, a gap in seq. */
  readonly reason: string;
  /** The first bytes, printable (to name the record). */
  readonly excerpt: string;
}

/** Every record of a journal file and every damaged stretch, read past damage to the end. */
export interface JournalScan {
  readonly file: string;
  readonly records: JournalRecord[];
  /** Each record's offset in the file, and its bytes (with its line feed). */
  readonly offsets: number[];
  readonly sizes: number[];
  readonly damage: JournalDamage[];
  /** The offset after the last whole record before the first damage (the file's length when there is none). */
  readonly good: number;
  /**
   * What the damage is: none; a torn tail (only the bytes after the last whole record,
   * cut short or with unwritten zero bytes: a write a crash interrupted, never acknowledged);
   * or corruption (bad bytes followed by whole records, or a complete record that is wrong).
   */
  readonly verdict: 'clean' | 'torn' | 'corrupt';
}

const excerptOf = (b: Buffer): string =>
  b
    .subarray(0, 60)
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.');

/** One line's record, or why it is not one. */
const recordOf = (line: Buffer): { record: JournalRecord } | { reason: string } => {
  if (line.length < 10 || line[8] !== 0x20) return { reason: 'not a record (no CRC and space at its start)' };
  const crcText = line.subarray(0, 8).toString('latin1');
  // Eight characters: each a lowercase hex digit.
  if (/[^0-9a-f]/.test(crcText)) return { reason: 'not a record (no CRC and space at its start)' };
  const body = line.subarray(9);
  if (Number.parseInt(crcText, 16) !== crc32(body)) return { reason: 'its CRC does not match its bytes' };
  let record: unknown;
  try {
    record = JSON.parse(body.toString('utf8'));
  } catch {
    return { reason: 'its JSON does not parse' };
  }
  // null, a number, a string or a list has no seq either.
  const seq = (record as { seq?: unknown } | null)?.seq;
  if (!Number.isSafeInteger(seq)) return { reason: 'no seq' };
  return { record: record as JournalRecord };
};

/**
 * Reads a journal file to its end, past any damage (each bad stretch runs to the
 * next line feed, where reading resumes), checking that seqs follow one another
 * (from `prevSeq`, the last seq of the file before, when given).
 */
export const scanJournal = (buf: Buffer, file: string, prevSeq?: number): JournalScan => {
  const records: JournalRecord[] = [];
  const offsets: number[] = [];
  const sizes: number[] = [];
  const damage: JournalDamage[] = [];
  let last = prevSeq;
  let lastInFile: number | undefined;
  /** The line before was damaged: the seq after it is not checked (the damage may have taken a record with it). */
  let afterBad = false;
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    const end = nl < 0 ? buf.length : nl;
    const line = buf.subarray(pos, end);
    const r = nl < 0 ? { reason: 'cut short (no line feed at its end)' } : recordOf(line);
    if ('record' in r && last !== undefined && !afterBad && r.record.seq !== last + 1) {
      damage.push({
        file,
        offset: pos,
        length: end + 1 - pos,
        afterSeq: lastInFile,
        reason:
          r.record.seq <= last
            ? `seq ${r.record.seq} does not follow seq ${last}`
            : `records ${last + 1} to ${r.record.seq - 1} are missing before it`,
        excerpt: excerptOf(line),
      });
    } else if (!('record' in r)) {
      damage.push({
        file,
        offset: pos,
        length: (nl < 0 ? end : end + 1) - pos,
        afterSeq: lastInFile,
        reason: r.reason,
        excerpt: excerptOf(line),
      });
    }
    afterBad = !('record' in r);
    if ('record' in r) {
      records.push(r.record);
      offsets.push(pos);
      sizes.push(end + 1 - pos);
      last = r.record.seq;
      lastInFile = last;
    }
    pos = nl < 0 ? buf.length : nl + 1;
  }
  if (damage.length === 0) return { file, records, offsets, sizes, damage, good: buf.length, verdict: 'clean' };
  const first = damage[0] as JournalDamage;
  const good = first.offset;
  // Whole records at the damage or after it (a record whose seq is wrong is itself the damage: never torn).
  const after = records.filter((_, i) => (offsets[i] as number) >= first.offset).length;
  // A crash mid-write leaves a prefix of the write, or a stretch of unwritten zero bytes: never a whole, wrong line.
  const tail = buf.subarray(first.offset);
  const torn = after === 0 && (tail.indexOf(0x0a) < 0 || tail.includes(0x00));
  return { file, records, offsets, sizes, damage, good, verdict: torn ? 'torn' : 'corrupt' };
};

/** A journal that holds damage a crash cannot explain: the store will not open past it (docs/journal-format.md). */
export class JournalDamaged extends StorageError {
  readonly damage: ReadonlyArray<JournalDamage>;
  /** Whole records after the first damage. */
  readonly following: number;
  constructor(scan: JournalScan) {
    const d = scan.damage[0] as JournalDamage;
    const following = scan.records.filter((_, i) => (scan.offsets[i] as number) > d.offset).length;
    super(
      `the journal is damaged: ${d.file} at byte ${d.offset}, the record after seq ${d.afterSeq ?? "(none: the file's first)"}: ${d.reason} (${d.length} bytes, "${d.excerpt}"); ` +
        `${following} whole record(s) follow it, so this is not a torn tail and nothing was dropped; the file is left as it was. ` +
        `\`npm run storage:check -- DATA_DIR\` lists the damage; \`--truncate-at ${d.offset}\` drops it and everything after it.`,
    );
    this.name = 'JournalDamaged';
    this.damage = scan.damage;
    this.following = following;
  }
}
