// Rooms: floor 1 (main) and floor 2 (opened by player level), each a grid on which
// owned room objects are placed once, inside the grid and without overlapping.
import * as t from 'io-ts';
import { Int, IntEnum, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import { fail, ok } from '../shared/result.js';
import { checkFloor, checkFloorOpen, putFloor, readTarget, touchesPlayer } from '../shared/town.js';
import { FloorView, PublicFloorView } from '../views/codecs.js';
import { publicRoomsView, roomsView } from '../views/town.js';
import * as api from '../api/room.js';
export { FloorId, Placement, Direction } from '../api/room.js';

const getAll = implementOp(api.getAll, {
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

const set = implementOp(api.set, {
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
