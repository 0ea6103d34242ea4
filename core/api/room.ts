// The descriptions of core/operations/room.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { IntEnum, obj, Int, objWithOptional, PosInt } from '../codecs.js';
import * as t from 'io-ts';
import { FloorView, PublicFloorView } from '../views/codecs.js';

/** The floors a player has (SPEC: 1 main room, 2 sub room); their sizes and unlock levels are master data. */
export const FloorId = IntEnum('FloorId', { 1: 'main room', 2: 'sub room (opens at a player level)' });
/** How a placed object is turned, in quarter turns; 1 and 3 swap its width and depth. */
export const Direction = IntEnum('Direction', {
  0: 'not turned',
  1: 'a quarter turn (width and depth swap)',
  2: 'a half turn',
  3: 'three quarter turns (width and depth swap)',
});

/** A placement: the top-left cell and a direction. */
export const Placement = obj({ x: Int, y: Int, dir: Direction });

export const getAll = describeOp({
  name: 'getAllPlayerRoom',
  method: 'GET',
  path: '/player/room/get_all',
  group: 'room',
  readOnly: true,
  summary:
    "The rooms of the given player (default: the caller), or one floor; another player's show object kinds and positions only.",
  request: objWithOptional({}, { playerId: PosInt, floorId: FloorId }, 'GetAllPlayerRoomRequest'),
  // The owner sees managed ids; another player sees object kinds and positions only.
  response: t.type(
    { playerId: t.number, rooms: t.union([t.array(FloorView), t.array(PublicFloorView)]) },
    'GetAllPlayerRoomResponse',
  ),
  errors: ['PLAYER_NOT_FOUND', 'NOT_FOUND'],
});

export const set = describeOp({
  name: 'setPlayerRoom',
  method: 'POST',
  path: '/player/room/set',
  group: 'room',
  summary: "Replaces the placements of one floor of the caller's room.",
  request: obj(
    { floorId: FloorId, placements: t.array(t.intersection([obj({ managedRoomObjectId: PosInt }), Placement])) },
    'SetPlayerRoomRequest',
  ),
  response: t.type({ floorId: t.number }, 'SetPlayerRoomResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'ROOM_LIMIT'],
});

/** The group's descriptions, in the table's order. */
export const roomApi = [getAll, set] as const;
