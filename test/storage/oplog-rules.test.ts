// oplog.ts's rules (issue 23): how oplog bytes are read as lines (blank lines passed
// over, a torn tail left out), how a read of some players goes through the index (a
// read for each run of adjacent lines, the oplog past the index from where it ends)
// and when it does not trust the index (the whole oplog read instead), and the
// writer's file calls: a torn tail cut on open, appends whole or cut back and kept,
// catch-up synced, nothing done when there is nothing to do.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexPathOf, OplogFile, parseLog, readOplog } from '../../adapters/storage/oplog.js';
import type { LogEntry, StoredLogEntry } from '../../adapters/storage/replay-log.js';
import { spyFiles, spyReads, tempDir, type FileFaults } from '../_support/fs-spy.js';

// ---- helpers ----------------------------------------------------------------------

/** A log entry of `players` (the first the one it ran on); `note` makes its line longer. */
const entry = (seq: number, players: number[], note = ''): LogEntry => ({
  kind: 'op',
  at: seq,
  masterHash: 'm',
  op: 'loginPlayer',
  playerId: players[0] ?? 0,
  request: note === '' ? {} : { note },
  seed: '',
  others: players.slice(1),
  playerIds: players,
  results: [],
  seq,
});
const lineOf = (e: StoredLogEntry): string => `${JSON.stringify(e)}\n`;
/** Where each entry's line is in an oplog of `es`, in order. */
const placesOf = (es: ReadonlyArray<StoredLogEntry>): Array<{ offset: number; length: number }> => {
  let offset = 0;
  return es.map((e) => {
    const length = Buffer.byteLength(lineOf(e));
    offset += length;
    return { offset: offset - length, length };
  });
};
/** An index line, as oplog.idx holds it. */
const idxLine = (seq: number, offset: number, length: number, players: ReadonlyArray<number>): string =>
  `${seq} ${offset} ${length} ${players.join(',')}\n`;
/** The index lines of the first `n` entries of an oplog of `es`. */
const indexOf = (es: ReadonlyArray<StoredLogEntry>, n = es.length): string =>
  placesOf(es)
    .slice(0, n)
    .map((p, i) => idxLine((es[i] as StoredLogEntry).seq ?? 0, p.offset, p.length, (es[i] as StoredLogEntry).playerIds))
    .join('');

/** A data directory with oplog.jsonl holding `es` and, unless `index` is null, oplog.idx holding `index` (default: all of `es`). */
const craft = (t: ExecutionContext, es: ReadonlyArray<StoredLogEntry>, index: string | null = indexOf(es)) => {
  const dir = tempDir(t, 'hoshi-oplog-rules-');
  const path = join(dir, 'oplog.jsonl');
  writeFileSync(path, es.map(lineOf).join(''));
  if (index !== null) writeFileSync(join(dir, 'oplog.idx'), index);
  return { dir, path, idx: join(dir, 'oplog.idx') };
};
const of = (es: ReadonlyArray<StoredLogEntry>, id: number): StoredLogEntry[] =>
  es.filter((e) => e.playerIds.includes(id));

// ---- parseLog ---------------------------------------------------------------------

test('parseLog passes over an empty line (also the first) and a line of spaces, and reads the lines after them', (t) => {
  const [a, b] = [entry(1, [1]), entry(2, [2, 3])];
  const buf = Buffer.from(`\n${lineOf(a)}   \n\n${lineOf(b)}`, 'utf8');
  const got = parseLog(buf, 100);
  t.deepEqual(got.entries, [a, b]);
  t.deepEqual(got.at, [
    { seq: 1, offset: 101, length: lineOf(a).length, players: [1] },
    { seq: 2, offset: 101 + lineOf(a).length + 5, length: lineOf(b).length, players: [2, 3] },
  ]);
  t.is(got.good, buf.length);
});

test('parseLog leaves out bytes after the last line feed: a lone torn byte gives nothing', (t) => {
  t.deepEqual(parseLog(Buffer.from('x')), { entries: [], at: [], good: 0 });
  const a = entry(1, [1]);
  const got = parseLog(Buffer.from(`${lineOf(a)}{"seq":2,"play`, 'utf8'));
  t.deepEqual(got.entries, [a]);
  t.is(got.good, lineOf(a).length);
});

