// Mission rules at their edges (docs/rules/original.md, Missions): when an event
// mission is offered (its first and last instants), what counts in a period (only
// the counter's growth since the period began), what an ended event's drop keeps,
// and the order of the list and of the stored logs whatever order master data
// lists the missions in.
import test, { type ExecutionContext } from 'ava';
import { freshPlayer, master, NOW, ok, receiveAll, withWealth } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import type { Master } from '../../core/master/index.js';
import { buildMaster } from '../../core/master/index.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { newCharacter } from '../../core/shared/grant.js';
import { HOUR, MINUTE, dayIndex } from '../../core/time.js';
import { dayStart, missionOpen, settleMissions } from '../../core/shared/missions.js';

const m = master();
const DAY_NOW = dayIndex(NOW, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const NEXT_DAY = dayStart(m, DAY_NOW + 1);

const DRAW = 2; // daily: draw a gacha once
const CLEAR3 = 1; // daily: clear 3 quests
const STAMINA30 = 3; // daily: spend 30 stamina
const LANTERN = 201; // event: 2026-11-01T00:00:00 to 2027-01-01T00:00:00, game-local time

/** A game-local wall-clock time (the zone of master data's periods) as an instant. */
const local = (y: number, mo: number, d: number): number => Date.UTC(y, mo - 1, d) - m.game.timezoneOffsetMinutes * MINUTE;
const LANTERN_START = local(2026, 11, 1);
const LANTERN_END = local(2027, 1, 1);

const logsOf = (t: ExecutionContext, s: PlayerState, now = NOW, mm: Master = m) =>
  ok(t, 'getAllPlayerMission', s, {}, { now, m: mm }).response.missionLogs;
const logOf = (t: ExecutionContext, s: PlayerState, missionId: number, now = NOW) => logsOf(t, s, now).find((l) => l.missionId === missionId);
const rich = (t: ExecutionContext): PlayerState => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });
const drawOnce = (t: ExecutionContext, s: PlayerState, now = NOW): PlayerState =>
  ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now, seed: `d${now}` }).state;

/** A player with one character in battle party 1, ready to order quests. */
const questReady = (): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  return {
    ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) => (p.managedBattlePartyId === 1 ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) } : p)),
  };
};
const clearQuest = (t: ExecutionContext, s: PlayerState, now: number): PlayerState => {
  const ordered = ok(t, 'orderPlayerQuestLog', s, { questId: 1001, managedBattlePartyId: 1 }, { now }).state;
  return ok(t, 'completePlayerQuestLog', ordered, { orderReceiveId: ordered.activeQuest!.orderReceiveId, state: 2, clearRank: 3 }, { now }).state;
};

// ---- when a mission is offered ----

test('an event mission is offered from the first instant of its period, not a millisecond before', (t) => {
  const s = freshPlayer();
  t.false(logsOf(t, s, LANTERN_START - 1).some((l) => l.missionId === LANTERN), 'the millisecond before its start');
  t.like(logOf(t, s, LANTERN, LANTERN_START), { startAt: '2026-11-01T00:00:00', limitTime: '2027-01-01T00:00:00', rate: 0 });
  const ms = m.mission.get(LANTERN)!;
  t.false(missionOpen(ms, LANTERN_START - 1));
  t.true(missionOpen(ms, LANTERN_START));
});

test('an event mission is offered up to the last millisecond before its end, and no longer at the end', (t) => {
  const s = freshPlayer();
  t.like(logOf(t, s, LANTERN, LANTERN_END - 1), { limitTime: '2027-01-01T00:00:00' }, 'the last millisecond of the event');
  t.false(logsOf(t, s, LANTERN_END).some((l) => l.missionId === LANTERN), 'the end is outside the period');
  const ms = m.mission.get(LANTERN)!;
  t.true(missionOpen(ms, LANTERN_END - 1));
  t.false(missionOpen(ms, LANTERN_END));
});

// ---- what counts in a period ----

test('actions before a daily reset never count after it: yesterday\'s quest clears are not today\'s', (t) => {
  let s = questReady();
  s = clearQuest(t, s, NOW);
  s = clearQuest(t, s, NOW + MINUTE);
  t.like(logOf(t, s, CLEAR3), { rate: 2, state: 0 }, 'two clears today, one short of the target');
  t.like(logOf(t, s, STAMINA30), { rate: 10 });
  const later = NEXT_DAY + HOUR;
  s = clearQuest(t, s, later);
  t.is(s.counters['questClears'], 3, 'three clears in all');
  t.like(logOf(t, s, CLEAR3, later), { rate: 1, rateMax: 3, state: 0 }, 'one clear in the new game day');
  t.like(logOf(t, s, STAMINA30, later), { rate: 5, state: 0 }, 'one order\'s stamina in the new game day');
});

test('when an event ends, its log is dropped at the next change and the other missions keep their progress', (t) => {
  const s = rich(t);
  t.true(s.missionLogs.some((l) => l.missionId === LANTERN), 'the event runs now');
  const afterEvent = LANTERN_END + HOUR;
  const next = drawOnce(t, s, afterEvent);
  t.deepEqual(next.missionLogs.map((l) => l.missionId), [1, 2, 3, 101, 102, 103], 'every offered mission keeps its log; only the ended event\'s goes');
  t.like(logOf(t, next, DRAW, afterEvent), { rate: 1, state: 1 }, 'the draw made as the event ended counts for today\'s mission');
});

// ---- the after-hook ----

test('the missions hook gives back the very state when no period begins (nothing new, nothing to write)', (t) => {
  const s = drawOnce(t, rich(t));
  const after = { ...s, gold: s.gold + 1 };
  t.is(settleMissions(s, after, NOW + MINUTE, m), after);
  const nextDay = settleMissions(s, after, NEXT_DAY, m);
  t.not(nextDay, after, 'a new game day starts the daily missions anew');
  t.is(nextDay.gold, after.gold);
});

// ---- order ----

/** The bundled missions listed backwards, with daily mission 3 renumbered 150 (above the weekly ones). */
const shuffled = (): Master => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown>;
  const missions = (raw['missions'] as Array<Record<string, unknown>>).map((x) => (x['missionId'] === STAMINA30 ? { ...x, missionId: 150 } : x));
  raw['missions'] = missions.reverse();
  const built = buildMaster(raw);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.master;
};

test('mission/get_all lists daily, then weekly, then event missions, each by id, whatever order master data lists them in', (t) => {
  const mm = shuffled();
  t.deepEqual(mm.missions.map((x) => x.missionId), [291, 202, 201, 103, 102, 101, 150, 2, 1], 'master data lists them backwards');
  const s = freshPlayer({ m: mm });
  const logs = logsOf(t, s, NOW, mm);
  t.deepEqual(logs.map((l) => [l.category, l.missionId]), [
    ['daily', 1], ['daily', 2], ['daily', 150], ['weekly', 101], ['weekly', 102], ['weekly', 103], ['event', 201], ['event', 202],
  ]);
});

test('the stored mission logs are kept by mission id, whatever order master data lists the missions in', (t) => {
  const mm = shuffled();
  const s = receiveAll(t, freshPlayer({ m: mm }), { m: mm });
  t.deepEqual(s.missionLogs.map((l) => l.missionId), [1, 2, 101, 102, 103, 150, 201, 202]);
});
