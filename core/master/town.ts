// Master data of the town group (facilities, room objects, rooms, content rooms).
// The foundation needs only what a present or reward of these kinds must name.
import * as t from 'io-ts';
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
