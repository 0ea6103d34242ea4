import test from 'ava';
import { grant, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';
import { run } from '../../core/operation.js';
import { operationByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import { deriveSeed } from '../../adapters/service/seed.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;
type Body = Record<string, unknown>;

const harness = async (t: { teardown: (f: () => Promise<void>) => void }): Promise<Harness> => {
  const h = await startHarness();
  t.teardown(() => h.close());
  return h;
};

const myCodeOf = async (c: Client): Promise<string> =>
  ((await c.get('/api/player/get_all')).body['player'] as { myCode: string }).myCode;
const stateOf = async (c: Client): Promise<Body> => {
  const r = (await c.get('/api/player/get_all')).body;
  delete r['serverTime'];
  return r;
};
const friendsOf = async (c: Client, body: Body = {}) => (await c.post('/api/player/friend/get_all', body)).body;
const ids = (xs: unknown) => (xs as Array<{ playerId: number }>).map((x) => x.playerId);

/** Checks an error answer: result code, HTTP status, and the player's state unchanged. */
const failsHttp = async (
  t: { is: (a: unknown, b: unknown, m?: string) => void; deepEqual: (a: unknown, b: unknown, m?: string) => void },
  c: Client,
  path: string,
  body: Body,
  code: number,
  status: number,
) => {
  const before = await stateOf(c);
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], code, `${path} result code`);
  t.is(r.status, status, `${path} HTTP status`);
  t.deepEqual(await stateOf(c), before, `${path} changed nothing`);
};

test('two players: search by friend code, propose, accept, see each other (and guests), terminate', async (t) => {
  const h = await harness(t);
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const c = await signupLogin(h); // a recently active stranger: a guest candidate

  const found = await a.post('/api/player/friend/search', { myCode: await myCodeOf(b) });
  t.is(found.body['resultCode'], 0);
  t.is((found.body['player'] as { playerId: number }).playerId, b.playerId);
  await failsHttp(t, a, '/api/player/friend/search', { myCode: 'ZZZZZZZZZZ' }, 202, 404);
  await failsHttp(t, a, '/api/player/friend/search', { myCode: await myCodeOf(a) }, 102, 400);

  const p = await a.post('/api/player/friend/propose', { playerId: b.playerId });
  t.is(p.body['resultCode'], 0);
  t.is(p.body['state'], 'proposed');
  t.deepEqual(ids((await friendsOf(b))['received']), [a.playerId]);
  t.deepEqual(ids((await friendsOf(a))['proposed']), [b.playerId]);
  await failsHttp(t, a, '/api/player/friend/propose', { playerId: b.playerId }, 317, 409);
  await failsHttp(t, a, '/api/player/friend/accept', { playerId: b.playerId }, 107, 404);
  await failsHttp(t, a, '/api/player/friend/propose', { playerId: 999_999 }, 202, 404);

  const acc = await b.post('/api/player/friend/accept', { playerId: a.playerId });
  t.is(acc.body['resultCode'], 0);
  t.true((acc.body['newAchievementCount'] as number) >= 1, 'the friend achievement unlocked');
  const af = await friendsOf(a);
  const bf = await friendsOf(b);
  t.deepEqual(ids(af['friends']), [b.playerId]);
  t.deepEqual(ids(bf['friends']), [a.playerId]);
  t.is((af['friends'] as Array<{ name: string; level: number }>)[0]?.level, 1);
  await failsHttp(t, b, '/api/player/friend/propose', { playerId: a.playerId }, 502, 409);

  const quest = await friendsOf(a, { fromQuest: 1 });
  const guests = ids(quest['guests']);
  t.true(guests.includes(c.playerId), 'a recently active non-friend is a guest');
  t.false(guests.includes(b.playerId), 'a friend is not a guest');
  t.false(guests.includes(a.playerId));
  t.deepEqual(ids((await friendsOf(a))['guests']), [], 'no guests outside the quest screen');

  const end = await a.post('/api/player/friend/terminate', { playerId: b.playerId });
  t.is(end.body['resultCode'], 0);
  t.deepEqual(ids((await friendsOf(a))['friends']), []);
  t.deepEqual(ids((await friendsOf(b))['friends']), []);
  await failsHttp(t, a, '/api/player/friend/terminate', { playerId: b.playerId }, 501, 409);
});

