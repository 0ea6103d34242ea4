// journal.ts's rules (issue 23): a record's bytes (docs/journal-format.md), deltas
// and list edits, how a journal is read back (whole records, torn tails, damage and
// how it is reported), and the journal file's writes: every byte down before the
// fsync, cut back on failure, fsynced where a crash could lose it.
import test from 'ava';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from '../../adapters/storage/crc32.js';
import { FileStorage } from '../../adapters/storage/file.js';
import {
  applyDelta,
  encodeRecord,
  Journal,
  JournalDamaged,
  journaled,
  listEdit,
  parseJournal,
  rotatedJournals,
  scanJournal,
  type Delta,
  type JournalRecord,
} from '../../adapters/storage/journal.js';
import { StorageError } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { newCharacter } from '../../core/shared/grant.js';
import { freshPlayer, NOW } from '../_support/core.js';
import { spyFiles, tempDir, type FileFaults } from '../_support/fs-spy.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });

/** A journal line holding `json`, with its CRC (`crc` replaces the 8 digits, `sep` the space). */
const line = (json: string, o: { crc?: string; sep?: string } = {}): string =>
  `${o.crc ?? crc32(Buffer.from(json, 'utf8')).toString(16).padStart(8, '0')}${o.sep ?? ' '}${json}\n`;
/** A small whole record. */
const rec = (seq: number): string => line(`{"players":[],"seq":${seq},"sessions":[]}`);
const bytes = (...parts: Array<string | Buffer>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : p)));
const body = (l: string): Record<string, unknown> => JSON.parse(l.slice(9)) as Record<string, unknown>;

// ---- records, deltas, list edits -------------------------------------------------

test('journaled names exactly the fields that changed; a new player is whole', (t) => {
  const p = player(1);
  const j = journaled(bump(p, 5), p);
  t.is(j.kind, 'delta');
  t.deepEqual(j.kind === 'delta' ? [...j.fields].sort() : [], ['gold', 'version']);
  t.deepEqual(journaled(p, undefined), { kind: 'whole', state: p });
});

test('a record of new players only has no deltas key; its keys come in the documented order', (t) => {
  const l = encodeRecord({ seq: 4, sessions: [] }, [journaled(player(1), undefined), journaled(player(2), undefined)]);
  const r = body(l);
  t.deepEqual(Object.keys(r), ['players', 'seq', 'sessions']);
  t.deepEqual(
    (r.players as PlayerState[]).map((p) => p.playerId),
    [1, 2],
  );
  t.deepEqual(
    parseJournal(Buffer.from(l)).records.map((x) => x.seq),
    [4],
  );
});

test('a record with a change holds it as a delta: the base version and the changed fields only', (t) => {
  const p = player(1);
  const r = body(encodeRecord({ seq: 2, sessions: [] }, [journaled(bump(p, 9), p)]));
  t.deepEqual(Object.keys(r), ['players', 'deltas', 'seq', 'sessions']);
  t.deepEqual(r.deltas, [{ base: p.version, playerId: 1, set: { gold: 9, version: p.version + 1 } }]);
});

/** A player with three characters, and a delta of its character list. */
const withCharacters = (): PlayerState => ({
  ...player(1),
  characters: [1, 2, 3].map((i) => newCharacter(i, 1000 + i, NOW)),
});
const editing = (p: PlayerState, ops: ReadonlyArray<unknown>): Delta => ({
  playerId: p.playerId,
  base: p.version,
  set: { version: p.version + 1 },
  edits: { characters: ops },
});

test('a list edit copies runs of the base list and takes new elements whole', (t) => {
  const p = withCharacters();
  const added = newCharacter(99, 1099, NOW);
  t.deepEqual(applyDelta(p, editing(p, [[0, 3]]), 'journal record 1').characters, p.characters);
  t.deepEqual(applyDelta(p, editing(p, [[2, 1], added, [0, 1]]), 'journal record 1').characters, [
    p.characters[2],
    added,
    p.characters[0],
  ]);
});

