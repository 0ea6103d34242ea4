// Suspending a player through the operator API: its sessions end, log-in and every
// request answer 403 with 204 and the end time (null: indefinite); the reason stays
// with the operator; the suspension ends by itself at its time, or when lifted; the
// console's player screen reads the history.
import test from 'ava';
import { ADMIN, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';
import { formatTime, HOUR } from '../../core/time.js';

const auth = { Authorization: `Bearer ${ADMIN}` };
const OFFSET = master().game.timezoneOffsetMinutes;
const at = (ms: number) => formatTime(ms, OFFSET);
const admin = (h: Harness, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  h.call(method, path, body, auth);
type Player = Awaited<ReturnType<typeof signupLogin>>;
const login = (h: Harness, p: Player) =>
  h.call('POST', '/api/player/login', { uuid: p.uuid, accessToken: p.accessToken, platform: 1, appVersion: '1.0.0' });

test('a suspended player is refused 403/204 with its end on every request and at log-in; the reason is not shown; it ends by itself', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const p = await signupLogin(h);
  const other = await signupLogin(h);
  // Shorter than a session's idle time: its end, not idleness, ends the sessions.
  const until = h.clock.now + HOUR / 2;
  const r = await admin(h, 'POST', `/admin/players/${p.playerId}/suspend`, {
    until: at(until),
    reason: 'botting: 40,000 draws an hour',
  });
  t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
  t.like(r.body, { suspended: true });
  t.like((r.body['suspensions'] as unknown[])[0], { until: at(until), reason: 'botting: 40,000 draws an hour' });

  for (const refused of [await p.get('/api/player/get_all'), await login(h, p)]) {
    t.is(refused.status, 403);
    t.like(refused.body, { resultCode: 204, suspendedUntil: at(until) });
    t.false(JSON.stringify(refused.body).includes('botting'), 'the reason is for the operator only');
  }
  t.is((await other.get('/api/player/get_all')).body['resultCode'], 0, 'nobody else is touched');

  h.clock.now = until;
  t.is((await p.get('/api/player/get_all')).body['resultCode'], 203, 'its sessions ended with it');
  t.is((await login(h, p)).body['resultCode'], 0, 'it ended by itself');
});

test('an indefinite suspension says no end; lifting it lets the player log in; the history keeps both', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const p = await signupLogin(h);
  await admin(h, 'POST', `/admin/players/${p.playerId}/suspend`, { reason: 'chargeback fraud' });
  const refused = await login(h, p);
  t.like(refused.body, { resultCode: 204, suspendedUntil: null });
  const lifted = await admin(h, 'DELETE', `/admin/players/${p.playerId}/suspend`);
  t.is(lifted.body['resultCode'], 0);
  t.like(lifted.body, { suspended: false });
  t.like((lifted.body['suspensions'] as unknown[])[0], { until: null, liftedAt: at(h.clock.now) });
  t.is((await login(h, p)).body['resultCode'], 0);
  h.clock.now += HOUR;
  await admin(h, 'POST', `/admin/players/${p.playerId}/suspend`, { until: at(h.clock.now + HOUR), reason: 'again' });
  const history = await admin(h, 'GET', `/admin/players/${p.playerId}/suspend`);
  t.deepEqual(
    (history.body['suspensions'] as Array<{ reason: string }>).map((s) => s.reason),
    ['chargeback fraud', 'again'],
  );
  t.like(history.body, { suspended: true });
});

test('suspensions are refused for no player, a past end, no reason; lifting none is 317; nothing changes', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const p = await signupLogin(h);
  const before = (await admin(h, 'GET', `/admin/players/${p.playerId}`)).body['state'];
  t.is((await admin(h, 'POST', '/admin/players/999/suspend', { reason: 'x' })).status, 404);
  for (const bad of [
    { reason: 'x', until: at(h.clock.now - HOUR) },
    { reason: '' },
    {},
    { reason: 'x', until: 'soon' },
  ]) {
    const r = await admin(h, 'POST', `/admin/players/${p.playerId}/suspend`, bad);
    t.true([102, 103].includes(r.body['resultCode'] as number), JSON.stringify(bad));
  }
  const none = await admin(h, 'DELETE', `/admin/players/${p.playerId}/suspend`);
  t.is(none.body['resultCode'], 317);
  t.deepEqual((await admin(h, 'GET', `/admin/players/${p.playerId}`)).body['state'], before);
  t.is((await p.get('/api/player/get_all')).body['resultCode'], 0);
});
