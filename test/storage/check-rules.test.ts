// check.ts in process (the storage:check CLI's test runs it in a child process): what
// checkDataDir reports for each kind of file and damage, the text formatReport prints,
// and each rule of truncateJournalAt, the one repair (the dropped bytes kept aside,
// the journal cut at a record's start). Data is written by hand, record by record.
import test from 'ava';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkDataDir, formatReport, truncateJournalAt, type CheckReport } from '../../adapters/storage/check.js';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import { seal } from '../../adapters/storage/sealed.js';
import { freshPlayer } from '../_support/core.js';
import { spyFiles, tempDir } from '../_support/fs-spy.js';

/** A journal record's line (the same framing as a sealed file: CRC, space, JSON, line feed). */
const rec = (seq: number): string => seal(JSON.stringify({ seq, players: [], sessions: [] }));
const recs = (...seqs: number[]): string => seqs.map(rec).join('');
const len = (s: string): number => Buffer.byteLength(s);
const put = (dir: string, name: string, text: string | Buffer): void => writeFileSync(join(dir, name), text);
const writeCheckpoint = (dir: string, seq: number): void =>
  put(dir, 'checkpoint.json', seal(JSON.stringify({ seq, index: {} })));
const snapshot = (dir: string, shard: number, name: string, text: string): string => {
  mkdirSync(join(dir, 'players', String(shard)), { recursive: true });
  const path = join(dir, 'players', String(shard), name);
  writeFileSync(path, text);
  return path;
};
const stateJson = (id: number): string => canonicalJson(freshPlayer({ playerId: id, seed: `p${id}` }));
const damagedFile = (path: string, reason: string): string =>
  `${path} is damaged: ${reason}; it is not read (npm run storage:check -- DATA_DIR lists every damaged file)`;
const TORN = 'a torn tail (a write a crash cut short; the next start drops it): ';

// ---------------------------------------------------------------- checkDataDir

test('a clean directory: the checkpoint seq, every journal (rotated first; no seqs when it has no records) and the snapshots counted', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  writeCheckpoint(dir, 2);
  // Rotated journals, oldest first by their seq (5 before 7, 7 before 12: numerically); an empty one between.
  put(dir, 'journal.5.log', recs(3, 4, 5));
  put(dir, 'journal.7.log', '');
  put(dir, 'journal.12.log', recs(6, 7, 8));
  put(dir, 'journal.log', recs(9, 10));
  snapshot(dir, 1, '1.json', seal(stateJson(1)));
  snapshot(dir, 2, '2.json', stateJson(2)); // written before checksums
  const r = await checkDataDir(dir);
  t.deepEqual(r, {
    dir,
    checkpointSeq: 2,
    journals: [
      {
        file: join(dir, 'journal.5.log'),
        bytes: len(recs(3, 4, 5)),
        records: 3,
        firstSeq: 3,
        lastSeq: 5,
        verdict: 'clean',
      },
      { file: join(dir, 'journal.7.log'), bytes: 0, records: 0, verdict: 'clean' },
      {
        file: join(dir, 'journal.12.log'),
        bytes: len(recs(6, 7, 8)),
        records: 3,
        firstSeq: 6,
        lastSeq: 8,
        verdict: 'clean',
      },
      {
        file: join(dir, 'journal.log'),
        bytes: len(recs(9, 10)),
        records: 2,
        firstSeq: 9,
        lastSeq: 10,
        verdict: 'clean',
      },
    ],
    snapshots: { checked: 2, legacy: 1, damaged: 0 },
    problems: [],
    damaged: false,
  });
  t.false('firstSeq' in (r.journals[1] as object));
  t.false('lastSeq' in (r.journals[1] as object));
  t.is(
    formatReport(r),
    [
      `${dir}: checkpoint at seq 2`,
      `  journal.5.log: ${len(recs(3, 4, 5))} bytes, 3 whole records (seq 3 to 5), clean`,
      '  journal.7.log: 0 bytes, 0 whole records, clean',
      `  journal.12.log: ${len(recs(6, 7, 8))} bytes, 3 whole records (seq 6 to 8), clean`,
      `  journal.log: ${len(recs(9, 10))} bytes, 2 whole records (seq 9 to 10), clean`,
      '  snapshots: 2 checked, 0 damaged, 1 written before checksums',
      'no damage found',
    ].join('\n'),
  );
});

