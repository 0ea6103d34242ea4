// State fields the live game's operator adds to a player (issue 32), with the value a
// player who predates them gets (decodeState fills them in, no migration step).
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

const num = t.number;

/** A suspension by the operator: from when, until when (null: until lifted), why (for the operator only). */
export const Suspension = t.type({
  from: num,
  until: t.union([num, t.null]),
  reason: t.string,
  by: t.string,
  /** Lifted before its end by the operator (null: not lifted). */
  liftedAt: t.union([num, t.null]),
});
export type Suspension = t.TypeOf<typeof Suspension>;

export const liveOpsProps = {
  /** Every suspension of the player, oldest first: the last may be in force. */
  suspensions: t.array(Suspension),
};

export const liveOpsDefaults: Defaults<typeof liveOpsProps> = { suspensions: [] };

/** The suspension in force at `now`, if any: started, not lifted, not ended. */
export const suspensionAt = (
  s: { readonly suspensions: ReadonlyArray<Suspension> },
  now: number,
): Suspension | null => {
  const last = s.suspensions.at(-1);
  return last && last.liftedAt === null && last.from <= now && (last.until === null || now < last.until) ? last : null;
};
