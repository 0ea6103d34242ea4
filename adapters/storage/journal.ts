// The journal: the append-only file every commit is written to before it is
// acknowledged (docs/journal-format.md gives its bytes). A record is one line: the
// CRC-32 of its JSON in 8 hex digits, a space, the JSON, a newline. The JSON holds
// the commit: new players whole, a stored player's change as the fields it changed
// from the version it read (a changed list as an edit of the list it replaced),
// sessions, idempotency records and the replay-log entry. A checkpoint rotates the
// file to journal.<seq>.log and starts a fresh one; a start replays the rotated
// journals, then journal.log, and cuts a torn tail off.
import { open, readdir, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import * as t from 'io-ts';
import { STATE_FIELDS, type PlayerState } from '../../core/state.js';
import { walkRuns } from '../../core/state/replaced.js';
import { canonicalFields, canonicalJson, changedJson } from './canonical.js';
import { crc32 } from './crc32.js';
import { syncDir, writeWhole } from './durable.js';
import type { StoredLogEntry } from './replay-log.js';
import { StorageError, type IdempotencyRecord, type Session } from './storage.js';

/** A record as written: one commit. */
export interface JournalRecord {
  readonly seq: number;
  /** Whole states: new players (and every state in journals written before deltas). */
  readonly players: PlayerState[];
  /** The fields of a state that changed, from the version named `base` (a delta is a few kB where a state is tens). */
  readonly deltas?: Delta[];
  readonly sessions: Array<{ key: string; session: Session | null }>;
  readonly idempotency?: Array<{ key: string; record: IdempotencyRecord }>;
  readonly log?: StoredLogEntry[];
}


export interface Delta {
  readonly playerId: number;
  readonly base: number;
  /** Each field as the state's codec for it decodes it (applyDelta decodes them). */
  readonly set: Readonly<Record<string, unknown>>;
  /** Lists as edits of the base state's (listEdit): `[from, count]` copies a run, an object is an element. */
  readonly edits?: Readonly<Record<string, ReadonlyArray<unknown>>>;
}

/** A state to journal: whole, or the fields changed since `base`. */
export type Journaled =
  | { readonly kind: 'whole'; readonly state: PlayerState }
  | { readonly kind: 'delta'; readonly state: PlayerState; readonly before: PlayerState; readonly fields: ReadonlyArray<string> };

/** What a commit journals for a state, given the state it replaces (fields compared by identity: updates never mutate). */
export const journaled = (state: PlayerState, before: PlayerState | undefined): Journaled => {
  if (!before) return { kind: 'whole', state };
  const fields: string[] = [];
  const was = before as unknown as Record<string, unknown>;
  // Every state has every field (its codec): a field is changed, never removed.
  for (const [k, v] of Object.entries(state)) if (was[k] !== v) fields.push(k);
  return { kind: 'delta', state, before, fields };
};

/** A record's line: its states whole or as deltas, in canonical JSON (reusing the JSON of unchanged parts). */
export const encodeRecord = (r: Omit<JournalRecord, 'players' | 'deltas'>, states: ReadonlyArray<Journaled>): string => {
  const whole = states.filter((x) => x.kind === 'whole').map((x) => canonicalJson(x.state));
  const deltas = states.flatMap((x) => (x.kind === 'delta' ? [deltaJson(x.state, x.before, x.fields)] : []));
  const json = `{"players":[${whole.join(',')}],${deltas.length > 0 ? `"deltas":[${deltas.join(',')}],` : ''}${JSON.stringify(r).slice(1)}`;
  return `${crc32(Buffer.from(json, 'utf8')).toString(16).padStart(8, '0')} ${json}\n`;
};

/** A delta's JSON: changed lists as edits of the ones they replaced, other changed fields whole (the journal's, and PostgreSQL's delta rows). */
export const deltaJson = (state: PlayerState, before: PlayerState, fields: ReadonlyArray<string>): string => {
  const now = state as unknown as Record<string, unknown>;
  const was = before as unknown as Record<string, unknown>;
  // Stryker disable next-line ArrayDeclaration: equivalent (a field name put here that the state lacks is undefined, which canonicalFields leaves out)
  const whole: string[] = [];
  const edits: string[] = [];
  for (const k of fields) {
    const v = now[k];
    const old = was[k];
    const edit = Array.isArray(v) && Array.isArray(old) ? listEdit(v, old) : undefined;
    if (edit === undefined) whole.push(k); else edits.push(`${JSON.stringify(k)}:${edit}`);
  }
  const set = canonicalFields(now, whole);
  return `{"base":${before.version},${edits.length > 0 ? `"edits":{${edits.join(',')}},` : ''}"playerId":${state.playerId},"set":${set}}`;
};

/** A list from an edit of the base state's list; undefined when the edit does not fit it. */
const editedList = (base: ReadonlyArray<unknown>, ops: ReadonlyArray<unknown>, element: t.Mixed): unknown[] | undefined => {
  const out: unknown[] = [];
  for (const op of ops) {
    if (Array.isArray(op)) {
      const [from, count] = op as unknown[];
      if (op.length !== 2 || !Number.isInteger(from) || !Number.isInteger(count)) return undefined;
      const f = from as number;
      const c = count as number;
      if (f < 0 || c < 1 || f + c > base.length) return undefined;
      for (let i = f; i < f + c; i++) out.push(base[i]);
    } else {
      const decoded = element.decode(op);
      if (decoded._tag === 'Left') return undefined;
      out.push(decoded.right);
    }
  }
  return out;
};

/** A state with a delta's fields, each decoded with the state's own codec for it (a list edit element by element). */
export const applyDelta = (base: PlayerState, d: Delta, where: string): PlayerState => {
  const next: Record<string, unknown> = { ...base };
  const bad = (k: string) => new StorageError(`${where}: field ${k} of player ${d.playerId}'s delta does not decode`);
  for (const [k, v] of Object.entries(d.set)) {
    const codec = STATE_FIELDS[k];
    const decoded = codec?.decode(v);
    if (!decoded || decoded._tag === 'Left') throw bad(k);
    next[k] = decoded.right;
  }
  for (const [k, ops] of Object.entries(d.edits ?? {})) {
    const codec = STATE_FIELDS[k];
    const old = (base as unknown as Record<string, unknown>)[k];
    const list = codec instanceof t.ArrayType && Array.isArray(old) && Array.isArray(ops) ? editedList(old, ops, codec.type as t.Mixed) : undefined;
    if (list === undefined) throw bad(k);
    next[k] = list;
  }
  return next as unknown as PlayerState;
};

/**
 * A list as an edit of the list it replaced, in JSON: `[from, count]` copies that
 * run of the old list's elements, an object is a new or changed element. A new
 * character in a list of 55 is a few hundred bytes where the list is ~12 kB.
 * Undefined when an element that changed is not an object (the list is then
 * written whole): a copy run is a list, so the two could not be told apart.
 */
export const listEdit = (xs: ReadonlyArray<unknown>, replaced: ReadonlyArray<unknown>): string | undefined => {
  const ops: string[] = [];
  let plain = true;
  walkRuns(xs, replaced, (from, count) => ops.push(`[${from},${count}]`), (i) => {
    const x = xs[i];
    if (x === null || typeof x !== 'object' || Array.isArray(x)) plain = false;
    else ops.push(changedJson(x));
  });
  return plain ? `[${ops.join(',')}]` : undefined;
};


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

const excerptOf = (b: Buffer): string => b.subarray(0, 60).toString('latin1').replace(/[^\x20-\x7e]/g, '.');

/** One line's record, or why it is not one. */
const recordOf = (line: Buffer): { record: JournalRecord } | { reason: string } => {
  if (line.length < 10 || line[8] !== 0x20) return { reason: 'not a record (no CRC and space at its start)' };
  const crcText = line.subarray(0, 8).toString('latin1');
  // Eight characters: each a lowercase hex digit.
  if (/[^0-9a-f]/.test(crcText)) return { reason: 'not a record (no CRC and space at its start)' };
  const body = line.subarray(9);
  if (Number.parseInt(crcText, 16) !== crc32(body)) return { reason: 'its CRC does not match its bytes' };
  let record: unknown;
  try { record = JSON.parse(body.toString('utf8')); } catch { return { reason: 'its JSON does not parse' }; }
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
      damage.push({ file, offset: pos, length: end + 1 - pos, afterSeq: lastInFile, reason: r.record.seq <= last ? `seq ${r.record.seq} does not follow seq ${last}` : `records ${last + 1} to ${r.record.seq - 1} are missing before it`, excerpt: excerptOf(line) });
    } else if (!('record' in r)) {
      damage.push({ file, offset: pos, length: (nl < 0 ? end : end + 1) - pos, afterSeq: lastInFile, reason: r.reason, excerpt: excerptOf(line) });
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
    super(`the journal is damaged: ${d.file} at byte ${d.offset}, the record after seq ${d.afterSeq ?? '(none: the file\'s first)'}: ${d.reason} (${d.length} bytes, "${d.excerpt}"); ` +
      `${following} whole record(s) follow it, so this is not a torn tail and nothing was dropped; the file is left as it was. ` +
      `\`npm run storage:check -- DATA_DIR\` lists the damage; \`--truncate-at ${d.offset}\` drops it and everything after it.`);
    this.name = 'JournalDamaged';
    this.damage = scan.damage;
    this.following = following;
  }
}

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
  private constructor(private readonly dir: string, private fh: FileHandle, private bytes: number, private readonly faults: JournalFaults | undefined) {}

  /**
   * Opens (creating) DATA_DIR/journal.log. Returns the records to replay, the
   * rotated journals' first (older), and how many torn bytes were cut off the end:
   * a record torn by a crash mid-write was never acknowledged, so it is dropped whole.
   * Any other damage (a bad record followed by whole ones, a whole record that is
   * wrong, a gap in seq, anything wrong in a rotated journal, which was whole when
   * rotated) throws JournalDamaged and changes no file.
   */
  static async open(dir: string, faults?: JournalFaults, checkpointSeq = 0): Promise<{ journal: Journal; records: JournalRecord[]; torn: number }> {
    const path = join(dir, 'journal.log');
    const records: JournalRecord[] = [];
    let prevSeq: number | undefined;
    /** The first record must follow the checkpoint's (or come before it: a rotated journal not yet removed). */
    const checkFirst = (scan: JournalScan) => {
      const first = scan.records[0];
      if (prevSeq !== undefined || first === undefined || first.seq <= checkpointSeq + 1) return;
      throw new JournalDamaged({ ...scan, damage: [{
        file: scan.file, offset: scan.offsets[0] as number, length: scan.sizes[0] as number, afterSeq: undefined,
        reason: `records ${checkpointSeq + 1} to ${first.seq - 1} are missing before it (checkpoint.json covers seq ${checkpointSeq})`,
        excerpt: `seq ${first.seq}`,
      }, ...scan.damage] });
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
    try { bytes = await readFile(path); } catch (e) {
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
  get size(): number { return this.bytes; }

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
      try { await this.fh.truncate(this.bytes); } catch { /* the next write overwrites from size */ }
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

  async close(): Promise<void> { await this.fh.close(); }
}
