// The daily log-in bonus (issue 32): the first log-in of a game day advances the two
// tracks of master data's calendar (loginBonus.json) and puts that day's rewards in the
// gift box. A pure function of the state, master data and `now`: a replay gives the
// same presents, and a second log-in the same game day finds the day taken and gives
// nothing. Two log-ins racing on the same player are one commit each under the version
// check (the service), so only one of them can record the day.
import type { Master } from '../master/index.js';
import type { BonusMilestone, BonusPresent } from '../master/loginBonus.js';
import type { PlayerState, Present } from '../state.js';
import { DAY, dayIndex } from '../time.js';
import { sendPresent } from './grant.js';
import { withFields } from '../state/copy.js';

/** Where a present's source says it came from. */
export const LOGIN_BONUS_SOURCE = 'loginBonus';

export type BonusTrack = 'consecutive' | 'total';

/** What one log-in gave: the cycle's day, the new total, and each reward as the present holding it. */
export interface BonusGiven {
  /** null: the calendar has no consecutive days. */
  readonly consecutiveDay: number | null;
  readonly totalDays: number;
  readonly presents: ReadonlyArray<{ readonly track: BonusTrack; readonly present: Present }>;
}

export interface BonusOutcome {
  readonly state: PlayerState;
  /** null: nothing given (the day's bonus was taken, there is no calendar, or the box is full). */
  readonly given: BonusGiven | null;
  /** The day's bonus is waiting because the gift box cannot take it. */
  readonly boxFull: boolean;
}

/** The game day of an instant: the game's zone, days beginning at game.json's dayResetHour. */
export const bonusDay = (m: Master, now: number): number =>
  dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);

/** Whether master data has a calendar at all: without one a log-in gives and tracks nothing. */
export const hasCalendar = (m: Master): boolean => m.loginBonus.consecutive.length > 0 || m.loginBonus.total.length > 0;

/** The cycle's day a streak stands at (1 … cycle length, then 1 again); null with no consecutive days. */
export const cycleDayOf = (m: Master, streak: number): number | null => {
  const n = m.loginBonus.consecutive.length;
  return n === 0 ? null : ((streak - 1) % n) + 1;
};

/** Whether a milestone is reached at exactly this total: at its days, then every repeatEvery days after. */
const reachedAt = (ms: BonusMilestone, total: number): boolean =>
  total === ms.days || (ms.repeatEvery !== null && total > ms.days && (total - ms.days) % ms.repeatEvery === 0);

/** The rewards of every milestone reached at exactly this total, in file order. */
export const milestoneRewards = (m: Master, total: number): ReadonlyArray<BonusPresent> =>
  m.loginBonus.total.filter((ms) => reachedAt(ms, total)).flatMap((ms) => ms.rewards);

/** The first total after `after` at which a milestone is reached; null when none is left. */
export const nextMilestone = (m: Master, after: number): number | null => {
  let best: number | null = null;
  for (const ms of m.loginBonus.total) {
    const at =
      ms.days > after
        ? ms.days
        : ms.repeatEvery === null
          ? null
          : ms.days + (Math.floor((after - ms.days) / ms.repeatEvery) + 1) * ms.repeatEvery;
    if (at !== null && (best === null || at < best)) best = at;
  }
  return best;
};

/**
 * The streak as it stands at `today`: the stored one while it is unbroken (a bonus
 * yesterday or today), else 0: a whole game day passed without a bonus.
 */
export const liveStreak = (s: PlayerState, today: number): number => {
  const lb = s.loginBonus;
  return lb.lastDay !== null && lb.lastDay >= today - 1 ? lb.streak : 0;
};

/**
 * The log-in bonus of `now`'s game day, given at most once per game day. A day already
 * given (or later: a clock set back never gives a day twice) gives nothing. Otherwise
 * the streak goes on from yesterday or starts again at 1, the total grows by one, and
 * the consecutive day's rewards, then any milestone's, go to the gift box. When the box
 * cannot take them all (presents.boxMax, the bound every present respects) nothing is
 * given and nothing counted: the log-in still succeeds and says so (boxFull), and the
 * next log-in of the game day, once presents are received, gives the day. A game day
 * that ends with its bonus waiting is a missed day, like every other.
 */
export const giveLoginBonus = (m: Master, s: PlayerState, now: number): BonusOutcome => {
  const none = { state: s, given: null, boxFull: false };
  if (!hasCalendar(m)) return none;
  const today = bonusDay(m, now);
  const lb = s.loginBonus;
  if (lb.lastDay !== null && lb.lastDay >= today) return none;
  const streak = lb.lastDay === today - 1 ? lb.streak + 1 : 1;
  const totalDays = lb.totalDays + 1;
  const consecutiveDay = cycleDayOf(m, streak);
  const rewards: Array<{ track: BonusTrack; reward: BonusPresent }> = [
    ...(consecutiveDay === null ? [] : (m.loginBonus.consecutive[consecutiveDay - 1]?.rewards ?? [])).map((reward) => ({
      track: 'consecutive' as const,
      reward,
    })),
    ...milestoneRewards(m, totalDays).map((reward) => ({ track: 'total' as const, reward })),
  ];
  let state = s;
  const presents: Array<{ track: BonusTrack; present: Present }> = [];
  for (const { track, reward } of rewards) {
    const sent = sendPresent(
      state,
      reward.grant,
      {
        title: reward.title,
        message: reward.message,
        source: LOGIN_BONUS_SOURCE,
        deadline: reward.deadlineDays === undefined ? null : now + reward.deadlineDays * DAY,
      },
      now,
      m,
    );
    state = sent.state;
    presents.push({ track, present: sent.present });
  }
  // The test the service applies to every change (core/operation.ts): past it the whole log-in would be refused.
  if (state.presents.length > m.game.presents.boxMax && state.presents.length > s.presents.length)
    return { state: s, given: null, boxFull: true };
  return {
    state: withFields(state, { loginBonus: { streak, totalDays, lastDay: today } }),
    given: { consecutiveDay, totalDays, presents },
    boxFull: false,
  };
};
