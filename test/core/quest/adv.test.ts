// adv/add (docs/rules/original.md, Quests, chapters and adv scenes): the first view of an
// adv-only quest's scene clears the quest once with its first-clear reward (a present from
// the quest when it does not fit), every record kept and sorted; a scene of its own is
// recorded and clears nothing; the tutorial's stepCode; what each refusal names.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, NOW, ok, master } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { QuestRecord } from '../../../core/state/social.js';
import { newCharacter } from '../../../core/shared/grant.js';
import { DAY } from '../../../core/time.js';

const m = master();
const PROLOGUE = 1000; // adv-only, scene 1000000, first clear 50 gems
const PROLOGUE_SCENE = 1000000;
const INTERLUDE = 1050; // adv-only, scene 1000001, first clear 1000 coins
const INTERLUDE_SCENE = 1000001;
const WALK_SCENE = 1000100; // a scene of its own
const BATTLE = 1001;

/** A player who cleared battle quest 1001 once with the given rank. */
const clearedBattle = (t: ExecutionContext, rank: number): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const s: PlayerState = {
    ...s0,
    nextManagedId: id + 1,
    characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
        : p,
    ),
  };
  const a = ok(t, 'orderPlayerQuestLog', s, { questId: BATTLE, managedBattlePartyId: 1 }).state;
  return ok(t, 'completePlayerQuestLog', a, {
    orderReceiveId: a.activeQuest!.orderReceiveId,
    state: 2,
    clearRank: rank,
  }).state;
};

test("adv/add: advId as a string; the first view of an adv-only quest's scene clears it once with its first-clear reward; a second view changes nothing", (t) => {
  const s = freshPlayer();
  const r = ok(t, 'addPlayerAdv', s, { advId: '1000000', stepCode: 3 });
  t.deepEqual(r.response, {
    ...r.response,
    advId: 1000000,
    firstView: true,
    questId: 1000,
    cleared: true,
    stepCode: 3,
    firstClearRewards: [{ kind: 'gem', objectId: 0, amount: 50, managedPresentId: null }],
  });
  t.is(r.state.gem, s.gem + 50);
  t.deepEqual(r.state.advSeen, [1000000]);
  t.like(
    r.state.questRecords.find((q) => q.questId === 1000),
    { clears: 1, bestClearRank: 3, firstClearedAt: NOW },
  );
  const again = ok(t, 'addPlayerAdv', r.state, { advId: 1000000, stepCode: 3 });
  t.is(again.state, r.state, 'nothing changed');
  t.like(again.response, { firstView: false, cleared: false, firstClearRewards: [] });
  t.is(r.state.counters['questClears'], undefined, 'an adv-only clear is not a quest clear for missions');
});

test('adv/add: a scene of its own is recorded and clears nothing; unknown 107; an event scene out of period 461; nothing changes', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'addPlayerAdv', s, { advId: 1000100 });
  t.like(r.response, { firstView: true, questId: null, cleared: false, stepCode: 0 });
  t.deepEqual(r.state.questRecords, s.questRecords);
  fails(t, 'NOT_FOUND', 'addPlayerAdv', s, { advId: 4242 });
  fails(t, 'QUEST_OUT_OF_PERIOD', 'addPlayerAdv', s, { advId: 2900000 });
  ok(t, 'addPlayerAdv', s, { advId: 2000000 });
  fails(t, 'QUEST_OUT_OF_PERIOD', 'addPlayerAdv', s, { advId: 2000000 }, { now: Date.UTC(2027, 0, 2) });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerAdv', s, { advId: 'abc' });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'addPlayerAdv', s, {});
});

test('adv/add stepCode: 3 is the first adv, -1 skips (finishes) the tutorial, going back is 102 and nothing changes', (t) => {
  const s = freshPlayer();
  t.is(ok(t, 'addPlayerAdv', s, { advId: 1000000, stepCode: -1 }).state.tutorial.step, -1);
  fails(
    t,
    'INVALID_PARAMETERS',
    'addPlayerAdv',
    { ...s, tutorial: { ...s.tutorial, step: 4 } },
    { advId: 1000000, stepCode: 3 },
  );
});