test('indexPathOf: the index beside the oplog, .jsonl replaced by .idx or .idx added', (t) => {
  t.is(indexPathOf('/data/oplog.jsonl'), '/data/oplog.idx');
  t.is(indexPathOf('/data/oplog'), '/data/oplog.idx');
  t.is(indexPathOf('/data/oplog.json'), '/data/oplog.json.idx');
});

// ---- readOplog: opening ------------------------------------------------------------

test('readOplog of a missing oplog is empty; one that cannot be opened or read is an error, and the handle is closed', async (t) => {
  const dir = tempDir(t, 'hoshi-oplog-rules-');
  t.deepEqual(await readOplog(join(dir, 'oplog.jsonl')), []);
  t.deepEqual(await readOplog(join(dir, 'oplog.jsonl'), { players: [1] }), []);
  // A path under a file: open fails with ENOTDIR, which is not "no oplog".
  writeFileSync(join(dir, 'file'), 'x');
  await t.throwsAsync(readOplog(join(dir, 'file', 'oplog.jsonl')), { code: 'ENOTDIR' });
  // A directory opens, but does not read.
  const sub = join(dir, 'sub');
  mkdirSync(sub);
  const calls = spyFiles(t, sub);
  await t.throwsAsync(readOplog(sub), { code: 'EISDIR' });
  t.deepEqual(calls, ['open(r) .', 'close .']);
});

test('readOplog without a player filter reads no index (an unreadable one does not matter) and closes the oplog', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1, 2])];
  const { dir, path } = craft(t, es);
  const calls = spyFiles(t, dir, { file: 'oplog.idx', readError: 'EIO' });
  t.deepEqual(await readOplog(path), es);
  t.deepEqual(calls, ['open(r) oplog.jsonl', 'close oplog.jsonl']);
  // With a filter the index is read first.
  await t.throwsAsync(readOplog(path, { players: [1] }), { code: 'EIO' });
});

test('an empty oplog is not read at all, whole or by player, by a reader or the writer', async (t) => {
  const { dir, path } = craft(t, [], null);
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path), []);
  t.deepEqual(await readOplog(path, { players: [1] }), []);
  const f = await OplogFile.open(path);
  t.deepEqual(await f.read(), []);
  t.deepEqual(await f.read({ players: [1] }), []);
  await f.close();
  t.deepEqual(reads, []);
  t.deepEqual(readFileSync(join(dir, 'oplog.idx')), Buffer.alloc(0));
});

// ---- readOplog / OplogFile.read through the index -----------------------------------

test('a read of one player through the index: a read for each run of adjacent lines, then the oplog past the index, checked by the byte before it', async (t) => {
  // Player 1 in 1, 3, 4 (adjacent: one read) and 6, 7; the index covers 1–5.
  const es = [
    entry(1, [1]),
    entry(2, [2]),
    entry(3, [1]),
    entry(4, [1, 3]),
    entry(5, [2]),
    entry(6, [1]),
    entry(7, [2]),
  ];
  const at = placesOf(es);
  const p = (i: number) => at[i - 1] as { offset: number; length: number };
  const { path } = craft(t, es, indexOf(es, 5));
  const size = statSync(path).size;
  const end = p(5).offset + p(5).length;
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path, { players: [1] }), of(es, 1));
  t.deepEqual(reads, [
    { position: p(1).offset, length: p(1).length },
    { position: p(3).offset, length: p(3).length + p(4).length },
    { position: end, length: size - end },
    { position: end - 1, length: 1 },
  ]);
});

test('an index that covers the whole oplog: its runs are all that is read', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [2]), entry(4, [1])];
  const at = placesOf(es);
  const { path } = craft(t, es);
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path, { players: [2] }), of(es, 2));
  t.deepEqual(reads, [{ position: at[1]?.offset, length: (at[1]?.length ?? 0) + (at[2]?.length ?? 0) }]);
  // The writer reads the same way (its index is made on open, and fits).
  reads.length = 0;
  const f = await OplogFile.open(path);
  t.deepEqual(await f.read({ players: [1] }), of(es, 1));
  await f.close();
  t.deepEqual(reads, [
    { position: at[0]?.offset, length: at[0]?.length },
    { position: at[3]?.offset, length: at[3]?.length },
  ]);
});

