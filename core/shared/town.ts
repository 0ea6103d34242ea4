// Rules of the town group that several of its operations (and its views) share:
// settling a facility's level-up timer and production, content rooms derived from
// the characters owned, and the validation of room and town placements.
import type { Master } from '../master/index.js';
import type { ContentRoom, FacilityLevel, Production, RoomObject } from '../master/town.js';
import type { OwnedFacility, PlayerState } from '../state.js';
import type { ContentRoomState, RoomPlacement, TownLayout } from '../state/town.js';
import { HOUR } from '../time.js';
import { fail, ok, type Result } from './result.js';
import { limitDef, storageLimit } from './player.js';
import { pay } from './pay.js';

// ---- facilities ----

export const levelDef = (m: Master, f: OwnedFacility): FacilityLevel | undefined =>
  m.facility.get(f.facilityId)?.levels[f.level - 1];

export const productionOf = (m: Master, f: OwnedFacility): Production | null => levelDef(m, f)?.production ?? null;

/**
 * Production of an open, idle facility from accruedAt up to `to`, at its level's
 * rate, up to its cap. Whole units go to stock and the rest of the next unit is
 * kept (carry, in unit·ms), so settling in several steps equals settling once.
 */
export const accrue = (m: Master, f: OwnedFacility, to: number): OwnedFacility => {
  if (f.covered || f.levelUp !== null || to <= f.accruedAt) return f;
  const p = productionOf(m, f);
  if (!p) return f;
  // A full store stops production: nothing carries over while it is full.
  if (f.stock >= p.cap) return { ...f, accruedAt: to, carry: 0 };
  const total = f.carry + (to - f.accruedAt) * p.perHour;
  const units = Math.floor(total / HOUR);
  if (f.stock + units >= p.cap) return { ...f, accruedAt: to, stock: p.cap, carry: 0 };
  return { ...f, accruedAt: to, stock: f.stock + units, carry: total - units * HOUR };
};

/** A level-up whose time has come is done: the level rises and production restarts at its end. */
export const settleTimer = (f: OwnedFacility, now: number): OwnedFacility =>
  f.levelUp !== null && now >= f.levelUp.completesAt
    ? { ...f, level: f.level + 1, levelUp: null, accruedAt: f.levelUp.completesAt }
    : f;

/** A facility as of `now`: its timer settled, then its production. */
export const settleFacility = (m: Master, f: OwnedFacility, now: number): OwnedFacility =>
  accrue(m, settleTimer(f, now), now);

/** Gems to finish a running level-up now: the level's gem price times the share of time left, rounded up. */
export const gemPriceLeft = (
  gemPrice: number,
  timer: { startedAt: number; completesAt: number },
  now: number,
): number => {
  const total = timer.completesAt - timer.startedAt;
  const left = Math.max(0, timer.completesAt - now);
  return total <= 0 ? 0 : Math.ceil((gemPrice * left) / total);
};

export const findFacility = (s: PlayerState, id: number): Result<OwnedFacility, 'NOT_FOUND'> => {
  const f = s.facilities.find((x) => x.managedTownFacilityId === id);
  return f ? ok(f) : fail('NOT_FOUND', { entity: 'town facility', id });
};

export const putFacility = (s: PlayerState, f: OwnedFacility): PlayerState => ({
  ...s,
  facilities: s.facilities.map((x) => (x.managedTownFacilityId === f.managedTownFacilityId ? f : x)),
});

/** Takes facilities out of the town layout (sold ones). */
export const unplaceFacilities = (layout: TownLayout, ids: ReadonlySet<number>): TownLayout => {
  const buildPoints = layout.buildPoints.filter((b) => !ids.has(b.managedTownFacilityId));
  let touched = buildPoints.length !== layout.buildPoints.length;
  const contentBuildings = layout.contentBuildings.map((c) => {
    const facilities = c.facilities.filter((x) => !ids.has(x.managedTownFacilityId));
    if (facilities.length === c.facilities.length) return c;
    touched = true;
    return { ...c, facilities };
  });
  return touched ? { buildPoints, contentBuildings } : layout;
};

