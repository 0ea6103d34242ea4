// The original game's public clients, replayed over HTTP with the bodies they send (issue
// 33, "Every check green"): KiraraBot's and Ryu0127's tutorial re-rolls, libkirara's repeat
// of the tutorial draw, libkirara's and KiraraFantasia-Bot's scene orders (type 3 and 4, no
// party) and the Bot's read of tutorial/party/set's parties. Each client goes through the
// first log-in as original-first-login.test.ts plays it, then its own flow; every answer
// is checked against its codec by the harness. Rules: docs/rules/foundation.md (Gacha) and
// original.md.
import test from 'ava';
import { startHarness, type Harness } from '../_support/http.js';

type Body = Record<string, unknown>;
type Call = (method: 'GET' | 'POST', path: string, body?: unknown) => Promise<Body>;
interface Owned {
  characterId: number;
  managedCharacterId: number;
  levelLimit: number;
}

let uuids = 0;
/** A client through the first log-in up to the tutorial gacha (step 3), as the clients play it; every call must answer 0. */
const atTheGacha = async (t: { is: (a: unknown, b: unknown, m?: string) => void }, h: Harness) => {
  const headers: Record<string, string> = {};
  const raw = (method: 'GET' | 'POST', path: string, body?: unknown) => h.call(method, path, body, headers);
  const call: Call = async (method, path, body) => {
    const r = await raw(method, path, body);
    t.is(
      r.body['resultCode'],
      0,
      `${method} ${path} ${JSON.stringify(body ?? '')}: ${JSON.stringify(r.body).slice(0, 300)}`,
    );
    return r.body;
  };
  const v = await call('GET', '/api/app/version/get?platform=2&version=1.0.3');
  headers['X-STAR-AB'] = String(v['abVer']);
  const uuid = `0c0c0c0c-3333-4333-8333-${String(++uuids).padStart(12, '0')}`;
  const su = await call('POST', '/api/player/signup', { uuid, platform: 2, name: 'Kirara', stepCode: 1 });
  const li = await call('POST', '/api/player/login', {
    uuid,
    accessToken: su['accessToken'],
    platform: 2,
    appVersion: '1.0.3',
  });
  headers['X-STAR-SESSION-ID'] = li['sessionId'] as string;
  const box = await call('GET', '/api/player/present/get_all');
  const ids = (box['presents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId);
  await call('GET', `/api/player/present/get?managedPresentId=${ids.join(',')}&stepCode=2`);
  await call('POST', '/api/player/adv/add', { advId: '1000000', stepCode: 3 });
  return { call, raw };
};

const harness = async (t: { teardown: (f: () => Promise<void>) => void }): Promise<Harness> => {
  const h = await startHarness();
  t.teardown(() => h.close());
  return h;
};

const drawnIds = (r: Body) => (r['gachaResults'] as Array<{ characterId: number }>).map((x) => x.characterId);
const distinct = (ids: ReadonlyArray<number>) => [...new Set(ids)];
const ownedIds = (r: Body) => (r['managedCharacters'] as Owned[]).map((c) => c.characterId);

test("KiraraBot and Ryu0127's client: the tutorial draw, then reDraw true until they like it, reading managedCharacters each time", async (t) => {
  const h = await harness(t);
  const { call, raw } = await atTheGacha(t, h);
  // draw.go FirstDraw, get5star.py payload2.
  const first = await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false });
  t.deepEqual(ownedIds(first), distinct(drawnIds(first)));
  t.like(first, { pending: false, replaceable: true });
  let last = first;
  // draw.go reDraw, get5star.py payload1: eight re-rolls.
  for (let i = 0; i < 8; i++) {
    const r = await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true });
    t.is((r['gachaResults'] as unknown[]).length, 10);
    t.deepEqual(ownedIds(r), distinct(drawnIds(r)), `re-roll ${i}: the characters of the last result only`);
    t.true((r['managedCharacters'] as Owned[]).every((c) => typeof c.levelLimit === 'number'));
    last = r;
  }
  const all = await call('GET', '/api/player/get_all');
  t.deepEqual(
    (all['managedCharacters'] as Owned[]).map((c) => c.characterId),
    ownedIds(last),
  );
  t.like(all['player'] as Body, { tutorialStep: 4, gem: (first['player'] as Body)['gem'] });
  const gacha = ((await call('GET', '/api/player/gacha/get_all?gachaIds=1'))['gachas'] as Body[])[0];
  t.like(gacha, { closed: false, totalDraws: 10, gem10Total: 1, pending: drawnIds(last) });
  // They like it: the party set moves on; the result is final.
  const party = await call('POST', '/api/player/tutorial/party/set', { stepCode: 5 });
  t.is(party['stepCode'], -1);
  const again = await raw('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true });
  t.like(again, { status: 409, body: { resultCode: 309 } });
  const after = await call('GET', '/api/player/get_all');
  t.deepEqual(
    (after['managedCharacters'] as Owned[]).map((c) => c.characterId),
    ownedIds(last),
    'the last result is kept',
  );
  const history = (await call('GET', '/api/player/gacha/history?gachaId=1'))['draws'] as Body[];
  t.deepEqual(
    history.map((d) => d['kind']),
    ['fix', ...Array<string>(8).fill('reDraw'), 'ten'],
  );
});

