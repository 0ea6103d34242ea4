// Wire views of the town group: the facility view (settled as of now), the rooms,
// the town layout and the content rooms; each collection appears in get_all and,
// when an operation changes it, in that operation's response. Only a type is
// imported from view.ts, so view.ts can import this module without a cycle.
import type { Master } from '../master/index.js';
import type { OwnedFacility, PlayerState } from '../state.js';
import type { CollectionView, ViewCtx } from '../view.js';
import { formatTime } from '../time.js';
import { appearedRooms, productionOf, roomState, settleFacility } from '../shared/town.js';

const time = (ctx: ViewCtx, ms: number): string => formatTime(ms, ctx.master.game.timezoneOffsetMinutes);

/** An owned facility as of now: a passed level-up is shown done and production is counted up to now. */
export const facilityView = (f: OwnedFacility, ctx: ViewCtx) => {
  const s = settleFacility(ctx.master, f, ctx.now);
  const p = productionOf(ctx.master, s);
  return {
    managedTownFacilityId: s.managedTownFacilityId, facilityId: s.facilityId, level: s.level, covered: s.covered,
    levelUpStartedAt: s.levelUp ? time(ctx, s.levelUp.startedAt) : null,
    levelUpCompletesAt: s.levelUp ? time(ctx, s.levelUp.completesAt) : null,
    // itemNo 0 is coins, as a grant's objectId is 0 for a currency.
    production: p ? { itemNo: p.itemId ?? 0, perHour: p.perHour, cap: p.cap, stock: s.stock } : null,
    accruedAt: time(ctx, s.accruedAt),
    createdAt: time(ctx, s.createdAt),
  };
};

/** Every floor with its placements; managed ids only for the owner. */
export const roomsView = (m: Master, s: PlayerState, own: boolean, floorId?: number) =>
  m.town.floors.filter((f) => floorId === undefined || f.floorId === floorId).map((f) => ({
    floorId: f.floorId, name: f.name, width: f.width, height: f.height, unlocked: s.level >= f.unlockLevel,
    placements: (s.rooms.find((r) => r.floorId === f.floorId)?.placements ?? []).map((p) => {
      const roomObjectId = s.roomObjects.find((o) => o.managedRoomObjectId === p.managedRoomObjectId)?.roomObjectId ?? 0;
      return own ? { managedRoomObjectId: p.managedRoomObjectId, roomObjectId, x: p.x, y: p.y, dir: p.dir } : { roomObjectId, x: p.x, y: p.y, dir: p.dir };
    }),
  }));

export const contentRoomsView = (m: Master, s: PlayerState) => appearedRooms(m, s).map((r) => {
  const st = roomState(s, r.contentRoomId);
  return { contentRoomId: r.contentRoomId, titleId: r.titleId, name: r.name, capacity: r.capacity, isNew: !st.shown, managedCharacterIds: st.managedCharacterIds };
});

export const townCollections: ReadonlyArray<CollectionView> = [
  {
    wire: 'rooms',
    changed: (a, b) => a.rooms !== b.rooms || a.roomObjects !== b.roomObjects || a.level !== b.level,
    view: (s, ctx) => roomsView(ctx.master, s, true),
  },
  {
    wire: 'town',
    changed: (a, b) => a.townLayout !== b.townLayout,
    view: (s) => s.townLayout,
  },
  {
    wire: 'contentRooms',
    // A new title among the characters makes a room appear.
    changed: (a, b) => a.contentRooms !== b.contentRooms || (a.characters !== b.characters && a.characters.length !== b.characters.length),
    view: (s, ctx) => contentRoomsView(ctx.master, s),
  },
];