// ---- content rooms ----

/** Every content room of the master data by id (built with it). */
const sortedRooms = (m: Master): ReadonlyArray<ContentRoom> => m.contentRoomsInOrder;

/** Content rooms that have appeared: one per title of which the player owns a character. */
export const appearedRooms = (m: Master, s: PlayerState): ContentRoom[] => {
  const titles = new Set<number>();
  for (const c of s.characters) {
    const titleId = m.character.get(c.characterId)?.titleId;
    if (titleId !== undefined) titles.add(titleId);
  }
  return roomsOfTitles(m, titles);
};

/** The content rooms of some titles, in id order. */
export const roomsOfTitles = (m: Master, titles: ReadonlySet<number>): ContentRoom[] =>
  sortedRooms(m).filter((r) => titles.has(r.titleId));

/** An appeared content room, or 107 (an unknown room and one not appeared yet are alike to the player). */
export const openRoom = (m: Master, s: PlayerState, contentRoomId: number): Result<ContentRoom, 'NOT_FOUND'> => {
  const r = appearedRooms(m, s).find((x) => x.contentRoomId === contentRoomId);
  return r ? ok(r) : fail('NOT_FOUND', { entity: 'content room', id: contentRoomId });
};

export const roomState = (s: PlayerState, contentRoomId: number): ContentRoomState =>
  s.contentRooms.find((x) => x.contentRoomId === contentRoomId) ?? {
    contentRoomId,
    shown: false,
    managedCharacterIds: [],
  };

export const putRoomState = (s: PlayerState, rs: ContentRoomState): PlayerState => {
  const rest = s.contentRooms.filter((x) => x.contentRoomId !== rs.contentRoomId);
  const keep = rs.shown || rs.managedCharacterIds.length > 0;
  return { ...s, contentRooms: (keep ? [...rest, rs] : rest).sort((a, b) => a.contentRoomId - b.contentRoomId) };
};

/** Everyone living in the town (the content rooms' residents), room by room. */
export const residents = (s: PlayerState): Array<{ contentRoomId: number; managedCharacterId: number }> =>
  s.contentRooms.flatMap((r) =>
    r.managedCharacterIds.map((id) => ({ contentRoomId: r.contentRoomId, managedCharacterId: id })),
  );

// ---- room placements ----

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** The cells an object covers: width along x and depth along y, swapped by a quarter turn. */
export const footprint = (o: RoomObject, p: Pick<RoomPlacement, 'x' | 'y' | 'dir'>): Rect =>
  p.dir % 2 === 0 ? { x: p.x, y: p.y, w: o.width, h: o.depth } : { x: p.x, y: p.y, w: o.depth, h: o.width };

export const overlaps = (a: Rect, b: Rect): boolean =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Checks one floor's placements: every object owned (107), placed once on this
 * floor and not on another one, inside the grid and overlapping nothing (307).
 */