test('a journal whose records start at or before the checkpoint (a rotated journal not yet removed) is no problem', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  writeCheckpoint(dir, 4);
  put(dir, 'journal.3.log', recs(1, 2, 3));
  put(dir, 'journal.log', recs(4, 5));
  const r = await checkDataDir(dir);
  t.is(r.checkpointSeq, 4);
  t.deepEqual(r.problems, []);
  t.false(r.damaged);
});

test('no checkpoint.json, no journal.log, no players directory: an empty report, nothing damaged', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  const r = await checkDataDir(dir);
  t.deepEqual(r, {
    dir,
    checkpointSeq: 0,
    journals: [],
    snapshots: { checked: 0, legacy: 0, damaged: 0 },
    problems: [],
    damaged: false,
  });
  t.is(
    formatReport(r),
    [
      `${dir}: checkpoint at seq 0`,
      '  snapshots: 0 checked, 0 damaged, 0 written before checksums',
      'no damage found',
    ].join('\n'),
  );
});

test('a damaged checkpoint.json is a problem with its message; the journals are still read (from seq 0)', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'checkpoint.json', 'not a checkpoint\n');
  put(dir, 'journal.log', recs(1, 2));
  const r = await checkDataDir(dir);
  t.is(r.checkpointSeq, 0);
  t.deepEqual(r.problems, [
    {
      file: join(dir, 'checkpoint.json'),
      reason: damagedFile(join(dir, 'checkpoint.json'), 'it does not start with a CRC and a space'),
    },
  ]);
  t.is(r.journals.length, 1);
  t.true(r.damaged);
});

test('a checkpoint.json that cannot be read (EIO) is a problem naming it', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  writeCheckpoint(dir, 3);
  spyFiles(t, dir, { file: 'checkpoint.json', readError: 'EIO' });
  const r = await checkDataDir(dir);
  t.is(r.checkpointSeq, 0);
  t.deepEqual(r.problems, [
    { file: join(dir, 'checkpoint.json'), reason: `cannot read ${join(dir, 'checkpoint.json')}` },
  ]);
  t.true(r.damaged);
});

test('a journal that cannot be read for another reason than its absence (EIO) stops the check with that error', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.log', recs(1));
  spyFiles(t, dir, { file: 'journal.log', readError: 'EIO' });
  await t.throwsAsync(checkDataDir(dir), { message: 'EIO: the read failed' });
});

test('records missing between the checkpoint and the first journal record: a problem on that record, with the numbers; not repeated for a later journal', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  writeCheckpoint(dir, 2);
  put(dir, 'journal.6.log', recs(5, 6));
  put(dir, 'journal.log', recs(7, 8));
  const r = await checkDataDir(dir);
  t.deepEqual(r.problems, [
    {
      file: join(dir, 'journal.6.log'),
      offset: 0,
      length: len(rec(5)),
      reason: 'records 3 to 4 are missing before it (checkpoint.json covers seq 2)',
    },
  ]);
  t.true(r.damaged);
  t.deepEqual(
    r.journals.map((j) => j.verdict),
    ['clean', 'clean'],
  );
  // The first journal checked against the checkpoint is the first with records: an empty rotated one is passed over.
  const d2 = tempDir(t, 'hoshi-check-');
  put(d2, 'journal.1.log', '');
  put(d2, 'journal.log', recs(3, 4));
  t.deepEqual((await checkDataDir(d2)).problems, [
    {
      file: join(d2, 'journal.log'),
      offset: 0,
      length: len(rec(3)),
      reason: 'records 1 to 2 are missing before it (checkpoint.json covers seq 0)',
    },
  ]);
});

