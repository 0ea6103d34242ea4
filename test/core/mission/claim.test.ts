// Claiming a mission (mission/complete, docs/rules/original.md, Missions): the reward granted
// (or sent as a present from the mission when it does not fit), the mission marked claimed
// and the claim counted; what is refused and what each refusal names; an event mission
// achieved yesterday claimed on a new game day.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, itemsOf, master, NOW, ok, receiveAll, withWealth } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { dayIndex, HOUR, MINUTE } from '../../../core/time.js';
import { dayStart, managedMissionIdOf } from '../../../core/shared/missions.js';
import { newCharacter } from '../../../core/shared/grant.js';

const m = master();
/** NOW is Saturday 2026-11-21 12:00 in the game's zone (+09:00); game days begin at 04:00, weeks on Monday. */
const DAY_NOW = dayIndex(NOW, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const NEXT_DAY = dayStart(m, DAY_NOW + 1);

const daily = (missionId: number, day = DAY_NOW) => managedMissionIdOf(missionId, day);
const DRAW = 2; // daily: draw a gacha (target 1, item 2002 ×3)
const CLEAR3 = 1; // daily: clear 3 quests
const DAILIES = 102; // weekly: claim 10 daily missions
const LANTERN = 201; // event: lantern box 10 times
const HARVEST = 291; // event that ended in 2025

/** A player who received the welcome presents, with gems to draw. */
const rich = (t: Parameters<typeof receiveAll>[0]): PlayerState =>
  withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });
const drawOnce = (t: Parameters<typeof ok>[0], s: PlayerState, now = NOW): PlayerState =>
  ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now, seed: `d${now}` }).state;
const logsOf = (t: Parameters<typeof ok>[0], s: PlayerState, now = NOW) =>
  ok(t, 'getAllPlayerMission', s, {}, { now }).response.missionLogs;
const logOf = (t: Parameters<typeof ok>[0], s: PlayerState, missionId: number, now = NOW) =>
  logsOf(t, s, now).find((l) => l.missionId === missionId);
const LANTERN_CLEARS = 202; // event (2026-11-01 to 2027-01-01): clear 10 quests
const EVENT_ID = managedMissionIdOf(LANTERN_CLEARS, 0);

/** A player with one character in party 1 and stamina to spare, who cleared quest 1001 `clears` times today. */
const cleared = (t: ExecutionContext, clears: number): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  let s: PlayerState = {
    ...s0,
    nextManagedId: id + 1,
    characters: [newCharacter(id, 1011, NOW)],
    stamina: { value: 999, at: NOW },
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
        : p,
    ),
  };
  for (let i = 0; i < clears; i++) {
    const now = NOW + i * MINUTE;
    s = ok(t, 'orderPlayerQuestLog', s, { questId: 1001, managedBattlePartyId: 1 }, { now }).state;
    s = ok(
      t,
      'completePlayerQuestLog',
      s,
      { orderReceiveId: s.activeQuest!.orderReceiveId, state: 2, clearRank: 3 },
      { now },
    ).state;
  }
  return s;
};

test('mission/complete grants the reward, marks it claimed (99) and counts the claim; claiming again is 510 and changes nothing', (t) => {
  const s = drawOnce(t, rich(t));
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: daily(DRAW) });
  t.is(itemsOf(r.state)['2002'], (itemsOf(s)['2002'] ?? 0) + 3);
  t.like(r.response.missionLog, {
    managedMissionId: daily(DRAW),
    state: 99,
    rate: 1,
    claimedAt: '2026-11-21T12:00:00',
  });
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
  fails(
    t,
    'MISSION_OUT_OF_PERIOD',
    'completePlayerMission',
    s,
    { managedMissionId: LANTERN * 1_000_000 },
    { now: Date.UTC(2027, 0, 2) },
  );
  fails(t, 'INSUFFICIENT_PARAMETERS', 'completePlayerMission', s, {});
});

test('a reward that does not fit goes to the present box', (t) => {
  const s = drawOnce(t, withWealth(rich(t), { items: { 2002: 9998 } }));
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: daily(DRAW) });
  t.is(itemsOf(r.state)['2002'], 9998);
  t.not(r.response.reward.managedPresentId, null);
  t.like(r.state.presents.at(-1), { kind: 'item', objectId: 2002, amount: 3, source: 'reward', title: 'Draw a gacha' });
});

test('complete: an unknown mission, and a period that has not begun, are 107 naming the entity "mission" and the id sent', (t) => {
  const s = freshPlayer();
  const unknown = managedMissionIdOf(9999, DAY_NOW);
  t.like(fails(t, 'NOT_FOUND', 'completePlayerMission', s, { managedMissionId: unknown }), {
    entity: 'mission',
    id: unknown,
  });
  const tomorrow = managedMissionIdOf(DRAW, DAY_NOW + 1);
  t.like(fails(t, 'NOT_FOUND', 'completePlayerMission', s, { managedMissionId: tomorrow }), {
    entity: 'mission',
    id: tomorrow,
  });
});

test('an event mission achieved yesterday is claimed by the first change of a new game day (the daily missions start anew with it)', (t) => {
  const s = cleared(t, 10);
  const later = NEXT_DAY + HOUR;
  t.like(logOf(t, s, LANTERN_CLEARS, later), { rate: 10, state: 1 }, 'achieved, and still offered the next day');
  t.true(
    s.missionLogs.every((l) => l.missionId === LANTERN_CLEARS || l.period !== DAY_NOW + 1),
    'no mission log of the new day yet',
  );
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: EVENT_ID }, { now: later });
  t.like(r.response.missionLog, { managedMissionId: EVENT_ID, state: 99, rate: 10 });
  t.deepEqual(r.response.reward, { ...m.mission.get(LANTERN_CLEARS)!.reward, managedPresentId: null });
  t.like(
    logOf(t, r.state, CLEAR3, later),
    { managedMissionId: managedMissionIdOf(CLEAR3, DAY_NOW + 1), rate: 0, state: 0 },
    "yesterday's clears do not count today",
  );
});

test('a claim marks only the mission claimed: the other achieved missions stay achieved and can be claimed', (t) => {
  const s = cleared(t, 10);
  const r = ok(t, 'completePlayerMission', s, { managedMissionId: managedMissionIdOf(CLEAR3, DAY_NOW) });
  t.like(logOf(t, r.state, CLEAR3), { state: 99 });
  t.like(logOf(t, r.state, LANTERN_CLEARS), { state: 1, claimedAt: null });
  t.true(r.state.missionLogs.filter((l) => l.missionId !== CLEAR3).every((l) => l.claimedAt === null));
  ok(t, 'completePlayerMission', r.state, { managedMissionId: EVENT_ID });
});

test("only a daily mission's claim counts as a daily claim (dailyMissionsClaimed, which the weekly mission 102 counts)", (t) => {
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
  t.like(present, {
    kind: reward.kind,
    objectId: reward.objectId,
    amount: reward.amount,
    source: 'reward',
    title: m.mission.get(LANTERN_CLEARS)!.name,
  });
  t.regex(present.message, /did not fit/);
});