export const checkFloor = (
  m: Master,
  s: PlayerState,
  floorId: number,
  placements: ReadonlyArray<RoomPlacement>,
): Result<true, 'NOT_FOUND' | 'ROOM_LIMIT'> => {
  const floor = m.floor.get(floorId);
  if (!floor) return fail('NOT_FOUND', { entity: 'floor', id: floorId });
  const elsewhere = new Map<number, number>();
  for (const r of s.rooms)
    if (r.floorId !== floorId) for (const p of r.placements) elsewhere.set(p.managedRoomObjectId, r.floorId);
  const seen = new Set<number>();
  const rects: Array<{ id: number; rect: Rect }> = [];
  for (const p of placements) {
    const owned = s.roomObjects.find((o) => o.managedRoomObjectId === p.managedRoomObjectId);
    if (!owned) return fail('NOT_FOUND', { entity: 'room object', id: p.managedRoomObjectId });
    const def = m.roomObject.get(owned.roomObjectId);
    if (!def) return fail('NOT_FOUND', { entity: 'room object', id: owned.roomObjectId });
    if (seen.has(p.managedRoomObjectId))
      return fail('ROOM_LIMIT', { reason: `room object ${p.managedRoomObjectId} is placed twice` });
    seen.add(p.managedRoomObjectId);
    const other = elsewhere.get(p.managedRoomObjectId);
    if (other !== undefined)
      return fail('ROOM_LIMIT', { reason: `room object ${p.managedRoomObjectId} is already placed on floor ${other}` });
    const rect = footprint(def, p);
    if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > floor.width || rect.y + rect.h > floor.height) {
      return fail('ROOM_LIMIT', {
        reason: `room object ${p.managedRoomObjectId} at (${p.x}, ${p.y}) does not fit in the ${floor.width}×${floor.height} grid`,
      });
    }
    const hit = rects.find((r) => overlaps(r.rect, rect));
    if (hit)
      return fail('ROOM_LIMIT', { reason: `room object ${p.managedRoomObjectId} overlaps room object ${hit.id}` });
    rects.push({ id: p.managedRoomObjectId, rect });
  }
  return ok(true);
};

/** A floor is open when the player's level reaches its unlock level (317 otherwise). */
export const checkFloorOpen = (
  m: Master,
  s: PlayerState,
  floorId: number,
): Result<true, 'NOT_FOUND' | 'STATE_CONFLICT'> => {
  const floor = m.floor.get(floorId);
  if (!floor) return fail('NOT_FOUND', { entity: 'floor', id: floorId });
  if (s.level < floor.unlockLevel)
    return fail('STATE_CONFLICT', { reason: `floor ${floorId} opens at player level ${floor.unlockLevel}` });
  return ok(true);
};

export const placementsOf = (s: PlayerState, floorId: number): RoomPlacement[] =>
  s.rooms.find((r) => r.floorId === floorId)?.placements ?? [];

/** Replaces one floor's placements (an empty floor is not stored). */
export const putFloor = (s: PlayerState, floorId: number, placements: RoomPlacement[]): PlayerState => {
  const rest = s.rooms.filter((r) => r.floorId !== floorId);
  return {
    ...s,
    rooms: (placements.length > 0 ? [...rest, { floorId, placements }] : rest).sort((a, b) => a.floorId - b.floorId),
  };
};

// ---- the town layout ----

const dup = (field: string, reason: string): Result<never, 'INVALID_PARAMETERS'> =>
  fail('INVALID_PARAMETERS', { field, reason });

/**
 * Checks a whole town layout: build points, lots, slots and content rooms exist
 * (107) and are used once (102); every facility is owned (107) and placed once (102).
 */
