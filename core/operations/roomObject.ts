// Room objects: buy with coins (a bargain price inside its period) and place the
// bought ones, sell for coins (leaving the room), add storage slots with gems.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { RoomPlacement } from '../state/town.js';
import { fail, ok } from '../shared/result.js';
import { storageLimit } from '../shared/player.js';
import { addStorageLimit, checkFloor, checkFloorOpen, placementsOf, putFloor } from '../shared/town.js';
import { FloorId, Placement } from './room.js';
import { pay } from '../shared/pay.js';
import { tryGrant } from '../shared/grant.js';
import * as api from '../api/roomObject.js';

const within = (p: { startsAt: number; endsAt: number | null }, now: number): boolean =>
  now >= p.startsAt && (p.endsAt === null || now < p.endsAt);

/** The unit price now: the bargain inside its period, else the list price. */
export const priceNow = (m: Master, roomObjectId: number, now: number): number => {
  const def = m.roomObject.get(roomObjectId);
  const b = m.roomObjectTimes.get(roomObjectId)?.bargain;
  return b && within(b, now) ? b.price : (def?.price ?? 0);
};

const buySet = implementOp(api.buySet, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const max = m.town.maxPerRequest;
    if (req.amount > max) return fail('INVALID_PARAMETERS', { field: 'amount', reason: `at most ${max} at once` });
    const wanted = req.placements ?? [];
    if (wanted.length > req.amount)
      return fail('INVALID_PARAMETERS', { field: 'placements', reason: 'more placements than objects bought' });
    if (!m.roomObject.has(req.roomObjectId)) return fail('NOT_FOUND', { entity: 'room object', id: req.roomObjectId });
    const shop = m.roomObjectTimes.get(req.roomObjectId)?.shop;
    if (shop && !within(shop, now)) return fail('BUY_OUT_OF_PERIOD', { id: req.roomObjectId });
    const limit = storageLimit(m, s, 'roomObject');
    if (s.roomObjects.length + req.amount > limit) return fail('ROOM_OBJECT_LIMIT', { max: limit });
    const floorId = req.floorId ?? 1;
    if (wanted.length > 0) {
      const open = checkFloorOpen(m, s, floorId);
      if (open._tag === 'Left') return open;
    }
    const unitPrice = priceNow(m, req.roomObjectId, now);
    const paid = pay(m, s, { gold: unitPrice * req.amount }, now);
    if (paid._tag === 'Left') return paid;
    const granted = tryGrant(
      m,
      paid.right,
      { kind: 'roomObject', objectId: req.roomObjectId, amount: req.amount },
      now,
    );
    if (granted._tag === 'Left') return granted;
    const ids = [...granted.right.outcome.managedIds];
    let state = granted.right.state;
    if (wanted.length > 0) {
      const placed: RoomPlacement[] = wanted.map((p, i) => ({
        managedRoomObjectId: ids[i] as number,
        x: p.x,
        y: p.y,
        dir: p.dir,
      }));
      const all = [...placementsOf(state, floorId), ...placed];
      const checked = checkFloor(m, state, floorId, all);
      if (checked._tag === 'Left') return checked;
      state = putFloor(state, floorId, all);
    }
    return ok({ state, response: { managedRoomObjectIds: ids, unitPrice } });
  },
});

const sale = implementOp(api.sale, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const ids = req.managedRoomObjectIds;
    if (ids.length === 0)
      return fail('INVALID_PARAMETERS', {
        field: 'managedRoomObjectIds',
        reason: 'must name at least one room object',
      });
    if (ids.length > m.town.maxPerRequest)
      return fail('INVALID_PARAMETERS', {
        field: 'managedRoomObjectIds',
        reason: `at most ${m.town.maxPerRequest} at once`,
      });
    if (new Set(ids).size !== ids.length)
      return fail('INVALID_PARAMETERS', { field: 'managedRoomObjectIds', reason: 'names a room object twice' });
    let gold = 0;
    for (const id of ids) {
      const o = s.roomObjects.find((x) => x.managedRoomObjectId === id);
      if (!o) return fail('NOT_FOUND', { entity: 'room object', id });
      gold += m.roomObject.get(o.roomObjectId)?.salePrice ?? 0;
    }
    let state = s;
    if (gold > 0) {
      const r = tryGrant(m, s, { kind: 'gold', objectId: 0, amount: gold }, now);
      if (r._tag === 'Left') return r;
      state = r.right.state;
    }
    const gone = new Set(ids);
    const placedGone = s.rooms.some((r) => r.placements.some((p) => gone.has(p.managedRoomObjectId)));
    state = {
      ...state,
      roomObjects: state.roomObjects.filter((o) => !gone.has(o.managedRoomObjectId)),
      rooms: placedGone
        ? state.rooms
            .map((r) => ({ ...r, placements: r.placements.filter((p) => !gone.has(p.managedRoomObjectId)) }))
            .filter((r) => r.placements.length > 0)
        : state.rooms,
    };
    return ok({ state, response: { managedRoomObjectIds: ids, gold } });
  },
});

const limitAdd = implementOp(api.limitAdd, {
  reduce: (s, _req, _rng, now, { master: m }) => {
    const r = addStorageLimit(m, s, 'roomObject', now);
    if (r._tag === 'Left') return r;
    return ok({ state: r.right, response: { roomObjectLimit: storageLimit(m, r.right, 'roomObject') } });
  },
});

export const roomObjectOps = [limitAdd, buySet, sale] as const;
