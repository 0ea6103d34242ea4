// Master data of the town group (facilities, room objects, rooms, content rooms).
// The foundation needs only what a present or reward of these kinds must name.
import * as t from 'io-ts';
import type { MasterFilesOf, MasterProblem } from './types.js';
import { Name, NonNegInt, PosInt } from './common.js';

export const Facility = t.type({
  facilityId: PosInt, name: Name, category: Name, salePrice: NonNegInt,
});
export type Facility = t.TypeOf<typeof Facility>;

export const RoomObject = t.type({
  roomObjectId: PosInt, name: Name, category: Name, salePrice: NonNegInt,
});
export type RoomObject = t.TypeOf<typeof RoomObject>;

export const townFiles = {
  facilities: t.array(Facility),
  roomObjects: t.array(RoomObject),
};

/**
 * Indexes and cross-checks of this group's files, built once at start-up. Push a
 * problem (file, field, message) for anything that does not fit; the result is
 * merged into Master.
 */
export const indexTown = (_f: MasterFilesOf, _problems: MasterProblem[]) => ({});
