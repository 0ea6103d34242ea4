// Missions: periods in game-local time, progress computed from the player's counters,
// and the after-hook that starts each mission's period. Progress is never taken from
// the client: a mission's rate is how much its counter grew since its period began.
//
// Why a hook: counters only change in operations that change the player, and the hook
// runs after each of them. When the first such operation of a new period runs, the
// counter's value before it is the mission's base; every action of the period came at
// or after that operation. A period no operation has touched yet has progress 0, so a
// read needs no write.
import type { Master } from '../master/index.js';
import type { MissionIndexed } from '../master/original.js';
import type { PlayerState } from '../state.js';
import type { MissionLog } from '../state/original.js';
import { DAY, HOUR, MINUTE, dayIndex } from '../time.js';
import { counter } from './counters.js';
import { withFields } from '../state/copy.js';

/** managedMissionId = missionId × PERIOD_SPAN + the period's number: one mission in one period. */
export const PERIOD_SPAN = 1_000_000;

/** The instant a game day begins (the inverse of dayIndex). */
export const dayStart = (m: Master, day: number): number =>
  day * DAY - m.game.timezoneOffsetMinutes * MINUTE + m.game.dayResetHour * HOUR;

const gameDay = (m: Master, now: number): number => dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);

/** The game week of a game day: weeks begin on original.missions.weeklyResetWeekday (day 0, 1970-01-01, was a Thursday). */
const weekOf = (m: Master, day: number): number => Math.floor((day + 4 - m.original.missions.weeklyResetWeekday) / 7);
const weekFirstDay = (m: Master, week: number): number => week * 7 - 4 + m.original.missions.weeklyResetWeekday;

/** Whether a mission is offered at `now` (its master-data period, when it has one). */
export const missionOpen = (ms: MissionIndexed, now: number): boolean =>
  (ms.startsAt === null || now >= ms.startsAt) && (ms.endsAt === null || now < ms.endsAt);

/** The period a mission is in at `now`, with its bounds; null when the mission is not offered. */
export const periodOf = (
  m: Master,
  ms: MissionIndexed,
  now: number,
): { period: number; startsAt: number; endsAt: number | null } | null => {
  if (!missionOpen(ms, now)) return null;
  const day = gameDay(m, now);
  switch (ms.category) {
    case 'daily':
      return { period: day, startsAt: dayStart(m, day), endsAt: dayStart(m, day + 1) };
    case 'weekly': {
      const week = weekOf(m, day);
      return {
        period: week,
        startsAt: dayStart(m, weekFirstDay(m, week)),
        endsAt: dayStart(m, weekFirstDay(m, week + 1)),
      };
    }
    case 'event':
      return { period: 0, startsAt: ms.startsAt ?? 0, endsAt: ms.endsAt };
  }
};

export const managedMissionIdOf = (missionId: number, period: number): number => missionId * PERIOD_SPAN + period;
export const splitManagedMissionId = (id: number): { missionId: number; period: number } => ({
  missionId: Math.floor(id / PERIOD_SPAN),
  period: id % PERIOD_SPAN,
});

/**
 * The mission logs with every offered mission in its current period: a mission whose
 * stored period is over (or that has none) starts anew with the counter's value in
 * `before` as its base; missions no longer offered are dropped. The same array when
 * nothing changes (most operations), so the state keeps its identity.
 */
export const settledLogs = (
  m: Master,
  before: PlayerState,
  logs: ReadonlyArray<MissionLog>,
  now: number,
): ReadonlyArray<MissionLog> => {
  let out: MissionLog[] | undefined;
  for (const ms of m.missions) {
    const p = periodOf(m, m.mission.get(ms.missionId) as MissionIndexed, now);
    if (p === null) continue;
    const cur = (out ?? logs).find((l) => l.missionId === ms.missionId);
    if (cur !== undefined && cur.period === p.period) continue;
    const fresh: MissionLog = {
      missionId: ms.missionId,
      period: p.period,
      base: counter(before, ms.counter),
      claimedAt: null,
    };
    out = cur === undefined ? [...(out ?? logs), fresh] : (out ?? logs).map((l) => (l === cur ? fresh : l));
  }
  const list = out ?? logs;
  // Missions no longer offered (an event that ended, one taken out of master data).
  const stale = list.some((l) => {
    const ms = m.mission.get(l.missionId);
    return ms === undefined || !missionOpen(ms, now);
  });
  if (!stale && out === undefined) return logs;
  const kept = stale
    ? list.filter((l) => {
        const ms = m.mission.get(l.missionId);
        return ms !== undefined && missionOpen(ms, now);
      })
    : list;
  return [...kept].sort((a, b) => a.missionId - b.missionId);
};

/** The after-hook: starts the missions' new periods, with the counters as they were before the operation. */
// An after-hook (core/hooks.ts AFTER_HOOKS), typed here by its parameters: hooks.ts imports this module.
export const settleMissions = (before: PlayerState, after: PlayerState, now: number, m: Master): PlayerState => {
  const logs = settledLogs(m, before, after.missionLogs, now);
  return logs === after.missionLogs ? after : withFields(after, { missionLogs: logs as MissionLog[] });
};

/** The original's mission states. */
export const MISSION_IN_PROGRESS = 0;
export const MISSION_ACHIEVED = 1;
export const MISSION_CLAIMED = 99;

export interface MissionProgress {
  readonly mission: MissionIndexed;
  readonly period: number;
  readonly startsAt: number;
  readonly endsAt: number | null;
  /** Progress in this period, capped at the target. */
  readonly rate: number;
  readonly state: typeof MISSION_IN_PROGRESS | typeof MISSION_ACHIEVED | typeof MISSION_CLAIMED;
  readonly claimedAt: number | null;
}

/**
 * Every mission offered at `now` with the player's progress, by category (daily,
 * weekly, event) then id. A period no operation has touched has progress 0.
 */
export const missionProgress = (m: Master, s: PlayerState, now: number): MissionProgress[] => {
  const order = { daily: 0, weekly: 1, event: 2 };
  const out: MissionProgress[] = [];
  for (const def of m.missions) {
    const ms = m.mission.get(def.missionId) as MissionIndexed;
    const p = periodOf(m, ms, now);
    if (p === null) continue;
    const log = s.missionLogs.find((l) => l.missionId === ms.missionId && l.period === p.period);
    const rate = log === undefined ? 0 : Math.max(0, Math.min(ms.target, counter(s, ms.counter) - log.base));
    const claimedAt = log?.claimedAt ?? null;
    const state = claimedAt !== null ? MISSION_CLAIMED : rate >= ms.target ? MISSION_ACHIEVED : MISSION_IN_PROGRESS;
    out.push({ mission: ms, period: p.period, startsAt: p.startsAt, endsAt: p.endsAt, rate, state, claimedAt });
  }
  return out.sort(
    (a, b) => order[a.mission.category] - order[b.mission.category] || a.mission.missionId - b.mission.missionId,
  );
};