test('refuse and cancel over HTTP remove the request on both sides', async (t) => {
  const h = await harness(t);
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  await a.post('/api/player/friend/propose', { playerId: b.playerId });
  t.is((await b.post('/api/player/friend/refuse', { playerId: a.playerId })).body['resultCode'], 0);
  t.deepEqual(ids((await friendsOf(a))['proposed']), []);
  await failsHttp(t, b, '/api/player/friend/refuse', { playerId: a.playerId }, 107, 404);
  await a.post('/api/player/friend/propose', { playerId: b.playerId });
  t.is((await a.post('/api/player/friend/cancel', { playerId: b.playerId })).body['resultCode'], 0);
  t.deepEqual(ids((await friendsOf(b))['received']), []);
  await failsHttp(t, a, '/api/player/friend/cancel', { playerId: b.playerId }, 107, 404);
});

test('two players proposing to each other at the same moment end as friends exactly once', async (t) => {
  const h = await harness(t);
  for (let i = 0; i < 5; i++) {
    const a = await signupLogin(h);
    const b = await signupLogin(h);
    const [x, y] = await Promise.all([
      a.post('/api/player/friend/propose', { playerId: b.playerId }),
      b.post('/api/player/friend/propose', { playerId: a.playerId }),
    ]);
    t.is(x.body['resultCode'], 0);
    t.is(y.body['resultCode'], 0);
    t.deepEqual([x.body['state'], y.body['state']].sort(), ['friend', 'proposed']);
    const af = await friendsOf(a);
    const bf = await friendsOf(b);
    t.deepEqual(ids(af['friends']), [b.playerId]);
    t.deepEqual(ids(bf['friends']), [a.playerId]);
    t.deepEqual([...ids(af['proposed']), ...ids(af['received']), ...ids(bf['proposed']), ...ids(bf['received'])], []);
  }
});

