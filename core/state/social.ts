// State fields the social group adds to the player, with the value a player who
// predates them gets (decodeState fills them in, so no migration step is needed).
// Add a field as `name: codec` below and its default beside it.
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

export const PARTY_COUNT = 15;
export const PARTY_SLOTS = 5;

export const PartySlot = t.type({ managedCharacterId: t.union([t.number, t.null]), managedWeaponId: t.union([t.number, t.null]) });
export const BattleParty = t.type({ managedBattlePartyId: t.number, name: t.string, slots: t.array(PartySlot) });
export type BattleParty = t.TypeOf<typeof BattleParty>;

export const socialProps = {
  /** Exactly PARTY_COUNT parties of PARTY_SLOTS slots; managedBattlePartyId is 1 … 15. */
  battleParties: t.array(BattleParty),
};

const emptyParties: BattleParty[] = Array.from({ length: PARTY_COUNT }, (_, i) => ({
  managedBattlePartyId: i + 1,
  name: `Party ${i + 1}`,
  slots: Array.from({ length: PARTY_SLOTS }, () => ({ managedCharacterId: null, managedWeaponId: null })),
}));

export const socialDefaults: Defaults<typeof socialProps> = { battleParties: emptyParties };