test('the last seq of a journal carries over to the next (past a journal with no records): a gap across files is damage in the later one', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.4.log', recs(1, 2, 3, 4));
  put(dir, 'journal.5.log', '');
  put(dir, 'journal.log', recs(7));
  const r = await checkDataDir(dir);
  const path = join(dir, 'journal.log');
  t.deepEqual(r.problems, [
    {
      file: path,
      offset: 0,
      length: len(rec(7)),
      reason: `the record after seq (none: the file's first): records 5 to 6 are missing before it ("${rec(7).trimEnd()}")`,
    },
  ]);
  t.deepEqual(
    r.journals.map((j) => j.verdict),
    ['clean', 'clean', 'corrupt'],
  );
  t.true(r.damaged);
});

test('a torn tail in journal.log is reported torn (not damage), with the seq before it', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  const cut = rec(3).slice(0, 20);
  put(dir, 'journal.log', recs(1, 2) + cut);
  const r = await checkDataDir(dir);
  const path = join(dir, 'journal.log');
  t.deepEqual(r.problems, [
    {
      file: path,
      offset: len(recs(1, 2)),
      length: 20,
      reason: `${TORN}the record after seq 2: cut short (no line feed at its end) ("${cut}")`,
      torn: true,
    },
  ]);
  t.deepEqual(r.journals, [
    { file: path, bytes: len(recs(1, 2)) + 20, records: 2, firstSeq: 1, lastSeq: 2, verdict: 'torn' },
  ]);
  t.false(r.damaged);
  t.is(
    formatReport(r),
    [
      `${dir}: checkpoint at seq 0`,
      `  journal.log: ${len(recs(1, 2)) + 20} bytes, 2 whole records (seq 1 to 2), torn`,
      '  snapshots: 0 checked, 0 damaged, 0 written before checksums',
      `TORN ${path} at byte ${len(recs(1, 2))} (20 bytes): ${TORN}the record after seq 2: cut short (no line feed at its end) ("${cut}")`,
    ].join('\n'),
  );
});

test('the same tail in a rotated journal is damage, never torn (a rotated journal was whole)', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  const cut = rec(2).slice(0, 30);
  put(dir, 'journal.2.log', rec(1) + cut);
  put(dir, 'journal.log', rec(2));
  const r = await checkDataDir(dir);
  const path = join(dir, 'journal.2.log');
  t.deepEqual(r.problems, [
    {
      file: path,
      offset: len(rec(1)),
      length: 30,
      reason: `the record after seq 1: cut short (no line feed at its end) ("${cut}")`,
    },
  ]);
  t.false('torn' in (r.problems[0] as object));
  t.is(r.journals[0]?.verdict, 'torn');
  t.true(r.damaged);
});

test('damage at a journal\'s start is "after seq (none: the file\'s first)"; damage is not torn when whole records follow it', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.log', `garbage\n${recs(1, 2)}`);
  const r = await checkDataDir(dir);
  const path = join(dir, 'journal.log');
  t.deepEqual(r.problems, [
    {
      file: path,
      offset: 0,
      length: 8,
      reason:
        'the record after seq (none: the file\'s first): not a record (no CRC and space at its start) ("garbage")',
    },
  ]);
  t.deepEqual(r.journals, [
    { file: path, bytes: 8 + len(recs(1, 2)), records: 2, firstSeq: 1, lastSeq: 2, verdict: 'corrupt' },
  ]);
  t.true(r.damaged);
});