test('quest: order with the party, save twice, retry up to the limit, complete with replayable drops, first-clear once, best rank kept', async (t) => {
  const h = await harness(t);
  const p = await signupLogin(h);
  await grant(h, p.playerId, 'character', 1011, 1);
  await receiveAllHttp(p);
  const chars = (await p.get('/api/player/get_all')).body['managedCharacters'] as Array<{ managedCharacterId: number }>;
  const mc = chars[0]!.managedCharacterId;
  const slots = (first: number | null) => [
    { managedCharacterId: first, managedWeaponId: null },
    ...Array.from({ length: 4 }, () => ({ managedCharacterId: null, managedWeaponId: null })),
  ];
  const parties = Array.from({ length: 15 }, (_, i) => ({
    managedBattlePartyId: i + 1,
    slots: slots(i === 0 ? mc : null),
  }));
  t.is((await p.post('/api/player/battle_party/set_all', { managedBattleParties: parties })).body['resultCode'], 0);
  t.is(
    (
      (await p.get('/api/player/battle_party/get_all')).body['managedBattleParties'] as Array<{
        slots: Array<{ managedCharacterId: number }>;
      }>
    )[0]?.slots[0]?.managedCharacterId,
    mc,
  );
  await failsHttp(
    t,
    p,
    '/api/player/quest_log/order',
    { type: 1, questId: 1001, managedBattlePartyId: 2, supportCharacterId: -1, questData: 'x' },
    102,
    400,
  );

  const q = master().quest.get(1001)!;
  // As the original's clients send it: supportCharacterId -1 is none.
  const o = await p.post('/api/player/quest_log/order', {
    type: 1,
    questId: 1001,
    managedBattlePartyId: 1,
    supportCharacterId: -1,
    questData: 'start',
  });
  t.is(o.body['resultCode'], 0);
  const orderReceiveId = o.body['orderReceiveId'] as number;
  t.like(o.body['activeQuest'] as Body, { questData: 'start', supportCharacterId: null });
  await failsHttp(
    t,
    p,
    '/api/player/quest_log/order',
    { type: 1, questId: 1001, managedBattlePartyId: 1, supportCharacterId: 0, questData: 'again' },
    466,
    409,
  );

  for (const wave of ['wave-1', 'wave-2'])
    t.is(
      (
        await p.post('/api/player/quest_log/save', {
          orderReceiveId,
          questData: wave,
          skillExps: '',
          dropItems: '7010:1',
          killedEnemies: '',
          weaponSkillExps: '',
        })
      ).body['resultCode'],
      0,
    );
  t.is(((await p.get('/api/player/get_all')).body['activeQuest'] as { questData: string }).questData, 'wave-2');
  for (let i = 0; i < q.retry.max; i++)
    t.is((await p.post('/api/player/quest_log/retry', { orderReceiveId })).body['resultCode'], 0);
  await failsHttp(t, p, '/api/player/quest_log/retry', { orderReceiveId }, 465, 409);

  // The drops the server rolls are the ones a replay with the same seed gives.
  // The request as the original's clients send it: state 2 is a clear, the lists "id:n" strings.
  const complete = {
    orderReceiveId,
    state: 2,
    clearRank: 2,
    skillExps: `${mc}:3,${mc + 1}:1`,
    dropItems: '',
    killedEnemies: '19010002:4',
    weaponSkillExps: '',
    uniqueSkillUseNum: 1,
    masterSkillUseNum: 0,
    friendUseNum: 0,
    stepCode: 0,
  };
  const before = (await h.storage.load(p.playerId))!;
  // run decodes the request as the service does (the lists are strings on the wire).
  const replay = run(
    operationByName('completePlayerQuestLog')!,
    before,
    complete,
    rngFromSeed(deriveSeed('test-seed-secret', p.playerId, before.version, 0)),
    h.clock.now,
    { master: master(), others: [] },
  );
  const c1 = await p.post('/api/player/quest_log/complete', {
    ...complete,
    drops: [{ kind: 'gem', objectId: 0, amount: 99999 }],
    dropItems: '7010:99,8003:99',
  });
  t.is(c1.body['resultCode'], 0);
  t.is(replay._tag, 'Right');
  if (replay._tag === 'Right') t.deepEqual(c1.body['drops'], replay.right.response['drops']);
  t.is((c1.body['firstClearRewards'] as unknown[]).length, q.firstClear.length);
  t.is(c1.body['activeQuest'], null, 'questData is discarded');
  t.deepEqual(
    (c1.body['questLogs'] as Array<{ skillUse: { skills: number[] } }>)[0]?.skillUse.skills,
    [3, 1],
    'the skill use counts are kept',
  );
  t.true((c1.body['newAchievementCount'] as number) >= 1, 'the first clear unlocked an achievement');

  const o2 = await p.post('/api/player/quest_log/order', {
    type: 1,
    questId: 1001,
    managedBattlePartyId: 1,
    supportCharacterId: -1,
    questData: 'second',
  });
  const c2 = await p.post('/api/player/quest_log/complete', {
    ...complete,
    orderReceiveId: o2.body['orderReceiveId'],
    clearRank: 1,
  });
  t.is(c2.body['resultCode'], 0);
  t.deepEqual(c2.body['firstClearRewards'], [], 'the first-clear reward comes once');
  t.is(c2.body['bestClearRank'], 2, 'the best clear rank is kept');
  await failsHttp(t, p, '/api/player/quest_log/complete', complete, 107, 404);
  await failsHttp(t, p, '/api/player/quest_log/reset', {}, 317, 409);
});

