// Master data of the town group: facilities (prices, per-level costs, durations,
// gem prices, production), room objects (sizes, prices, bargains), the town's
// build points and content-building lots, the room floors and their grid, the
// content room of every title and the spots the field party visits.
import * as t from 'io-ts';
import type { baseFiles } from './base.js';
import { ItemAmount, Name, NonNegInt, Period, PosInt, type FilesOf, type MasterProblem } from './common.js';
import { parseTime } from '../time.js';

export const FacilityCategory = t.keyof({ gold: null, material: null, decoration: null });
export type FacilityCategory = t.TypeOf<typeof FacilityCategory>;

/** What a facility level produces: coins (itemId null) or an item, per hour, up to a storage cap. */
export const Production = t.type({ itemId: t.union([PosInt, t.null]), perHour: PosInt, cap: PosInt });
export type Production = t.TypeOf<typeof Production>;

/** The level-up from this level to the next: cost, duration and the gem price of doing it at once. */
export const FacilityLevelUp = t.type({
  gold: NonNegInt,
  items: t.array(ItemAmount),
  durationSeconds: PosInt,
  gemPrice: PosInt,
});
export type FacilityLevelUp = t.TypeOf<typeof FacilityLevelUp>;

export const FacilityLevel = t.type({
  level: PosInt,
  production: t.union([Production, t.null]),
  /** Null at the maximum level. */
  levelUp: t.union([FacilityLevelUp, t.null]),
});
export type FacilityLevel = t.TypeOf<typeof FacilityLevel>;

export const Facility = t.type({
  facilityId: PosInt,
  name: Name,
  category: FacilityCategory,
  price: t.type({ gold: NonNegInt, kirara: NonNegInt }),
  salePrice: NonNegInt,
  /** Levels 1 … max, in order; the last has no level-up. */
  levels: t.array(FacilityLevel),
});
export type Facility = t.TypeOf<typeof Facility>;

export const RoomObject = t.type({
  roomObjectId: PosInt,
  name: Name,
  category: t.keyof({
    bed: null,
    table: null,
    chair: null,
    light: null,
    shelf: null,
    plant: null,
    rug: null,
    decoration: null,
  }),
  /** Cells along x and y when placed with dir 0 or 2 (swapped for dir 1 and 3). */
  width: PosInt,
  depth: PosInt,
  price: PosInt,
  /** A lower price inside a period. */
  bargain: t.union([t.type({ price: PosInt, period: Period }), t.null]),
  /** Only sold in the shop inside this period (null: always). */
  shopPeriod: t.union([Period, t.null]),
  salePrice: NonNegInt,
});
export type RoomObject = t.TypeOf<typeof RoomObject>;

export const Floor = t.type({ floorId: PosInt, name: Name, width: PosInt, height: PosInt, unlockLevel: PosInt });
export type Floor = t.TypeOf<typeof Floor>;

export const TownConfig = t.type({
  buildPoints: t.array(t.type({ buildPointId: PosInt, x: NonNegInt, y: NonNegInt })),
  /** Lots where a content building stands, each with numbered slots for facilities nearby. */
  contentLots: t.array(t.type({ lotId: PosInt, nearbySlots: PosInt })),
  floors: t.array(Floor),
  /** Where a field-party character may spend an hour, with integer weights (an ordered table). */
  fieldSpots: t.array(t.type({ spotId: PosInt, name: Name, weight: PosInt })),
  /** How many items (of one kind) a buy_set or sale names at most. */
  maxPerRequest: PosInt,
});
export type TownConfig = t.TypeOf<typeof TownConfig>;

export const ContentRoom = t.type({ contentRoomId: PosInt, titleId: PosInt, name: Name, capacity: PosInt });
export type ContentRoom = t.TypeOf<typeof ContentRoom>;

export const townFiles = {
  facilities: t.array(Facility),
  roomObjects: t.array(RoomObject),
  town: TownConfig,
  contentRooms: t.array(ContentRoom),
};

/** A room object with its periods parsed to instants. */
export interface RoomObjectTimes {
  readonly bargain: { readonly price: number; readonly startsAt: number; readonly endsAt: number | null } | null;
  readonly shop: { readonly startsAt: number; readonly endsAt: number | null } | null;
}

/**
 * Indexes and cross-checks of this group's files, built once at start-up. Push a
 * problem (file, field, message) for anything that does not fit; the result is
 * merged into Master.
 */
