// Master data of the progression group (weapons, abilities, training, trade).
// The foundation needs only what a present or reward of these kinds must name.
import * as t from 'io-ts';
import type { MasterFilesOf, MasterProblem } from './types.js';
import { Name, NonNegInt, PosInt } from './common.js';

export const Weapon = t.type({
  weaponId: PosInt, name: Name, classId: PosInt, rarity: PosInt, salePrice: NonNegInt,
  /** For a character's own weapon, that character; otherwise null. */
  characterId: t.union([PosInt, t.null]),
});
export type Weapon = t.TypeOf<typeof Weapon>;

export const progressionFiles = {
  weapons: t.array(Weapon),
};

/**
 * Indexes and cross-checks of this group's files, built once at start-up. Push a
 * problem (file, field, message) for anything that does not fit; the result is
 * merged into Master.
 */
export const indexProgression = (_f: MasterFilesOf, _problems: MasterProblem[]) => ({});
