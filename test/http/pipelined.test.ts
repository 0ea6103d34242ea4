// Pipelined commits through the service (issue 34): a player's lock is let go once its
// commit is taken by the file store, so the player's next request runs on that state
// before it is durable; every answer waits for its own fsync; a failed fsync fails the
// requests built on it (105, nothing acknowledged, their Idempotency-Keys not kept) and
// the player is served from what is durable. Fsyncs are held and failed through the
// store's fault options; commits taken are counted, never timed.
import test from 'ava';
import { receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import { heldStore } from '../_support/held-store.js';
import { operationByName } from '../../core/operations/table.js';
import type { Answer } from '../../adapters/service/service.js';

/** The held store (held-store.ts) served through the harness. */
const heldService = async (t: import('ava').ExecutionContext) => {
  const held = await heldStore(t);
  const h = await startHarness({ storage: held.store, cfg: { checkAnswers: false } });
  t.teardown(() => h.close());
  return { ...held, h, storage: held.store };
};

const DRAW = operationByName('drawPlayerGacha')!;
const TEN = { gachaId: 3, drawType: 3 };
/** One turn of the event loop: every promise already settled has run its callbacks. */
const turn = () => new Promise((r) => setImmediate(r));
const codeOf = (a: Answer) => (a._tag === 'Left' ? a.left.code : 'OK');

const setUp = async (t: import('ava').ExecutionContext) => {
  const s = await heldService(t);
  const c = await signupLogin(s.h);
  await receiveAllHttp(c);
  const gem = async () => (await s.storage.load(c.playerId))?.gem as number;
  const draw = (key?: string) =>
    s.h.service.run(
      DRAW,
      s.h.service.context({
        session: c.sessionId,
        ...(key ? { idempotencyKey: { key, requestHash: `hash-${key}` } } : {}),
      }),
      TEN,
    );
  return { ...s, c, gem, draw };
};

test("a player's next request runs while the last one's fsync is held, on its state, and neither is answered before its own fsync", async (t) => {
  const s = await setUp(t);
  const gems = await s.gem();
  const version = (await s.storage.load(s.c.playerId))?.version as number;
  t.true(gems >= 3000, 'two ten-draws are paid for');
  const waiting = s.hold();
  const n = s.count();
  const answered: string[] = [];
  const first = s.draw().then((a) => (answered.push('first'), a));
  await waiting; // the first draw's batch is in its fsync
  const second = s.draw().then((a) => (answered.push('second'), a));
  await s.taken(n + 2); // taken behind it: the player's lock was let go before the fsync
  await turn();
  t.deepEqual(answered, [], 'neither answered while the first fsync is held');
  s.release();
  const [a, b] = await Promise.all([first, second]);
  t.is(codeOf(a), 'OK');
  t.is(codeOf(b), 'OK', 'built on the first draw’s state (the version check passed)');
  t.is(await s.gem(), gems - 3000, 'both paid, each once');
  t.is((await s.storage.load(s.c.playerId))?.version, version + 2);
  const syncs = s.events.filter((e) => e === 'synced').length;
  t.true(syncs >= 2, 'the second draw has a batch and an fsync of its own');
});

test('a failed fsync fails the request built on it too: 105 for both, nothing paid, their keys not kept, the player served from what is durable', async (t) => {
  const s = await setUp(t);
  const gems = await s.gem();
  const version = (await s.storage.load(s.c.playerId))?.version;
  const waiting = s.hold();
  const n = s.count();
  const first = s.draw('first-key');
  await waiting;
  const second = s.draw('second-key');
  await s.taken(n + 2);
  s.fail();
  const [a, b] = await Promise.all([first, second]);
  t.is(codeOf(a), 'DB_ERROR');
  t.is(codeOf(b), 'DB_ERROR', 'the draw built on the failed one is not acknowledged');
  t.is(await s.gem(), gems, 'nothing paid');
  t.is((await s.storage.load(s.c.playerId))?.version, version);
  t.is((await s.storage.loadLatest(s.c.playerId))?.version, version, 'the next request runs on the durable state');
  // The keys were not kept: their retries run, on the durable state, each paid once.
  t.is(codeOf(await s.draw('second-key')), 'OK');
  t.is(codeOf(await s.draw('first-key')), 'OK');
  t.is(await s.gem(), gems - 3000);
  t.is(codeOf(await s.draw('first-key')), 'OK', 'and now the key answers what it kept');
  t.is(await s.gem(), gems - 3000);
});