test('snapshots: shards in numeric order, files in numeric order, only <digits>.json; legacy counted; each damaged one with its message', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  const p = (shard: number, name: string) => join(dir, 'players', String(shard), name);
  // Made in an order that is neither numeric nor by name.
  snapshot(dir, 100, '100.json', seal('{"broken":'));
  snapshot(dir, 10, '10.json', seal('{"not":"a state"}'));
  snapshot(dir, 3, '259.json', '{"legacy and broken":');
  snapshot(dir, 3, '1027.json', seal(stateJson(5)));
  const good3 = seal(stateJson(3));
  snapshot(dir, 3, '3.json', `${good3[0] === '0' ? '1' : '0'}${good3.slice(1)}`); // a CRC digit changed
  snapshot(dir, 2, '1026.json', seal(stateJson(9)));
  snapshot(dir, 2, '258.json', stateJson(258)); // legacy, good
  snapshot(dir, 2, '2.json', seal(stateJson(2)));
  snapshot(dir, 20, '276.json', seal(stateJson(7)));
  snapshot(dir, 20, '20.json', seal(stateJson(8)));
  // Not snapshots: never read (each would be damage if it were).
  for (const name of ['2.json.tmp', 'x2.json', 'a.json', '2.jsonx', '.json', '2.JSON']) snapshot(dir, 2, name, 'junk');
  // A shard that is a file, not a directory: skipped.
  writeFileSync(join(dir, 'players', '5'), 'junk');
  const r = await checkDataDir(dir);
  t.deepEqual(r.problems, [
    { file: p(2, '1026.json'), reason: `${p(2, '1026.json')} is damaged: it holds player 9`, playerId: 1026 },
    { file: p(3, '3.json'), reason: damagedFile(p(3, '3.json'), 'its CRC does not match its bytes'), playerId: 3 },
    { file: p(3, '259.json'), reason: `${p(3, '259.json')} is damaged: its JSON does not parse`, playerId: 259 },
    { file: p(3, '1027.json'), reason: `${p(3, '1027.json')} is damaged: it holds player 5`, playerId: 1027 },
    {
      file: p(10, '10.json'),
      reason: `${p(10, '10.json')} is damaged: it does not decode as a player state`,
      playerId: 10,
    },
    { file: p(20, '20.json'), reason: `${p(20, '20.json')} is damaged: it holds player 8`, playerId: 20 },
    { file: p(20, '276.json'), reason: `${p(20, '276.json')} is damaged: it holds player 7`, playerId: 276 },
    { file: p(100, '100.json'), reason: `${p(100, '100.json')} is damaged: its JSON does not parse`, playerId: 100 },
  ]);
  t.deepEqual(r.snapshots, { checked: 10, legacy: 2, damaged: 8 });
  t.true(r.damaged);
  t.deepEqual(r.journals, []);
  t.true(
    formatReport(r).endsWith(
      [
        '  snapshots: 10 checked, 8 damaged, 2 written before checksums',
        `DAMAGED ${p(2, '1026.json')}: ${p(2, '1026.json')} is damaged: it holds player 9`,
        `DAMAGED ${p(3, '3.json')}: ${damagedFile(p(3, '3.json'), 'its CRC does not match its bytes')}`,
        `DAMAGED ${p(3, '259.json')}: ${p(3, '259.json')} is damaged: its JSON does not parse`,
        `DAMAGED ${p(3, '1027.json')}: ${p(3, '1027.json')} is damaged: it holds player 5`,
        `DAMAGED ${p(10, '10.json')}: ${p(10, '10.json')} is damaged: it does not decode as a player state`,
        `DAMAGED ${p(20, '20.json')}: ${p(20, '20.json')} is damaged: it holds player 8`,
        `DAMAGED ${p(20, '276.json')}: ${p(20, '276.json')} is damaged: it holds player 7`,
        `DAMAGED ${p(100, '100.json')}: ${p(100, '100.json')} is damaged: its JSON does not parse`,
        '',
        "A damaged snapshot's player answers 503/105 until it is replaced. With the server stopped, rebuild each from the replay log and the journal (checked against the log's state hashes; the damaged file is kept as <id>.json.damaged), or add --from EXPORT to restore it from an export:",
        ...[1026, 3, 259, 1027, 10, 20, 276, 100].map(
          (id) => `  npm run storage:repair -- --data ${dir} --player ${id}`,
        ),
      ].join('\n'),
    ),
    formatReport(r),
  );
});

