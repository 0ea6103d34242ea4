// oplog-index.ts's rules (issue 23): how oplog.idx's bytes are read as lines (each
// check alone stops the parse at its line, `good` the start of that line), when two
// index entries are the same, what open does to an index that fits, is behind, torn,
// longer than the oplog, wrong or missing (exact bytes, exact file calls), and how
// add and entries use the file (nothing to write: no call; a short write continued;
// a failed write cut back and its lines kept; an empty index not read).
import test, { type ExecutionContext } from 'ava';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OplogIndex, parseIndex, sameIndexed, type IndexedEntry } from '../../adapters/storage/oplog-index.js';
import { spyFiles, spyReads, tempDir, type FileFaults } from '../_support/fs-spy.js';

// ---- helpers ----------------------------------------------------------------------

const at = (seq: number, offset: number, length: number, players: number[]): IndexedEntry => ({
  seq,
  offset,
  length,
  players,
});
/** An index line, as oplog.idx holds it. */
const line = (x: IndexedEntry): string => `${x.seq} ${x.offset} ${x.length} ${x.players.join(',')}\n`;
const lines = (xs: ReadonlyArray<IndexedEntry>): string => xs.map(line).join('');
const parse = (s: string) => parseIndex(Buffer.from(s, 'latin1'));

/** Four adjacent oplog lines (as OplogFile.open finds them), of players 1; 2, 3; none; 1, 20, 300. */
const OPLOG: ReadonlyArray<IndexedEntry> = [
  at(1, 0, 40, [1]),
  at(2, 40, 52, [2, 3]),
  at(3, 92, 31, []),
  at(4, 123, 60, [1, 20, 300]),
];

/** A directory with oplog.idx holding `bytes` (none: no file), its calls recorded from here on. */
const indexDir = (t: ExecutionContext, bytes: string | null, faults: FileFaults = {}) => {
  const dir = tempDir(t, 'hoshi-oplog-index-rules-');
  const path = join(dir, 'oplog.idx');
  if (bytes !== null) writeFileSync(path, bytes, 'latin1');
  const calls = spyFiles(t, dir, faults);
  return { dir, path, calls, bytes: () => readFileSync(path, 'latin1') };
};

/** The calls open makes to keep an index: it reads it, creates it if missing (open 'a'), then opens it for writing. */
const KEEP = ['readFile oplog.idx', 'open(a) oplog.idx', 'close oplog.idx', 'open(r+) oplog.idx'];
/** The calls open makes to rewrite an index whole, beside it. */
const REWRITE = [
  'readFile oplog.idx',
  'open(w) oplog.idx.tmp',
  'writeFile oplog.idx.tmp',
  'datasync oplog.idx.tmp',
  'close oplog.idx.tmp',
  'rename oplog.idx.tmp oplog.idx',
  'open(a) oplog.idx',
  'close oplog.idx',
  'open(r+) oplog.idx',
];

// ---- parseIndex ---------------------------------------------------------------------

test('parseIndex of nothing: no entries, good 0', (t) => {
  t.deepEqual(parseIndex(Buffer.alloc(0)), { entries: [], good: 0 });
});

test('parseIndex leaves out a torn last line (no line feed), alone or after whole lines', (t) => {
  // Without its line feed, "5 0 10 1" would still parse if the last byte were cut off as one.
  t.deepEqual(parse('5 0 10 1'), { entries: [], good: 0 });
  t.deepEqual(parse('1 0 10 1\n2 10 10 3'), { entries: [at(1, 0, 10, [1])], good: 9 });
  t.deepEqual(parse('1 0 10 1\n2 10 10 '), { entries: [at(1, 0, 10, [1])], good: 9 });
});

test('parseIndex stops at an empty first line: nothing after it is read', (t) => {
  t.deepEqual(parse('\n1 0 10 1\n'), { entries: [], good: 0 });
});

test('parseIndex stops at a line that does not match the pattern, good at its start', (t) => {
  const head = '1 0 10 1\n';
  for (const bad of [
    'x',
    '2 10 10',
    '2 10 10 1,',
    '2 10 10 ,1',
    '2  10 10 1',
    '2 10 10 1 ',
    '-2 10 10 1',
    '2 10 10 a',
    ' 2 10 10 1',
  ]) {
    t.deepEqual(
      parse(`${head}${bad}\n3 20 10 1\n`),
      { entries: [at(1, 0, 10, [1])], good: head.length },
      JSON.stringify(bad),
    );
  }
});

