// Abuse limits: token buckets per session and per address, stricter for account operations.
import test from 'ava';
import { signupLogin, startHarness } from '../_support/http.js';

const LIMITS = {
  session: { rate: 2, burst: 3 },
  address: { rate: 1000, burst: 1000 },
  account: { rate: 0.1, burst: 4 },
};

test('a session over its rate is 429 with Retry-After, and is served again once tokens return', async (t) => {
  const h = await startHarness({ cfg: { rateLimits: LIMITS } });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const codes: number[] = [];
  for (let i = 0; i < 5; i++) codes.push((await c.get('/api/player/get_all')).status);
  t.deepEqual(codes, [200, 200, 200, 429, 429]);
  const r = await c.get('/api/player/get_all');
  t.is(r.body['resultCode'], 111);
  t.regex(r.body['resultMessage'] as string, /retry after 1 seconds/);
  h.clock.now += 1000;
  t.is((await c.get('/api/player/get_all')).status, 200);
});

test('sign-up, log-in and move are limited per address more strictly', async (t) => {
  const h = await startHarness({ cfg: { rateLimits: LIMITS } });
  t.teardown(() => h.close());
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const r = await h.call('POST', '/api/player/signup', {
      uuid: `55555555-0000-4000-8000-00000000000${i}`,
      platform: 1,
    });
    statuses.push(r.status);
  }
  t.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
  const r = await h.call('POST', '/api/player/login', {
    uuid: '55555555-0000-4000-8000-000000000000',
    accessToken: 'x'.repeat(20),
  });
  t.is(r.status, 429);
  t.true(Number(r.headers['retry-after']) >= 1, 'Retry-After in seconds');
});

test('limits are off unless configured (the harness default)', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const rs = await Promise.all(Array.from({ length: 60 }, () => c.get('/api/player/get_all')));
  t.true(rs.every((r) => r.status === 200));
});
