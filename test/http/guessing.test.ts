// Guessing (issue 18): every refused move code gets one answer; others' wrong
// passwords make the owner's code rest, never void it; wrong move tries and wrong
// admin tokens are limited per address (429); a session used within the idle
// setting never expires, whatever the setting.
import test from 'ava';
import { ADMIN, newUuid, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';
import { DEFAULT_LIMITS } from '../../adapters/http/rate-limit.js';

type Body = Record<string, unknown>;
const answer = (b: Body) => ({ resultCode: b['resultCode'], resultMessage: b['resultMessage'] });
const MINUTE = 60_000;

const withCode = async (h: Harness) => {
  const c = await signupLogin(h);
  const mv = await c.post('/api/player/move/get', { password: 'right-pass' });
  return { c, code: mv.body['moveCode'] as string };
};
const tryMove = (h: Harness, moveCode: string, movePassword: string, headers: Record<string, string> = {}) =>
  h.call('POST', '/api/player/move/set', { moveCode, movePassword, uuid: newUuid(), platform: 2 }, headers);

test('every refused move code gets the same answer: unknown, wrong password, expired, resting', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { code } = await withCode(h);
  const unknown = await tryMove(h, 'ZZZZZZZZZZ', 'right-pass');
  const wrong = await tryMove(h, code, 'wrong-pass');
  t.is(unknown.status, 403);
  t.is(unknown.body['resultCode'], 210);
  t.deepEqual(answer(wrong.body), answer(unknown.body));
  t.deepEqual(wrong.status, unknown.status);
  for (let i = 1; i < master().game.move.maxFailures; i++) await tryMove(h, code, 'wrong-pass');
  const resting = await tryMove(h, code, 'right-pass');
  t.deepEqual(
    answer(resting.body),
    answer(unknown.body),
    'a resting code: the same answer, even to the right password',
  );
  h.clock.now += 25 * 60 * MINUTE;
  const expired = await tryMove(h, code, 'right-pass');
  t.deepEqual(answer(expired.body), answer(unknown.body));
  t.notRegex(unknown.body['resultMessage'] as string, /unknown|wrong password|void/);
});

test("others' wrong passwords never void the owner's code: it rests, then the owner moves with it", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const { c, code } = await withCode(h);
  const { maxFailures, restMinutes } = master().game.move;
  // Four rounds of guesses, each up to the limit: the code rests after each, and is still there.
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < maxFailures; i++) t.is((await tryMove(h, code, `guess-${round}-${i}`)).body['resultCode'], 210);
    t.is((await tryMove(h, code, 'right-pass')).body['resultCode'], 210, 'resting: every try refused');
    h.clock.now += restMinutes * MINUTE;
  }
  const moved = await tryMove(h, code, 'right-pass');
  t.is(moved.body['resultCode'], 0, "the owner's code still works");
  t.is((await c.get('/api/player/get_all')).body['resultCode'], 203, "the old device's session ended");
});

test('wrong move tries are limited per address: 429 with Retry-After once the address has used its failures, other addresses unaffected', async (t) => {
  const failures = { rate: 1 / 60, burst: 4 };
  const h = await startHarness({
    cfg: { rateLimits: { ...DEFAULT_LIMITS, account: { rate: 100, burst: 100 }, failures }, trustProxyHops: 1 },
  });
  t.teardown(() => h.close());
  const { code } = await withCode(h);
  const from = (ip: string) => ({ 'X-Forwarded-For': ip });
  for (let i = 0; i < 4; i++)
    t.is((await tryMove(h, `NOCODE000${i}`, 'pass-0000', from('10.0.0.1'))).body['resultCode'], 210);
  const limited = await tryMove(h, code, 'right-pass', from('10.0.0.1'));
  t.is(limited.status, 429);
  t.is(limited.body['resultCode'], 111);
  t.truthy(limited.headers['retry-after']);
  const other = await tryMove(h, code, 'right-pass', from('10.0.0.2'));
  t.is(other.body['resultCode'], 0, 'another address moves with the right password');
  // A minute later the address has one more try.
  h.clock.now += MINUTE;
  t.is((await tryMove(h, 'NOCODE0009', 'pass-0000', from('10.0.0.1'))).body['resultCode'], 210);
  t.is((await tryMove(h, 'NOCODE0010', 'pass-0000', from('10.0.0.1'))).status, 429);
});

test("the operator API is rate limited: wrong tokens run out an address's failures (429 even with the right token), others unaffected", async (t) => {
  const h = await startHarness({
    cfg: { rateLimits: { ...DEFAULT_LIMITS, failures: { rate: 1 / 60, burst: 10 } }, trustProxyHops: 1 },
  });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const attacker = { 'X-Forwarded-For': '10.0.0.66' };
  const codes: number[] = [];
  for (let i = 0; i < 300; i++)
    codes.push(
      (
        await h.call('GET', `/admin/players/${c.playerId}`, undefined, {
          ...attacker,
          Authorization: `Bearer wrong-token-${i}`,
        })
      ).status,
    );
  t.is(codes.filter((s) => s === 401).length, 10, 'ten wrong tokens are answered 401');
  t.is(codes.filter((s) => s === 429).length, 290, 'then 429');
  const right = await h.call('GET', `/admin/players/${c.playerId}`, undefined, {
    ...attacker,
    Authorization: `Bearer ${ADMIN}`,
  });
  t.is(right.status, 429, 'the right token from that address waits too');
  const operator = await h.call('GET', `/admin/players/${c.playerId}`, undefined, {
    'X-Forwarded-For': '10.0.0.7',
    Authorization: `Bearer ${ADMIN}`,
  });
  t.is(operator.status, 200);
  // /admin requests count against the address bucket too.
  const flood = await Promise.all(
    Array.from({ length: 250 }, () =>
      h.call('GET', `/admin/players/${c.playerId}`, undefined, {
        'X-Forwarded-For': '10.0.0.8',
        Authorization: `Bearer ${ADMIN}`,
      }),
    ),
  );
  t.true(
    flood.some((r) => r.status === 429),
    'over the address limit',
  );
});

test('a session used within the idle setting never expires, whatever the setting; unused, it does', async (t) => {
  for (const idleSeconds of [10, 30, 59, 3600]) {
    const h = await startHarness({ sessionIdleMs: idleSeconds * 1000 });
    const c = await signupLogin(h);
    // Used just within the idle time, forty times over (reads and writes).
    for (let i = 0; i < 40; i++) {
      h.clock.now += idleSeconds * 1000 - 1;
      const r =
        i % 2 === 0 ? await c.get('/api/player/get_all') : await c.post('/api/player/tutorial/tip/add', { tipId: i });
      t.is(r.body['resultCode'], 0, `idle ${idleSeconds} s, use ${i}`);
    }
    // Unused for twice the idle time: expired.
    h.clock.now += 2 * idleSeconds * 1000;
    t.is((await c.get('/api/player/get_all')).body['resultCode'], 203, `idle ${idleSeconds} s`);
    await h.close();
  }
});
