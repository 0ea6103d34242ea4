// Retries: an Idempotency-Key makes a POST apply once.
import test from 'ava';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';

const gemOf = async (c: Awaited<ReturnType<typeof signupLogin>>) =>
  ((await c.get('/api/player/get_all')).body['player'] as { gem: number }).gem;

test('the same key with the same body returns the stored response and applies once', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  const gems = await gemOf(c);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'draw-0001' };
  const body = { gachaId: 3, drawType: 3 };
  const first = await h.call('POST', '/api/player/gacha/draw', body, headers);
  t.is(first.body['resultCode'], 0);
  for (let i = 0; i < 3; i++) {
    const again = await h.call('POST', '/api/player/gacha/draw', body, headers);
    t.deepEqual(again.body['gachaResults'], first.body['gachaResults'], 'the stored draw, not a new one');
  }
  t.is(await gemOf(c), gems - 1500, 'paid once');
  const other = await h.call('POST', '/api/player/gacha/draw', body, { ...headers, 'Idempotency-Key': 'draw-0002' });
  // The characters drawn, not the whole results: a repeat of the same draw would differ in its isNew flags alone.
  const drawn = (b: Record<string, unknown>) =>
    (b['gachaResults'] as Array<{ characterId: number }>).map((r) => r.characterId);
  t.notDeepEqual(drawn(other.body), drawn(first.body), 'another key draws other characters');
  t.is(await gemOf(c), gems - 3000, 'another key is another draw');
});

test('the same key with another body is 422; a refused answer is stored too', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'k-1' };
  const short = await h.call('POST', '/api/player/gacha/draw', { gachaId: 2, drawType: 3 }, headers);
  t.is(short.body['resultCode'], 445);
  await receiveAllHttp(c);
  const retried = await h.call('POST', '/api/player/gacha/draw', { gachaId: 2, drawType: 3 }, headers);
  t.is(retried.body['resultCode'], 445, 'the stored answer, even though gems arrived since');
  const reused = await h.call('POST', '/api/player/gacha/draw', { gachaId: 2, drawType: 1 }, headers);
  t.is(reused.status, 422);
  t.is(reused.body['resultCode'], 109);
});

test('a request while the first with the same key still runs is 409', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'parallel' };
  const results = await Promise.all(
    Array.from({ length: 8 }, () => h.call('POST', '/api/player/gacha/draw', { gachaId: 2, drawType: 1 }, headers)),
  );
  const codes = results.map((r) => r.body['resultCode']);
  t.true(codes.includes(0));
  t.true(
    codes.every((x) => x === 0 || x === 110),
    codes.join(','),
  );
  for (const r of results.filter((x) => x.body['resultCode'] === 110)) t.is(r.status, 409);
  const items = (await c.get('/api/player/get_all')).body['itemSummary'] as Array<{ itemId: number; amount: number }>;
  t.false(
    items.some((i) => i.itemId === 3001),
    'the ticket was spent once',
  );
  const chars = (await c.get('/api/player/get_all')).body['managedCharacters'] as unknown[];
  t.is(chars.length, 1, 'one draw applied');
});

test('keys are kept for the configured time, then forgotten; keys are per player', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const key = { 'Idempotency-Key': 'tip' };
  t.is(
    (await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 1 }, { 'X-STAR-SESSION-ID': a.sessionId, ...key }))
      .body['resultCode'],
    0,
  );
  t.is(
    (await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 2 }, { 'X-STAR-SESSION-ID': b.sessionId, ...key }))
      .body['resultCode'],
    0,
    'another player may use the same key',
  );
  t.is(
    (await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 3 }, { 'X-STAR-SESSION-ID': a.sessionId, ...key }))
      .body['resultCode'],
    109,
  );
  for (let i = 0; i < 25; i++) {
    h.clock.now += 3600_000;
    await a.get('/api/player/get_all');
  }
  t.is(
    (await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 3 }, { 'X-STAR-SESSION-ID': a.sessionId, ...key }))
      .body['resultCode'],
    0,
    'after a day the key is new again',
  );
});

test('sign-up with a key: a retried sign-up is done once, and its token is not replayed (112, issue 18)', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const body = { uuid: '44444444-5555-4666-8777-888888888888', platform: 1 };
  const first = await h.call('POST', '/api/player/signup', body, { 'Idempotency-Key': 'signup-1' });
  const retry = await h.call('POST', '/api/player/signup', body, { 'Idempotency-Key': 'signup-1' });
  t.is(first.body['resultCode'], 0);
  t.is(retry.body['resultCode'], 112);
  t.is(retry.body['accessToken'], undefined);
  const plain = await h.call('POST', '/api/player/signup', body);
  t.is(plain.body['resultCode'], 201);
  const bad = await h.call('POST', '/api/player/signup', body, { 'Idempotency-Key': 'has space' });
  t.is(bad.body['resultCode'], 102);
});

test('an admin grant between retries does not change the stored answer', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'move-1' };
  const first = await h.call('POST', '/api/player/move/get', { password: 'secret-99' }, headers);
  await grant(h, c.playerId, 'gold', 0, 5);
  const second = await h.call('POST', '/api/player/move/get', { password: 'secret-99' }, headers);
  t.is(second.body['moveCode'], first.body['moveCode']);
});
