// Questions about parties that several groups ask.
import type { PlayerState } from '../state.js';

export const weaponInBattleParty = (s: PlayerState, managedWeaponId: number): boolean =>
  s.battleParties.some((p) => p.slots.some((x) => x.managedWeaponId === managedWeaponId));

export const characterInBattleParty = (s: PlayerState, managedCharacterId: number): boolean =>
  s.battleParties.some((p) => p.slots.some((x) => x.managedCharacterId === managedCharacterId));
