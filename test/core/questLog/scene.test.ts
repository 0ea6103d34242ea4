// Orders the original accepted (docs/rules/original.md and social.md, Quest log; issue 33):
// an adv-only quest is ordered as a scene, type 3 (story) or 4 (event), with no party
// (libkirara and KiraraFantasia-Bot send managedBattlePartyId -1, supportCharacterId -1,
// questData "null" or null); completed with state 2 it clears as viewing its scene does
// (the first-clear reward once, the top rank, no drops). A type that is not the quest's is
// 102; the period (461) and the one active quest (466) hold as for battles.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const INTERLUDE = 1050; // a story scene: first clear 1000 coins, scene 1000001
const FESTIVAL = 2000; // an event scene, in period at NOW: first clear 5 × item 30001
const HARVEST = 2900; // an event scene whose period is over
const BATTLE = 1001;
const TOP = m.social.quest.maxClearRank;

/** libkirara's order (kirara_items.py), as it sends it. */
const libkirara = (questId: number, type = 3) => ({
  managedBattlePartyId: -1,
  questData: 'null',
  questId,
  supportCharacterId: -1,
  type,
});
/** KiraraFantasia-Bot's order of an adv-only quest (player.js addQuest). */
const bot = (questId: number, type: number) => ({
  type,
  questId,
  managedBattlePartyId: -1,
  supportCharacterId: -1,
  questData: null,
});
/** The clients' quest_log/set after a scene (libkirara's, with the drops it claims). */
const completeBody = (orderReceiveId: number, state = 2) => ({
  clearRank: 3,
  dropItems: '2012:900,2013:900,2014:900',
  friendUseNum: 0,
  killedEnemies: '',
  masterSkillUseNum: 0,
  orderReceiveId,
  skillExps: '',
  state,
  stepCode: 0,
  uniqueSkillUseNum: 0,
  weaponSkillExps: '',
});
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('a story scene ordered as libkirara orders it (type 3, no party) is the active quest; completed, it clears once', (t) => {
  const s = freshPlayer();
  const o = ok(t, 'orderPlayerQuestLog', s, libkirara(INTERLUDE));
  t.like(o.response, { orderReceiveId: s.nextManagedId, questId: INTERLUDE, stamina: s.stamina.value });
  t.like(o.state.activeQuest, {
    questId: INTERLUDE,
    type: 3,
    managedBattlePartyId: -1,
    managedCharacterIds: [],
    supportCharacterId: null,
    questData: '',
  });
  t.is(o.state.counters['questOrders'], undefined, 'a scene is not counted as a quest order');
  t.is(o.state.stamina, s.stamina, 'the scene costs no stamina');

  const c = ok(t, 'completePlayerQuestLog', o.state, completeBody(o.response.orderReceiveId));
  t.like(c.response, {
    questId: INTERLUDE,
    cleared: true,
    clearRank: TOP,
    bestClearRank: TOP,
    drops: [],
    rewards: null,
  });
  t.deepEqual(c.response.firstClearRewards, [{ kind: 'gold', objectId: 0, amount: 1000, managedPresentId: null }]);
  t.is(c.state.gold, s.gold + 1000);
  t.deepEqual(c.state.items, s.items, 'the drops it claims give nothing');
  t.is(c.state.activeQuest, null);
  t.like(
    c.state.questRecords.find((r) => r.questId === INTERLUDE),
    { clears: 1, bestClearRank: TOP, skillUse: null },
  );
  t.is(c.state.counters['questClears'], undefined, 'nor as a quest clear');

  // Again: ordered and completed, it gives nothing more (as a second view of the scene).
  const o2 = ok(t, 'orderPlayerQuestLog', c.state, libkirara(INTERLUDE));
  const c2 = ok(t, 'completePlayerQuestLog', o2.state, completeBody(o2.response.orderReceiveId));
  t.deepEqual(c2.response.firstClearRewards, []);
  t.is(c2.state.gold, c.state.gold);
  t.like(
    c2.state.questRecords.find((r) => r.questId === INTERLUDE),
    { clears: 1 },
  );
  // And viewing the scene after it clears nothing more.
  t.like(ok(t, 'addPlayerAdv', c2.state, { advId: '1000001' }).response, { cleared: false, firstClearRewards: [] });
});

