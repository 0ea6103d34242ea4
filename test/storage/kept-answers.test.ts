// The answers kept for Idempotency-Keys (issue 36): a bounded ring per caller, in
// memory while it changes, a file a scope after; a checkpoint writes the rings that
// changed and nothing else, and memory holds the rings in use.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KeptAnswers, scopeOf, withAnswer } from '../../adapters/storage/kept-answers.js';
import { answersPath, readAnswers, sweepAnswers, writeAnswers } from '../../adapters/storage/answer-files.js';
import { FileStorage, type FileStorageOptions } from '../../adapters/storage/file.js';
import { FileDamaged } from '../../adapters/storage/sealed.js';
import type { IdempotencyRecord } from '../../adapters/storage/storage.js';
import { tempDir } from '../_support/fs-spy.js';
import { freshPlayer } from '../_support/core.js';

const rec = (n: number, createdAt = 1_000 + n): IdempotencyRecord => ({
  requestHash: `h${n}`,
  answer: { ok: { n } },
  createdAt,
});
const bounds = { perScope: 3, ttlMs: 100 };

const opened = async (t: ExecutionContext, o: FileStorageOptions) => {
  const events: Array<[string, Record<string, unknown>]> = [];
  const store = await FileStorage.open({ ...o, log: (e, d) => events.push([e, d]) });
  t.teardown(() => store.close());
  return { store, named: (name: string) => events.filter(([e]) => e === name).map(([, d]) => d) };
};

// ---- the ring ---------------------------------------------------------------------

test("a key's scope is its part before the first colon", (t) => {
  t.deepEqual([scopeOf('p12:abc'), scopeOf('signup/u-1:k:x'), scopeOf('bare')], ['p12', 'signup/u-1', 'bare']);
});

test('a ring keeps its newest answers in order; the same key answered again moves to the end; older than the kept time goes', (t) => {
  let ring = withAnswer([], 'a', rec(1), bounds);
  ring = withAnswer(ring, 'b', rec(2), bounds);
  ring = withAnswer(ring, 'c', rec(3), bounds);
  t.deepEqual(
    ring.map(([k]) => k),
    ['a', 'b', 'c'],
  );
  ring = withAnswer(ring, 'd', rec(4), bounds);
  t.deepEqual(
    ring.map(([k]) => k),
    ['b', 'c', 'd'],
    'past the bound the oldest goes',
  );
  ring = withAnswer(ring, 'b', rec(5), bounds);
  t.deepEqual(
    ring.map(([k, r]) => [k, r.requestHash]),
    [
      ['c', 'h3'],
      ['d', 'h4'],
      ['b', 'h5'],
    ],
    'one record a key',
  );
  ring = withAnswer(ring, 'e', rec(6, 1_000 + 3 + bounds.ttlMs), bounds);
  t.deepEqual(
    ring.map(([k]) => k),
    ['d', 'b', 'e'],
    'c is exactly the kept time older than the newest: gone; d, younger, stays',
  );
});

test('a put is taken back exactly: onto a changed ring, a cached one, or none', (t) => {
  const kept = new KeptAnswers({ ...bounds, cacheRecords: 10 });
  const undoFirst = kept.put('p1:a', rec(1));
  const changed = kept.held('p1');
  const undo = kept.put('p1:b', rec(2));
  undo();
  t.is(kept.held('p1'), changed, 'the changed ring before');
  undoFirst();
  t.is(kept.held('p1'), undefined, 'no ring before');
  const cached = kept.adopt('p2', [['p2:x', rec(9)]]);
  const undoCached = kept.put('p2:y', rec(10));
  t.deepEqual(
    kept.take().map(([s]) => s),
    ['p2'],
  );
  undoCached();
  t.deepEqual(kept.take(), [], 'nothing changed after the undo');
  t.is(kept.held('p2'), cached, 'the cached ring is back');
});

test('a ring read from disk is not taken over a newer one memory holds; a ring not held starts from the base read', (t) => {
  const kept = new KeptAnswers({ ...bounds, cacheRecords: 0 });
  kept.put('p1:new', rec(2));
  t.deepEqual(
    kept.adopt('p1', [['p1:old', rec(1)]]).map(([k]) => k),
    ['p1:new'],
    "memory's is newer",
  );
  // No cache: the base the writer read is all there is to build on.
  kept.put('p3:b', rec(5), [['p3:a', rec(4)]]);
  t.deepEqual(kept.get('p3:a'), rec(4));
  t.deepEqual(kept.get('p3:b'), rec(5));
});

