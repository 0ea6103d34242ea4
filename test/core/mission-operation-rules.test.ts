// mission/complete and mission/set at their edges (docs/rules/original.md, Missions):
// what a refusal names, a claim that is the first change of a new game day, that a
// claim marks only its own mission claimed, that only a daily claim counts as one,
// and the present a reward that does not fit becomes.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import { newCharacter } from '../../core/shared/grant.js';
import { HOUR, MINUTE, dayIndex } from '../../core/time.js';
import { dayStart, managedMissionIdOf } from '../../core/shared/missions.js';

const m = master();
const DAY_NOW = dayIndex(NOW, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const NEXT_DAY = dayStart(m, DAY_NOW + 1);

const CLEAR3 = 1; // daily: clear 3 quests
const DRAW = 2; // daily: draw a gacha once
const DAILIES = 102; // weekly: claim 10 daily missions
const LANTERN_CLEARS = 202; // event (2026-11-01 to 2027-01-01): clear 10 quests
const EVENT_ID = managedMissionIdOf(LANTERN_CLEARS, 0);

const logsOf = (t: ExecutionContext, s: PlayerState, now = NOW) => ok(t, 'getAllPlayerMission', s, {}, { now }).response.missionLogs;
const logOf = (t: ExecutionContext, s: PlayerState, missionId: number, now = NOW) => logsOf(t, s, now).find((l) => l.missionId === missionId);

/** A player with one character in party 1 and stamina to spare, who cleared quest 1001 `clears` times today. */
const cleared = (t: ExecutionContext, clears: number): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  let s: PlayerState = {
    ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)], stamina: { value: 999, at: NOW },
    battleParties: s0.battleParties.map((p) => (p.managedBattlePartyId === 1 ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) } : p)),
  };
  for (let i = 0; i < clears; i++) {
    const now = NOW + i * MINUTE;
    s = ok(t, 'orderPlayerQuestLog', s, { questId: 1001, managedBattlePartyId: 1 }, { now }).state;
    s = ok(t, 'completePlayerQuestLog', s, { orderReceiveId: s.activeQuest!.orderReceiveId, state: 2, clearRank: 3 }, { now }).state;
  }
  return s;
};

test('complete: an unknown mission, and a period that has not begun, are 107 naming the entity "mission" and the id sent', (t) => {
  const s = freshPlayer();
  const unknown = managedMissionIdOf(9999, DAY_NOW);
  t.like(fails(t, 'NOT_FOUND', 'completePlayerMission', s, { managedMissionId: unknown }), { entity: 'mission', id: unknown });
  const tomorrow = managedMissionIdOf(DRAW, DAY_NOW + 1);
  t.like(fails(t, 'NOT_FOUND', 'completePlayerMission', s, { managedMissionId: tomorrow }), { entity: 'mission', id: tomorrow });
});

test('set: a managedMissionId not listed now is 107 naming the entity "mission" and the id sent', (t) => {
  const yesterday = managedMissionIdOf(DRAW, DAY_NOW - 1);
  t.like(fails(t, 'NOT_FOUND', 'setPlayerMission', freshPlayer(), { managedMissionId: yesterday }), { entity: 'mission', id: yesterday });
});

test('an event mission achieved yesterday is claimed by the first change of a new game day (the daily missions start anew with it)', (t) => {
  const s = cleared(t, 10);
  const later = NEXT_DAY + HOUR;
  t.like(logOf(t, s, LANTERN_CLEARS, later), { rate: 10, state: 1 }, 'achieved, and still offered the next day');
  t.true(s.missionLogs.every((l) => l.missionId === LANTERN_CLEARS || l.period !== DAY_NOW + 1), 'no mission log of the new day yet');
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: EVENT_ID }, { now: later });
  t.like(r.response.missionLog, { managedMissionId: EVENT_ID, state: 99, rate: 10 });
  t.deepEqual(r.response.reward, { ...m.mission.get(LANTERN_CLEARS)!.reward, managedPresentId: null });
  t.like(logOf(t, r.state, CLEAR3, later), { managedMissionId: managedMissionIdOf(CLEAR3, DAY_NOW + 1), rate: 0, state: 0 }, 'yesterday\'s clears do not count today');
});

test('a claim marks only the mission claimed: the other achieved missions stay achieved and can be claimed', (t) => {
  const s = cleared(t, 10);
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: managedMissionIdOf(CLEAR3, DAY_NOW) });
  t.like(logOf(t, r.state, CLEAR3), { state: 99 });
  t.like(logOf(t, r.state, LANTERN_CLEARS), { state: 1, claimedAt: null });
  t.true(r.state.missionLogs.filter((l) => l.missionId !== CLEAR3).every((l) => l.claimedAt === null));
  ok(t, 'completePlayerMission', r.state, { managedMissionId: EVENT_ID });
});

test('only a daily mission\'s claim counts as a daily claim (dailyMissionsClaimed, which the weekly mission 102 counts)', (t) => {
  const s = cleared(t, 10);
  const event = ok(t, 'completePlayerMission', s, { managedMissionId: EVENT_ID });
  t.is(event.state.counters['missionsClaimed'], 1);
  t.is(event.state.counters['dailyMissionsClaimed'] ?? 0, 0);
  t.like(logOf(t, event.state, DAILIES), { rate: 0 });
  const daily = ok(t, 'completePlayerMission', event.state, { managedMissionId: managedMissionIdOf(CLEAR3, DAY_NOW) });
  t.like(daily.state.counters, { missionsClaimed: 2, dailyMissionsClaimed: 1 });
  t.like(logOf(t, daily.state, DAILIES), { rate: 1 });
});

test('a reward that does not fit is a present from the mission (source reward, its name as title) saying why it came', (t) => {
  const reward = m.mission.get(LANTERN_CLEARS)!.reward;
  const s = withWealth(cleared(t, 10), { items: { [reward.objectId]: m.item.get(reward.objectId)!.max } });
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: EVENT_ID });
  t.not(r.response.reward.managedPresentId, null);
  const present = r.state.presents.find((p) => p.managedPresentId === r.response.reward.managedPresentId)!;
  t.like(present, { kind: reward.kind, objectId: reward.objectId, amount: reward.amount, source: 'reward', title: m.mission.get(LANTERN_CLEARS)!.name });
  t.regex(present.message, /did not fit/);
});