test('only good snapshots, sealed and legacy: counted, no problem', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  snapshot(dir, 4, '4.json', stateJson(4));
  snapshot(dir, 4, '260.json', stateJson(260));
  snapshot(dir, 7, '7.json', seal(stateJson(7)));
  const r = await checkDataDir(dir);
  t.deepEqual(r.snapshots, { checked: 3, legacy: 2, damaged: 0 });
  t.deepEqual(r.problems, []);
  t.false(r.damaged);
});

test('damaged is true when a non-torn problem is listed beside a torn tail', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.log', rec(1) + rec(2).slice(0, 12));
  snapshot(dir, 1, '1.json', seal(stateJson(2)));
  const r = await checkDataDir(dir);
  t.deepEqual(
    r.problems.map((x) => x.torn === true),
    [true, false],
  );
  t.true(r.damaged);
});

// ---------------------------------------------------------------- formatReport

const report = (problems: CheckReport['problems']): CheckReport => ({
  dir: '/data',
  checkpointSeq: 7,
  journals: [
    { file: '/data/journal.9.log', bytes: 300, records: 2, firstSeq: 8, lastSeq: 9, verdict: 'corrupt' },
    { file: '/data/journal.log', bytes: 12, records: 0, verdict: 'torn' },
  ],
  snapshots: { checked: 5, legacy: 1, damaged: 2 },
  problems,
  damaged: true,
});
const HEAD = [
  '/data: checkpoint at seq 7',
  '  journal.9.log: 300 bytes, 2 whole records (seq 8 to 9), corrupt',
  '  journal.log: 12 bytes, 0 whole records, torn',
  '  snapshots: 5 checked, 2 damaged, 1 written before checksums',
];

test('formatReport: each problem on its line (torn or damaged, with its offset when it has one), then the repair for the first damaged journal record', (t) => {
  const text = formatReport(
    report([
      { file: '/data/checkpoint.json', reason: 'cp bad' },
      { file: '/data/journal.log', offset: 0, length: 12, reason: 'torn one', torn: true },
      { file: '/data/journal.9.log', offset: 150, length: 40, reason: 'crc' },
      { file: '/data/journal.log', offset: 30, length: 5, reason: 'later' },
      { file: '/data/players/1/1.json', reason: 'snap bad' },
    ]),
  );
  t.is(
    text,
    [
      ...HEAD,
      'DAMAGED /data/checkpoint.json: cp bad',
      'TORN /data/journal.log at byte 0 (12 bytes): torn one',
      'DAMAGED /data/journal.9.log at byte 150 (40 bytes): crc',
      'DAMAGED /data/journal.log at byte 30 (5 bytes): later',
      'DAMAGED /data/players/1/1.json: snap bad',
      '',
      'The store will not open past this. To drop the damaged records and every record after them (the bytes are kept in a .dropped-at file):',
      '  npm run storage:check -- /data --file journal.9.log --truncate-at 150',
    ].join('\n'),
  );
});

test('formatReport: no repair hint when the only problems are a torn tail and files without offsets', (t) => {
  const text = formatReport(
    report([
      { file: '/data/players/1/1.json', reason: 'snap bad' },
      { file: '/data/journal.log', offset: 4, length: 8, reason: 'torn one', torn: true },
    ]),
  );
  t.is(
    text,
    [...HEAD, 'DAMAGED /data/players/1/1.json: snap bad', 'TORN /data/journal.log at byte 4 (8 bytes): torn one'].join(
      '\n',
    ),
  );
});