test('without an index, a read of one player reads the oplog once, whole', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1])];
  const { path } = craft(t, es, null);
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path, { players: [1] }), of(es, 1));
  t.deepEqual(reads, [{ position: 0, length: statSync(path).size }]);
});

test('an index whose last line ends inside an oplog line is not of this oplog: the whole oplog is read', async (t) => {
  const es = [entry(1, [1]), entry(2, [2], 'a long line'), entry(3, [1])];
  const at = placesOf(es);
  // Entry 2 named 5 bytes long: the index ends inside its line.
  const { path } = craft(t, es, indexOf(es, 1) + idxLine(2, at[1]?.offset ?? 0, 5, [2]));
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path, { players: [1] }), of(es, 1));
  t.deepEqual(reads.at(-1), { position: 0, length: statSync(path).size });
});

test('an index that reaches past the end of the oplog is not of this oplog: the whole oplog is read', async (t) => {
  // The index names a long line 2 of player 2; the oplog has a short line 3 of player 1 there.
  const es = [entry(1, [1]), entry(3, [1])];
  const at = placesOf(es);
  const { path } = craft(t, es, indexOf(es, 1) + idxLine(2, at[1]?.offset ?? 0, 500, [2]));
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path, { players: [1] }), es);
  t.deepEqual(reads, [{ position: 0, length: statSync(path).size }]);
});

test('a line the index names, blanked in the oplog, is not trusted: the whole oplog is read', async (t) => {
  const es = [entry(1, [1]), entry(2, [1]), entry(3, [2])];
  const at = placesOf(es);
  const { path } = craft(t, es);
  // Line 2 overwritten with spaces, its line feed kept: the run 1–2 parses as one entry.
  const bytes = readFileSync(path);
  bytes.fill(0x20, at[1]?.offset, (at[1]?.offset ?? 0) + (at[1]?.length ?? 0) - 1);
  writeFileSync(path, bytes);
  const reads = spyReads(t, path);
  t.deepEqual(await readOplog(path, { players: [1] }), [es[0]]);
  t.deepEqual(reads, [
    { position: 0, length: (at[0]?.length ?? 0) + (at[1]?.length ?? 0) },
    { position: 0, length: bytes.length },
  ]);
});

test('an oplog cut short under the open writer: the lines it lost are not read, the whole lines before them are', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1]), entry(4, [2])];
  const at = placesOf(es);
  const { path } = craft(t, es);
  const f = await OplogFile.open(path);
  // Cut in the middle of line 3: the writer still counts the whole oplog.
  truncateSync(path, (at[2]?.offset ?? 0) + 10);
  t.deepEqual(await f.read({ players: [1] }), [es[0]]);
  t.deepEqual(await f.read({ players: [2] }), [es[1]]);
  t.deepEqual(await f.read(), [es[0], es[1]]);
  await f.close();
});

test('an oplog and its index cut back together under the open writer: past the index only the (empty) rest is read', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1]), entry(4, [2])];
  const at = placesOf(es);
  const { path, idx } = craft(t, es);
  const f = await OplogFile.open(path);
  const end = (at[1]?.offset ?? 0) + (at[1]?.length ?? 0);
  truncateSync(idx, Buffer.byteLength(indexOf(es, 2)));
  truncateSync(path, end);
  const size = Buffer.byteLength(es.map(lineOf).join(''));
  const reads = spyReads(t, path);
  t.deepEqual(await f.read({ players: [1] }), [es[0]]);
  t.deepEqual(reads, [
    { position: 0, length: at[0]?.length },
    { position: end, length: size - end },
  ]);
  await f.close();
});

// ---- OplogFile: open, catchUp, add, close ------------------------------------------

