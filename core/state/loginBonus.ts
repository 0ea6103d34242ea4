// The state field the daily log-in bonus adds to the player (issue 32), with the value a
// player who predates it gets (decodeState fills it in, no migration step). At its
// default it is left out of the replay log's state hash, so older entries still compare.
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

const num = t.number;

/** Where the player is on the bonus's tracks; changed only by the first log-in of a game day. */
export const LoginBonusRecord = t.type({
  /** Consecutive game days with a bonus, ending at lastDay (the cycle's day is (streak − 1) mod its length + 1). */
  streak: num,
  /** Game days with a bonus in all (the total track). */
  totalDays: num,
  /** The game day (core/time.ts dayIndex) whose bonus was given last; null before the first. */
  lastDay: t.union([num, t.null]),
});
export type LoginBonusRecord = t.TypeOf<typeof LoginBonusRecord>;

export const loginBonusProps = { loginBonus: LoginBonusRecord };

export const loginBonusDefaults: Defaults<typeof loginBonusProps> = {
  loginBonus: { streak: 0, totalDays: 0, lastDay: null },
};
