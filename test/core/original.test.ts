// The endpoints the original game's clients call first (issue 21), reducer by reducer:
// missions (progress from the player's actions, resets in game-local time, claims),
// quests and chapters, adv scenes, stamina restores, the age bracket, the tutorial's
// last step and party set, and the app version check. Rules: docs/rules/original.md.
import test from 'ava';
import { fails, freshPlayer, itemsOf, master, NOW, ok, receiveAll, withWealth } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import { newCharacter } from '../../core/shared/grant.js';
import { DAY, HOUR, MINUTE, dayIndex } from '../../core/time.js';
import { dayStart, managedMissionIdOf, settledLogs } from '../../core/shared/missions.js';
import { questChapters } from '../../core/operations/quest.js';
import { AppVersionRequest, appVersion, checkAbVer } from '../../core/operations/app.js';
import { buildMaster } from '../../core/master/index.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { compareVersions } from '../../core/master/original.js';

const m = master();
/** NOW is Saturday 2026-11-21 12:00 in the game's zone (+09:00); game days begin at 04:00, weeks on Monday. */
const DAY_NOW = dayIndex(NOW, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const NEXT_DAY = dayStart(m, DAY_NOW + 1);
const NEXT_WEEK = NOW + 40 * HOUR;

const daily = (missionId: number, day = DAY_NOW) => managedMissionIdOf(missionId, day);
const DRAW = 2; // daily: draw a gacha (target 1, item 2002 ×3)
const CLEAR3 = 1; // daily: clear 3 quests
const STAMINA30 = 3; // daily: spend 30 stamina
const DAILIES = 102; // weekly: claim 10 daily missions
const LANTERN = 201; // event: lantern box 10 times
const HARVEST = 291; // event that ended in 2025

/** A player who received the welcome presents, with gems to draw. */
const rich = (t: Parameters<typeof receiveAll>[0]): PlayerState => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });
const drawOnce = (t: Parameters<typeof ok>[0], s: PlayerState, now = NOW): PlayerState =>
  ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now, seed: `d${now}` }).state;
const logsOf = (t: Parameters<typeof ok>[0], s: PlayerState, now = NOW) => ok(t, 'getAllPlayerMission', s, {}, { now }).response.missionLogs;
const logOf = (t: Parameters<typeof ok>[0], s: PlayerState, missionId: number, now = NOW) => logsOf(t, s, now).find((l) => l.missionId === missionId);

// ---- missions ----

test('mission/get_all lists the daily, weekly and open event missions in the original\'s shape, all at 0 for a new player', (t) => {
  const logs = logsOf(t, freshPlayer());
  t.deepEqual(logs.map((l) => l.missionId), [1, 2, 3, 101, 102, 103, 201, 202], 'an ended event (291) is not offered');
  t.deepEqual(logs.find((l) => l.missionId === DRAW), {
    managedMissionId: daily(DRAW), missionId: DRAW, subCode: 2, rate: 0, rateMax: 1, state: 0,
    reward: { kind: 'item', objectId: 2002, amount: 3 }, limitTime: '2026-11-22T04:00:00',
    category: 'daily', name: 'Draw a gacha', startAt: '2026-11-21T04:00:00', claimedAt: null,
  });
  t.like(logs.find((l) => l.missionId === DAILIES), { category: 'weekly', startAt: '2026-11-16T04:00:00', limitTime: '2026-11-23T04:00:00' });
  t.like(logs.find((l) => l.missionId === LANTERN), { category: 'event', managedMissionId: LANTERN * 1_000_000, startAt: '2026-11-01T00:00:00', limitTime: '2027-01-01T00:00:00' });
});

test('progress is computed from the player\'s actions in the period (a gacha draw), never from the client; achieved missions show state 1', (t) => {
  const s = drawOnce(t, rich(t));
  t.like(logOf(t, s, DRAW), { rate: 1, state: 1 });
  t.like(logOf(t, s, LANTERN), { rate: 0, state: 0 });
  // The original's upload is accepted and its numbers ignored.
  const set = ok(t, 'setPlayerMission', s, { managedMissionId: daily(CLEAR3), missionId: CLEAR3, rate: 3, state: 1 });
  t.is(set.state, s, 'nothing changed');
  t.like(set.response.missionLogs.find((l) => l.missionId === CLEAR3), { rate: 0, state: 0 });
  t.deepEqual(set.response.missionLogs, logsOf(t, s));
  t.like(logOf(t, s, CLEAR3), { rate: 0 });
  fails(t, 'NOT_FOUND', 'setPlayerMission', s, { managedMissionId: daily(CLEAR3, DAY_NOW - 1), rate: 3 });
  t.is(ok(t, 'setPlayerMission', s, {}).response.missionLogs.length, 8);
});