test('open leaves a whole oplog as it is; a torn last line is cut off, and the cut synced, before the index is made', async (t) => {
  const es = [entry(1, [1]), entry(2, [2])];
  const whole = craft(t, es, null);
  const calls = spyFiles(t, whole.dir);
  const f = await OplogFile.open(whole.path);
  t.false(
    calls.some((c) => c === 'truncate oplog.jsonl' || c === 'datasync oplog.jsonl'),
    calls.join('; '),
  );
  t.is(f.seq, 2);
  await f.close();
  t.deepEqual(readFileSync(whole.path, 'utf8'), es.map(lineOf).join(''));
  t.true(calls.includes('close oplog.jsonl') && calls.includes('close oplog.idx'), calls.join('; '));

  const torn = craft(t, es, null);
  writeFileSync(torn.path, `${es.map(lineOf).join('')}{"seq":3,"playerIds":[1],"req`);
  const tornCalls = spyFiles(t, torn.dir);
  const g = await OplogFile.open(torn.path);
  t.is(readFileSync(torn.path, 'utf8'), es.map(lineOf).join(''));
  const cut = tornCalls.indexOf('truncate oplog.jsonl');
  t.true(cut >= 0 && tornCalls[cut + 1] === 'datasync oplog.jsonl', tornCalls.join('; '));
  t.true(tornCalls.findIndex((c) => c.endsWith('oplog.idx')) > cut + 1, tornCalls.join('; '));
  t.is(g.seq, 2);
  t.deepEqual(await g.read(), es);
  await g.close();
  t.is(readFileSync(torn.idx, 'latin1'), indexOf(es));
});

test('catchUp appends and syncs the entries the oplog lacks, and makes no file call when it lacks none', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1]), entry(4, [1, 2])];
  const { dir, path, idx } = craft(t, es.slice(0, 2), null);
  const calls = spyFiles(t, dir);
  const f = await OplogFile.open(path);
  calls.length = 0;
  await f.catchUp(es.slice(0, 2));
  t.deepEqual(calls, []);
  await f.catchUp(es);
  t.deepEqual(calls, ['write oplog.jsonl', 'write oplog.idx', 'datasync oplog.jsonl']);
  t.is(readFileSync(path, 'utf8'), es.map(lineOf).join(''));
  t.is(readFileSync(idx, 'latin1'), indexOf(es));
  t.is(f.seq, 4);
  calls.length = 0;
  await f.catchUp(es);
  t.deepEqual(calls, []);
  await f.close();
  t.deepEqual(calls, ['close oplog.jsonl', 'close oplog.idx']);
});

test("add: the seq is the last entry's, so a catch-up after it appends only what comes after", async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1]), entry(4, [2]), entry(5, [1])];
  const { path } = craft(t, [], null);
  const f = await OplogFile.open(path);
  await f.add(es.slice(0, 3));
  t.is(f.seq, 3);
  await f.add([]);
  t.is(f.seq, 3);
  await f.add([es[3] as LogEntry]);
  t.is(f.seq, 4);
  await f.catchUp(es);
  t.is(f.seq, 5);
  await f.close();
  t.is(readFileSync(path, 'utf8'), es.map(lineOf).join(''));
});

test('a short write (a nearly full disk) is continued until the lines are whole', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1, 2])];
  const { dir, path, idx } = craft(t, [], null);
  const faults: FileFaults = {};
  spyFiles(t, dir, faults);
  const f = await OplogFile.open(path);
  Object.assign(faults, { file: 'oplog.jsonl', writeAtMost: 7 });
  await f.add(es.slice(0, 2));
  await f.add(es.slice(2));
  t.is(readFileSync(path, 'utf8'), es.map(lineOf).join(''));
  t.deepEqual(await f.read({ players: [2] }), of(es, 2));
  await f.close();
  t.is(readFileSync(idx, 'latin1'), indexOf(es));
  // What a reader and the next open find.
  t.deepEqual(await readOplog(path, { players: [1] }), of(es, 1));
  const g = await OplogFile.open(path);
  t.deepEqual(await g.read(), es);
  await g.close();
});

