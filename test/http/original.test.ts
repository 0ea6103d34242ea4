// The original clients' endpoints over HTTP (issue 21): the version check and the
// quest chapters without a session, the 2017 paths served as aliases of the same
// entries, and each endpoint's result codes with their HTTP statuses (a refusal
// changes nothing). Rules: docs/rules/original.md.
import test from 'ava';
import { clientOf, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { MINUTE, dayIndex } from '../../core/time.js';
import { dayStart, managedMissionIdOf } from '../../core/shared/missions.js';
import { buildOpenApi } from '../../adapters/http/openapi.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;
type Body = Record<string, unknown>;

const harness = async (t: { teardown: (f: () => Promise<void>) => void }): Promise<Harness> => {
  const h = await startHarness();
  t.teardown(() => h.close());
  return h;
};

const stateOf = async (c: Client): Promise<Body> => {
  const r = (await c.get('/api/player/get_all')).body;
  delete r['serverTime'];
  return r;
};

/** An error answer: its result code and HTTP status, and the player's state unchanged. */
const refused = async (
  t: { is: (a: unknown, b: unknown, m?: string) => void; deepEqual: (a: unknown, b: unknown, m?: string) => void },
  c: Client,
  method: 'GET' | 'POST',
  path: string,
  body: Body | undefined,
  code: number,
  status: number,
) => {
  const before = await stateOf(c);
  const r = method === 'GET' ? await c.get(path) : await c.post(path, body);
  t.is(r.body['resultCode'], code, `${path} result code: ${JSON.stringify(r.body)}`);
  t.is(r.status, status, `${path} HTTP status`);
  t.deepEqual(await stateOf(c), before, `${path} changed nothing`);
};

const m = master();
const TODAY = dayIndex(NOW, m.game.timezoneOffsetMinutes, m.game.dayResetHour);

test('app/version/get needs no session: abVer for a current app; 1 OUTDATED, 30 OUTDATED_AB_VERSION, 102 and 103 refusals', async (t) => {
  const h = await harness(t);
  const ok = await h.call('GET', '/api/app/version/get?platform=1&version=1.0.2');
  t.like(ok.body, { resultCode: 0, platform: 1, abVer: 3, minVersion: '1.0.2', latestVersion: '1.0.3' });
  const cases: Array<[string, number, number]> = [
    ['?platform=2&version=1.0.1', 1, 403],
    ['?platform=2&version=1.0.3&abVer=1', 30, 403],
    ['?platform=9&version=1.0.3', 102, 400],
    ['?platform=2&version=one', 102, 400],
    ['?platform=2', 103, 400],
  ];
  for (const [query, code, status] of cases) {
    const r = await h.call('GET', `/api/app/version/get${query}`);
    t.is(r.body['resultCode'], code, query);
    t.is(r.status, status, query);
  }
  t.regex(
    (await h.call('GET', '/api/app/version/get?platform=2&version=1.0.1')).body['resultMessage'] as string,
    /1\.0\.2/,
  );
  // The typed client has both public entries, called without a session, their answers typed and checked.
  const client = clientOf(h);
  const v = await client.getAppVersion({ platform: 2, version: '1.0.3' });
  t.true(v.ok && v.value.abVer === 3);
  const chapters = await client.getAllQuestChapter();
  t.true(chapters.ok && chapters.value.questChapters.length === 3);
  const old = await client.getAppVersion({ platform: 2, version: '0.9' });
  t.true(!old.ok && old.resultCode === 1 && old.status === 403);
});

test("quest_chapter/get_all needs no session; the player's own reads do", async (t) => {
  const h = await harness(t);
  const r = await h.call('GET', '/api/quest_chapter/get_all');
  t.is(r.body['resultCode'], 0);
  t.deepEqual(
    (r.body['questChapters'] as Body[]).map((c) => c['chapterId']),
    [1, 2, 101],
  );
  for (const path of ['/api/player/quest/get_all', '/api/player/mission/get_all']) {
    const anon = await h.call('GET', path);
    t.is(anon.body['resultCode'], 203, path);
    t.is(anon.status, 401, path);
  }
});

test('the 2017 paths are aliases of the same entries: quest_log/add orders, quest_log/set completes, room_object/buy buys', async (t) => {
  const h = await harness(t);
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  const draw = await c.post('/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false });
  t.is(draw.body['resultCode'], 0);
  t.is((await c.post('/api/player/tutorial/party/set', { stepCode: 5 })).body['resultCode'], 0);
  const order = await c.post('/api/player/quest_log/add', {
    type: 1,
    questId: 1001,
    managedBattlePartyId: 1,
    supportCharacterId: -1,
    questData: '',
  });
  t.like(order.body, { resultCode: 0, questId: 1001 });
  const done = await c.post('/api/player/quest_log/set', {
    orderReceiveId: order.body['orderReceiveId'],
    state: 2,
    clearRank: 3,
    skillExps: '',
    stepCode: 0,
  });
  t.like(done.body, { resultCode: 0, cleared: true, questId: 1001 });
  // The same refusals as the entry's own path.
  await refused(t, c, 'POST', '/api/player/quest_log/set', { orderReceiveId: 999, state: 2 }, 107, 404);
  await refused(
    t,
    c,
    'POST',
    '/api/player/quest_log/add',
    { questId: 1000, managedBattlePartyId: 1, type: 1 },
    102,
    400,
  );
  const buy = await c.post('/api/player/room_object/buy', { roomObjectId: 1, amount: 1 });
  t.is(buy.body['resultCode'], 0);
  t.is((buy.body['managedRoomObjects'] as unknown[]).length, 1);
  await refused(t, c, 'POST', '/api/player/room_object/buy', { roomObjectId: 424242, amount: 1 }, 107, 404);
});

test('missions over HTTP: progress from a draw, a claim, 510 claimed, 511 not achieved, 468 over, mission/set accepted and ignored', async (t) => {
  // Half an hour before the game day ends (03:30 local), so the session outlives the reset.
  const h = await startHarness({ now: dayStart(m, TODAY + 1) - 30 * MINUTE });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  t.is((await c.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).body['resultCode'], 0);
  const draw = managedMissionIdOf(2, TODAY);
  const logs = (await c.get('/api/player/mission/get_all')).body['missionLogs'] as Body[];
  t.like(
    logs.find((l) => l['managedMissionId'] === draw),
    { rate: 1, rateMax: 1, state: 1 },
  );
  const set = await c.post('/api/player/mission/set', {
    managedMissionId: managedMissionIdOf(1, TODAY),
    rate: 3,
    state: 1,
  });
  t.is(set.body['resultCode'], 0);
  t.like(
    (set.body['missionLogs'] as Body[]).find((l) => l['missionId'] === 1),
    { rate: 0, state: 0 },
  );
  await refused(
    t,
    c,
    'POST',
    '/api/player/mission/complete',
    { managedMissionId: managedMissionIdOf(1, TODAY) },
    511,
    409,
  );
  const claim = await c.post('/api/player/mission/complete', { managedMissionId: draw });
  t.like(claim.body, { resultCode: 0, reward: { kind: 'item', objectId: 2002, amount: 3, managedPresentId: null } });
  t.like(claim.body['missionLog'] as Body, { state: 99 });
  await refused(t, c, 'POST', '/api/player/mission/complete', { managedMissionId: draw }, 510, 409);
  await refused(
    t,
    c,
    'POST',
    '/api/player/mission/complete',
    { managedMissionId: managedMissionIdOf(9999, TODAY) },
    107,
    404,
  );
  await refused(
    t,
    c,
    'POST',
    '/api/player/mission/set',
    { managedMissionId: managedMissionIdOf(9999, TODAY) },
    107,
    404,
  );
  h.clock.now = dayStart(m, TODAY + 1);
  await refused(
    t,
    c,
    'POST',
    '/api/player/mission/complete',
    { managedMissionId: managedMissionIdOf(2, TODAY) },
    468,
    403,
  );
});

test('stamina/add as the clients send it (type 1, itemId -1) restores with gems; refusals 442, 445, 311, 102', async (t) => {
  const h = await harness(t);
  const c = await signupLogin(h);
  await refused(t, c, 'POST', '/api/player/stamina/add', { type: 1, num: 1, itemId: -1 }, 445, 409);
  await receiveAllHttp(c);
  const r = await c.post('/api/player/stamina/add', { type: 1, num: 1, itemId: -1 });
  t.like(r.body, { resultCode: 0, gem: 50, itemId: null });
  // The welcome gems (3,000) and the first log-in's bonus milestone (100), less the restore's 50.
  t.like(r.body['player'] as Body, { gem: 3050, stamina: r.body['stamina'] });
  await refused(t, c, 'POST', '/api/player/stamina/add', { type: 2, num: 1, itemId: 6001 }, 442, 409);
  // Restores may pass the maximum, up to the ceiling (999).
  for (let i = 0; i < 2; i++)
    t.is((await c.post('/api/player/stamina/add', { type: 1, num: 10, itemId: -1 })).body['resultCode'], 0);
  await refused(t, c, 'POST', '/api/player/stamina/add', { type: 1, num: 3, itemId: -1 }, 311, 409);
  await refused(t, c, 'POST', '/api/player/stamina/add', { type: 1, num: 1, itemId: 6001 }, 102, 400);
});

test('age/set keeps the bracket; a younger one is 317, an unknown one 102', async (t) => {
  const h = await harness(t);
  const c = await signupLogin(h);
  t.like((await c.post('/api/player/age/set', { age: 2 })).body, { resultCode: 0, age: 2, monthlyPaidGemLimit: 10000 });
  await refused(t, c, 'POST', '/api/player/age/set', { age: 1 }, 317, 409);
  await refused(t, c, 'POST', '/api/player/age/set', { age: 7 }, 102, 400);
  t.like((await c.post('/api/player/age/set', { age: '3' })).body, {
    resultCode: 0,
    age: 3,
    monthlyPaidGemLimit: null,
  });
});

test('adv/add refusals over HTTP: unknown 107, out of period 461, a step going back 102', async (t) => {
  const h = await harness(t);
  const c = await signupLogin(h);
  await refused(t, c, 'POST', '/api/player/adv/add', { advId: '4242' }, 107, 404);
  await refused(t, c, 'POST', '/api/player/adv/add', { advId: '2900000' }, 461, 403);
  t.is((await c.post('/api/player/tutorial/step/add', { stepCode: 4 })).body['resultCode'], 0);
  await refused(t, c, 'POST', '/api/player/adv/add', { advId: '1000000', stepCode: 3 }, 102, 400);
});

test('the OpenAPI document: the public entries need no session, the aliases are the same operations marked deprecated', (t) => {
  const doc = buildOpenApi(7, '+09:00').document as { paths: Record<string, Record<string, Body>> };
  t.deepEqual(doc.paths['/api/app/version/get']?.['get']?.['security'], []);
  t.deepEqual(doc.paths['/api/quest_chapter/get_all']?.['get']?.['security'], []);
  for (const [alias, path, name] of [
    ['/api/player/quest_log/add', '/api/player/quest_log/order', 'orderPlayerQuestLogViaAdd'],
    ['/api/player/quest_log/set', '/api/player/quest_log/complete', 'completePlayerQuestLogViaSet'],
    ['/api/player/room_object/buy', '/api/player/room_object/buy_set', 'buySetPlayerRoomObjectViaBuy'],
  ] as const) {
    const a = doc.paths[alias]?.['post'];
    const o = doc.paths[path]?.['post'];
    t.like(a, { operationId: name, deprecated: true });
    t.deepEqual(a?.['requestBody'], o?.['requestBody'], alias);
    t.deepEqual(a?.['responses'], o?.['responses'], alias);
  }
});