export const checkTown = (
  m: Master,
  s: PlayerState,
  layout: TownLayout,
): Result<true, 'NOT_FOUND' | 'INVALID_PARAMETERS'> => {
  const placed = new Set<number>();
  const place = (id: number, field: string): Result<true, 'NOT_FOUND' | 'INVALID_PARAMETERS'> => {
    if (!s.facilities.some((f) => f.managedTownFacilityId === id))
      return fail('NOT_FOUND', { entity: 'town facility', id });
    if (placed.has(id)) return dup(field, `town facility ${id} is placed twice`);
    placed.add(id);
    return ok(true);
  };
  const points = new Set<number>();
  for (const [i, b] of layout.buildPoints.entries()) {
    if (!m.buildPointIds.has(b.buildPointId)) return fail('NOT_FOUND', { entity: 'build point', id: b.buildPointId });
    if (points.has(b.buildPointId))
      return dup(`buildPoints.${i}.buildPointId`, `build point ${b.buildPointId} is used twice`);
    points.add(b.buildPointId);
    const r = place(b.managedTownFacilityId, `buildPoints.${i}.managedTownFacilityId`);
    if (r._tag === 'Left') return r;
  }
  const lots = new Set<number>();
  const rooms = new Set<number>();
  const open = new Set(appearedRooms(m, s).map((r) => r.contentRoomId));
  for (const [i, c] of layout.contentBuildings.entries()) {
    const slots = m.contentLot.get(c.lotId);
    if (slots === undefined) return fail('NOT_FOUND', { entity: 'content lot', id: c.lotId });
    if (lots.has(c.lotId)) return dup(`contentBuildings.${i}.lotId`, `lot ${c.lotId} is used twice`);
    lots.add(c.lotId);
    if (!open.has(c.contentRoomId)) return fail('NOT_FOUND', { entity: 'content room', id: c.contentRoomId });
    if (rooms.has(c.contentRoomId))
      return dup(`contentBuildings.${i}.contentRoomId`, `content room ${c.contentRoomId} is placed twice`);
    rooms.add(c.contentRoomId);
    const used = new Set<number>();
    for (const [j, x] of c.facilities.entries()) {
      const field = `contentBuildings.${i}.facilities.${j}`;
      if (x.slot > slots) return dup(`${field}.slot`, `lot ${c.lotId} has slots 1 to ${slots}`);
      if (used.has(x.slot)) return dup(`${field}.slot`, `slot ${x.slot} is used twice`);
      used.add(x.slot);
      const r = place(x.managedTownFacilityId, `${field}.managedTownFacilityId`);
      if (r._tag === 'Left') return r;
    }
  }
  return ok(true);
};

// ---- storage limits ----

/** limit/add for facilities or room objects: +step slots for gems, up to the cap (295 / 298 beyond it). */
export function addStorageLimit(
  m: Master,
  s: PlayerState,
  kind: 'facility',
  now: number,
): Result<PlayerState, 'FACILITY_EXT_LIMIT' | 'GEM_IS_SHORT'>;
export function addStorageLimit(
  m: Master,
  s: PlayerState,
  kind: 'roomObject',
  now: number,
): Result<PlayerState, 'ROOM_OBJECT_EXT_LIMIT' | 'GEM_IS_SHORT'>;
export function addStorageLimit(
  m: Master,
  s: PlayerState,
  kind: 'facility' | 'roomObject',
  now: number,
): Result<PlayerState, 'FACILITY_EXT_LIMIT' | 'ROOM_OBJECT_EXT_LIMIT' | 'GEM_IS_SHORT'> {
  const def = limitDef(m, kind);
  const current = storageLimit(m, s, kind);
  if (current >= def.cap)
    return fail(kind === 'facility' ? 'FACILITY_EXT_LIMIT' : 'ROOM_OBJECT_EXT_LIMIT', { max: def.cap });
  const paid = pay(m, s, { gem: def.gemPrice }, now);
  if (paid._tag === 'Left') return paid;
  return ok({ ...paid.right, limitAdds: { ...paid.right.limitAdds, [kind]: paid.right.limitAdds[kind] + 1 } });
}

// ---- reads of another player ----

/** Whose public data a read shows: the caller without playerId (or with their own), else the loaded other player (202 if none). */
export const readTarget = (
  s: PlayerState,
  playerId: number | undefined,
  others: ReadonlyArray<PlayerState | undefined>,
): Result<{ target: PlayerState; own: boolean }, 'PLAYER_NOT_FOUND'> => {
  if (playerId === undefined || playerId === s.playerId) return ok({ target: s, own: true });
  const other = others[0];
  return other ? ok({ target: other, own: false }) : fail('PLAYER_NOT_FOUND', {});
};

export const touchesPlayer = (req: { playerId?: number }) =>
  req.playerId !== undefined ? [{ by: 'playerId' as const, playerId: req.playerId }] : [];