test('formatReport: a journal problem at byte 0 is still named in the hint', (t) => {
  const text = formatReport(report([{ file: '/data/journal.log', offset: 0, length: 3, reason: 'x' }]));
  t.is(
    text,
    [
      ...HEAD,
      'DAMAGED /data/journal.log at byte 0 (3 bytes): x',
      '',
      'The store will not open past this. To drop the damaged records and every record after them (the bytes are kept in a .dropped-at file):',
      '  npm run storage:check -- /data --file journal.log --truncate-at 0',
    ].join('\n'),
  );
});

// ---------------------------------------------------------------- truncateJournalAt

/** journal.3.log (1–3), journal.5.log (4–5), journal.log (6–8). */
const journals = (t: import('ava').ExecutionContext): string => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.3.log', recs(1, 2, 3));
  put(dir, 'journal.5.log', recs(4, 5));
  put(dir, 'journal.log', recs(6, 7, 8));
  return dir;
};
const bytesOf = (dir: string, name: string): string => readFileSync(join(dir, name), 'latin1');

test('truncateJournalAt: a name that is not one of the journals is refused, listing them; nothing is written', async (t) => {
  const dir = journals(t);
  await t.throwsAsync(truncateJournalAt(dir, 'journal.4.log', 0), {
    message: `journal.4.log is not a journal of ${dir} (journal.3.log, journal.5.log, journal.log)`,
  });
  t.deepEqual(readdirSync(dir).sort(), ['journal.3.log', 'journal.5.log', 'journal.log']);
});

test('truncateJournalAt: an offset outside the file (negative, not an integer, past its end) or not after a line feed is refused; nothing is written', async (t) => {
  const dir = journals(t);
  const size = len(recs(6, 7, 8));
  for (const offset of [-1, 1.5, size + 1, Number.NaN]) {
    await t.throwsAsync(truncateJournalAt(dir, 'journal.log', offset), {
      message: `offset ${offset} is outside journal.log (${size} bytes)`,
    });
  }
  for (const offset of [1, len(rec(6)) - 1, len(rec(6)) + 1, size - 1]) {
    await t.throwsAsync(truncateJournalAt(dir, 'journal.log', offset), {
      message: `offset ${offset} is not at the start of a record in journal.log (the byte before it is not a line feed); storage:check gives the offsets`,
    });
  }
  t.deepEqual(readdirSync(dir).sort(), ['journal.3.log', 'journal.5.log', 'journal.log']);
  t.is(bytesOf(dir, 'journal.log'), recs(6, 7, 8));
});

test('truncateJournalAt: at offset 0 every record of the file is dropped, kept in .dropped-at-0', async (t) => {
  const dir = journals(t);
  const r = await truncateJournalAt(dir, 'journal.log', 0);
  t.deepEqual(r, { dropped: 3, keptIn: [join(dir, 'journal.log.dropped-at-0')] });
  t.is(bytesOf(dir, 'journal.log'), '');
  t.is(bytesOf(dir, 'journal.log.dropped-at-0'), recs(6, 7, 8));
  t.is(bytesOf(dir, 'journal.3.log'), recs(1, 2, 3));
  t.is(bytesOf(dir, 'journal.5.log'), recs(4, 5));
});

test("truncateJournalAt: at the file's end nothing is dropped; an empty .dropped-at file is written and the file kept whole", async (t) => {
  const dir = journals(t);
  const size = len(recs(6, 7, 8));
  const r = await truncateJournalAt(dir, 'journal.log', size);
  t.deepEqual(r, { dropped: 0, keptIn: [join(dir, `journal.log.dropped-at-${size}`)] });
  t.is(bytesOf(dir, 'journal.log'), recs(6, 7, 8));
  t.is(bytesOf(dir, `journal.log.dropped-at-${size}`), '');
  t.deepEqual(readdirSync(dir).sort(), [
    'journal.3.log',
    'journal.5.log',
    'journal.log',
    `journal.log.dropped-at-${size}`,
  ]);
});

