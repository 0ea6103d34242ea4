// Time in the game's own clock: master data names instants in game-local time
// (`YYYY-MM-DDTHH:mm:ss` at game.timezoneOffsetMinutes) and days that begin at
// game.dayResetHour. These helpers turn those into the epoch milliseconds every
// reducer takes as `now`, and back, so a property can say "during the spring
// event" or "the next game day" without time-zone arithmetic of its own.
import type { Master } from '../core/master/index.js';
import { DAY, HOUR, MINUTE, dayIndex, formatTime, parseTime, weekdayOf } from '../core/time.js';

export { DAY, HOUR, MINUTE };

/** A master-data period: local start, local end or null for none. */
export interface LocalPeriod {
  readonly start: string;
  readonly end: string | null;
}

export interface GameTime {
  readonly offsetMinutes: number;
  readonly resetHour: number;
  /** The instant of a game-local time: `YYYY-MM-DDTHH:mm:ss`, or a date `YYYY-MM-DD` (its midnight). Throws on a malformed one. */
  at(local: string): number;
  /** The game-local text of an instant (as answers give it). */
  format(ms: number): string;
  /** The game day an instant falls in (days since the epoch, shifted by the reset hour): what daily limits count. */
  day(ms: number): number;
  /** The instant a game day begins (its reset). */
  dayStart(day: number): number;
  /** The next reset after an instant: when daily limits refill. */
  nextDay(ms: number): number;
  /** The game day's weekday, 0 Sunday … 6 Saturday (what a gacha's weekdays name). */
  weekday(ms: number): number;
  /** A period's bounds as instants (end null: open-ended). */
  bounds(p: LocalPeriod): { readonly start: number; readonly end: number | null };
  /** Whether an instant lies in a period (start inclusive, end exclusive), as the reducers test it. */
  inPeriod(p: LocalPeriod | null, ms: number): boolean;
  /** An instant inside a period: its start plus `after` (default an hour), clamped before its end. */
  during(p: LocalPeriod, after?: number): number;
}

export const gameTime = (m: Master): GameTime => {
  const offsetMinutes = m.game.timezoneOffsetMinutes;
  const resetHour = m.game.dayResetHour;
  const at = (local: string): number => {
    const text = /^\d{4}-\d{2}-\d{2}$/.test(local) ? `${local}T00:00:00` : local;
    const ms = parseTime(text, offsetMinutes);
    if (ms === undefined) throw new RangeError(`not a game-local time: ${local} (YYYY-MM-DDTHH:mm:ss or YYYY-MM-DD)`);
    return ms;
  };
  const day = (ms: number) => dayIndex(ms, offsetMinutes, resetHour);
  const dayStart = (d: number) => d * DAY + resetHour * HOUR - offsetMinutes * MINUTE;
  const bounds = (p: LocalPeriod) => ({ start: at(p.start), end: p.end === null ? null : at(p.end) });
  return {
    offsetMinutes,
    resetHour,
    at,
    day,
    dayStart,
    bounds,
    format: (ms) => formatTime(ms, offsetMinutes),
    nextDay: (ms) => dayStart(day(ms) + 1),
    weekday: (ms) => weekdayOf(day(ms)),
    inPeriod: (p, ms) => {
      if (p === null) return true;
      const b = bounds(p);
      return ms >= b.start && (b.end === null || ms < b.end);
    },
    during: (p, after = HOUR) => {
      const b = bounds(p);
      return b.end === null ? b.start + after : Math.min(b.start + after, b.end - 1);
    },
  };
};
