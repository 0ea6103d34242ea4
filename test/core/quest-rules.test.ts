// quest/get_all and adv/add at their edges (docs/rules/original.md, Quests, chapters
// and adv scenes): an event quest's first and last instants, each quest with its own
// results, the first view of an adv-only quest's scene beside other records, and what
// a refusal or an overflowing reward names.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import type { QuestRecord } from '../../core/state/social.js';
import { newCharacter } from '../../core/shared/grant.js';
import { DAY } from '../../core/time.js';

const m = master();
const LANTERN = 2001; // an event quest with a start and an end
const PROLOGUE = 1000; // adv-only, scene 1000000, first clear 50 gems
const PROLOGUE_SCENE = 1000000;
const INTERLUDE = 1050; // adv-only, scene 1000001, first clear 1000 coins
const INTERLUDE_SCENE = 1000001;
const WALK_SCENE = 1000100; // a scene of its own
const BATTLE = 1001;

const eventIds = (t: ExecutionContext, now: number): number[] => ok(t, 'getAllPlayerQuest', freshPlayer(), {}, { now }).response.eventQuests.map((q) => q.id);

/** A player who cleared battle quest 1001 once with the given rank. */
const clearedBattle = (t: ExecutionContext, rank: number): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const s: PlayerState = {
    ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) => (p.managedBattlePartyId === 1 ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) } : p)),
  };
  const a = ok(t, 'orderPlayerQuestLog', s, { questId: BATTLE, managedBattlePartyId: 1 }).state;
  return ok(t, 'completePlayerQuestLog', a, { orderReceiveId: a.activeQuest!.orderReceiveId, state: 2, clearRank: rank }).state;
};

test('get_all lists an event quest from the first instant of its period to the last before its end', (t) => {
  const q = m.quest.get(LANTERN)!;
  t.false(eventIds(t, q.startsAt - 1).includes(LANTERN), 'the millisecond before its start');
  t.true(eventIds(t, q.startsAt).includes(LANTERN), 'its start');
  t.true(eventIds(t, q.endsAt! - 1).includes(LANTERN), 'the last millisecond');
  t.false(eventIds(t, q.endsAt!).includes(LANTERN), 'its end is outside the period');
});

test('get_all shows each quest with its own results: a cleared quest does not lend its rank to the others', (t) => {
  const s = ok(t, 'addPlayerAdv', clearedBattle(t, 1), { advId: PROLOGUE_SCENE }).state;
  const quests = ok(t, 'getAllPlayerQuest', s, {}).response.quests;
  t.like(quests.find((q) => q.id === PROLOGUE), { clearRank: m.social.quest.maxClearRank, clearCount: 1 });
  t.like(quests.find((q) => q.id === BATTLE), { clearRank: 1, clearCount: 1 });
  t.like(quests.find((q) => q.id === 1002), { clearRank: 0, clearCount: 0 });
});

test('adv/add: the first view of an adv-only quest\'s scene clears it even when another quest was cleared before; every record is kept', (t) => {
  const s = ok(t, 'addPlayerAdv', freshPlayer(), { advId: PROLOGUE_SCENE }).state;
  const r = ok(t, 'addPlayerAdv', s, { advId: INTERLUDE_SCENE });
  t.like(r.response, { questId: INTERLUDE, cleared: true, firstView: true });
  t.deepEqual(r.response.firstClearRewards, m.quest.get(INTERLUDE)!.firstClear.map((g) => ({ ...g, managedPresentId: null })));
  t.is(r.state.gold, s.gold + 1000);
  t.deepEqual(r.state.questRecords.map((x) => [x.questId, x.clears]), [[PROLOGUE, 1], [INTERLUDE, 1]]);
});

test('adv/add: the quest records stay sorted by quest id when a scene clears a quest below one already recorded (and so do questLogs)', (t) => {
  const s = clearedBattle(t, 2);
  const r = ok(t, 'addPlayerAdv', s, { advId: PROLOGUE_SCENE });
  t.deepEqual(r.state.questRecords.map((x) => x.questId), [PROLOGUE, BATTLE]);
  t.like(r.state.questRecords[1], { questId: BATTLE, clears: 1, bestClearRank: 2 }, 'the battle quest\'s record is untouched');
  t.deepEqual(r.response.questLogs?.map((x) => x.questId), [PROLOGUE, BATTLE]);
});

test('adv/add: a recorded failure is no clear: the first view still clears the quest and gives its reward, keeping the failures in its one record', (t) => {
  // A record with failures and no clear: the quest had a battle in earlier master data.
  const failed: QuestRecord = { questId: PROLOGUE, clears: 0, failures: 2, bestClearRank: 0, firstClearedAt: null, lastPlayedAt: NOW - DAY, skillUse: null };
  const s: PlayerState = { ...freshPlayer(), questRecords: [failed] };
  const r = ok(t, 'addPlayerAdv', s, { advId: PROLOGUE_SCENE });
  t.like(r.response, { cleared: true });
  t.is(r.state.gem, s.gem + 50);
  t.deepEqual(r.state.questRecords, [{ ...failed, clears: 1, bestClearRank: m.social.quest.maxClearRank, firstClearedAt: NOW, lastPlayedAt: NOW }]);
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