test('a list edit whose copy run does not fit the base list, or is not [from, count] in integers, is refused naming the field', (t) => {
  const p = withCharacters();
  for (const op of [[0], [0, 1, 2], [0.5, 1], [0, 1.5], ['0', 1], [0, '1'], [-1, 2], [0, 0], [1, 3], [3, 1]]) {
    const err = t.throws(
      () => applyDelta(p, editing(p, [op]), 'journal record 7'),
      { instanceOf: StorageError },
      JSON.stringify(op),
    );
    t.is(err?.message, "journal record 7: field characters of player 1's delta does not decode", JSON.stringify(op));
  }
});

test('a list whose changed elements are not all plain objects has no edit (it is written whole)', (t) => {
  t.is(listEdit([1, 2, 3], [1, 2, 4]), undefined);
  t.is(listEdit([{ a: 1 }, null], [{ a: 1 }, { a: 2 }]), undefined);
  t.is(listEdit([{ a: 1 }, [2]], [{ a: 1 }, [3]]), undefined);
  t.is(listEdit([{ a: 1 }, 'b'], [{ a: 1 }, 'c']), undefined);
  const a = { a: 1 };
  t.is(listEdit([a, { b: 2 }], [a, { b: 3 }]), '[[0,1],{"b":2}]');
});

// ---- reading a journal: parseJournal ----------------------------------------------

test('parseJournal stops at a line without its space, at JSON that does not parse, and at a record cut short', (t) => {
  const r1 = rec(1);
  const noSpace = line('{"players":[],"seq":2,"sessions":[]}', { sep: 'X' });
  t.deepEqual(parseJournal(bytes(r1, noSpace, rec(3))), {
    records: [body(r1) as unknown as JournalRecord],
    good: r1.length,
  });
  t.deepEqual(parseJournal(bytes(r1, line('{"seq":2,'), rec(3))).good, r1.length);
  t.deepEqual(parseJournal(bytes(r1, line('{"seq":2,'), rec(3))).records.length, 1);
  t.deepEqual(parseJournal(bytes(r1, rec(2).slice(0, 30))), {
    records: [body(r1) as unknown as JournalRecord],
    good: r1.length,
  });
});

test('parseJournal checks only the CRC and that the JSON parses (scanJournal checks the rest): a 10-byte line is read', (t) => {
  t.deepEqual(parseJournal(bytes(line('7'))), { records: [7 as unknown as JournalRecord], good: 11 });
});

// ---- reading a journal: scanJournal and the damage it reports ---------------------

test('a clean journal scans to its records, their offsets and sizes', (t) => {
  const a = rec(1);
  const b = rec(2);
  const s = scanJournal(bytes(a, b), 'j');
  t.deepEqual(
    {
      seqs: s.records.map((r) => r.seq),
      offsets: s.offsets,
      sizes: s.sizes,
      good: s.good,
      verdict: s.verdict,
      damage: s.damage,
    },
    {
      seqs: [1, 2],
      offsets: [0, a.length],
      sizes: [a.length, b.length],
      good: a.length + b.length,
      verdict: 'clean',
      damage: [],
    },
  );
});