test("libkirara's kirara_redraw.py: one reDraw true draw, then the tutorial draw again and again: a re-roll each time, never an accumulation", async (t) => {
  const h = await harness(t);
  const { call } = await atTheGacha(t, h);
  const opened = await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 0, reDraw: true });
  t.deepEqual(ownedIds(opened), distinct(drawnIds(opened)));
  for (let i = 0; i < 6; i++) {
    const r = await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false });
    t.deepEqual(ownedIds(r), distinct(drawnIds(r)), `repeat ${i}`);
    t.true(ownedIds(r).length <= 10);
  }
  const all = await call('GET', '/api/player/get_all');
  t.true((all['managedCharacters'] as unknown[]).length <= 10);
  t.is((all['player'] as Body)['tutorialStep'], 4);
});

test("libkirara's and KiraraFantasia-Bot's orders: scenes ordered with type 3 or 4 and no party answer orderReceiveId; quest_log/set clears them", async (t) => {
  const h = await harness(t);
  const { call } = await atTheGacha(t, h);
  // libkirara (kirara_items.py): quest_log/add, then quest_log/set with the drops it claims.
  const lib = await call('POST', '/api/player/quest_log/add', {
    managedBattlePartyId: -1,
    questData: 'null',
    questId: 1050,
    supportCharacterId: -1,
    type: 3,
  });
  t.true(typeof lib['orderReceiveId'] === 'number');
  const set = await call('POST', '/api/player/quest_log/set', {
    clearRank: 3,
    dropItems: '2012:900,2013:900,2014:900,2015:900,2016:100,2017:900',
    friendUseNum: 0,
    killedEnemies: '',
    masterSkillUseNum: 0,
    orderReceiveId: lib['orderReceiveId'],
    skillExps: '',
    state: 2,
    stepCode: 0,
    uniqueSkillUseNum: 0,
    weaponSkillExps: '',
  });
  t.like(set, { cleared: true, questId: 1050, drops: [] });
  // KiraraFantasia-Bot (player.js): the tutorial draw, setParty reading managedBattleParties[0], then its quests.
  await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false });
  const party = await call('POST', '/api/player/tutorial/party/set', { stepCode: 5 });
  const partyId = (party['managedBattleParties'] as Array<{ managedBattlePartyId: number }>)[0]!.managedBattlePartyId;
  t.is(partyId, 1);
  const event = await call('POST', '/api/player/quest_log/add', {
    type: 4,
    questId: 2000,
    managedBattlePartyId: -1,
    supportCharacterId: -1,
    questData: null,
  });
  const done = await call('POST', '/api/player/quest_log/set', {
    orderReceiveId: event['orderReceiveId'],
    state: 2,
    clearRank: 3,
    skillExps: '',
    dropItems: '',
    killedEnemies: '',
    weaponSkillExps: '',
    friendUseNum: 1,
    masterSkillUseNum: 0,
    uniqueSkillUseNum: 0,
    stepCode: 0,
  });
  t.like(done, { cleared: true, questId: 2000 });
  // A battle with the party the answer named. The Bot sends a support id of the original's servers
  // (1750004716), which names no character here (107, social.md): none (-1) stands in for it.
  const battle = await call('POST', '/api/player/quest_log/add', {
    type: 1,
    questId: 1001,
    managedBattlePartyId: partyId,
    supportCharacterId: -1,
    questData: 'eJzLSM3JyVcozy/KSQEAGgQEXQ==',
  });
  t.like(battle, { questId: 1001 });
  const quests = (await call('GET', '/api/player/quest/get_all'))['quests'] as Body[];
  t.like(
    quests.find((q) => q['id'] === 1050),
    { clearRank: 3, clearCount: 1 },
  );
});

test("tutorial/party/set answers managedBattleParties whether or not it changed them (KiraraFantasia-Bot's setParty)", async (t) => {
  const h = await harness(t);
  const { call } = await atTheGacha(t, h);
  // No character drawn yet: the party set places nothing and changes no party; the list comes all the same.
  const party = await call('POST', '/api/player/tutorial/party/set', { stepCode: 5 });
  t.deepEqual(party['managedCharacterIds'], []);
  const parties = party['managedBattleParties'] as Array<{ managedBattlePartyId: number }>;
  t.is(parties.length, 15);
  t.is(parties[0]!.managedBattlePartyId, 1);
  // Retried (the tutorial finished): still answered.
  const retried = await call('POST', '/api/player/tutorial/party/set', { stepCode: 5 });
  t.is((retried['managedBattleParties'] as unknown[]).length, 15);
});