test('quest clears and the stamina they cost count for their missions; progress stops at rateMax', (t) => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  let s: PlayerState = {
    ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) => (p.managedBattlePartyId === 1 ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) } : p)),
  };
  for (let i = 0; i < 4; i++) {
    s = ok(t, 'orderPlayerQuestLog', s, { questId: 1001, managedBattlePartyId: 1 }).state;
    s = ok(t, 'completePlayerQuestLog', s, { orderReceiveId: s.activeQuest!.orderReceiveId, state: 2, clearRank: 3 }).state;
  }
  t.like(logOf(t, s, CLEAR3), { rate: 3, rateMax: 3, state: 1 }, 'four clears, capped at three');
  t.like(logOf(t, s, STAMINA30), { rate: 20, rateMax: 30, state: 0 }, 'four orders of 5 stamina');
  t.is(s.counters['staminaSpent'], 20);
});

test('mission/complete grants the reward, marks it claimed (99) and counts the claim; claiming again is 510 and changes nothing', (t) => {
  const s = drawOnce(t, rich(t));
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: daily(DRAW) });
  t.is(itemsOf(r.state)['2002'], (itemsOf(s)['2002'] ?? 0) + 3);
  t.like(r.response.missionLog, { managedMissionId: daily(DRAW), state: 99, rate: 1, claimedAt: '2026-11-21T12:00:00' });
  t.deepEqual(r.response.reward, { kind: 'item', objectId: 2002, amount: 3, managedPresentId: null });
  t.truthy(r.response.itemSummary, 'the changed items come with the answer');
  t.like(r.state.counters, { missionsClaimed: 1, dailyMissionsClaimed: 1 });
  t.like(logOf(t, r.state, DAILIES), { rate: 1, rateMax: 10 }, 'a daily claim counts for the weekly mission');
  fails(t, 'ALREADY_COMPLETE_MISSION', 'completePlayerMission', r.state, { managedMissionId: daily(DRAW) });
});

test('mission/complete: not achieved is 511; an unknown mission or a period not begun is 107; a period that is over is 468; nothing changes', (t) => {
  const s = drawOnce(t, rich(t));
  const e = fails(t, 'MISSION_NOT_ACHIEVED', 'completePlayerMission', s, { managedMissionId: daily(CLEAR3) });
  t.like(e, { rate: 0, rateMax: 3 });
  fails(t, 'NOT_FOUND', 'completePlayerMission', s, { managedMissionId: daily(9999) });
  fails(t, 'NOT_FOUND', 'completePlayerMission', s, { managedMissionId: daily(DRAW, DAY_NOW + 1) });
  fails(t, 'MISSION_OUT_OF_PERIOD', 'completePlayerMission', s, { managedMissionId: daily(DRAW) }, { now: NEXT_DAY });
  fails(t, 'MISSION_OUT_OF_PERIOD', 'completePlayerMission', s, { managedMissionId: HARVEST * 1_000_000 });
  fails(t, 'MISSION_OUT_OF_PERIOD', 'completePlayerMission', s, { managedMissionId: LANTERN * 1_000_000 }, { now: Date.UTC(2027, 0, 2) });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'completePlayerMission', s, {});
});

test('a reward that does not fit goes to the present box', (t) => {
  const s = drawOnce(t, withWealth(rich(t), { items: { 2002: 9998 } }));
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: daily(DRAW) });
  t.is(itemsOf(r.state)['2002'], 9998);
  t.not(r.response.reward.managedPresentId, null);
  t.like(r.state.presents.at(-1), { kind: 'item', objectId: 2002, amount: 3, source: 'reward', title: 'Draw a gacha' });
});

