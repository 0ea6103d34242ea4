// State fields the original clients' endpoints add to the player (issue 21), with the
// value a player who predates them gets (decodeState fills them in, no migration step).
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

const num = t.number;

/**
 * A mission in one period: the counter's value when the period's first change to the
 * player was made (progress is the counter's growth since), and when it was claimed.
 * The after-hook (core/shared/missions.ts) starts a new entry when a period begins.
 */
export const MissionLog = t.type({
  missionId: num,
  /** The period's number: its game day (daily), game week (weekly), 0 (event). */
  period: num,
  base: num,
  claimedAt: t.union([num, t.null]),
});
export type MissionLog = t.TypeOf<typeof MissionLog>;

export const originalProps = {
  /** The missions of the current periods, by mission id. */
  missionLogs: t.array(MissionLog),
  /** Adv scenes the player has viewed, sorted. */
  advSeen: t.array(num),
  /** The age bracket (original.json ageBrackets), null until age/set. */
  ageBracket: t.union([num, t.null]),
};

export const originalDefaults: Defaults<typeof originalProps> = { missionLogs: [], advSeen: [], ageBracket: null };
