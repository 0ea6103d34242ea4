// storage:check's look at the replay log (issue 36, oplog-check.ts): the kept
// segments in order with their entries and seqs, the archive counted; a seq that does
// not follow, a line that does not parse in a sealed segment, a misnamed segment and
// entries neither archived nor kept are damage; a torn last line of oplog.jsonl is
// torn (the next start cuts it). A directory of one oplog.jsonl reads as before.
import test, { type ExecutionContext } from 'ava';
import { appendFileSync, cpSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkDataDir, formatReport } from '../../adapters/storage/check.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { archiveName } from '../../adapters/storage/oplog-archive.js';
import { segmentName } from '../../adapters/storage/oplog-segments.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { tempDir } from '../_support/fs-spy.js';

const DAY = 86_400_000;
const T0 = 1_800_000_000_000;
const FIXTURE = fileURLToPath(new URL('../fixtures/journal-v1/', import.meta.url));

/** Segments of three entries each at days 1, 2, 3 (sealed at each close), entry 10 live at day 9. */
const segmented = async (t: ExecutionContext): Promise<string> => {
  const dir = tempDir(t, 'hoshi-oplog-check-');
  let p: PlayerState = freshPlayer({ playerId: 1, seed: 'p1' });
  let created = false;
  const run = (at: number): LogRun => ({
    kind: 'op',
    at,
    masterHash: 'm',
    op: 'loginPlayer',
    playerId: 1,
    request: {},
    seed: '',
    others: [],
  });
  const step = async (s: FileStorage, at: number) => {
    const next = created ? { ...p, gold: p.gold + 1, version: p.version + 1 } : p;
    const r = await s.commit({ players: [{ state: next, expectedVersion: created ? p.version : null }], log: run(at) });
    if (!r.ok) throw new Error(r.detail);
    p = next;
    created = true;
  };
  for (const d of [1, 2, 3]) {
    const s = await FileStorage.open({ dir, oplogSegmentBytes: 1 });
    for (let i = 0; i < 3; i++) await step(s, T0 + d * DAY);
    await s.close();
  }
  const s = await FileStorage.open({ dir });
  await step(s, T0 + 9 * DAY);
  await s.close();
  return dir;
};
const seg = (dir: string, first: number) => join(dir, 'oplog', segmentName(first));
const size = (path: string) => statSync(path).size;

test('a clean segmented log: its segments in order with their entries and seqs, then oplog.jsonl, and the archive counted; nothing damaged', async (t) => {
  const dir = await segmented(t);
  const s = await FileStorage.open({ dir, replayLogRetentionMs: DAY, clock: () => T0 + 3 * DAY });
  await s.archiveLog();
  await s.close();
  const r = await checkDataDir(dir);
  t.deepEqual(r.problems, []);
  t.false(r.damaged);
  const gz = join(dir, 'oplog-archive', archiveName(1, 3));
  t.deepEqual(r.replayLog, {
    files: [
      { file: seg(dir, 4), bytes: size(seg(dir, 4)), entries: 3, firstSeq: 4, lastSeq: 6 },
      { file: seg(dir, 7), bytes: size(seg(dir, 7)), entries: 3, firstSeq: 7, lastSeq: 9 },
      { file: join(dir, 'oplog.jsonl'), bytes: size(join(dir, 'oplog.jsonl')), entries: 1, firstSeq: 10, lastSeq: 10 },
    ],
    archives: { files: 1, bytes: size(gz), lastSeq: 3 },
  });
  const text = formatReport(r);
  t.true(
    text.includes(
      [
        `  oplog/${segmentName(4)}: ${size(seg(dir, 4))} bytes, 3 entries (seq 4 to 6)`,
        `  oplog/${segmentName(7)}: ${size(seg(dir, 7))} bytes, 3 entries (seq 7 to 9)`,
        `  oplog.jsonl: ${size(join(dir, 'oplog.jsonl'))} bytes, 1 entries (seq 10 to 10)`,
        `  oplog-archive: 1 archived segment, ${size(gz)} bytes (to seq 3)`,
      ].join('\n'),
    ),
    text,
  );
  t.true(text.endsWith('no damage found'));
});