test('a write that fails part way (ENOSPC) is cut back; its entries are kept, read, and written with the next add', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1]), entry(4, [2])];
  const { dir, path, idx } = craft(t, es.slice(0, 1), null);
  const faults: FileFaults = {};
  const calls = spyFiles(t, dir, faults);
  const f = await OplogFile.open(path);
  const before = readFileSync(path);
  Object.assign(faults, { file: 'oplog.jsonl', writeAtMost: 10, failAfterBytes: 25 });
  calls.length = 0;
  await t.throwsAsync(f.add(es.slice(1, 3)), { code: 'ENOSPC' });
  t.deepEqual(readFileSync(path), before);
  t.deepEqual(calls, ['write oplog.jsonl', 'write oplog.jsonl', 'write oplog.jsonl', 'truncate oplog.jsonl']);
  t.is(f.seq, 3);
  t.deepEqual(await f.read(), es.slice(0, 3));
  t.deepEqual(await f.read({ players: [2] }), [es[1]]);
  Object.assign(faults, { writeAtMost: undefined, failAfterBytes: undefined });
  await f.add(es.slice(3));
  t.is(readFileSync(path, 'utf8'), es.map(lineOf).join(''));
  await f.close();
  t.is(readFileSync(idx, 'latin1'), indexOf(es));
});

test('a write that puts nothing down fails with EIO and is cut back; its entries are written with the next add', async (t) => {
  const es = [entry(1, [1]), entry(2, [2])];
  const { dir, path } = craft(t, [], null);
  const faults: FileFaults = {};
  const calls = spyFiles(t, dir, faults);
  const f = await OplogFile.open(path);
  Object.assign(faults, { file: 'oplog.jsonl', writeAtMost: 0 });
  calls.length = 0;
  await t.throwsAsync(f.add(es.slice(0, 1)), { code: 'EIO', message: 'the oplog write made no progress' });
  t.deepEqual(calls, ['truncate oplog.jsonl']);
  t.is(readFileSync(path, 'utf8'), '');
  faults.writeAtMost = undefined;
  await f.add(es.slice(1));
  t.is(readFileSync(path, 'utf8'), es.map(lineOf).join(''));
  await f.close();
});

test("entries not written yet are read after the file's, through the same filter", async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1]), entry(4, [2]), entry(5, [3])];
  const { dir, path } = craft(t, es.slice(0, 2), null);
  const faults: FileFaults = {};
  spyFiles(t, dir, faults);
  const f = await OplogFile.open(path);
  Object.assign(faults, { file: 'oplog.jsonl', failAfterBytes: 0 });
  await t.throwsAsync(f.add(es.slice(2)), { code: 'ENOSPC' });
  t.deepEqual(await f.read(), es);
  t.deepEqual(await f.read({ players: [2] }), [es[1], es[3]]);
  t.deepEqual(await f.read({ players: [3] }), [es[4]]);
  await f.close();
});

test('an add of nothing makes no file call, even with index lines waiting for a retry; a sync writes them', async (t) => {
  const es = [entry(1, [1]), entry(2, [2]), entry(3, [1])];
  const { dir, path, idx } = craft(t, es.slice(0, 2), null);
  const faults: FileFaults = {};
  const calls = spyFiles(t, dir, faults);
  const f = await OplogFile.open(path);
  Object.assign(faults, { file: 'oplog.idx', failAfterBytes: 0 });
  // The oplog line is written; its index line is not (kept for the next write).
  await t.throwsAsync(f.add(es.slice(2)), { code: 'ENOSPC' });
  t.is(readFileSync(path, 'utf8'), es.map(lineOf).join(''));
  t.is(readFileSync(idx, 'latin1'), indexOf(es, 2));
  faults.failAfterBytes = undefined;
  calls.length = 0;
  await f.add([]);
  await f.flush();
  t.deepEqual(calls, []);
  await f.sync();
  t.deepEqual(calls, ['datasync oplog.jsonl', 'write oplog.idx', 'datasync oplog.idx']);
  t.is(readFileSync(idx, 'latin1'), indexOf(es));
  await f.close();
});
