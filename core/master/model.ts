// The master data's type: every file's content, the indexes built from them, and the
// gachas' tables. Types only, apart from the builder (index.ts), so that what the
// builder calls (the gacha tables and boxes) can take the master data without a cycle.
import type { Character, Item, Rarity } from './base.js';
import type { indexProgression, Weapon } from './progression.js';
import type { ContentRoom, Facility, indexTown, RoomObject } from './town.js';
import type { indexSocial } from './social.js';
import type { indexOriginal } from './original.js';
import type { MasterFilesOf } from './types.js';
import type { DrawTable, GachaIndexed } from '../gacha/table.js';
import type { GachaBox } from '../gacha/box.js';

export type { GachaIndexed };
type MasterFiles = MasterFilesOf;

type GroupIndexes = ReturnType<typeof indexProgression> &
  ReturnType<typeof indexTown> &
  ReturnType<typeof indexSocial> &
  ReturnType<typeof indexOriginal>;

export interface Master extends MasterFiles, GroupIndexes {
  readonly character: ReadonlyMap<number, Character>;
  readonly item: ReadonlyMap<number, Item>;
  readonly rarity: ReadonlyMap<number, Rarity>;
  readonly gacha: ReadonlyMap<number, GachaIndexed>;
  readonly weapon: ReadonlyMap<number, Weapon>;
  readonly facility: ReadonlyMap<number, Facility>;
  readonly roomObject: ReadonlyMap<number, RoomObject>;
  readonly titleIds: ReadonlySet<number>;
  /**
   * Tables derived from the files, built here once (not memoised where they are
   * used): each gacha's draw table and what box/get shows of it, by gacha id.
   */
  readonly gachaTables: ReadonlyMap<
    number,
    { readonly gacha: GachaIndexed; readonly table: DrawTable; readonly box: GachaBox }
  >;
  /** Every content room, by id. */
  readonly contentRoomsInOrder: ReadonlyArray<ContentRoom>;
}