test('truncateJournalAt in a rotated journal: its tail kept aside, later rotated journals renamed .dropped-at-0, journal.log copied aside and emptied', async (t) => {
  const dir = journals(t);
  const at = len(rec(1));
  const r = await truncateJournalAt(dir, 'journal.3.log', at);
  // Records 2 and 3 from this file (the one at the offset included), 4–5 and 6–8 from the later ones.
  t.deepEqual(r, {
    dropped: 7,
    keptIn: [
      join(dir, `journal.3.log.dropped-at-${at}`),
      join(dir, 'journal.5.log.dropped-at-0'),
      join(dir, 'journal.log.dropped-at-0'),
    ],
  });
  t.is(bytesOf(dir, 'journal.3.log'), rec(1));
  t.is(bytesOf(dir, `journal.3.log.dropped-at-${at}`), recs(2, 3));
  t.is(bytesOf(dir, 'journal.5.log.dropped-at-0'), recs(4, 5));
  t.is(bytesOf(dir, 'journal.log.dropped-at-0'), recs(6, 7, 8));
  t.is(bytesOf(dir, 'journal.log'), '');
  t.deepEqual(readdirSync(dir).sort(), [
    'journal.3.log',
    `journal.3.log.dropped-at-${at}`,
    'journal.5.log.dropped-at-0',
    'journal.log',
    'journal.log.dropped-at-0',
  ]);
  // What is left checks clean.
  const after = await checkDataDir(dir);
  t.deepEqual(after.problems, []);
  t.deepEqual(
    after.journals.map((j) => [j.file, j.records]),
    [
      [join(dir, 'journal.3.log'), 1],
      [join(dir, 'journal.log'), 0],
    ],
  );
});

test('truncateJournalAt: whole records only are counted as dropped (damaged lines are not records)', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.log', `${rec(1)}garbage\n${recs(2, 3)}`);
  const r = await truncateJournalAt(dir, 'journal.log', len(rec(1)));
  t.is(r.dropped, 2);
  t.is(bytesOf(dir, 'journal.log'), rec(1));
  t.is(bytesOf(dir, `journal.log.dropped-at-${len(rec(1))}`), `garbage\n${recs(2, 3)}`);
  // A cut past the damage drops only what follows the offset.
  const d2 = tempDir(t, 'hoshi-check-');
  put(d2, 'journal.log', `${rec(1)}garbage\n${recs(2, 3)}`);
  t.is((await truncateJournalAt(d2, 'journal.log', len(rec(1)) + 8 + len(rec(2)))).dropped, 1);
});

test('truncateJournalAt: an existing .dropped-at file is never overwritten: the next free .1, .2 is used', async (t) => {
  const dir = journals(t);
  const at = len(rec(6));
  put(dir, `journal.log.dropped-at-${at}`, 'first');
  put(dir, `journal.log.dropped-at-${at}.1`, 'second');
  const r = await truncateJournalAt(dir, 'journal.log', at);
  t.deepEqual(r, { dropped: 2, keptIn: [join(dir, `journal.log.dropped-at-${at}.2`)] });
  t.is(bytesOf(dir, `journal.log.dropped-at-${at}`), 'first');
  t.is(bytesOf(dir, `journal.log.dropped-at-${at}.1`), 'second');
  t.is(bytesOf(dir, `journal.log.dropped-at-${at}.2`), recs(7, 8));
  t.is(bytesOf(dir, 'journal.log'), rec(6));
  t.false(existsSync(join(dir, `journal.log.dropped-at-${at}.3`)));
});

