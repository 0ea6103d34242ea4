// The maintenance window through the operator API: inside it every /api request (log-in
// included) answers 503 with result code 10, the operator's message and its end, except
// for the allowed players; the version check, the notices, /admin and the probes keep
// answering; a window to come starts by itself, and every window ends by itself.
import test from 'ava';
import { ADMIN, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';
import { formatTime, HOUR } from '../../core/time.js';

const auth = { Authorization: `Bearer ${ADMIN}` };
const OFFSET = master().game.timezoneOffsetMinutes;
const at = (ms: number) => formatTime(ms, OFFSET);
const admin = (h: Harness, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) =>
  h.call(method, path, body, auth);
const versionGet = (h: Harness) => h.call('GET', '/api/app/version/get?platform=2&version=1.0.3');

test('inside the window every player request answers 503/10 with the message and the end; the version check, notices, /admin and /healthz keep answering', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const p = await signupLogin(h);
  // Shorter than a session's idle time: the session outlives it.
  const until = h.clock.now + HOUR / 2;
  const set = await admin(h, 'POST', '/admin/maintenance', { until: at(until), message: 'Upgrading the servers.' });
  t.is(set.body['resultCode'], 0, JSON.stringify(set.body));
  t.like(set.body['maintenance'], { from: at(h.clock.now), until: at(until), inForce: true, by: 'admin' });

  const refused = await p.get('/api/player/get_all');
  t.is(refused.status, 503);
  t.like(refused.body, { resultCode: 10, resultMessage: 'Upgrading the servers.', maintenanceUntil: at(until) });
  const login = await h.call('POST', '/api/player/login', {
    uuid: p.uuid,
    accessToken: p.accessToken,
    platform: 1,
    appVersion: '1.0.0',
  });
  t.like(login.body, { resultCode: 10 });
  const signup = await h.call('POST', '/api/player/signup', { uuid: crypto.randomUUID(), platform: 1 });
  t.like(signup.body, { resultCode: 10 });
  const noSession = await h.call('GET', '/api/player/get_all');
  t.like(noSession.body, { resultCode: 10 }, 'maintenance is said before the session is asked for');

  t.is((await versionGet(h)).body['resultCode'], 0);
  t.is((await h.call('GET', '/api/notice/get_all')).body['resultCode'], 0);
  t.is((await admin(h, 'GET', `/admin/players/${p.playerId}`)).body['resultCode'], 0);
  t.is((await fetch(`${h.url}/healthz`)).status, 200);

  h.clock.now = until;
  t.is((await p.get('/api/player/get_all')).body['resultCode'], 0, 'it ends by itself');
});

test('the allowed players play through the window; the others do not', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const team = await signupLogin(h);
  const other = await signupLogin(h);
  await admin(h, 'POST', '/admin/maintenance', {
    until: at(h.clock.now + HOUR),
    message: 'Checking the new banner.',
    allowPlayerIds: [team.playerId],
  });
  t.is((await team.get('/api/player/get_all')).body['resultCode'], 0);
  t.is((await team.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).status !== 503, true);
  t.is((await other.get('/api/player/get_all')).body['resultCode'], 10);
  const relog = await h.call('POST', '/api/player/login', {
    uuid: team.uuid,
    accessToken: team.accessToken,
    platform: 1,
    appVersion: '1.0.0',
  });
  t.is(relog.body['resultCode'], 0, 'an allowed player logs in');
});

test('a window to come starts by itself; ending it opens the game at once; a second end is 107', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const p = await signupLogin(h);
  const from = h.clock.now + HOUR;
  await admin(h, 'POST', '/admin/maintenance', { from: at(from), until: at(from + HOUR), message: 'Tonight.' });
  t.like((await admin(h, 'GET', '/admin/maintenance')).body['maintenance'], { inForce: false, from: at(from) });
  t.is((await p.get('/api/player/get_all')).body['resultCode'], 0, 'not yet');
  h.clock.now = from;
  t.is((await p.get('/api/player/get_all')).body['resultCode'], 10, 'from its start');
  t.is((await admin(h, 'DELETE', '/admin/maintenance')).body['resultCode'], 0);
  t.is((await p.get('/api/player/get_all')).body['resultCode'], 0, 'ended by the operator');
  t.like((await admin(h, 'GET', '/admin/maintenance')).body, { maintenance: null });
  const again = await admin(h, 'DELETE', '/admin/maintenance');
  t.is(again.status, 404);
  t.is(again.body['resultCode'], 107);
});

test('a window is refused with a bad end, a bad time or no message, and nothing is set', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (const bad of [
    { until: at(h.clock.now - HOUR), message: 'past' },
    { from: at(h.clock.now + 2 * HOUR), until: at(h.clock.now + HOUR), message: 'ends before it starts' },
    { until: 'tomorrow', message: 'x' },
    { until: at(h.clock.now + HOUR), message: '' },
    { message: 'no end' },
    { until: at(h.clock.now + HOUR), message: 'x', allowPlayerIds: [0] },
  ]) {
    const r = await admin(h, 'POST', '/admin/maintenance', bad);
    t.true([102, 103].includes(r.body['resultCode'] as number), JSON.stringify(bad));
  }
  t.like((await admin(h, 'GET', '/admin/maintenance')).body, { maintenance: null });
});
