// The operator API as an operator writes to it: deadlines in the wire's time or
// ISO 8601, errors that name the field (not the codec's path), "No such player"
// for an unknown id, and finding a player by uuid, friend code or name.
import test from 'ava';
import { ADMIN, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { formatTime } from '../../core/time.js';

const auth = { Authorization: `Bearer ${ADMIN}` };
const send = (h: Harness, body: Record<string, unknown>) =>
  h.call(
    'POST',
    '/admin/presents',
    { grant: { kind: 'gold', objectId: 0, amount: 5 }, title: 'Gift', message: '', ...body },
    auth,
  );
const OFFSET = master().game.timezoneOffsetMinutes;

test("a deadline is the wire's time (the game's zone) or ISO 8601 with a zone, in the future", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const wire = formatTime(NOW + 7 * 86_400_000, OFFSET);
  t.is((await send(h, { playerId: c.playerId, deadline: wire, title: 'wire' })).body['resultCode'], 0);
  const iso = new Date(NOW + 3 * 86_400_000).toISOString();
  t.is((await send(h, { playerId: c.playerId, deadline: iso, title: 'iso' })).body['resultCode'], 0);
  t.is(
    (await send(h, { playerId: c.playerId, deadline: '2030-01-01T09:00:00+09:00', title: 'offset' })).body[
      'resultCode'
    ],
    0,
  );
  t.is((await send(h, { playerId: c.playerId, deadline: null, title: 'none' })).body['resultCode'], 0);
  const presents = (await c.get('/api/player/present/get_all')).body['presents'] as Array<{
    title: string;
    deadline: string | null;
  }>;
  const byTitle = Object.fromEntries(presents.map((p) => [p.title, p.deadline]));
  t.is(byTitle['wire'], wire, 'the same time comes back in the answers');
  t.is(byTitle['iso'], formatTime(NOW + 3 * 86_400_000, OFFSET));
  t.is(byTitle['offset'], '2030-01-01T09:00:00');
  t.is(byTitle['none'], null);
  for (const [deadline, reason] of [
    ['next week', /Invalid parameter deadline: must be a time as 2026-12-31T23:59:59 \(the game's time zone/],
    [NOW + 86_400_000, /Invalid parameter deadline: must be a time as/],
    ['2026-13-01T00:00:00', /Invalid parameter deadline: must be a time as/],
    [formatTime(NOW - 60_000, OFFSET), /Invalid parameter deadline: must be in the future/],
  ] as const) {
    const r = await send(h, { playerId: c.playerId, deadline });
    t.is(r.status, 400, String(deadline));
    t.regex(r.body['resultMessage'] as string, reason, String(deadline));
  }
});

test("errors name the field as the operator wrote it, not the codec's path", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const kind = await send(h, { playerId: c.playerId, grant: { kind: 'bogus', objectId: 0, amount: 1 } });
  t.regex(kind.body['resultMessage'] as string, /^Invalid parameter grant\.kind: /);
  const title = await send(h, { playerId: c.playerId, title: '' });
  t.regex(title.body['resultMessage'] as string, /^Invalid parameter title: /);
  const missing = await h.call('POST', '/admin/presents', { playerId: c.playerId, title: 'x', message: '' }, auth);
  t.is(missing.body['resultMessage'], 'Missing parameter grant.');
});

test('an unknown player is "No such player"', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const read = await h.call('GET', '/admin/players/999', undefined, auth);
  t.deepEqual([read.status, read.body['resultCode'], read.body['resultMessage']], [404, 202, 'No such player: 999.']);
  const sent = await send(h, { playerId: 999 });
  t.deepEqual([sent.status, sent.body['resultCode'], sent.body['resultMessage']], [404, 202, 'No such player: 999.']);
});

test('GET /admin/players finds players by uuid, friend code or name', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const state = (await h.call('GET', `/admin/players/${a.playerId}`, undefined, auth)).body['state'] as {
    myCode: string;
    name: string;
  };
  const find = (q: string) => h.call('GET', `/admin/players?${q}`, undefined, auth);
  const byUuid = await find(`uuid=${a.uuid}`);
  t.is(byUuid.body['resultCode'], 0);
  t.deepEqual(byUuid.body['players'], [
    {
      playerId: a.playerId,
      uuid: a.uuid,
      myCode: state.myCode,
      name: state.name,
      level: 1,
      createdAt: formatTime(NOW, OFFSET),
      lastLoginAt: formatTime(NOW, OFFSET),
    },
  ]);
  t.deepEqual((await find(`myCode=${state.myCode}`)).body['players'], byUuid.body['players']);
  // Both signed up as Aki (the harness's name): a name lists every player who has it, by id.
  t.is(state.name, 'Aki');
  const named = (await find('name=Aki')).body['players'] as Array<{ playerId: number; name: string }>;
  t.deepEqual(
    named.map((p) => p.playerId),
    [a.playerId, b.playerId].sort((x, y) => x - y),
  );
  t.deepEqual((await find('name=Nobody')).body['players'], []);
  t.deepEqual((await find('uuid=00000000-0000-4000-8000-999999999999')).body['players'], []);
  const none = await find('');
  t.deepEqual([none.status, none.body['resultCode']], [400, 103]);
  const two = await find(`uuid=${a.uuid}&name=Aki`);
  t.deepEqual([two.status, two.body['resultCode']], [400, 102]);
  t.is((await h.call('GET', `/admin/players?uuid=${a.uuid}`, undefined, { Authorization: 'Bearer nope' })).status, 401);
});
