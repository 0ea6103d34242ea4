// The original clients' first log-in, request for request (issue 21): the version
// check, sign-up and log-in, get_all, the player's quests, the quest chapters, the
// missions, the presents, the first adv, the tutorial gacha and the tutorial's party
// set, with the exact bodies those clients send. It ends with the tutorial finished
// and the tutorial draw's characters owned (the clients never call gacha/fix).
import test from 'ava';
import { startHarness } from '../_support/http.js';

const UUID = '0c0c0c0c-2222-4333-8444-555555555555';
type Body = Record<string, unknown>;

test("the original clients' first-login sequence, request for request, ends with the tutorial finished and the tutorial draw's characters owned", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const headers: Record<string, string> = {};
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Body> => {
    const r = await h.call(method, path, body, headers);
    t.is(r.body['resultCode'], 0, `${method} ${path}: ${JSON.stringify(r.body).slice(0, 300)}`);
    t.is(r.status, 200);
    return r.body;
  };

  // Before any log-in: the version check, no session.
  const version = await call('GET', '/api/app/version/get?platform=2&version=1.0.3');
  t.is(typeof version['abVer'], 'number');
  headers['X-STAR-AB'] = String(version['abVer']);

  const su = await call('POST', '/api/player/signup', { uuid: UUID, platform: 2, name: 'Aki', stepCode: 1 });
  const li = await call('POST', '/api/player/login', {
    uuid: UUID,
    accessToken: su['accessToken'],
    platform: 2,
    appVersion: '1.0.3',
  });
  headers['X-STAR-SESSION-ID'] = li['sessionId'] as string;

  const all = await call('GET', '/api/player/get_all');
  t.is((all['player'] as Body)['tutorialStep'], 1, 'sign-up recorded step 1');
  t.deepEqual(all['managedCharacters'], []);

  const quests = await call('GET', '/api/player/quest/get_all');
  const prologue = (quests['quests'] as Body[]).find((q) => q['id'] === 1000);
  t.deepEqual(prologue, { id: 1000, clearRank: 0, advOnly: true, clearCount: 0 });
  t.true(Array.isArray(quests['eventQuests']));

  const chapters = await call('GET', '/api/quest_chapter/get_all');
  t.deepEqual((chapters['questChapters'] as Body[])[0]?.['questIds'], [1000, 1001, 1002, 1003, 1004, 1005]);

  const missions = await call('GET', '/api/player/mission/get_all');
  const logs = missions['missionLogs'] as Body[];
  t.true(logs.length > 0);
  for (const l of logs)
    t.deepEqual(Object.keys(l).slice(0, 8), [
      'managedMissionId',
      'missionId',
      'subCode',
      'rate',
      'rateMax',
      'state',
      'reward',
      'limitTime',
    ]);

  // The presents: the box, then receive-all (the first present claim, step 2).
  const box = await call('GET', '/api/player/present/get_all');
  const ids = (box['presents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId);
  const got = await call('GET', `/api/player/present/get?managedPresentId=${ids.join(',')}&stepCode=2`);
  t.is((got['receivedPresents'] as unknown[]).length, ids.length);

  // The first adv: advId as a string.
  const adv = await call('POST', '/api/player/adv/add', { advId: '1000000', stepCode: 3 });
  t.like(adv, { advId: 1000000, questId: 1000, cleared: true, stepCode: 3 });

  // The tutorial gacha: reDraw false keeps the result at once; the clients read managedCharacters.
  const draw = await call('POST', '/api/player/gacha/draw', { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false });
  t.false(draw['pending']);
  const drawn = [...new Set((draw['gachaResults'] as Array<{ characterId: number }>).map((r) => r.characterId))];
  t.is((draw['gachaResults'] as unknown[]).length, 10);
  const owned = draw['managedCharacters'] as Array<{ characterId: number; managedCharacterId: number }>;
  t.deepEqual(
    owned.map((c) => c.characterId),
    drawn,
    'the drawn characters are in managedCharacters at once',
  );
  t.is((draw['player'] as Body)['tutorialStep'], 4);

  const party = await call('POST', '/api/player/tutorial/party/set', { stepCode: 5 });
  t.is(party['stepCode'], -1, 'the party set is the last step: the tutorial is finished');
  t.is((party['managedCharacterIds'] as unknown[]).length, Math.min(5, drawn.length));

  // Afterwards: the tutorial finished, the drawn characters owned, party 1 set, the prologue cleared.
  const after = await call('GET', '/api/player/get_all');
  t.is((after['player'] as Body)['tutorialStep'], -1);
  t.deepEqual(
    (after['managedCharacters'] as Array<{ characterId: number }>).map((c) => c.characterId),
    drawn,
  );
  const party1 = (
    after['managedBattleParties'] as Array<{
      managedBattlePartyId: number;
      slots: Array<{ managedCharacterId: number | null }>;
    }>
  )[0]!;
  t.deepEqual(
    party1.slots.map((x) => x.managedCharacterId).filter((x) => x !== null),
    party['managedCharacterIds'],
  );
  t.like(
    (after['questLogs'] as Body[]).find((q) => q['questId'] === 1000),
    { clears: 1 },
  );
  const gachas = await call('GET', '/api/player/gacha/get_all?gachaIds=1');
  t.like((gachas['gachas'] as Body[])[0], { closed: true, pending: null });
  const fix = await h.call('POST', '/api/player/gacha/fix', {}, headers);
  t.is(fix.body['resultCode'], 315, 'nothing is left pending for a fix');
});