test('daily missions reset at the game day\'s reset hour (04:00 local): a new id, progress from 0, and only the new day\'s actions count', (t) => {
  const s = drawOnce(t, rich(t));
  t.like(logOf(t, s, DRAW, NEXT_DAY - 1), { managedMissionId: daily(DRAW), state: 1 }, '03:59:59.999 is still the same game day');
  t.like(logOf(t, s, DRAW, NEXT_DAY), { managedMissionId: daily(DRAW, DAY_NOW + 1), rate: 0, state: 0, startAt: '2026-11-22T04:00:00', limitTime: '2026-11-23T04:00:00' });
  const next = drawOnce(t, s, NEXT_DAY + HOUR);
  t.like(logOf(t, next, DRAW, NEXT_DAY + HOUR), { rate: 1, state: 1 }, 'one draw today, not the two in all');
  t.is(next.counters['gachaDraws'], 2);
  ok(t, 'completePlayerMission', next, { managedMissionId: daily(DRAW, DAY_NOW + 1) }, { now: NEXT_DAY + HOUR });
});

test('weekly missions reset on the configured weekday (Monday 04:00 local); event missions run through their period and are dropped after it', (t) => {
  let s = drawOnce(t, rich(t));
  s = ok(t, 'completePlayerMission', s, { managedMissionId: daily(DRAW) }).state;
  t.like(logOf(t, s, DAILIES, NEXT_WEEK - 1), { rate: 1 });
  t.like(logOf(t, s, DAILIES, NEXT_WEEK), { rate: 0, startAt: '2026-11-23T04:00:00', limitTime: '2026-11-30T04:00:00' });
  const afterEvent = Date.UTC(2027, 0, 2);
  t.false(logsOf(t, s, afterEvent).some((l) => l.category === 'event'), 'no event runs on 2027-01-02');
  t.true(s.missionLogs.some((l) => l.missionId === LANTERN));
  const later = drawOnce(t, s, afterEvent);
  t.false(later.missionLogs.some((l) => l.missionId === LANTERN), 'an ended event\'s log is dropped at the next change');
});

test('the missions hook keeps the state when no period begins, and takes the base from the state before the operation', (t) => {
  const s = drawOnce(t, rich(t));
  t.is(settledLogs(m, s, s.missionLogs, NOW + MINUTE), s.missionLogs);
  const fresh = settledLogs(m, s, s.missionLogs, NEXT_DAY);
  t.is(fresh.find((l) => l.missionId === DRAW)?.base, s.counters['gachaDraws']);
  t.is(fresh.find((l) => l.missionId === DAILIES), s.missionLogs.find((l) => l.missionId === DAILIES), 'the week goes on');
});

// ---- quests, chapters and adv scenes ----

test('quest/get_all: story quests in quests[], open event quests with their period in eventQuests[], with the best clear rank and advOnly', (t) => {
  const r = ok(t, 'getAllPlayerQuest', freshPlayer(), {}).response;
  t.deepEqual(r.quests.map((q) => q.id), [1000, 1001, 1002, 1003, 1004, 1005, 1050, 1006, 1007, 1008, 1009, 1010]);
  t.deepEqual(r.quests[0], { id: 1000, clearRank: 0, advOnly: true, clearCount: 0 });
  t.deepEqual(r.eventQuests.map((q) => q.id), [2000, 2001, 2002, 2003], 'the Lantern Festival is on; the Harvest Moon and Spring Kite are not');
  t.like(r.eventQuests[1], { id: 2001, advOnly: false, startAt: '2026-11-01T00:00:00', endAt: '2027-01-01T00:00:00' });
  const seen = ok(t, 'addPlayerAdv', freshPlayer(), { advId: '1000000' }).state;
  t.like(ok(t, 'getAllPlayerQuest', seen, {}).response.quests[0], { id: 1000, clearRank: 3, clearCount: 1 });
});

test('quest_chapter/get_all is global: story chapters always, event chapters in their period', (t) => {
  const now = questChapters(m, NOW).questChapters;
  t.deepEqual(now.map((c) => c.chapterId), [1, 2, 101]);
  t.deepEqual(now[0], { chapterId: 1, name: 'Chapter 1: The Mossy Gate', questIds: [1000, 1001, 1002, 1003, 1004, 1005], startAt: null, endAt: null });
  t.like(now[2], { startAt: '2026-11-01T00:00:00', endAt: '2027-01-01T00:00:00' });
  t.deepEqual(questChapters(m, Date.UTC(2027, 2, 10)).questChapters.map((c) => c.chapterId), [1, 2, 103]);
});

