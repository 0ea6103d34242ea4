// A whole session over HTTP, played twice with the same seed and clock: every
// response is byte-identical.
import test from 'ava';
import { ADMIN, startHarness, type Harness } from '../_support/http.js';
import { HOUR } from '../../core/time.js';

const OLD = '0a0a0a0a-1111-4222-8333-444444444444';
const NEW = '0b0b0b0b-1111-4222-8333-444444444444';

type Body = Record<string, unknown>;

/** Plays the session and returns every response body as text, in order. */
const playSession = async (t: import('ava').ExecutionContext, h: Harness): Promise<string[]> => {
  const out: string[] = [];
  const call = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    session?: string,
    expectCode = 0,
  ): Promise<Body> => {
    const r = await h.call(method, path, body, session ? { 'X-STAR-SESSION-ID': session } : {});
    out.push(`${r.status} ${JSON.stringify(r.body)}`);
    t.is(r.body['resultCode'], expectCode, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  };
  const su = await call('POST', '/api/player/signup', { uuid: OLD, platform: 1, name: 'Aki', stepCode: 1 });
  const li = await call('POST', '/api/player/login', {
    uuid: OLD,
    accessToken: su['accessToken'],
    platform: 1,
    appVersion: '1.0.0',
  });
  const sid = li['sessionId'] as string;
  const all = await call('GET', '/api/player/get_all', undefined, sid);
  const player = all['player'] as Body;
  t.is(player['playerId'], su['playerId']);
  t.regex(player['myCode'] as string, /^[A-Z0-9]{10}$/);

  const box = await call('GET', '/api/player/present/get_all', undefined, sid);
  const ids = (box['presents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId);
  const got = await call(
    'GET',
    `/api/player/present/get?managedPresentId=${ids.join('%2C')}&stepCode=2`,
    undefined,
    sid,
  );
  t.is((got['receivedPresents'] as unknown[]).length, ids.length);
  // The welcome gems (3,000) and the first log-in's bonus milestone (100).
  t.is((got['player'] as Body)['gem'], 3100);
  await call('GET', '/api/player/present/get_received', undefined, sid);

  const gachas = await call('GET', '/api/player/gacha/get_all', undefined, sid);
  t.true((gachas['gachas'] as Array<{ gacha: { id: number } }>).some((g) => g.gacha.id === 3));
  t.deepEqual(gachas['gachaSteps'], []);
  await call('GET', '/api/player/gacha/box/get?gachaId=3', undefined, sid);

  const single = await call(
    'POST',
    '/api/player/gacha/draw',
    { gachaId: 2, drawType: 1, stepCode: 0, reDraw: false },
    sid,
  );
  t.is((single['gachaResults'] as unknown[]).length, 1);
  t.false(
    (single['itemSummary'] as Array<{ itemId: number }>).some((i) => i.itemId === 3001),
    'the single draw used the welcome ticket',
  );
  t.is(single['player'], undefined, 'no currency changed');
  const ten = await call(
    'POST',
    '/api/player/gacha/draw',
    { gachaId: 3, drawType: 3, stepCode: 0, reDraw: false },
    sid,
  );
  t.is((ten['gachaResults'] as unknown[]).length, 10);
  t.is((ten['player'] as Body)['gem'], 1600, 'the ten-draw cost 1,500');

  // Enough points for a target: gems from the operator, four more ten-draws.
  const admin = await h.call(
    'POST',
    '/admin/presents',
    {
      playerId: su['playerId'],
      grant: { kind: 'gem', objectId: 0, amount: 5500 },
      title: 'Gift',
      message: 'for testing',
    },
    { Authorization: `Bearer ${ADMIN}` },
  );
  out.push(JSON.stringify(admin.body));
  const box2 = await call('GET', '/api/player/present/get_all', undefined, sid);
  const gift = (box2['presents'] as Array<{ managedPresentId: number }>)[0]!.managedPresentId;
  await call('GET', `/api/player/present/get?managedPresentId=${gift}`, undefined, sid);
  for (let i = 0; i < 4; i++) await call('POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 3 }, sid);
  await call('POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 3 }, sid, 445);
  const point = await call('POST', '/api/player/gacha/point_to_character', { gachaId: 3, characterId: 1012 }, sid);
  t.is(point['points'], 0);
  t.true((point['managedCharacters'] as Array<{ characterId: number }>).some((c) => c.characterId === 1012));

  // The first-time gacha: a draw owned at once and replaceable, a re-roll, the fix that makes it final.
  const first = await call(
    'POST',
    '/api/player/gacha/draw',
    { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true },
    sid,
  );
  t.like(first, { pending: false, replaceable: true });
  await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true }, sid);
  const fixed = await call('POST', '/api/player/gacha/fix', {}, sid);
  t.truthy(fixed['managedCharacters']);
  await call('POST', '/api/player/gacha/fix', {}, sid, 315);

  await call('POST', '/api/player/tutorial/step/add', { stepCode: -1 }, sid);
  await call('POST', '/api/player/tutorial/tip/add', { tipId: 3 }, sid);

  // Move to a new device.
  h.clock.now += HOUR;
  const mv = await call('POST', '/api/player/move/get', { password: 'pass-1234' }, sid);
  await call(
    'POST',
    '/api/player/move/set',
    { moveCode: mv['moveCode'], movePassword: 'wrong-999', uuid: NEW, platform: 2 },
    undefined,
    210,
  );
  const moved = await call('POST', '/api/player/move/set', {
    moveCode: mv['moveCode'],
    movePassword: 'pass-1234',
    uuid: NEW,
    platform: 2,
  });
  t.is(moved['playerId'], su['playerId']);
  await call(
    'POST',
    '/api/player/move/set',
    { moveCode: mv['moveCode'], movePassword: 'pass-1234', uuid: NEW, platform: 2 },
    undefined,
    210,
  );
  await call('GET', '/api/player/get_all', undefined, sid, 203);
  await call(
    'POST',
    '/api/player/login',
    { uuid: OLD, accessToken: su['accessToken'], platform: 1, appVersion: '1.0.0' },
    undefined,
    212,
  );
  const li2 = await call('POST', '/api/player/login', {
    uuid: NEW,
    accessToken: moved['accessToken'],
    platform: 2,
    appVersion: '1.0.0',
  });
  const after = await call('GET', '/api/player/get_all', undefined, li2['sessionId'] as string);
  t.is((after['player'] as Body)['tutorialStep'], -1, 'the same player, on the new device');
  t.is((after['managedCharacters'] as unknown[]).length, (fixed['managedCharacters'] as unknown[]).length);
  return out;
};

test('a whole session: sign-up to move, and the same seed and clock give byte-identical responses', async (t) => {
  const a = await startHarness({ tokenSeed: 'session' });
  const b = await startHarness({ tokenSeed: 'session' });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  const first = await playSession(t, a);
  const second = await playSession(t, b);
  t.true(first.length > 30);
  t.deepEqual(second, first);
});
