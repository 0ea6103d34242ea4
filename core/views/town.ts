// Wire views of the town group: the facility view (settled as of now), the rooms,
// the town layout and the content rooms; each collection appears in get_all and,
// when an operation changes it, in that operation's response. Only a type is
// imported from view.ts, so view.ts can import this module without a cycle.
import type { Master } from '../master/index.js';
import type { OwnedCharacter, OwnedFacility, PlayerState } from '../state.js';
import type { ContentRoom } from '../master/town.js';
import type { ViewCtx } from './context.js';
import { collection, type CollectionView, type FloorView, type PublicFloorView } from './codecs.js';
import { formatTime } from '../time.js';
import { identityMemo, shared } from './never-mutated.js';
import { appearedRooms, productionOf, roomsOfTitles, roomState, settleFacility } from '../shared/town.js';

const time = (ctx: ViewCtx, ms: number): string => formatTime(ms, ctx.master.game.timezoneOffsetMinutes);

/** An owned facility as of now: a passed level-up is shown done and production is counted up to now. */
export const facilityView = (f: OwnedFacility, ctx: ViewCtx) => {
  const s = settleFacility(ctx.master, f, ctx.now);
  const p = productionOf(ctx.master, s);
  return {
    managedTownFacilityId: s.managedTownFacilityId,
    facilityId: s.facilityId,
    level: s.level,
    covered: s.covered,
    levelUpStartedAt: s.levelUp ? time(ctx, s.levelUp.startedAt) : null,
    levelUpCompletesAt: s.levelUp ? time(ctx, s.levelUp.completesAt) : null,
    // itemNo 0 is coins, as a grant's objectId is 0 for a currency.
    production: p ? { itemNo: p.itemId ?? 0, perHour: p.perHour, cap: p.cap, stock: s.stock } : null,
    accruedAt: time(ctx, s.accruedAt),
    createdAt: time(ctx, s.createdAt),
  };
};

/** Every floor (or the one named) with its placements, as its owner sees it. */
export const roomsView = (m: Master, s: PlayerState, floorId?: number): FloorView[] =>
  floorsOf(m, floorId).map((f) => ({
    ...floorHead(m, s, f),
    placements: placementsOf(s, f.floorId).map((p) => ({
      managedRoomObjectId: p.managedRoomObjectId,
      roomObjectId: roomObjectIdOf(s, p.managedRoomObjectId),
      x: p.x,
      y: p.y,
      dir: p.dir,
    })),
  }));

/** The same as another player sees it: no managed ids. */
export const publicRoomsView = (m: Master, s: PlayerState, floorId?: number): PublicFloorView[] =>
  floorsOf(m, floorId).map((f) => ({
    ...floorHead(m, s, f),
    placements: placementsOf(s, f.floorId).map((p) => ({
      roomObjectId: roomObjectIdOf(s, p.managedRoomObjectId),
      x: p.x,
      y: p.y,
      dir: p.dir,
    })),
  }));

type Floor = Master['town']['floors'][number];
const floorsOf = (m: Master, floorId?: number): ReadonlyArray<Floor> =>
  m.town.floors.filter((f) => floorId === undefined || f.floorId === floorId);
const floorHead = (_m: Master, s: PlayerState, f: Floor) => ({
  floorId: f.floorId,
  name: f.name,
  width: f.width,
  height: f.height,
  unlocked: s.level >= f.unlockLevel,
});
const placementsOf = (s: PlayerState, floorId: number) => s.rooms.find((r) => r.floorId === floorId)?.placements ?? [];
const roomObjectIdOf = (s: PlayerState, managedRoomObjectId: number): number =>
  s.roomObjects.find((o) => o.managedRoomObjectId === managedRoomObjectId)?.roomObjectId ?? 0;

const contentRoomsOf = (m: Master, s: PlayerState, appeared: ReadonlyArray<ContentRoom>) =>
  appeared.map((r) => {
    const st = roomState(s, r.contentRoomId);
    return {
      contentRoomId: r.contentRoomId,
      titleId: r.titleId,
      name: r.name,
      capacity: r.capacity,
      isNew: !st.shown,
      managedCharacterIds: st.managedCharacterIds,
    };
  });