test('adv/add: advId as a string; the first view of an adv-only quest\'s scene clears it once with its first-clear reward; a second view changes nothing', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'addPlayerAdv', s, { advId: '1000000', stepCode: 3 });
  t.deepEqual(r.response, {
    ...r.response, advId: 1000000, firstView: true, questId: 1000, cleared: true, stepCode: 3,
    firstClearRewards: [{ kind: 'gem', objectId: 0, amount: 50, managedPresentId: null }],
  });
  t.is(r.state.gem, s.gem + 50);
  t.deepEqual(r.state.advSeen, [1000000]);
  t.like(r.state.questRecords.find((q) => q.questId === 1000), { clears: 1, bestClearRank: 3, firstClearedAt: NOW });
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
  fails(t, 'INVALID_PARAMETERS', 'addPlayerAdv', { ...s, tutorial: { ...s.tutorial, step: 4 } }, { advId: 1000000, stepCode: 3 });
});

test('quest_log/order of an adv-only quest is 102 (it has no battle)', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', freshPlayer(), { questId: 1000, managedBattlePartyId: 1 });
  t.like(e, { field: 'questId' });
});

// ---- stamina ----

const tired = (s: PlayerState, value = 0): PlayerState => ({ ...s, stamina: { value, at: NOW } });

test('stamina/add with gems: each restore refills the maximum for the gem price, free gems first', (t) => {
  const s = withWealth(tired(freshPlayer()), { gem: 60, paidGem: 100 });
  const r = ok(t, 'addPlayerStamina', s, { type: 1, num: 2, itemId: -1 });
  const max = m.playerLevels[0]!.staminaMax;
  t.deepEqual(r.response, { ...r.response, stamina: 2 * max, staminaMax: max, restored: 2 * max, gem: 100, itemId: null, itemAmount: 0 });
  t.like(r.state, { gem: 0, paidGem: 60, stamina: { value: 2 * max, at: NOW } });
  t.like(r.response.player, { stamina: 2 * max });
  t.is(r.state.counters['staminaRestores'], 2);
  fails(t, 'GEM_IS_SHORT', 'addPlayerStamina', withWealth(s, { gem: 49, paidGem: 0 }), { type: 1, num: 1, itemId: -1 });
  t.like(ok(t, 'addPlayerStamina', s, { type: 1, num: 1 }).response, { gem: 50 }, 'itemId absent is no item');
});

test('stamina/add with an item: its share of the maximum per item, on top of regeneration; at or over the maximum regeneration pauses', (t) => {
  const max = m.playerLevels[0]!.staminaMax;
  const s = withWealth(tired(freshPlayer(), 3), { items: { 6001: 2, 6002: 1 } });
  const later = NOW + 10 * m.game.stamina.regenSeconds * 1000;
  const r = ok(t, 'addPlayerStamina', s, { type: 2, num: 1, itemId: 6001 }, { now: later });
  t.is(r.response.stamina, 3 + 10 + Math.floor(max / 2));
  t.deepEqual(itemsOf(r.state)['6001'], 1);
  t.like(r.response, { itemId: 6001, itemAmount: 1, gem: 0 });
  const full = ok(t, 'addPlayerStamina', r.state, { type: 2, num: 1, itemId: 6002 }, { now: later });
  t.like(full.state.stamina, { value: 3 + 10 + Math.floor(max / 2) + max, at: later });
});

test('stamina/add refusals: wrong item for the type 102, unknown 107, not a stamina item 102, not held 442, over the ceiling 311, too many 102', (t) => {
  const s = withWealth(tired(freshPlayer()), { gem: 100_000, items: { 6001: 1 } });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 1, num: 1, itemId: 6001 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 2, num: 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 2, num: 1 });
  fails(t, 'NOT_FOUND', 'addPlayerStamina', s, { type: 2, num: 1, itemId: 424242 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 2, num: 1, itemId: 2002 });
  fails(t, 'ITEM_IS_SHORT', 'addPlayerStamina', s, { type: 2, num: 2, itemId: 6001 });
  fails(t, 'CURRENCY_LIMIT', 'addPlayerStamina', tired(s, 990), { type: 1, num: 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 1, num: m.original.stamina.perRequestMax + 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 3, num: 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 1, num: 0, itemId: -1 });
});

