// The battle parties' tests' shared setup: a player owning characters of two classes with
// fitting, unfitting and character-own weapons, and the slot and party lists they send.
import { freshPlayer, master, NOW } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';
import type { GameError } from '../../../core/errors.js';

/** A player owning two characters of different classes and fitting and unfitting weapons. */
export const setup = () => {
  const m = master();
  const c1 = m.characters[0]!;
  const c2 = m.characters.find((c) => c.classId !== c1.classId)!;
  const w1 = m.weapons.find((w) => w.classId === c1.classId && w.characterId === null)!;
  const w2 = m.weapons.find((w) => w.classId === c2.classId && w.characterId === null)!;
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const s: PlayerState = {
    ...s0,
    nextManagedId: id + 5,
    characters: [newCharacter(id, c1.characterId, NOW), newCharacter(id + 1, c2.characterId, NOW)],
    weapons: [
      { managedWeaponId: id + 2, weaponId: w1.weaponId, level: 1, exp: 0, createdAt: NOW },
      { managedWeaponId: id + 3, weaponId: w1.weaponId, level: 1, exp: 0, createdAt: NOW },
      { managedWeaponId: id + 4, weaponId: w2.weaponId, level: 1, exp: 0, createdAt: NOW },
    ],
  };
  return { s, ch1: id, ch2: id + 1, w1a: id + 2, w1b: id + 3, w2: id + 4, c1, w1 };
};

export type Slot = { managedCharacterId?: number | null; managedWeaponId?: number | null };
export const empty = (): Slot[] =>
  Array.from({ length: 5 }, () => ({ managedCharacterId: null, managedWeaponId: null }));
export const withSlots = (...xs: Slot[]): Slot[] => [...xs, ...empty()].slice(0, 5);

export const m = master();
export const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
export const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

// Two characters of one class (the second with its own weapon), one of another class.
export const c1 = m.characters[0]!;
export const c1b = m.characters.find(
  (c) =>
    c.classId === c1.classId &&
    c.characterId !== c1.characterId &&
    m.weapons.some((w) => w.characterId === c.characterId),
)!;
export const c2 = m.characters.find((c) => c.classId !== c1.classId)!;
export const common1 = m.weapons.find((w) => w.classId === c1.classId && w.characterId === null)!;
export const common2 = m.weapons.find((w) => w.classId === c2.classId && w.characterId === null)!;
export const ownOfC1b = m.weapons.find((w) => w.characterId === c1b.characterId)!;

export const setupWithOwnWeapon = () => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const ids = { ch1: id, ch1b: id + 1, ch2: id + 2, w1: id + 3, w2: id + 4, wOwn: id + 5 };
  const weapon = (managedWeaponId: number, weaponId: number) => ({
    managedWeaponId,
    weaponId,
    level: 1,
    exp: 0,
    createdAt: NOW,
  });
  const s: PlayerState = {
    ...s0,
    nextManagedId: id + 6,
    characters: [
      newCharacter(ids.ch1, c1.characterId, NOW),
      newCharacter(ids.ch1b, c1b.characterId, NOW),
      newCharacter(ids.ch2, c2.characterId, NOW),
    ],
    weapons: [weapon(ids.w1, common1.weaponId), weapon(ids.w2, common2.weaponId), weapon(ids.wOwn, ownOfC1b.weaponId)],
  };
  return { s, ...ids };
};
export type Party = { managedBattlePartyId?: number; name?: string; slots: Slot[] };
/** The 15 parties in order, the first with these slots (and extra fields). */
export const parties = (first: Slot[], extra: Partial<Party> = {}): Party[] =>
  Array.from({ length: 15 }, (_, i) => (i === 0 ? { slots: first, ...extra } : { slots: empty() }));
