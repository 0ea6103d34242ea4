// A player's standing with each gacha (its stats: points, draws today and in all, a
// pending result) as of the game day, whether a gacha is open, and the draw types.
import type { Master } from '../master/model.js';
import type { GachaStat, PlayerState } from '../state.js';
import { dayIndex, weekdayOf } from '../time.js';
import { isOpen, type GachaIndexed } from './rates.js';

/** drawType of a draw record, the wire's values (operations/gacha.ts DrawType); a fix records 0. */
export const DRAW_SINGLE = 1;
export const DRAW_PAID_SINGLE = 2;
export const DRAW_TEN = 3;

export const today = (m: Master, now: number): number =>
  dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
/** Whether a gacha can be drawn now: in its period, on an open weekday of the game day. */
export const openNow = (m: Master, g: GachaIndexed, now: number): boolean => isOpen(g, now, weekdayOf(today(m, now)));

const emptyStat = (gachaId: number): GachaStat => ({
  gachaId,
  points: 0,
  totalDraws: 0,
  dayIndex: 0,
  drawsToday: 0,
  firstTenUsed: false,
  closed: false,
  pending: null,
});

export const statOf = (s: PlayerState, gachaId: number): GachaStat =>
  s.gachaStats.find((x) => x.gachaId === gachaId) ?? emptyStat(gachaId);
export const drawsToday = (m: Master, st: GachaStat, now: number): number =>
  st.dayIndex === today(m, now) ? st.drawsToday : 0;