// ---- age ----

test('age/set keeps the bracket and its monthly paid-gem limit; the same again changes nothing; it only moves to an older bracket', (t) => {
  const s = freshPlayer();
  t.is(s.ageBracket, null);
  const r = ok(t, 'setPlayerAge', s, { age: 1 });
  t.deepEqual(r.response, { age: 1, name: 'Under 16', monthlyPaidGemLimit: 5000 });
  t.is(r.state.ageBracket, 1);
  t.is(ok(t, 'setPlayerAge', r.state, { age: 1 }).state, r.state);
  const older = ok(t, 'setPlayerAge', r.state, { age: 3 });
  t.like(older.response, { age: 3, monthlyPaidGemLimit: null });
  fails(t, 'STATE_CONFLICT', 'setPlayerAge', older.state, { age: 2 });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerAge', s, { age: 9 });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'setPlayerAge', s, {});
});

// ---- tutorial ----

test('the last step (5, the party set) finishes the tutorial; sent again after it changes nothing; other steps after it are 102', (t) => {
  const s = ok(t, 'addPlayerTutorialStep', freshPlayer(), { stepCode: 4 }).state;
  const done = ok(t, 'addPlayerTutorialStep', s, { stepCode: 5 });
  t.is(done.state.tutorial.step, -1);
  t.is(done.response.stepCode, -1);
  t.is(ok(t, 'addPlayerTutorialStep', done.state, { stepCode: 5 }).state, done.state);
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', done.state, { stepCode: 4 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 6 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 0 });
});

test('tutorial/party/set fills party 1 with the best characters (highest rarity first, up to 5) and finishes the tutorial', (t) => {
  const s0 = ok(t, 'addPlayerTutorialStep', freshPlayer(), { stepCode: 4 }).state;
  const ids = [1013, 1011, 1014, 1012, 1021, 1023, 1015]; // ★3 ★5 ★3 ★4 ★5 ★3 ★3 (by their place in a title)
  const chars = ids.map((c, i) => newCharacter(s0.nextManagedId + i, c, NOW));
  const s = { ...s0, nextManagedId: s0.nextManagedId + ids.length, characters: chars };
  const r = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 });
  const rarity = (id: number) => m.character.get(s.characters.find((c) => c.managedCharacterId === id)!.characterId)!.rarity;
  t.is(r.response.managedCharacterIds.length, 5);
  t.deepEqual(r.response.managedCharacterIds.map(rarity), [5, 5, 4, 3, 3]);
  t.deepEqual(r.state.battleParties[0]!.slots.map((x) => x.managedCharacterId), r.response.managedCharacterIds);
  t.true(r.state.battleParties[0]!.slots.every((x) => x.managedWeaponId === null));
  t.like(r.response, { stepCode: -1, managedBattlePartyId: 1 });
  t.truthy(r.response.managedBattleParties, 'the changed parties come with the answer');
  // A party the player arranged is kept; the step is still recorded.
  const again = ok(t, 'setPlayerTutorialParty', { ...r.state, tutorial: s0.tutorial }, { stepCode: 5 });
  t.deepEqual(again.response.managedCharacterIds, []);
  t.deepEqual(again.state.battleParties, r.state.battleParties);
  t.is(again.state.tutorial.step, -1);
});

test('tutorial/party/set with no character leaves the party empty; a step going back is 102 and nothing changes', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 });
  t.deepEqual(r.response.managedCharacterIds, []);
  t.deepEqual(r.state.battleParties, s.battleParties);
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTutorialParty', { ...s, tutorial: { ...s.tutorial, step: 4 } }, { stepCode: 3 });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'setPlayerTutorialParty', s, {});
});

// ---- the app version ----

const version = (q: Record<string, unknown>) => {
  const d = AppVersionRequest.decode(q);
  if (d._tag === 'Left') throw new Error('bad request');
  return appVersion(m, d.right);
};