test("KiraraFantasia-Bot's orders: an event scene as type 4, questData null; a story scene as type 3", (t) => {
  const s = freshPlayer();
  const o = ok(t, 'orderPlayerQuestLog', s, bot(FESTIVAL, 4));
  t.like(o.state.activeQuest, { questId: FESTIVAL, type: 4, managedBattlePartyId: -1 });
  const c = ok(t, 'completePlayerQuestLog', o.state, {
    orderReceiveId: o.response.orderReceiveId,
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
  t.like(c.response, { cleared: true, questId: FESTIVAL });
  t.deepEqual(c.response.firstClearRewards, [{ kind: 'item', objectId: 30001, amount: 5, managedPresentId: null }]);
  t.like(ok(t, 'orderPlayerQuestLog', c.state, bot(INTERLUDE, 3)).state.activeQuest, { type: 3 });
  // Without a type, a scene is ordered as what it is.
  t.like(ok(t, 'orderPlayerQuestLog', s, { questId: INTERLUDE, managedBattlePartyId: -1 }).state.activeQuest, {
    type: 3,
  });
});

test('a scene reads no party, support or questData: a party named is not checked, nor a support character', (t) => {
  const o = ok(t, 'orderPlayerQuestLog', freshPlayer(), {
    type: 3,
    questId: INTERLUDE,
    managedBattlePartyId: 1,
    supportCharacterId: 424242,
    questData: 'wave:0',
  });
  t.like(o.state.activeQuest, { managedBattlePartyId: -1, supportCharacterId: null, questData: '' });
});

test("a scene's clearRank is not read; a failure (state 1) counts a failure and gives nothing", (t) => {
  const o = ok(t, 'orderPlayerQuestLog', freshPlayer(), libkirara(INTERLUDE));
  const id = o.response.orderReceiveId;
  t.like(ok(t, 'completePlayerQuestLog', o.state, { orderReceiveId: id, state: 2 }).response, {
    cleared: true,
    clearRank: TOP,
  });
  t.like(ok(t, 'completePlayerQuestLog', o.state, { ...completeBody(id), clearRank: 99 }).response, {
    cleared: true,
  });
  const f = ok(t, 'completePlayerQuestLog', o.state, completeBody(id, 1));
  t.like(f.response, { cleared: false, clearRank: 0, rewards: null, firstClearRewards: [] });
  t.like(
    f.state.questRecords.find((r) => r.questId === INTERLUDE),
    { clears: 0, failures: 1 },
  );
  t.is(f.state.gold, o.state.gold);
});

test("a type that is not the quest's is 102 naming type and the quest's type; nothing changes", (t) => {
  const s = freshPlayer();
  const cases: Array<[number, number, number]> = [
    [BATTLE, 3, 1],
    [BATTLE, 4, 1],
    [INTERLUDE, 1, 3],
    [INTERLUDE, 4, 3],
    [FESTIVAL, 3, 4],
    [FESTIVAL, 2, 4],
  ];
  for (const [questId, type, its] of cases) {
    const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { ...bot(questId, type) });
    t.like(e, { field: 'type' });
    t.is(reasonOf(e), `quest ${questId} is of type ${its}`);
  }
  t.like(fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, libkirara(INTERLUDE, 5)), { field: 'type' });
  t.like(fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, libkirara(INTERLUDE, 0)), { field: 'type' });
});

test('a scene out of its period is 461; with a quest active it is 466; a battle with no party is still 102', (t) => {
  const s = freshPlayer();
  t.like(fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, bot(HARVEST, 4)), { questId: HARVEST });
  const active: PlayerState = ok(t, 'orderPlayerQuestLog', s, libkirara(INTERLUDE)).state;
  fails(t, 'QUEST_ORDER_LIMIT', 'orderPlayerQuestLog', active, bot(FESTIVAL, 4));
  t.like(fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { ...bot(BATTLE, 1), questData: null }), {
    field: 'managedBattlePartyId',
  });
  // The scene's order can be reset like any other; nothing is refunded (it cost nothing).
  t.is(ok(t, 'resetPlayerQuestLog', active, {}).state.activeQuest, null);
});

test('a scene ordered now and completed after its period ends still clears (as a battle does)', (t) => {
  const end = m.quest.get(FESTIVAL)!.endsAt!;
  const o = ok(t, 'orderPlayerQuestLog', freshPlayer(), bot(FESTIVAL, 4), { now: end - 1000 });
  t.like(
    ok(t, 'completePlayerQuestLog', o.state, completeBody(o.response.orderReceiveId), { now: end + 1000 }).response,
    { cleared: true },
  );
  t.true(NOW < end);
});

test('a scene viewed first (adv/add) makes its order give nothing more when completed', (t) => {
  const seen = ok(t, 'addPlayerAdv', freshPlayer(), { advId: '1000001' }).state;
  const o = ok(t, 'orderPlayerQuestLog', seen, libkirara(INTERLUDE));
  const c = ok(t, 'completePlayerQuestLog', o.state, completeBody(o.response.orderReceiveId));
  t.like(c.response, { cleared: true, firstClearRewards: [] });
  t.is(c.state.gold, seen.gold);
  t.deepEqual(c.state.questRecords, seen.questRecords);
});
