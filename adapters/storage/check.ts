// The JSON-file store's check and its one repair (npm run storage:check; run on a
// stopped server's DATA_DIR). The check reads everything a start reads, and more:
// checkpoint.json and the index log (or, before it, the keys file) it names, every journal to its end (past any
// damage: every damaged record is listed with its file and offset), and every
// player snapshot against its CRC and the state codec, and the replay log's kept
// segments (oplog-check.ts). It changes nothing.
//
// The repair, `--truncate-at OFFSET` (in journal.log, or the journal `--file`
// names), is the only way to drop damaged records: the bytes from OFFSET on (and
// any later journal) are moved aside into `<file>.dropped-at-<OFFSET>` first, so
// nothing is destroyed, then the journal is cut there. Every write after OFFSET
// is lost to the store; the tool says how many whole records that is. It refuses a
// directory a running server holds (dir-holder.ts). A damaged snapshot's report names
// its repair, npm run storage:repair (scripts/storage-repair.ts).
import { access, open, readdir, readFile, rename } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { decodeState } from '../../core/state.js';
import { readCheckpoint } from './checkpoint.js';
import { refuseHeld } from './dir-holder.js';
import { readOrNone, syncDir } from './durable.js';
import { rotatedJournals, scanJournal, type JournalScan } from './journal.js';
import { checkReplayLog, formatReplayLog, type ReplayLogReport } from './oplog-check.js';
import { unsealText } from './sealed.js';

export interface CheckProblem {
  readonly file: string;
  /** Where in the file (journals). */
  readonly offset?: number;
  readonly length?: number;
  readonly reason: string;
  /** A torn tail: what a crash mid-write leaves; the next start drops it (not an error). */
  readonly torn?: boolean;
  /** A player's snapshot: whose (storage:repair rebuilds it). */
  readonly playerId?: number;
}

export interface CheckReport {
  readonly dir: string;
  readonly checkpointSeq: number;
  readonly journals: ReadonlyArray<{
    readonly file: string;
    readonly bytes: number;
    readonly records: number;
    readonly firstSeq?: number;
    readonly lastSeq?: number;
    readonly verdict: JournalScan['verdict'];
  }>;
  readonly snapshots: { readonly checked: number; readonly legacy: number; readonly damaged: number };
  readonly problems: ReadonlyArray<CheckProblem>;
  /** The replay log's segments and archive (absent: the directory has none). */
  readonly replayLog?: ReplayLogReport;
  /** Anything but a torn tail: damage a start refuses, or damage to the replay log (which a replay would meet). */
  readonly damaged: boolean;
}

/** Checks a data directory; changes nothing. */
export const checkDataDir = async (dir: string): Promise<CheckReport> => {
  const problems: CheckProblem[] = [];
  let checkpointSeq = 0;
  try {
    checkpointSeq = (await readCheckpoint(dir)).seq;
  } catch (e) {
    problems.push({ file: join(dir, 'checkpoint.json'), reason: e instanceof Error ? e.message : String(e) });
  }
  const journals: Array<CheckReport['journals'][number]> = [];
  const files = [...(await rotatedJournals(dir)).map((f) => f.path), join(dir, 'journal.log')];
  let prevSeq: number | undefined;
  for (const file of files) {
    const buf = await readOrNone(file);
    if (buf === undefined) continue;
    const scan = scanJournal(buf, file, prevSeq);
    const first = scan.records[0];
    if (prevSeq === undefined && first !== undefined && first.seq > checkpointSeq + 1) {
      problems.push({
        file,
        offset: scan.offsets[0] as number,
        length: scan.sizes[0] as number,
        reason: `records ${checkpointSeq + 1} to ${first.seq - 1} are missing before it (checkpoint.json covers seq ${checkpointSeq})`,
      });
    }
    // A torn tail only in journal.log (a rotated journal was whole when it was rotated).
    const torn = scan.verdict === 'torn' && basename(file) === 'journal.log';
    for (const d of scan.damage) {
      problems.push({
        file,
        offset: d.offset,
        length: d.length,
        reason: `${torn ? 'a torn tail (a write a crash cut short; the next start drops it): ' : ''}the record after seq ${d.afterSeq ?? "(none: the file's first)"}: ${d.reason} ("${d.excerpt}")`,
        ...(torn ? { torn } : {}),
      });
    }
    journals.push({
      file,
      bytes: buf.length,
      records: scan.records.length,
      ...(first ? { firstSeq: first.seq } : {}),
      ...(scan.records.length > 0 ? { lastSeq: (scan.records.at(-1) as { seq: number }).seq } : {}),
      verdict: scan.verdict,
    });
    prevSeq = scan.records.at(-1)?.seq ?? prevSeq;
  }
  let checked = 0;
  let legacy = 0;
  let damaged = 0;
  // Stryker disable next-line ArrayDeclaration: equivalent (it is replaced unless readdir fails, and then a name put here is read under the same unreadable players path, fails too and is skipped)
  let shards: string[] = [];
  try {
    shards = await readdir(join(dir, 'players'));
  } catch {
    /* no snapshots yet */
  }
  for (const sh of shards.sort((a, b) => Number(a) - Number(b))) {
    let names: string[];
    try {
      names = await readdir(join(dir, 'players', sh));
    } catch {
      continue;
    }
    for (const name of names
      .filter((n) => /^\d+\.json$/.test(n))
      .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))) {
      const path = join(dir, 'players', sh, name);
      checked++;
      try {
        const { json, legacy: old } = unsealText(await readFile(path), path);
        if (old) legacy++;
        let parsed: unknown;
        try {
          parsed = JSON.parse(json);
        } catch {
          throw new Error(`${path} is damaged: its JSON does not parse`);
        }
        const d = decodeState(parsed);
        if (d._tag === 'Left') throw new Error(`${path} is damaged: it does not decode as a player state`);
        if (d.right.playerId !== Number.parseInt(name, 10))
          throw new Error(`${path} is damaged: it holds player ${d.right.playerId}`);
      } catch (e) {
        damaged++;
        problems.push({
          file: path,
          reason: e instanceof Error ? e.message : String(e),
          playerId: Number.parseInt(name, 10),
        });
      }
    }
  }
  const log = await checkReplayLog(dir);
  if (log !== undefined) problems.push(...log.problems);
  return {
    dir,
    checkpointSeq,
    journals,
    snapshots: { checked, legacy, damaged },
    problems,
    ...(log === undefined ? {} : { replayLog: log.report }),
    damaged: problems.some((p) => !p.torn),
  };
};