test('parseIndex: an offset before the end of the line before stops it (length and seq fine); one at that end does not', (t) => {
  // Each line after the first has a rising seq and a length of 10: only the offset can stop it.
  t.deepEqual(parse('1 0 10 1\n2 9 10 1\n3 20 10 1\n'), { entries: [at(1, 0, 10, [1])], good: 9 });
  t.deepEqual(parse('1 0 10 1\n2 10 10 1\n3 25 10 1\n'), {
    entries: [at(1, 0, 10, [1]), at(2, 10, 10, [1]), at(3, 25, 10, [1])],
    good: 29,
  });
});

test('parseIndex: a length under 2 stops it (offset and seq fine); a length of 2 does not', (t) => {
  t.deepEqual(parse('1 0 1 1\n'), { entries: [], good: 0 });
  t.deepEqual(parse('1 0 10 1\n2 10 1 1\n3 20 10 1\n'), { entries: [at(1, 0, 10, [1])], good: 9 });
  t.deepEqual(parse('1 0 10 1\n2 10 0 1\n'), { entries: [at(1, 0, 10, [1])], good: 9 });
  t.deepEqual(parse('1 0 2 1\n2 2 2 1\n'), { entries: [at(1, 0, 2, [1]), at(2, 2, 2, [1])], good: 16 });
});

test('parseIndex: a seq not above the one before (equal, lower, or 0 first) stops it (offset and length fine)', (t) => {
  t.deepEqual(parse('1 0 10 1\n1 10 10 1\n'), { entries: [at(1, 0, 10, [1])], good: 9 });
  t.deepEqual(parse('5 0 10 1\n4 10 10 1\n'), { entries: [at(5, 0, 10, [1])], good: 9 });
  t.deepEqual(parse('0 0 10 1\n1 10 10 1\n'), { entries: [], good: 0 });
  // Seqs may skip: only rising counts.
  t.deepEqual(parse('1 0 10 1\n7 10 10 1\n'), { entries: [at(1, 0, 10, [1]), at(7, 10, 10, [1])], good: 19 });
});

test('parseIndex reads players: none, one, several, of any number of digits', (t) => {
  t.deepEqual(parse('5 0 10 \n6 10 10 7\n8 20 10 1,22,333\n9 30 10 4096\n11 40 10 100000,7\n'), {
    entries: [
      at(5, 0, 10, []),
      at(6, 10, 10, [7]),
      at(8, 20, 10, [1, 22, 333]),
      at(9, 30, 10, [4096]),
      at(11, 40, 10, [100000, 7]),
    ],
    good: 8 + 10 + 17 + 13 + 18,
  });
});

// ---- sameIndexed ------------------------------------------------------------------

test('sameIndexed: equal in every field is the same; any one field different, or the players reordered, is not', (t) => {
  const a = at(3, 10, 20, [1, 2]);
  t.true(sameIndexed(a, at(3, 10, 20, [1, 2])));
  t.true(sameIndexed(at(3, 10, 20, []), at(3, 10, 20, [])));
  t.false(sameIndexed(a, at(4, 10, 20, [1, 2])), 'seq');
  t.false(sameIndexed(a, at(3, 11, 20, [1, 2])), 'offset');
  t.false(sameIndexed(a, at(3, 10, 21, [1, 2])), 'length');
  t.false(sameIndexed(a, at(3, 10, 20, [1, 2, 3])), 'a player more');
  t.false(sameIndexed(at(3, 10, 20, [1]), a), 'a player fewer (the first the same)');
  t.false(sameIndexed(a, at(3, 10, 20, [1, 3])), 'a player different');
  t.false(sameIndexed(a, at(3, 10, 20, [2, 1])), "the players' order");
});

// ---- OplogIndex.open ---------------------------------------------------------------

test('open: an index that fits the oplog and is complete is left as it is (no write, rename or truncate)', async (t) => {
  const d = indexDir(t, lines(OPLOG));
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, KEEP);
  t.deepEqual(await index.entries(), OPLOG);
  await index.close();
  t.is(d.bytes(), lines(OPLOG));
});

test('open: an index behind the oplog (a prefix) is appended to, not rewritten', async (t) => {
  const d = indexDir(t, lines(OPLOG.slice(0, 2)));
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, [...KEEP, 'write oplog.idx']);
  t.is(d.bytes(), lines(OPLOG));
  t.deepEqual(await index.entries(), OPLOG);
  await index.close();
});