test('truncateJournalAt: a later journal.log copied aside takes the next free .dropped-at-0 name', async (t) => {
  const dir = journals(t);
  put(dir, 'journal.log.dropped-at-0', 'older');
  const at = len(rec(4));
  const r = await truncateJournalAt(dir, 'journal.5.log', at);
  t.deepEqual(r, {
    dropped: 4,
    keptIn: [join(dir, `journal.5.log.dropped-at-${at}`), join(dir, 'journal.log.dropped-at-0.1')],
  });
  t.is(bytesOf(dir, 'journal.log.dropped-at-0'), 'older');
  t.is(bytesOf(dir, 'journal.log.dropped-at-0.1'), recs(6, 7, 8));
  t.is(bytesOf(dir, `journal.5.log.dropped-at-${at}`), rec(5));
  t.is(bytesOf(dir, 'journal.5.log'), rec(4));
  t.is(bytesOf(dir, 'journal.3.log'), recs(1, 2, 3));
  t.is(bytesOf(dir, 'journal.log'), '');
});

test('truncateJournalAt in a rotated journal when journal.log is missing (a crash mid-rotation): the repair storage:check prints works', async (t) => {
  const dir = tempDir(t, 'hoshi-check-');
  put(dir, 'journal.3.log', `${rec(1)}garbage\n${recs(2, 3)}`);
  put(dir, 'journal.5.log', recs(4, 5));
  const at = len(rec(1));
  const hint = formatReport(await checkDataDir(dir))
    .split('\n')
    .at(-1);
  t.is(hint, `  npm run storage:check -- ${dir} --file journal.3.log --truncate-at ${at}`);
  const r = await truncateJournalAt(dir, 'journal.3.log', at);
  t.deepEqual(r, {
    dropped: 4,
    keptIn: [join(dir, `journal.3.log.dropped-at-${at}`), join(dir, 'journal.5.log.dropped-at-0')],
  });
  t.is(bytesOf(dir, 'journal.3.log'), rec(1));
  t.is(bytesOf(dir, `journal.3.log.dropped-at-${at}`), `garbage\n${recs(2, 3)}`);
  t.is(bytesOf(dir, 'journal.5.log.dropped-at-0'), recs(4, 5));
  t.deepEqual(readdirSync(dir).sort(), [
    'journal.3.log',
    `journal.3.log.dropped-at-${at}`,
    'journal.5.log.dropped-at-0',
  ]);
  t.deepEqual((await checkDataDir(dir)).problems, []);
});

test('truncateJournalAt: a later journal that cannot be read (EIO) stops the repair with that error, before the journal is cut', async (t) => {
  const dir = journals(t);
  spyFiles(t, dir, { file: 'journal.log', readError: 'EIO' });
  await t.throwsAsync(truncateJournalAt(dir, 'journal.5.log', len(rec(4))), { message: 'EIO: the read failed' });
  t.is(bytesOf(dir, 'journal.5.log'), recs(4, 5));
});

test('truncateJournalAt: every file written is fsynced and closed, each aside before the journal is cut, and the directory synced last', async (t) => {
  const dir = journals(t);
  const events = spyFiles(t, dir);
  const at = len(rec(1));
  await truncateJournalAt(dir, 'journal.3.log', at);
  t.deepEqual(events, [
    'readFile journal.3.log',
    `open(wx) journal.3.log.dropped-at-${at}`,
    `writeFile journal.3.log.dropped-at-${at}`,
    `sync journal.3.log.dropped-at-${at}`,
    `close journal.3.log.dropped-at-${at}`,
    'readFile journal.5.log',
    'rename journal.5.log journal.5.log.dropped-at-0',
    'readFile journal.log',
    'open(wx) journal.log.dropped-at-0',
    'writeFile journal.log.dropped-at-0',
    'sync journal.log.dropped-at-0',
    'close journal.log.dropped-at-0',
    'open(r+) journal.log',
    'truncate journal.log',
    'sync journal.log',
    'close journal.log',
    'open(r+) journal.3.log',
    'truncate journal.3.log',
    'sync journal.3.log',
    'close journal.3.log',
    'open(r) .',
    'sync .',
    'close .',
  ]);
});
