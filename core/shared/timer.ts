// Timers are data: a start and an end instant. A timer that has passed is
// settled by the next operation that reads it, with the same result whenever that is.
import * as t from 'io-ts';

export const Timer = t.type({ startedAt: t.number, completesAt: t.number });
export type Timer = t.TypeOf<typeof Timer>;

export const startTimer = (now: number, durationMs: number): Timer => ({
  startedAt: now,
  completesAt: now + durationMs,
});
export const isDone = (timer: Timer, now: number): boolean => now >= timer.completesAt;
export const remainingMs = (timer: Timer, now: number): number => Math.max(0, timer.completesAt - now);