test('a directory of one oplog.jsonl (journal-v1) is one file of the log; one without any log has no replay-log part', async (t) => {
  const dir = tempDir(t, 'hoshi-oplog-check-');
  cpSync(FIXTURE, dir, { recursive: true });
  const r = await checkDataDir(dir);
  t.is(r.replayLog?.files.length, 1);
  t.like(r.replayLog?.files[0], { file: join(dir, 'oplog.jsonl'), firstSeq: 1 });
  t.deepEqual(r.replayLog?.archives, { files: 0, bytes: 0 });
  t.false(r.damaged);
  t.true(formatReport(r).includes('  oplog-archive: 0 archived segments, 0 bytes\n'));
  const empty = tempDir(t, 'hoshi-oplog-check-');
  t.false('replayLog' in (await checkDataDir(empty)));
});

test('damage: an entry missing from a sealed segment, a line that does not parse, a line cut short in a sealed segment, a misnamed segment, entries neither archived nor kept', async (t) => {
  const dir = await segmented(t);
  const lines = readFileSync(seg(dir, 4), 'utf8').split('\n');
  // Entry 5 gone: 6 follows 4.
  writeFileSync(seg(dir, 4), [lines[0], lines[2], ''].join('\n'));
  // A line of segment 7 that does not parse, then a whole one.
  const seven = readFileSync(seg(dir, 7), 'utf8').split('\n');
  writeFileSync(seg(dir, 7), [seven[0], '{not json', seven[2], ''].join('\n'));
  const r = await checkDataDir(dir);
  t.true(r.damaged);
  t.deepEqual(
    r.problems.map((p) => [p.file, p.reason]),
    [
      [seg(dir, 4), 'entry 6 follows entry 4 (entries missing, or out of order)'],
      [
        seg(dir, 7),
        `the line at byte ${Buffer.byteLength(`${seven[0]}\n`)} does not parse; the lines after it are not read`,
      ],
      [join(dir, 'oplog.jsonl'), 'entry 10 follows entry 7 (entries missing, or out of order)'],
    ],
  );
  t.true(formatReport(r).includes(`DAMAGED ${seg(dir, 4)}: entry 6 follows entry 4`));
  t.false(formatReport(r).includes('--truncate-at'), 'no journal repair is offered for the log');

  const d2 = await segmented(t);
  appendFileSync(seg(d2, 7), '{"seq":10,"cut');
  renameSync(seg(d2, 4), seg(d2, 5));
  mkdirSync(join(d2, 'oplog-archive'));
  writeFileSync(join(d2, 'oplog-archive', archiveName(1, 2)), '');
  rmSync(seg(d2, 1));
  const r2 = await checkDataDir(d2);
  t.deepEqual(
    r2.problems.map((p) => [p.file, p.reason]),
    [
      [seg(d2, 5), 'it is named for entry 5 but starts at entry 4'],
      [
        seg(d2, 7),
        `the line at byte ${size(seg(d2, 7)) - Buffer.byteLength('{"seq":10,"cut')} is cut short (a sealed segment was written whole); the lines after it are not read`,
      ],
      [join(d2, 'oplog-archive'), 'entries 3 to 3 are neither archived nor kept'],
    ],
  );
});

test('a torn last line of oplog.jsonl is torn, not damage: the next start cuts it off', async (t) => {
  const dir = await segmented(t);
  const live = join(dir, 'oplog.jsonl');
  const whole = size(live);
  appendFileSync(live, '{"seq":11,"pla');
  const r = await checkDataDir(dir);
  t.deepEqual(r.problems, [
    {
      file: live,
      reason: `a torn last line at byte ${whole} (a write a crash cut short; the next start cuts it off)`,
      torn: true,
    },
  ]);
  t.false(r.damaged);
  t.true(formatReport(r).includes(`TORN ${live}: a torn last line`));
});