test('each kind of bad line is reported with its offset, length, the seq before it, the reason and a printable excerpt', (t) => {
  const r1 = rec(1);
  const bad = [
    'short\n',
    `${'0'.repeat(8)} \n`, // 9 bytes: a CRC (of nothing) and a space, no JSON
    line('{"seq":2,', {}),
    line('{"players":[],"seq":2,"sessions":[]}', { sep: 'X' }),
    line('{"players":[],"seq":2,"sessions":[]}', { crc: 'ABCDEF12' }),
    line('{"players":[],"seq":2,"sessions":[]}', { crc: '0000000g' }),
    line('{"players":[],"seq":2,"sessions":[]}', { crc: '00000000' }),
    line('{"players":[],"sessions":[]}'),
    line('{"seq":"2"}'),
    line('{"seq":2.5}'),
    line('null'),
    line('7'),
  ];
  const reasons = bad.map((b) => {
    const s = scanJournal(bytes(r1, b, rec(2)), 'j');
    t.is(s.verdict, 'corrupt', b);
    t.deepEqual(
      s.records.map((r) => r.seq),
      [1, 2],
      b,
    );
    const d = s.damage[0];
    t.is(s.damage.length, 1, b);
    t.is(d?.offset, r1.length, b);
    t.is(d?.length, Buffer.byteLength(b, 'latin1'), b);
    t.is(d?.afterSeq, 1, b);
    t.is(d?.excerpt, b.slice(0, -1).slice(0, 60), b);
    t.is(s.good, r1.length, b);
    return d?.reason;
  });
  const notARecord = 'not a record (no CRC and space at its start)';
  t.deepEqual(reasons, [
    notARecord,
    notARecord,
    'its JSON does not parse',
    notARecord,
    notARecord,
    notARecord,
    'its CRC does not match its bytes',
    'no seq',
    'no seq',
    'no seq',
    'no seq',
    'no seq',
  ]);
});

test('the excerpt shows the first 60 bytes, with unprintable ones as dots', (t) => {
  const junk = bytes(Buffer.from([0x01, 0x41, 0x7f, 0x7e, 0xe9, 0x20]), 'z'.repeat(80), '\n');
  const s = scanJournal(bytes(rec(1), junk, rec(2)), 'j');
  t.is(s.damage[0]?.excerpt, `.A.~. ${'z'.repeat(54)}`);
});

test('a last record cut short is a torn tail, reported with its bytes to the end', (t) => {
  const r1 = rec(1);
  const cut = rec(2).slice(0, 20);
  const s = scanJournal(bytes(r1, cut), 'j');
  t.is(s.verdict, 'torn');
  t.is(s.good, r1.length);
  t.deepEqual(s.damage, [
    {
      file: 'j',
      offset: r1.length,
      length: 20,
      afterSeq: 1,
      reason: 'cut short (no line feed at its end)',
      excerpt: cut,
    },
  ]);
  const zeros = scanJournal(bytes(r1, Buffer.alloc(30), 'tail\n'), 'j');
  t.is(zeros.verdict, 'torn', 'zero bytes a crashed write left');
});

test('seqs must follow one another, across files too: a repeat and a gap are damage, reported on the record', (t) => {
  const [a, b, c] = [rec(1), rec(2), rec(2)];
  const again = scanJournal(bytes(a, b, c), 'j');
  t.deepEqual(again.damage, [
    {
      file: 'j',
      offset: a.length + b.length,
      length: c.length,
      afterSeq: 2,
      reason: 'seq 2 does not follow seq 2',
      excerpt: c.slice(0, -1),
    },
  ]);
  t.deepEqual(again.sizes, [a.length, b.length, c.length]);
  const gap = scanJournal(bytes(a, rec(5)), 'j');
  t.is(gap.damage[0]?.reason, 'records 2 to 4 are missing before it');
  t.is(gap.verdict, 'corrupt');
  // The file before ended at seq 3: this one must start at 4.
  const first = scanJournal(bytes(rec(6), rec(7)), 'j', 3);
  t.deepEqual(
    first.damage.map((d) => [d.offset, d.afterSeq, d.reason]),
    [[0, undefined, 'records 4 to 5 are missing before it']],
  );
  t.is(scanJournal(bytes(rec(4)), 'j', 3).verdict, 'clean');
  // After a bad line, the next record's seq is not checked (the damage may have taken a record with it).
  const afterBad = scanJournal(bytes(a, 'junk\n', rec(3)), 'j');
  t.deepEqual(
    afterBad.damage.map((d) => d.reason),
    ['not a record (no CRC and space at its start)'],
  );
});

test('a whole last record that is wrong is corrupt even with zero bytes after it', (t) => {
  const a = rec(1);
  t.is(scanJournal(bytes(a, rec(3), Buffer.alloc(16)), 'j').verdict, 'corrupt', 'a gap');
  t.is(scanJournal(bytes(a, rec(1), Buffer.alloc(16)), 'j').verdict, 'corrupt', 'a repeat');
  t.is(
    scanJournal(bytes(a, line('{"seq":2}', { crc: '00000000' })), 'j').verdict,
    'corrupt',
    'a CRC that does not match',
  );
  t.is(scanJournal(bytes(a, '\n'), 'j').verdict, 'corrupt', 'an empty line');
});