/** The report as an operator reads it. */
export const formatReport = (r: CheckReport): string => {
  const lines = [`${r.dir}: checkpoint at seq ${r.checkpointSeq}`];
  for (const j of r.journals)
    lines.push(
      `  ${basename(j.file)}: ${j.bytes} bytes, ${j.records} whole records${j.firstSeq === undefined ? '' : ` (seq ${j.firstSeq} to ${j.lastSeq})`}, ${j.verdict}`,
    );
  lines.push(
    `  snapshots: ${r.snapshots.checked} checked, ${r.snapshots.damaged} damaged, ${r.snapshots.legacy} written before checksums`,
  );
  if (r.replayLog !== undefined) lines.push(...formatReplayLog(r.replayLog));
  if (r.problems.length === 0) lines.push('no damage found');
  for (const p of r.problems)
    lines.push(
      `${p.torn ? 'TORN' : 'DAMAGED'} ${p.file}${p.offset === undefined ? '' : ` at byte ${p.offset} (${p.length} bytes)`}: ${p.reason}`,
    );
  const journalDamage = r.problems.filter((p) => p.offset !== undefined && !p.torn);
  if (journalDamage.length > 0) {
    const first = journalDamage[0] as CheckProblem;
    lines.push(
      '',
      `The store will not open past this. To drop the damaged records and every record after them (the bytes are kept in a .dropped-at file):`,
      `  npm run storage:check -- ${r.dir} --file ${basename(first.file)} --truncate-at ${first.offset}`,
    );
  }
  const players = r.problems.flatMap((p) => (p.playerId === undefined ? [] : [p.playerId]));
  if (players.length > 0)
    lines.push(
      '',
      `A damaged snapshot's player answers 503/105 until it is replaced. With the server stopped, rebuild each from the replay log and the journal (checked against the log's state hashes; the damaged file is kept as <id>.json.damaged), or add --from EXPORT to restore it from an export:`,
      ...players.map((id) => `  npm run storage:repair -- --data ${r.dir} --player ${id}`),
    );
  return lines.join('\n');
};

/**
 * Cuts a journal at a record boundary, after moving the bytes from there on (and
 * every later journal, which would no longer follow) aside. Returns the files
 * written and how many whole records were dropped.
 */
export const truncateJournalAt = async (
  dir: string,
  fileName: string,
  offset: number,
): Promise<{ dropped: number; keptIn: string[] }> => {
  // A running server appends to the journal it would cut: refused before anything is read or changed.
  await refuseHeld(dir, 'cutting its journal');
  const rotated = await rotatedJournals(dir);
  const order = [...rotated.map((f) => basename(f.path)), 'journal.log'];
  const at = order.indexOf(fileName);
  if (at < 0) throw new Error(`${fileName} is not a journal of ${dir} (${order.join(', ')})`);
  const path = join(dir, fileName);
  const buf = await readFile(path);
  if (!Number.isSafeInteger(offset) || offset < 0 || offset > buf.length)
    throw new Error(`offset ${offset} is outside ${fileName} (${buf.length} bytes)`);
  if (offset > 0 && buf[offset - 1] !== 0x0a)
    throw new Error(
      `offset ${offset} is not at the start of a record in ${fileName} (the byte before it is not a line feed); storage:check gives the offsets`,
    );
  const scan = scanJournal(buf, path);
  let dropped = scan.records.filter((_, i) => (scan.offsets[i] as number) >= offset).length;
  const keptIn: string[] = [];
  const aside = async (from: string, bytes: Buffer) => {
    let name = `${from}.dropped-at-${from === path ? offset : 0}`;
    for (let n = 1; await exists(name); n++) name = `${from}.dropped-at-${from === path ? offset : 0}.${n}`;
    const fh = await open(name, 'wx');
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
    keptIn.push(name);
  };
  await aside(path, buf.subarray(offset));
  // The journals after it: moved aside whole (renamed; journal.log copied, then emptied).
  for (const later of order.slice(at + 1)) {
    const p = join(dir, later);
    const bytes = await readOrNone(p);
    // journal.log is missing after a crash between a rotation's rename and the new file's creation (the check skips it too).
    if (bytes === undefined) continue;
    dropped += scanJournal(bytes, p).records.length;
    if (later === 'journal.log') {
      await aside(p, bytes);
      const fh = await open(p, 'r+');
      try {
        await fh.truncate(0);
        await fh.sync();
      } finally {
        await fh.close();
      }
    } else {
      await rename(p, `${p}.dropped-at-0`);
      keptIn.push(`${p}.dropped-at-0`);
    }
  }
  const fh = await open(path, 'r+');
  try {
    await fh.truncate(offset);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await syncDir(dir);
  return { dropped, keptIn };
};

const exists = async (p: string): Promise<boolean> => {
  try {
    await access(p);
    return true;
  } catch {
    return false;
  }
};
