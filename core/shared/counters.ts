// Named counters on the player (draws made, quests cleared, …) for achievements, missions and statistics.
import type { PlayerState } from '../state.js';

/**
 * Every counter an operation keeps, and what raises it. Missions name one of these
 * (master data is checked against the list); achievements read them too.
 */
export const COUNTER_NAMES = [
  /** Characters drawn from gachas (a ten-draw counts ten; re-draws do not count). */
  'gachaDraws',
  /** Quests ordered, and cleared (adv-only quests are not counted). */
  'questOrders',
  'questClears',
  /** Stamina spent on quest orders. */
  'staminaSpent',
  /** Chest draws, and jackpots drawn. */
  'chestDraws',
  'chestJackpots',
  /** Craft offers completed. */
  'offersCompleted',
  /** Missions claimed, and daily missions claimed. */
  'missionsClaimed',
  'dailyMissionsClaimed',
  /** Stamina restores (gem restores and stamina items used). */
  'staminaRestores',
] as const;
export type CounterName = (typeof COUNTER_NAMES)[number];

export const counter = (s: PlayerState, name: string): number => s.counters[name] ?? 0;

/** The counters with one raised (the same object when `by` is 0). */
export const countersBumped = (s: PlayerState, name: CounterName, by = 1): PlayerState['counters'] =>
  by === 0 ? s.counters : { ...s.counters, [name]: counter(s, name) + by };

export const bumpCounter = (s: PlayerState, name: CounterName, by = 1): PlayerState =>
  by === 0 ? s : { ...s, counters: countersBumped(s, name, by) };