test('written rings leave memory past the cache bound, least recently used first; a ring changed meanwhile stays changed', (t) => {
  const kept = new KeptAnswers({ ...bounds, cacheRecords: 2 });
  kept.put('a:1', rec(1));
  kept.put('b:1', rec(2));
  kept.put('c:1', rec(3));
  const taken = kept.take();
  kept.put('c:2', rec(4));
  const generation = kept.generation;
  kept.written(taken);
  t.is(kept.generation, generation + 1);
  t.deepEqual(kept.records(), { dirty: 2, clean: 2, scopes: 3 });
  kept.held('a');
  kept.adopt('d', [['d:1', rec(5)]]);
  t.deepEqual(
    [kept.held('a') !== undefined, kept.held('b') !== undefined, kept.held('d') !== undefined],
    [true, false, true],
    'b was used least recently',
  );
  t.deepEqual(
    kept.take().map(([s]) => s),
    ['c'],
    'c changed after its take: written again next time',
  );
});

test('take drops answers past the kept time from the rings it hands over', (t) => {
  const kept = new KeptAnswers({ perScope: 5, ttlMs: 1_000_000, cacheRecords: 0 });
  kept.put('p:old', rec(1, 10));
  kept.put('p:new', rec(2, 50));
  t.deepEqual(
    kept.take(20).map(([, r]) => r.map(([k]) => k)),
    [['p:new']],
  );
});

// ---- answer files -----------------------------------------------------------------

test("a ring is written whole to its scope's file and read back; an emptied ring removes the file; another scope's file reads as none", async (t) => {
  const dir = tempDir(t);
  await writeAnswers(dir, [
    [
      'p1',
      [
        ['p1:a', rec(1)],
        ['p1:b', rec(2)],
      ],
    ],
    ['signup/u', [['signup/u:k', rec(3)]]],
  ]);
  t.deepEqual(await readAnswers(dir, 'p1'), [
    ['p1:a', rec(1)],
    ['p1:b', rec(2)],
  ]);
  t.deepEqual(await readAnswers(dir, 'signup/u'), [['signup/u:k', rec(3)]]);
  t.deepEqual(await readAnswers(dir, 'p2'), [], 'no file');
  // A file under p2's name that holds another scope (a name both share) is none of p2's.
  mkdirSync(dirname(answersPath(dir, 'p2')), { recursive: true });
  writeFileSync(answersPath(dir, 'p2'), readFileSync(answersPath(dir, 'p1')));
  t.deepEqual(await readAnswers(dir, 'p2'), []);
  await writeAnswers(dir, [['p1', []]]);
  t.deepEqual(await readAnswers(dir, 'p1'), []);
  t.throws(() => statSync(answersPath(dir, 'p1')));
});

test('a damaged answer file is refused by name, never read as no answers', async (t) => {
  const dir = tempDir(t);
  await writeAnswers(dir, [['p1', [['p1:a', rec(1)]]]]);
  const path = answersPath(dir, 'p1');
  writeFileSync(path, readFileSync(path, 'utf8').replace('h1', 'h2'));
  await t.throwsAsync(readAnswers(dir, 'p1'), { instanceOf: FileDamaged, message: /its CRC does not match/ });
  await writeAnswers(dir, [['p1', [['p1:a', rec(1)]]]]);
  writeFileSync(
    path,
    readFileSync(path, 'utf8').slice(0, 9) + '{"scope":"p1","answers":[["p1:a",{"requestHash":1}]]}\n',
  );
  await t.throwsAsync(readAnswers(dir, 'p1'), { instanceOf: FileDamaged });
});

test("a sweep removes a shard's files written before the instant, keeps the newer ones and counts their bytes", async (t) => {
  const dir = tempDir(t);
  await writeAnswers(dir, [['p1', [['p1:a', rec(1)]]]]);
  const path = answersPath(dir, 'p1');
  const shard = Number(path.split('/').at(-2));
  const mtime = statSync(path).mtimeMs;
  t.deepEqual(await sweepAnswers(dir, shard, mtime - 1), { removed: 0, bytes: statSync(path).size });
  utimesSync(path, new Date(mtime - 10_000), new Date(mtime - 10_000));
  t.deepEqual(await sweepAnswers(dir, shard, mtime - 1), { removed: 1, bytes: 0 });
  t.deepEqual(await sweepAnswers(dir, (shard + 1) % 256, mtime), { removed: 0, bytes: 0 }, 'an absent shard');
});

// ---- the JSON-file store -------------------------------------------------------------

