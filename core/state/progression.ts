// State fields the progression group adds to the player, with the value a player who
// predates them gets (decodeState fills them in, so no migration step is needed).
// Add a field as `name: codec` below and its default beside it.
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

export const SupportParty = t.type({ name: t.string, managedCharacterIds: t.array(t.number) });
export type SupportParty = t.TypeOf<typeof SupportParty>;

export const progressionProps = {
  /** Support parties for the friend feature (count and size limits are master data). */
  supportParties: t.array(SupportParty),
};
export const progressionDefaults: Defaults<typeof progressionProps> = { supportParties: [] };