export const indexTown = (f: FilesOf<typeof baseFiles & typeof townFiles>, problems: MasterProblem[]) => {
  const itemIds = new Set(f.items.map((i) => i.itemId));
  const offset = f.game.timezoneOffsetMinutes;
  f.facilities.forEach((fa, i) => {
    const at = (field: string, message: string) =>
      problems.push({ file: 'facilities.json', field: `${i}.${field}`, message });
    if (fa.levels.length === 0) at('levels', 'needs at least level 1');
    fa.levels.forEach((l, j) => {
      if (l.level !== j + 1) at(`levels.${j}.level`, `levels must run 1, 2, 3…; expected ${j + 1}`);
      const last = j === fa.levels.length - 1;
      if (last && l.levelUp !== null) at(`levels.${j}.levelUp`, 'the maximum level has no level-up');
      if (!last && l.levelUp === null) at(`levels.${j}.levelUp`, 'every level below the maximum needs a level-up');
      l.levelUp?.items.forEach((it, k) => {
        if (!itemIds.has(it.itemId)) at(`levels.${j}.levelUp.items.${k}.itemId`, `unknown item ${it.itemId}`);
      });
      const p = l.production;
      if (fa.category === 'decoration' && p !== null) at(`levels.${j}.production`, 'a decoration produces nothing');
      if (fa.category !== 'decoration' && p === null)
        at(`levels.${j}.production`, 'a producing facility needs production at every level');
      if (p && fa.category === 'gold' && p.itemId !== null)
        at(`levels.${j}.production.itemId`, 'a coin facility produces coins (itemId null)');
      if (p && fa.category === 'material' && (p.itemId === null || !itemIds.has(p.itemId)))
        at(`levels.${j}.production.itemId`, `unknown item ${p.itemId}`);
      const first = fa.levels[0]?.production;
      if (p && first && p.itemId !== first.itemId)
        at(`levels.${j}.production.itemId`, 'a facility produces the same thing at every level');
    });
  });

  const floor = new Map<number, Floor>();
  f.town.floors.forEach((fl, i) => {
    if (floor.has(fl.floorId))
      problems.push({ file: 'town.json', field: `floors.${i}.floorId`, message: `duplicate id ${fl.floorId}` });
    floor.set(fl.floorId, fl);
  });
  const maxSide = Math.min(...f.town.floors.flatMap((fl) => [fl.width, fl.height]));
  const roomObjectTimes = new Map<number, RoomObjectTimes>();
  f.roomObjects.forEach((o, i) => {
    const at = (field: string, message: string) =>
      problems.push({ file: 'roomObjects.json', field: `${i}.${field}`, message });
    if (o.width > maxSide || o.depth > maxSide) at('width', 'does not fit on every floor');
    const period = (p: { start: string; end: string | null }, field: string) => {
      const startsAt = parseTime(p.start, offset);
      const endsAt = p.end === null ? null : parseTime(p.end, offset);
      if (startsAt === undefined) at(`${field}.start`, 'not a valid time');
      if (endsAt === undefined) at(`${field}.end`, 'not a valid time');
      return { startsAt: startsAt ?? 0, endsAt: endsAt ?? null };
    };
    if (o.bargain && o.bargain.price >= o.price) at('bargain.price', 'a bargain is cheaper than the price');
    if (o.salePrice > (o.bargain?.price ?? o.price)) at('salePrice', 'sells for more than it costs');
    roomObjectTimes.set(o.roomObjectId, {
      bargain: o.bargain ? { price: o.bargain.price, ...period(o.bargain.period, 'bargain.period') } : null,
      shop: o.shopPeriod ? period(o.shopPeriod, 'shopPeriod') : null,
    });
  });

  const buildPointIds = new Set<number>();
  f.town.buildPoints.forEach((b, i) => {
    if (buildPointIds.has(b.buildPointId))
      problems.push({
        file: 'town.json',
        field: `buildPoints.${i}.buildPointId`,
        message: `duplicate id ${b.buildPointId}`,
      });
    buildPointIds.add(b.buildPointId);
  });
  const contentLot = new Map<number, number>();
  f.town.contentLots.forEach((l, i) => {
    if (contentLot.has(l.lotId))
      problems.push({ file: 'town.json', field: `contentLots.${i}.lotId`, message: `duplicate id ${l.lotId}` });
    contentLot.set(l.lotId, l.nearbySlots);
  });
  if (f.town.fieldSpots.length === 0)
    problems.push({ file: 'town.json', field: 'fieldSpots', message: 'needs at least one spot' });

  const titleIds = new Set(f.titles.map((x) => x.titleId));
  const contentRoom = new Map<number, ContentRoom>();
  const contentRoomByTitle = new Map<number, ContentRoom>();
  f.contentRooms.forEach((c, i) => {
    const at = (field: string, message: string) =>
      problems.push({ file: 'contentRooms.json', field: `${i}.${field}`, message });
    if (contentRoom.has(c.contentRoomId)) at('contentRoomId', `duplicate id ${c.contentRoomId}`);
    if (!titleIds.has(c.titleId)) at('titleId', `unknown title ${c.titleId}`);
    if (contentRoomByTitle.has(c.titleId)) at('titleId', `title ${c.titleId} already has a content room`);
    contentRoom.set(c.contentRoomId, c);
    contentRoomByTitle.set(c.titleId, c);
  });
  for (const id of titleIds)
    if (!contentRoomByTitle.has(id))
      problems.push({ file: 'contentRooms.json', field: '(file)', message: `title ${id} has no content room` });

  return { floor, roomObjectTimes, buildPointIds, contentLot, contentRoom, contentRoomByTitle };
};