test('an empty line at the start is damage, and reading goes on after it', (t) => {
  const s = scanJournal(bytes('\n', rec(1), rec(2)), 'j');
  t.deepEqual(
    s.records.map((r) => r.seq),
    [1, 2],
  );
  t.deepEqual(
    s.damage.map((d) => [d.offset, d.length, d.reason]),
    [[0, 1, 'not a record (no CRC and space at its start)']],
  );
});

test('JournalDamaged names the file, offset, record before, reason, bytes, the whole records after it and the repair', (t) => {
  const a = rec(1);
  const s = scanJournal(bytes(a, 'junk\n', rec(2), rec(3)), '/d/journal.log');
  const e = new JournalDamaged(s);
  t.is(e.name, 'JournalDamaged');
  t.true(e instanceof StorageError);
  t.is(e.following, 2);
  t.is(e.damage, s.damage);
  t.is(
    e.message,
    `the journal is damaged: /d/journal.log at byte ${a.length}, the record after seq 1: not a record (no CRC and space at its start) (5 bytes, "junk"); ` +
      '2 whole record(s) follow it, so this is not a torn tail and nothing was dropped; the file is left as it was. ' +
      `\`npm run storage:check -- DATA_DIR\` lists the damage; \`--truncate-at ${a.length}\` drops it and everything after it.`,
  );
  const first = new JournalDamaged(scanJournal(bytes('junk\n', rec(1)), 'j'));
  t.true(first.message.includes("the record after seq (none: the file's first): "), first.message);
  t.is(
    new JournalDamaged(scanJournal(bytes(a, rec(1)), 'j')).following,
    0,
    'the damaged record itself does not follow it',
  );
});

test('rotatedJournals lists journal.<seq>.log files only, oldest first', async (t) => {
  const dir = tempDir(t);
  for (const f of [
    'journal.log',
    'journal.12.log',
    'journal.3.log',
    'journal.5.log.bak',
    'old-journal.4.log',
    'journal.x.log',
  ])
    writeFileSync(join(dir, f), '');
  t.deepEqual(await rotatedJournals(dir), [
    { seq: 3, path: join(dir, 'journal.3.log') },
    { seq: 12, path: join(dir, 'journal.12.log') },
  ]);
});

// ---- opening the journal ----------------------------------------------------------

test('a clean journal opens without a write: its records, nothing torn, and the directory fsynced', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'journal.log'), bytes(rec(1), rec(2)));
  const calls = spyFiles(t, dir);
  const { journal, records, torn } = await Journal.open(dir);
  t.deepEqual(
    records.map((r) => r.seq),
    [1, 2],
  );
  t.is(torn, 0);
  t.is(journal.size, rec(1).length + rec(2).length);
  t.deepEqual(calls, [
    'readFile journal.log',
    'open(a) journal.log',
    'close journal.log',
    'open(r+) journal.log',
    'open(r) .',
    'sync .',
    'close .',
  ]);
  await journal.close();
});

test('a torn tail is cut off and the cut fsynced before the open returns, which counts the bytes dropped', async (t) => {
  const dir = tempDir(t);
  const whole = bytes(rec(1), rec(2));
  writeFileSync(join(dir, 'journal.log'), bytes(whole, rec(3).slice(0, 25)));
  const calls = spyFiles(t, dir);
  const { journal, records, torn } = await Journal.open(dir);
  t.is(torn, 25);
  t.deepEqual(
    records.map((r) => r.seq),
    [1, 2],
  );
  t.deepEqual(readFileSync(join(dir, 'journal.log')), whole);
  t.deepEqual(calls.slice(4), ['truncate journal.log', 'datasync journal.log', 'open(r) .', 'sync .', 'close .']);
  await journal.close();
});