test("adv/add: the first view of an adv-only quest's scene clears it even when another quest was cleared before; every record is kept", (t) => {
  const s = ok(t, 'addPlayerAdv', freshPlayer(), { advId: PROLOGUE_SCENE }).state;
  const r = ok(t, 'addPlayerAdv', s, { advId: INTERLUDE_SCENE });
  t.like(r.response, { questId: INTERLUDE, cleared: true, firstView: true });
  t.deepEqual(
    r.response.firstClearRewards,
    m.quest.get(INTERLUDE)!.firstClear.map((g) => ({ ...g, managedPresentId: null })),
  );
  t.is(r.state.gold, s.gold + 1000);
  t.deepEqual(
    r.state.questRecords.map((x) => [x.questId, x.clears]),
    [
      [PROLOGUE, 1],
      [INTERLUDE, 1],
    ],
  );
});

test('adv/add: the quest records stay sorted by quest id when a scene clears a quest below one already recorded (and so do questLogs)', (t) => {
  const s = clearedBattle(t, 2);
  const r = ok(t, 'addPlayerAdv', s, { advId: PROLOGUE_SCENE });
  t.deepEqual(
    r.state.questRecords.map((x) => x.questId),
    [PROLOGUE, BATTLE],
  );
  t.like(
    r.state.questRecords[1],
    { questId: BATTLE, clears: 1, bestClearRank: 2 },
    "the battle quest's record is untouched",
  );
  t.deepEqual(
    r.response.questLogs?.map((x) => x.questId),
    [PROLOGUE, BATTLE],
  );
});

test('adv/add: a recorded failure is no clear: the first view still clears the quest and gives its reward, keeping the failures in its one record', (t) => {
  // A record with failures and no clear: the quest had a battle in earlier master data.
  const failed: QuestRecord = {
    questId: PROLOGUE,
    clears: 0,
    failures: 2,
    bestClearRank: 0,
    firstClearedAt: null,
    lastPlayedAt: NOW - DAY,
    skillUse: null,
  };
  const s: PlayerState = { ...freshPlayer(), questRecords: [failed] };
  const r = ok(t, 'addPlayerAdv', s, { advId: PROLOGUE_SCENE });
  t.like(r.response, { cleared: true });
  t.is(r.state.gem, s.gem + 50);
  t.deepEqual(r.state.questRecords, [
    { ...failed, clears: 1, bestClearRank: m.social.quest.maxClearRank, firstClearedAt: NOW, lastPlayedAt: NOW },
  ]);
});

test('adv/add: a first-clear reward that does not fit is a present from the quest (source reward, its name as title) saying why it came', (t) => {
  const s: PlayerState = { ...freshPlayer(), gem: m.game.currencyMax.gem };
  const r = ok(t, 'addPlayerAdv', s, { advId: PROLOGUE_SCENE });
  t.is(r.state.gem, s.gem);
  const id = r.response.firstClearRewards[0]!.managedPresentId;
  t.not(id, null);
  const present = r.state.presents.find((p) => p.managedPresentId === id)!;
  t.like(present, { kind: 'gem', amount: 50, source: 'reward', title: m.quest.get(PROLOGUE)!.name });
  t.regex(present.message, /did not fit/);
});

test('adv/add: an unknown scene is 107 naming the entity "adv scene" and the id', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'addPlayerAdv', freshPlayer(), { advId: 4242 }), { entity: 'adv scene', id: 4242 });
});

test('adv/add: the scenes viewed are kept once each, sorted, whatever order they are viewed in', (t) => {
  let s = ok(t, 'addPlayerAdv', freshPlayer(), { advId: WALK_SCENE }).state;
  s = ok(t, 'addPlayerAdv', s, { advId: INTERLUDE_SCENE }).state;
  s = ok(t, 'addPlayerAdv', s, { advId: PROLOGUE_SCENE }).state;
  s = ok(t, 'addPlayerAdv', s, { advId: INTERLUDE_SCENE }).state;
  t.deepEqual(s.advSeen, [PROLOGUE_SCENE, INTERLUDE_SCENE, WALK_SCENE]);
});