test('app/version/get answers abVer for a current app; an older app is 1 OUTDATED; older assets 30; an unknown platform 102', (t) => {
  t.deepEqual(version({ platform: '2', version: '1.0.3' }), {
    _tag: 'Right', right: { platform: 2, abVer: 3, minVersion: '1.0.2', latestVersion: '1.0.3', storeUrl: 'https://example.com/hoshi/android' },
  });
  t.is(version({ platform: 1, version: '1.0.2', abVer: 2 })._tag, 'Right');
  t.is(version({ platform: 1, version: '1.1' })._tag, 'Right');
  const old = version({ platform: 2, version: '1.0.1' });
  t.like(old._tag === 'Left' ? old.left : {}, { code: 'OUTDATED', minVersion: '1.0.2' });
  const assets = version({ platform: 2, version: '1.0.3', abVer: 1 });
  t.like(assets._tag === 'Left' ? assets.left : {}, { code: 'OUTDATED_AB_VERSION', minAbVer: 2 });
  const platform = version({ platform: 3, version: '1.0.3' });
  t.like(platform._tag === 'Left' ? platform.left : {}, { code: 'INVALID_PARAMETERS', field: 'platform' });
  t.is(AppVersionRequest.decode({ platform: 2, version: '1.0.x' })._tag, 'Left');
  t.is(AppVersionRequest.decode({ platform: 2 })._tag, 'Left');
  t.is(checkAbVer(m, 2)._tag, 'Right');
  t.is(checkAbVer(m, 1)._tag, 'Left');
});

test('versions compare number by number', (t) => {
  t.is(compareVersions('1.10', '1.9'), 1);
  t.is(compareVersions('1.0', '1.0.0'), 0);
  t.is(compareVersions('1.0.1', '1.0.2'), -1);
});

// ---- master data ----

const problemsWith = (edit: (raw: Record<string, unknown[] | Record<string, unknown>>) => void): string[] => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown[] | Record<string, unknown>>;
  edit(raw);
  const built = buildMaster(raw);
  return built.ok ? [] : built.problems.map((p) => `${p.file}: ${p.field}: ${p.message}`);
};

test('master data of the original\'s endpoints is checked at start-up, naming the file and the field', (t) => {
  t.deepEqual(problemsWith(() => {}), []);
  const missions = (raw: Record<string, unknown>) => raw['missions'] as Array<Record<string, unknown>>;
  t.true(problemsWith((raw) => { missions(raw)[0]!['counter'] = 'nope'; }).some((p) => p.startsWith('missions.json: 0.counter')));
  t.true(problemsWith((raw) => { missions(raw)[6]!['period'] = null; }).some((p) => p.startsWith('missions.json: 6.period')));
  t.true(problemsWith((raw) => { (raw['questChapters'] as Array<{ questIds: number[] }>)[0]!.questIds.push(4242); }).some((p) => p.includes('unknown quest 4242')));
  t.true(problemsWith((raw) => { (raw['questChapters'] as Array<{ questIds: number[] }>)[1]!.questIds.push(1001); }).some((p) => p.includes('already in a chapter')));
  t.true(problemsWith((raw) => { (raw['advScenes'] as unknown[]).splice(0, 1); }).some((p) => p.includes('adv-only quest 1000 has no scene')));
  t.true(problemsWith((raw) => { (raw['advScenes'] as Array<{ questId: number | null }>)[2]!.questId = 1001; }).some((p) => p.includes('is not adv-only')));
  t.true(problemsWith((raw) => { ((raw['original'] as { app: { minAbVer: number } }).app).minAbVer = 9; }).some((p) => p.includes('app.minAbVer')));
  t.true(problemsWith((raw) => { (raw['original'] as { ageBrackets: Array<{ minAge: number }> }).ageBrackets[1]!.minAge = 18; }).some((p) => p.includes('ageBrackets.1.minAge')));
  t.true(problemsWith((raw) => {
    const item = (raw['items'] as Array<Record<string, unknown>>).find((i) => i['itemId'] === 6001)!;
    delete item['staminaPercent'];
  }).some((p) => p.includes('staminaPercent')));
});