test('a rotated journal must be whole: a torn tail in one stops the open', async (t) => {
  const dir = tempDir(t);
  const rotated = bytes(rec(1), rec(2).slice(0, 20));
  writeFileSync(join(dir, 'journal.2.log'), rotated);
  const err = await t.throwsAsync(Journal.open(dir), { instanceOf: JournalDamaged });
  t.true(err?.message.includes('journal.2.log at byte'), err?.message);
  t.deepEqual(readFileSync(join(dir, 'journal.2.log')), rotated, 'left as it was');
});

test("the first record must follow the checkpoint's seq (or come before it); the rest follow across files", async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'journal.log'), bytes(rec(9), rec(10)));
  const err = await t.throwsAsync(Journal.open(dir, undefined, 5), { instanceOf: JournalDamaged });
  t.deepEqual(err?.damage[0], {
    file: join(dir, 'journal.log'),
    offset: 0,
    length: rec(9).length,
    afterSeq: undefined,
    reason: 'records 6 to 8 are missing before it (checkpoint.json covers seq 5)',
    excerpt: 'seq 9',
  });
  const ok = await Journal.open(dir, undefined, 8);
  t.deepEqual(
    ok.records.map((r) => r.seq),
    [9, 10],
  );
  await ok.journal.close();
  // A rotated journal the checkpoint already covers (not yet removed) comes before it.
  writeFileSync(join(dir, 'journal.8.log'), bytes(rec(7), rec(8)));
  const older = await Journal.open(dir, undefined, 8);
  t.deepEqual(
    older.records.map((r) => r.seq),
    [7, 8, 9, 10],
  );
  await older.journal.close();
  // Only the first file's first record is checked against the checkpoint; journal.log's follow the rotated one.
  writeFileSync(join(dir, 'journal.log'), bytes(rec(10)));
  const gap = await t.throwsAsync(Journal.open(dir, undefined, 8), { instanceOf: JournalDamaged });
  t.is(gap?.damage[0]?.reason, 'records 9 to 9 are missing before it');
});

test('a journal that cannot be read stops the open (it is not taken for an empty one)', async (t) => {
  const dir = tempDir(t);
  writeFileSync(join(dir, 'journal.log'), bytes(rec(1)));
  spyFiles(t, dir, { file: 'journal.log', readError: 'EIO' });
  await t.throwsAsync(Journal.open(dir), { code: 'EIO' });
  t.deepEqual(readFileSync(join(dir, 'journal.log'), 'latin1'), rec(1));
});

test('a whole record with a gap before zero bytes stops the open, and the journal is left as it was', async (t) => {
  const dir = tempDir(t);
  const buf = bytes(rec(1), rec(3), Buffer.alloc(64));
  writeFileSync(join(dir, 'journal.log'), buf);
  await t.throwsAsync(Journal.open(dir), { instanceOf: JournalDamaged });
  t.deepEqual(readFileSync(join(dir, 'journal.log')), buf);
});

// ---- writing ----------------------------------------------------------------------

test('rotating moves journal.log to journal.<seq>.log, starts an empty one and fsyncs the directory; an empty journal is not rotated', async (t) => {
  const dir = tempDir(t);
  const calls = spyFiles(t, dir);
  const { journal } = await Journal.open(dir);
  let from = calls.length;
  await journal.rotate(4);
  t.deepEqual(calls.slice(from), [], 'nothing to rotate');
  t.deepEqual(readdirSync(dir).sort(), ['journal.log']);
  await journal.append(Buffer.from(rec(5)));
  from = calls.length;
  await journal.rotate(5);
  t.deepEqual(calls.slice(from), [
    'close journal.log',
    'rename journal.log journal.5.log',
    'open(w+) journal.log',
    'open(r) .',
    'sync .',
    'close .',
  ]);
  t.is(journal.size, 0);
  t.deepEqual(readFileSync(join(dir, 'journal.5.log'), 'latin1'), rec(5));
  t.is(statSync(join(dir, 'journal.log')).size, 0);
  await journal.close();
});