test('open: a torn tail is cut off to the last whole line, then the index caught up', async (t) => {
  const d = indexDir(t, `${lines(OPLOG.slice(0, 2))}3 92 3`);
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, [...KEEP, 'truncate oplog.idx', 'write oplog.idx']);
  t.is(d.bytes(), lines(OPLOG));
  await index.close();
});

test('open: a torn tail longer than what is caught up is cut off, nothing of it left', async (t) => {
  const d = indexDir(t, `${lines(OPLOG)}5 183 1234567890 1,2,3,4,5,6,7,8,9`);
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, [...KEEP, 'truncate oplog.idx']);
  t.is(d.bytes(), lines(OPLOG));
  await index.close();
});

test('open: a line that does not parse is a tail: cut off there and the rest written after', async (t) => {
  const d = indexDir(t, `${lines(OPLOG.slice(0, 1))}garbage\n${lines(OPLOG.slice(1))}`);
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, [...KEEP, 'truncate oplog.idx', 'write oplog.idx']);
  t.is(d.bytes(), lines(OPLOG));
  await index.close();
});

test('open: an index longer than the oplog (the oplog cut back) is rewritten whole', async (t) => {
  const d = indexDir(t, lines(OPLOG));
  const index = await OplogIndex.open(d.path, OPLOG.slice(0, 2));
  t.deepEqual(d.calls, REWRITE);
  t.is(d.bytes(), lines(OPLOG.slice(0, 2)));
  t.deepEqual(await index.entries(), OPLOG.slice(0, 2));
  // Its size is the rewritten file's: the next line goes right after.
  await index.add([OPLOG[2] as IndexedEntry]);
  await index.close();
  t.is(d.bytes(), lines(OPLOG.slice(0, 3)));
});

test('open: an index with a line that does not match the oplog is rewritten whole, and the lines it lacked are not appended again', async (t) => {
  // Line 2 names a player the oplog's entry 2 did not change; the index lacks 3 and 4.
  const wrong = lines([OPLOG[0] as IndexedEntry, at(2, 40, 52, [2, 4])]);
  const d = indexDir(t, wrong);
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, REWRITE);
  t.is(d.bytes(), lines(OPLOG));
  t.deepEqual(await index.entries(), OPLOG);
  await index.close();
  t.is(d.bytes(), lines(OPLOG));
});

test('open: an index whose first line does not match is rewritten whole, to nothing for an empty oplog', async (t) => {
  const d = indexDir(t, lines([at(1, 0, 41, [1]), ...OPLOG.slice(1)]));
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, REWRITE);
  t.is(d.bytes(), lines(OPLOG));
  await index.close();

  const e = indexDir(t, lines(OPLOG.slice(0, 1)));
  const empty = await OplogIndex.open(e.path, []);
  t.deepEqual(e.calls, REWRITE);
  t.is(e.bytes(), '');
  t.deepEqual(await empty.entries(), []);
  await empty.close();
});

test('open: a missing index is created and written from the oplog; for an empty oplog it is created empty', async (t) => {
  const d = indexDir(t, null);
  const index = await OplogIndex.open(d.path, OPLOG);
  t.deepEqual(d.calls, ['open(a) oplog.idx', 'close oplog.idx', 'open(r+) oplog.idx', 'write oplog.idx']);
  t.is(d.bytes(), lines(OPLOG));
  await index.close();

  const e = indexDir(t, null);
  const empty = await OplogIndex.open(e.path, []);
  t.deepEqual(e.calls, ['open(a) oplog.idx', 'close oplog.idx', 'open(r+) oplog.idx']);
  t.is(e.bytes(), '');
  await empty.close();
});

// ---- add, entries -------------------------------------------------------------------

test("add of nothing with nothing pending makes no file call; add of lines writes them once, after the file's", async (t) => {
  const d = indexDir(t, lines(OPLOG.slice(0, 1)));
  const index = await OplogIndex.open(d.path, OPLOG.slice(0, 1));
  d.calls.length = 0;
  await index.add([]);
  await index.add([]);
  t.deepEqual(d.calls, []);
  await index.add(OPLOG.slice(1, 3));
  t.deepEqual(d.calls, ['write oplog.idx']);
  t.is(d.bytes(), lines(OPLOG.slice(0, 3)));
  await index.sync();
  t.deepEqual(d.calls, ['write oplog.idx', 'datasync oplog.idx']);
  await index.close();
});

