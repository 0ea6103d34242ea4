// Codecs shared by every master-data file.
import * as t from 'io-ts';
import { Int, NonNegInt, PosInt, Text } from '../codecs.js';

export { Int, NonNegInt, PosInt };
export const Name = Text(1, 64);
export const LongText = Text(0, 1000);

/** A local time in the game's zone, `YYYY-MM-DDTHH:mm:ss`; parsed with the configured offset. */
export const LocalTime = t.refinement(t.string, (s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(s), 'LocalTime');

/** A period: start inclusive, end exclusive (null: open-ended). */
export const Period = t.type({ start: LocalTime, end: t.union([LocalTime, t.null]) });
export type Period = t.TypeOf<typeof Period>;

/** The kinds of thing a present or reward can hold (WIRE.md). */
export const GrantKind = t.keyof({
  character: null,
  item: null,
  weapon: null,
  gold: null,
  gem: null,
  paidGem: null,
  kirara: null,
  roomObject: null,
  townFacility: null,
});
export type GrantKind = t.TypeOf<typeof GrantKind>;

/** One thing given: currencies use objectId 0. */
export const Grant = t.type({ kind: GrantKind, objectId: NonNegInt, amount: PosInt });
export type Grant = t.TypeOf<typeof Grant>;

export const ItemAmount = t.type({ itemId: PosInt, amount: PosInt });
export type ItemAmount = t.TypeOf<typeof ItemAmount>;

/** A cost that any operation can charge; every field optional, all paid together. */
export const Cost = t.partial({
  gold: NonNegInt,
  gem: NonNegInt,
  paidGem: NonNegInt,
  kirara: NonNegInt,
  stamina: NonNegInt,
  items: t.array(ItemAmount),
});
export type Cost = t.TypeOf<typeof Cost>;

/** A storage limit that can be raised with gems: base slots, +step per purchase up to cap. */
export const ExtendableLimit = t.type({ base: PosInt, step: PosInt, cap: PosInt, gemPrice: PosInt });
export type ExtendableLimit = t.TypeOf<typeof ExtendableLimit>;

/** A master file's problem, by file and field (start-up refuses the set and names them). */
export interface MasterProblem {
  readonly file: string;
  readonly field: string;
  readonly message: string;
}

/** The decoded content of some master files, by file name, from their codecs. */
export type FilesOf<F extends Record<string, t.Mixed>> = { [K in keyof F]: t.TypeOf<F[K]> };
