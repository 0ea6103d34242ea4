// Rooms: floor 1 (main) and floor 2 (opened by player level), each a grid on which
// owned room objects are placed once, inside the grid and without overlapping.
import * as t from 'io-ts';
import { Int, IntEnum, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import { fail, ok } from '../shared/result.js';
import { checkFloor, checkFloorOpen, putFloor, readTarget, touchesPlayer } from '../shared/town.js';
import { FloorView, PublicFloorView } from '../views/codecs.js';
import { publicRoomsView, roomsView } from '../views/town.js';

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

const getAll = defineOp({
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
  touches: touchesPlayer,
  reduce: (s, req, _rng, _now, { master: m, others }) => {
    if (req.floorId !== undefined && !m.floor.has(req.floorId))
      return fail('NOT_FOUND', { entity: 'floor', id: req.floorId });
    const r = readTarget(s, req.playerId, others);
    if (r._tag === 'Left') return r;
    return ok({
      state: s,
      response: {
        playerId: r.right.target.playerId,
        rooms: r.right.own
          ? roomsView(m, r.right.target, req.floorId)
          : publicRoomsView(m, r.right.target, req.floorId),
      },
    });
  },
});

const set = defineOp({
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
  reduce: (s, req, _rng, _now, { master: m }) => {
    const open = checkFloorOpen(m, s, req.floorId);
    if (open._tag === 'Left') return open;
    const placements = req.placements.map((p) => ({
      managedRoomObjectId: p.managedRoomObjectId,
      x: p.x,
      y: p.y,
      dir: p.dir,
    }));
    const checked = checkFloor(m, s, req.floorId, placements);
    if (checked._tag === 'Left') return checked;
    return ok({ state: putFloor(s, req.floorId, placements), response: { floorId: req.floorId } });
  },
});

export const roomOps = [getAll, set] as const;