test('a closed journal takes no more appends', async (t) => {
  const dir = tempDir(t);
  const { journal } = await Journal.open(dir);
  await journal.close();
  await t.throwsAsync(journal.append(Buffer.from(rec(1))));
  t.is(statSync(join(dir, 'journal.log')).size, 0);
});

test('a failed fsync cuts the journal back to where it was', async (t) => {
  const dir = tempDir(t);
  let fail = false;
  const { journal } = await Journal.open(dir, {
    sync: async (datasync) => {
      if (fail) throw Object.assign(new Error('I/O error'), { code: 'EIO' });
      await datasync();
    },
  });
  await journal.append(Buffer.from(rec(1)));
  fail = true;
  await t.throwsAsync(journal.append(Buffer.from(rec(2))), { message: 'I/O error' });
  t.is(statSync(join(dir, 'journal.log')).size, rec(1).length);
  t.is(journal.size, rec(1).length);
  fail = false;
  await journal.append(Buffer.from(rec(2)));
  t.deepEqual(readFileSync(join(dir, 'journal.log'), 'latin1'), rec(1) + rec(2));
});

test('short writes are continued until every byte is down, each at its place', async (t) => {
  const dir = tempDir(t);
  spyFiles(t, dir, { file: 'journal.log', writeAtMost: 7 });
  const { journal } = await Journal.open(dir);
  const lines = [rec(1), rec(2), rec(3)];
  for (const l of lines) await journal.append(Buffer.from(l));
  t.is(readFileSync(join(dir, 'journal.log'), 'latin1'), lines.join(''));
  await journal.close();
});

test('a write that makes no progress fails with EIO (not a loop), and the journal is cut back', async (t) => {
  const dir = tempDir(t);
  const faults: FileFaults = { file: 'journal.log' };
  spyFiles(t, dir, faults);
  const { journal } = await Journal.open(dir);
  await journal.append(Buffer.from(rec(1)));
  faults.writeAtMost = 0;
  const err = await t.throwsAsync(journal.append(Buffer.from(rec(2))), {
    message: 'the journal write made no progress',
  });
  t.is((err as NodeJS.ErrnoException | undefined)?.code, 'EIO');
  t.is(statSync(join(dir, 'journal.log')).size, rec(1).length);
  await journal.close();
});

test('a write that fails partway is cut back: the bytes it put down are gone', async (t) => {
  const dir = tempDir(t);
  const faults: FileFaults = { file: 'journal.log' };
  spyFiles(t, dir, faults);
  const { journal } = await Journal.open(dir);
  await journal.append(Buffer.from(rec(1)));
  Object.assign(faults, { writeAtMost: 10, failAfterBytes: rec(1).length + 10 });
  await t.throwsAsync(journal.append(Buffer.from(rec(2))), { code: 'ENOSPC' });
  t.is(statSync(join(dir, 'journal.log')).size, rec(1).length);
  await journal.close();
});

test('a store whose journal write fails logs the error code; a reopened store has only what was acknowledged', async (t) => {
  const dir = tempDir(t);
  const events: Array<[string, Record<string, unknown>]> = [];
  const faults: FileFaults = { file: 'journal.log' };
  spyFiles(t, dir, faults);
  const a = await FileStorage.open({ dir, log: (e, d) => events.push([e, d]) });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  faults.writeAtMost = 0;
  await t.throwsAsync(a.commit({ players: [{ state: bump(player(1), 3), expectedVersion: 0 }] }), {
    instanceOf: StorageError,
  });
  t.deepEqual(
    events.filter(([e]) => e === 'journal.write_failed'),
    [['journal.write_failed', { error: 'EIO' }]],
  );
  faults.writeAtMost = undefined;
  t.true(
    (await a.commit({ players: [{ state: bump(player(1), 4), expectedVersion: 0 }] })).ok,
    'the refused commit changed no version',
  );
  await a.close();
  const b = await FileStorage.open({ dir });
  t.is((await b.load(1))?.gold, 4);
  await b.close();
});