/**
 * The appeared rooms of a character list, memoised by the list (per master data):
 * a draw's answer asks for the list before and after, to tell whether a room
 * appeared. A list that only added characters of titles already there, or changed
 * characters in place, shares the rooms of the list it replaced.
 */
interface Appeared {
  readonly rooms: ContentRoom[];
  readonly key: string;
  readonly titles: ReadonlySet<number>;
}
const appearedByList = identityMemo<ReadonlyArray<OwnedCharacter>, Appeared>();
/**
 * The titles with rooms of a list that only added characters to the one before or
 * changed some in place: the earlier ones plus the added ones' (the very set before
 * when none is new). Undefined when a character was removed or replaced (a title
 * may have gone).
 */
const grownTitles = (
  m: Master,
  prev: Appeared,
  was: ReadonlyArray<OwnedCharacter>,
  now: ReadonlyArray<OwnedCharacter>,
): ReadonlySet<number> | undefined => {
  if (now.length < was.length) return undefined;
  for (let i = 0; i < was.length; i++) {
    const y = was[i] as OwnedCharacter;
    const x = now[i] as OwnedCharacter;
    if (y !== x && y.characterId !== x.characterId) return undefined;
  }
  let titles = prev.titles;
  for (let i = was.length; i < now.length; i++) {
    const titleId = m.character.get((now[i] as OwnedCharacter).characterId)?.titleId;
    if (titleId === undefined || titles.has(titleId)) continue;
    const more = new Set(titles);
    more.add(titleId);
    titles = more;
  }
  return titles;
};

const appeared = (m: Master, s: PlayerState, before?: PlayerState): Appeared => {
  let a = appearedByList.get(m, s.characters);
  if (a) return a;
  const prev = before && appearedByList.get(m, before.characters);
  const titles = prev && before ? grownTitles(m, prev, before.characters, s.characters) : undefined;
  if (prev && titles === prev.titles) a = prev;
  else {
    const rooms = titles ? roomsOfTitles(m, titles) : appearedRooms(m, s);
    a = { rooms, key: rooms.map((r) => r.contentRoomId).join(','), titles: new Set(rooms.map((r) => r.titleId)) };
  }
  appearedByList.set(s.characters, a);
  return a;
};

/** Memoised by the room states and the appeared rooms (a shared view: its JSON is kept). */
const viewsByRooms = identityMemo<ReadonlyArray<unknown>, Map<string, ReturnType<typeof contentRoomsOf>>>();
export const contentRoomsView = (m: Master, s: PlayerState) => {
  const a = appeared(m, s);
  let byKey = viewsByRooms.get(m, s.contentRooms);
  if (!byKey) {
    byKey = new Map();
    viewsByRooms.set(s.contentRooms, byKey);
  }
  let v = byKey.get(a.key);
  if (!v) {
    v = shared(contentRoomsOf(m, s, a.rooms));
    byKey.set(a.key, v);
  }
  return v;
};

export const townCollections: ReadonlyArray<CollectionView> = [
  collection({
    wire: 'rooms',
    changed: (a, b) => a.rooms !== b.rooms || a.roomObjects !== b.roomObjects || a.level !== b.level,
    view: (s, ctx) => roomsView(ctx.master, s),
  }),
  collection({
    wire: 'town',
    changed: (a, b) => a.townLayout !== b.townLayout,
    view: (s) => s.townLayout,
  }),
  collection({
    wire: 'contentRooms',
    // A character of a new title makes a room appear.
    changed: (a, b, ctx) =>
      a.contentRooms !== b.contentRooms ||
      (a.characters !== b.characters && appeared(ctx.master, a).key !== appeared(ctx.master, b, a).key),
    view: (s, ctx) => contentRoomsView(ctx.master, s),
  }),
];
