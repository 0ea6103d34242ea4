// State fields the town group adds to the player, with the value a player who
// predates them gets (decodeState fills them in, so no migration step is needed).
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

const num = t.number;

/** A room object on a floor: its top-left cell and direction (0-3, quarter turns). */
export const RoomPlacement = t.type({ managedRoomObjectId: num, x: num, y: num, dir: num });
export type RoomPlacement = t.TypeOf<typeof RoomPlacement>;

export const Room = t.type({ floorId: num, placements: t.array(RoomPlacement) });
export type Room = t.TypeOf<typeof Room>;

export const BuildPointPlacement = t.type({ buildPointId: num, managedTownFacilityId: num });
export type BuildPointPlacement = t.TypeOf<typeof BuildPointPlacement>;

export const ContentBuilding = t.type({
  lotId: num,
  contentRoomId: num,
  facilities: t.array(t.type({ slot: num, managedTownFacilityId: num })),
});
export type ContentBuilding = t.TypeOf<typeof ContentBuilding>;

export const TownLayout = t.type({
  buildPoints: t.array(BuildPointPlacement),
  contentBuildings: t.array(ContentBuilding),
});
export type TownLayout = t.TypeOf<typeof TownLayout>;

/** Only what cannot be derived: a content room's appearance follows from the characters owned. */
export const ContentRoomState = t.type({ contentRoomId: num, shown: t.boolean, managedCharacterIds: t.array(num) });
export type ContentRoomState = t.TypeOf<typeof ContentRoomState>;

export const townProps = {
  /** Floors with at least one placement (a floor never set is empty). */
  rooms: t.array(Room),
  townLayout: TownLayout,
  /** Content rooms that were shown or have residents. */
  contentRooms: t.array(ContentRoomState),
};
export const townDefaults: Defaults<typeof townProps> = {
  rooms: [],
  townLayout: { buildPoints: [], contentBuildings: [] },
  contentRooms: [],
};