test('battle parties over HTTP: managedBattleParties both ways, battleParties accepted as its older name; neither 103, both 102', async (t) => {
  const h = await harness(t);
  const p = await signupLogin(h);
  const empty = () => Array.from({ length: 5 }, () => ({ managedCharacterId: null, managedWeaponId: null }));
  const named = (name: string) =>
    Array.from({ length: 15 }, (_, i) => ({ managedBattlePartyId: i + 1, name: `${name} ${i + 1}`, slots: empty() }));
  const got = await p.get('/api/player/battle_party/get_all');
  t.deepEqual(
    (got.body['managedBattleParties'] as Body[]).map((x) => x['managedBattlePartyId']),
    Array.from({ length: 15 }, (_, i) => i + 1),
  );
  t.false('battleParties' in got.body);
  const set = await p.post('/api/player/battle_party/set_all', { managedBattleParties: named('Alpha') });
  t.is(set.body['resultCode'], 0);
  t.is((set.body['managedBattleParties'] as Body[])[0]?.['name'], 'Alpha 1');
  const old = await p.post('/api/player/battle_party/set_all', { battleParties: named('Beta') });
  t.is(old.body['resultCode'], 0);
  t.is((old.body['managedBattleParties'] as Body[])[14]?.['name'], 'Beta 15');
  t.is(
    ((await p.get('/api/player/battle_party/get_all')).body['managedBattleParties'] as Body[])[0]?.['name'],
    'Beta 1',
  );
  await failsHttp(t, p, '/api/player/battle_party/set_all', {}, 103, 400);
  await failsHttp(
    t,
    p,
    '/api/player/battle_party/set_all',
    { managedBattleParties: named('C'), battleParties: named('D') },
    102,
    400,
  );
  await failsHttp(t, p, '/api/player/battle_party/set_all', { managedBattleParties: named('E').slice(1) }, 102, 400);
});

test("quest over HTTP: the original clients' forms and their error paths (102, nothing changed)", async (t) => {
  const h = await harness(t);
  const p = await signupLogin(h);
  await grant(h, p.playerId, 'character', 1011, 1);
  await receiveAllHttp(p);
  const mc = (
    (await p.get('/api/player/get_all')).body['managedCharacters'] as Array<{ managedCharacterId: number }>
  )[0]!.managedCharacterId;
  const parties = Array.from({ length: 15 }, (_, i) => ({
    slots: [
      { managedCharacterId: i === 0 ? mc : null, managedWeaponId: null },
      ...Array.from({ length: 4 }, () => ({ managedCharacterId: null, managedWeaponId: null })),
    ],
  }));
  t.is((await p.post('/api/player/battle_party/set_all', { managedBattleParties: parties })).body['resultCode'], 0);
  const orderBody = { type: 1, questId: 1001, managedBattlePartyId: 1, supportCharacterId: -1, questData: 'null' };
  await failsHttp(t, p, '/api/player/quest_log/order', { ...orderBody, managedBattlePartyId: -1 }, 102, 400);
  await failsHttp(t, p, '/api/player/quest_log/order', { ...orderBody, supportCharacterId: -2 }, 102, 400);
  const o = await p.post('/api/player/quest_log/order', orderBody);
  t.is(o.body['resultCode'], 0);
  const orderReceiveId = o.body['orderReceiveId'] as number;
  const complete = {
    orderReceiveId,
    state: 2,
    clearRank: 3,
    skillExps: '',
    dropItems: '',
    killedEnemies: '',
    weaponSkillExps: '',
    friendUseNum: 0,
    masterSkillUseNum: 0,
    uniqueSkillUseNum: 0,
    stepCode: 0,
  };
  for (const bad of [
    { state: 3 },
    { state: 0 },
    { dropItems: '7010:x' },
    { skillExps: '1:2:3' },
    { killedEnemies: 5 },
    { weaponSkillExps: '1:2,' },
  ]) {
    await failsHttp(t, p, '/api/player/quest_log/complete', { ...complete, ...bad }, 102, 400);
    const r = await p.post('/api/player/quest_log/complete', { ...complete, ...bad });
    t.is(
      (r.body['resultMessage'] as string).includes(Object.keys(bad)[0]!),
      true,
      `the message names ${Object.keys(bad)[0]}`,
    );
  }
  await failsHttp(t, p, '/api/player/quest_log/save', { orderReceiveId, questData: 'w', dropItems: 'lots' }, 102, 400);
  const done = await p.post('/api/player/quest_log/complete', complete);
  t.is(done.body['resultCode'], 0);
  t.is(done.body['cleared'], true);
  t.is(done.body['clearRank'], 3);
});

