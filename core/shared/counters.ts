// Named counters on the player (draws made, quests cleared, …) for achievements and statistics.
import type { PlayerState } from '../state.js';

export const counter = (s: PlayerState, name: string): number => s.counters[name] ?? 0;

/** The counters with one raised (the same object when `by` is 0). */
export const countersBumped = (s: PlayerState, name: string, by = 1): PlayerState['counters'] =>
  by === 0 ? s.counters : { ...s.counters, [name]: counter(s, name) + by };

export const bumpCounter = (s: PlayerState, name: string, by = 1): PlayerState =>
  by === 0 ? s : { ...s, counters: countersBumped(s, name, by) };