test('a short write (a nearly full disk) is continued until the lines are whole', async (t) => {
  const faults: FileFaults = {};
  const d = indexDir(t, lines(OPLOG.slice(0, 1)), faults);
  const index = await OplogIndex.open(d.path, OPLOG.slice(0, 1));
  d.calls.length = 0;
  Object.assign(faults, { file: 'oplog.idx', writeAtMost: 7 });
  const more = lines(OPLOG.slice(1));
  await index.add(OPLOG.slice(1));
  t.deepEqual(
    d.calls,
    Array.from({ length: Math.ceil(more.length / 7) }, () => 'write oplog.idx'),
  );
  t.is(d.bytes(), lines(OPLOG));
  t.deepEqual(await index.entries(), OPLOG);
  // The size counted is the whole lines': the next goes right after.
  faults.writeAtMost = undefined;
  await index.add([at(5, 183, 10, [9])]);
  await index.close();
  t.is(d.bytes(), lines([...OPLOG, at(5, 183, 10, [9])]));
});

test("a write that fails part way (ENOSPC) is cut back to the file's size; its lines are read as pending and written with the next add", async (t) => {
  const faults: FileFaults = {};
  const d = indexDir(t, lines(OPLOG.slice(0, 1)), faults);
  const index = await OplogIndex.open(d.path, OPLOG.slice(0, 1));
  d.calls.length = 0;
  Object.assign(faults, { file: 'oplog.idx', writeAtMost: 5, failAfterBytes: 10 });
  await t.throwsAsync(index.add(OPLOG.slice(1, 3)), { code: 'ENOSPC' });
  t.deepEqual(d.calls, ['write oplog.idx', 'write oplog.idx', 'truncate oplog.idx']);
  t.is(d.bytes(), lines(OPLOG.slice(0, 1)));
  t.deepEqual(await index.entries(), OPLOG.slice(0, 3));
  Object.assign(faults, { writeAtMost: undefined, failAfterBytes: undefined });
  d.calls.length = 0;
  await index.add(OPLOG.slice(3));
  t.deepEqual(d.calls, ['write oplog.idx']);
  t.is(d.bytes(), lines(OPLOG));
  t.deepEqual(await index.entries(), OPLOG);
  await index.close();
});

test('entries of an empty index reads nothing; of a non-empty one reads the file once, whole, then adds what is pending', async (t) => {
  const faults: FileFaults = {};
  const d = indexDir(t, null, faults);
  const index = await OplogIndex.open(d.path, []);
  const reads = spyReads(t, d.path);
  t.deepEqual(await index.entries(), []);
  t.deepEqual(reads, []);
  // A line not written (ENOSPC) is pending, not in the file: still nothing read.
  Object.assign(faults, { file: 'oplog.idx', failAfterBytes: 0 });
  await t.throwsAsync(index.add(OPLOG.slice(0, 1)), { code: 'ENOSPC' });
  t.deepEqual(await index.entries(), OPLOG.slice(0, 1));
  t.deepEqual(reads, []);
  faults.failAfterBytes = undefined;
  await index.add(OPLOG.slice(1, 2));
  Object.assign(faults, { failAfterBytes: 0 });
  await t.throwsAsync(index.add(OPLOG.slice(2)), { code: 'ENOSPC' });
  t.deepEqual(await index.entries(), OPLOG);
  t.deepEqual(reads, [{ position: 0, length: Buffer.byteLength(lines(OPLOG.slice(0, 2))) }]);
  await index.close();
});

test('a write that puts nothing down fails with EIO naming the index, is cut back, and its lines are written with the next add', async (t) => {
  const faults: FileFaults = {};
  const d = indexDir(t, null, faults);
  const index = await OplogIndex.open(d.path, []);
  d.calls.length = 0;
  Object.assign(faults, { file: 'oplog.idx', writeAtMost: 0 });
  await t.throwsAsync(index.add(OPLOG.slice(0, 2)), { code: 'EIO', message: 'the oplog index write made no progress' });
  t.deepEqual(d.calls, ['truncate oplog.idx']);
  t.is(d.bytes(), '');
  faults.writeAtMost = undefined;
  await index.add(OPLOG.slice(2));
  t.is(d.bytes(), lines(OPLOG));
  await index.close();
});