test('chest: draw a whole step to empty, every prize exactly its count, then reset', async (t) => {
  const h = await harness(t);
  const p = await signupLogin(h);
  const chest = master().chest.get(1)!;
  await grant(h, p.playerId, 'item', chest.cost.itemId, 200);
  await receiveAllHttp(p);
  const list = (await p.get('/api/player/chest/get_all')).body['chests'] as Array<{
    chestId: number;
    remaining: number;
  }>;
  t.deepEqual(
    list.map((c) => c.chestId),
    [1],
  );
  const got = new Map<number, number>();
  let left = list[0]!.remaining;
  while (left > 0) {
    const r = await p.post('/api/player/chest/draw', { chestId: 1, count: Math.min(8, left) });
    t.is(r.body['resultCode'], 0);
    for (const x of r.body['results'] as Array<{ prizeId: number }>) got.set(x.prizeId, (got.get(x.prizeId) ?? 0) + 1);
    left = r.body['remaining'] as number;
  }
  for (const prize of chest.steps[0]!.prizes) t.is(got.get(prize.prizeId), prize.count, `prize ${prize.prizeId}`);
  const step = (await p.post('/api/player/chest/get_step', { chestId: 1 })).body;
  t.true((step['prizes'] as Array<{ remaining: number }>).every((x) => x.remaining === 0));
  await failsHttp(t, p, '/api/player/chest/draw', { chestId: 1, count: 1 }, 317, 409);
  const reset = await p.post('/api/player/chest/reset', { chestId: 1 });
  t.is(reset.body['resultCode'], 0);
  t.is(reset.body['step'], 2);
  await failsHttp(t, p, '/api/player/chest/reset', { chestId: 1 }, 317, 409);
  await failsHttp(t, p, '/api/player/chest/draw', { chestId: 2, count: 1 }, 467, 403);
});

test('achievements unlock from a draw and report newAchievementCount until shown', async (t) => {
  const h = await harness(t);
  const p = await signupLogin(h);
  await receiveAllHttp(p);
  const d = await p.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 });
  t.is(d.body['resultCode'], 0);
  const n = d.body['newAchievementCount'] as number;
  t.true(n >= 1);
  t.is((await p.get('/api/player/achievement/get_all')).body['newAchievementCount'], n);
  const first = (
    (await p.get('/api/player/achievement/get_all')).body['achievements'] as Array<{ achievementId: number }>
  )[0]!.achievementId;
  t.is((await p.post('/api/player/achievement/set', { achievementId: first })).body['resultCode'], 0);
  await failsHttp(t, p, '/api/player/achievement/set', { achievementId: 9999 }, 107, 404);
  const shown = await p.post('/api/player/achievement/shown', {});
  t.is(shown.body['newAchievementCount'], 0);
  t.is((await p.get('/api/player/achievement/get_all')).body['newAchievementCount'], 0);
  t.is((await p.get('/api/player/achievement/get_all')).body['displayedAchievementId'], first);
});

test('offers over HTTP: order, 316 before the duration, complete after it', async (t) => {
  const h = await harness(t);
  const p = await signupLogin(h);
  await receiveAllHttp(p);
  t.is((await p.post('/api/player/offer/order', { offerId: 2 })).body['resultCode'], 0);
  await failsHttp(t, p, '/api/player/offer/complete', { offerId: 2 }, 316, 409);
  h.clock.now += master().offer.get(2)!.durationSeconds * 1000;
  const done = await p.post('/api/player/offer/complete', { offerId: 2 });
  t.is(done.body['resultCode'], 0);
  t.is(((await p.get('/api/player/offer/get_all')).body['ongoing'] as unknown[]).length, 0);
});