test('a checkpoint writes the rings that changed since the last one, and checkpoint.json holds no answers, however many are kept', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  for (let p = 1; p <= 200; p++) await a.commit({ players: [], idempotency: [{ key: `p${p}:k`, record: rec(p) }] });
  await a.close();
  const { store, named } = await opened(t, { dir });
  await store.commit({ players: [], idempotency: [{ key: 'p7:k2', record: rec(7_000) }] });
  await store.close();
  t.deepEqual(
    named('checkpoint').map((d) => d.answers),
    [1],
    'one ring written',
  );
  t.false(
    readFileSync(join(dir, 'checkpoint.json'), 'utf8').includes('requestHash'),
    'checkpoint.json holds no answers',
  );
  const files = readdirSync(join(dir, 'idempotency')).flatMap((sh) => readdirSync(join(dir, 'idempotency', sh)));
  t.is(files.length, 200);
  const b = await FileStorage.open({ dir });
  t.deepEqual(
    [await b.getIdempotency('p7:k'), await b.getIdempotency('p7:k2'), await b.getIdempotency('p200:k')],
    [rec(7), rec(7_000), rec(200)],
  );
  await b.close();
});

test('memory holds the rings in use up to its bound; the rest are read from their files when asked for', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  for (let p = 1; p <= 50; p++) await a.commit({ players: [], idempotency: [{ key: `p${p}:k`, record: rec(p) }] });
  t.is(a.stats().answersInMemory, 50, 'changed, not yet written');
  await a.close();
  const { store } = await opened(t, { dir, answersCacheRecords: 5 });
  t.is(store.stats().answersInMemory, 0, 'none read at start');
  for (let p = 1; p <= 50; p++) t.deepEqual(await store.getIdempotency(`p${p}:k`), rec(p));
  t.is(store.stats().answersInMemory, 5);
});

test('a ring memory let go is added to from its file, not started afresh: its older answers stay', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir });
  await a.commit({ players: [], idempotency: [{ key: 'p1:a', record: rec(1) }] });
  await a.close();
  const b = await FileStorage.open({ dir, answersCacheRecords: 0 });
  await b.commit({ players: [], idempotency: [{ key: 'p1:b', record: rec(2) }] });
  await b.close();
  const c = await FileStorage.open({ dir, answersCacheRecords: 0 });
  t.deepEqual([await c.getIdempotency('p1:a'), await c.getIdempotency('p1:b')], [rec(1), rec(2)]);
  await c.close();
});

test('answers survive a crash: from the journal before a checkpoint, from their files after one', async (t) => {
  const dir = tempDir(t);
  const a = await FileStorage.open({ dir, checkpointBytes: 1 });
  await a.commit({ players: [], idempotency: [{ key: 'p1:a', record: rec(1) }] });
  // The checkpoint the first commit cut runs beside the next commit; no close: a crash.
  await a.commit({ players: [], idempotency: [{ key: 'p1:b', record: rec(2) }] });
  const b = await FileStorage.open({ dir });
  t.deepEqual([await b.getIdempotency('p1:a'), await b.getIdempotency('p1:b')], [rec(1), rec(2)]);
  await b.close();
});

test('a data directory whose checkpoint.json holds the answers (before issue 36) opens with them, and its next checkpoint moves them to their files', async (t) => {
  const dir = tempDir(t);
  // checkpoint.json as it was written then (before checksums too: plain JSON), the answers beside the sessions.
  const index = {
    maxPlayerId: 0,
    uuid: [],
    myCode: [],
    moveCode: [],
    sessions: [],
    idempotency: [
      ['p1:a', rec(1)],
      ['p2:b', rec(2)],
    ],
  };
  writeFileSync(join(dir, 'checkpoint.json'), JSON.stringify({ seq: 0, index }));
  const a = await FileStorage.open({ dir });
  t.deepEqual([await a.getIdempotency('p1:a'), await a.getIdempotency('p2:b')], [rec(1), rec(2)]);
  await a.close();
  t.false(readFileSync(join(dir, 'checkpoint.json'), 'utf8').includes('idempotency'));
  const b = await FileStorage.open({ dir });
  t.deepEqual([await b.getIdempotency('p1:a'), await b.getIdempotency('p2:b')], [rec(1), rec(2)]);
  await b.close();
});

test('a checkpoint drops sessions unused for longer than the retention, and keeps the others', async (t) => {
  const dir = tempDir(t);
  const now = 10_000_000;
  const a = await FileStorage.open({ dir, clock: () => now, sessionRetentionMs: 1_000 });
  const session = (lastSeenAt: number) => ({ playerId: 1, epoch: 0, createdAt: 0, lastSeenAt });
  // A player changed too: close checkpoints what changed.
  await a.commit({
    players: [{ state: freshPlayer({ playerId: 1, seed: 'p1' }), expectedVersion: null }],
    sessions: [
      { key: 'old', session: session(now - 1_001) },
      { key: 'edge', session: session(now - 1_000) },
    ],
  });
  await a.close();
  const b = await FileStorage.open({ dir });
  t.deepEqual([await b.getSession('old'), await b.getSession('edge')], [undefined, session(now - 1_000)]);
  await b.close();
});
