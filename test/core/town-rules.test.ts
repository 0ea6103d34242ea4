// Town rules at their edges (docs/rules/town.md): what a facility produces while
// covered, levelling, full or settled to no time at all; what a sale takes out of the
// town and what it leaves; content rooms and the field party's order; room
// placements touching at each side and turned by half; and what each refusal names.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, grantCharacters } from '../_support/core.js';
import { HOUR, MINUTE } from '../../core/time.js';
import { tryGrant } from '../../core/shared/grant.js';
import { operationNamed } from '../../core/operations/table.js';
import { accrue, checkFloor, checkFloorOpen, gemPriceLeft } from '../../core/shared/town.js';
import type { OwnedFacility, PlayerState } from '../../core/state.js';
import type { GameError } from '../../core/errors.js';

const m = master();
const MINT = 1; // coins: 600/h, cap 2400 at level 1; level-up 1 h, 50 gems
const BAKERY = 2; // item 20001: 6/h (one every 10 minutes), cap 24 at level 1
const BED = 1; // room object 2 wide × 3 deep
const TABLE = 2; // room object 2 × 2
const LAMP = 3; // room object 1 × 1
// Title 1: characters 1011-1015 (content room 101); title 2: 1021-1024 (room 102).
const ROOM1 = 101;
const ROOM2 = 102;

const rich = (playerId = 1): PlayerState => withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
const fac = (s: PlayerState, id: number): OwnedFacility | undefined => s.facilities.find((f) => f.managedTownFacilityId === id);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');

/** Bought facilities (covered), all at `now`. */
const bought = (t: ExecutionContext, facilityId: number, amount: number, s: PlayerState = rich(), now = NOW): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] }, { now });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};
/** Bought and opened facilities, their production starting at `now`. */
const opened = (t: ExecutionContext, facilityId: number, amount = 1, s: PlayerState = rich(), now = NOW): { s: PlayerState; ids: number[] } => {
  const b = bought(t, facilityId, amount, s, now);
  let cur = b.s;
  for (const id of b.ids) cur = ok(t, 'openUpPlayerTownFacility', cur, { managedTownFacilityId: id }, { now }).state;
  return { s: cur, ids: b.ids };
};
const facilityViewAt = (t: ExecutionContext, s: PlayerState, id: number, now: number) =>
  ok(t, 'getAllPlayer', s, {}, { now }).response.managedTownFacilities.find((f) => f.managedTownFacilityId === id);

const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
const mid = (s: PlayerState, characterId: number): number => s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;
/** A player owning characters of titles 1 and 2 (so content rooms 101 and 102 have appeared). */
const townsfolk = (playerId = 1): PlayerState => withCharacters(rich(playerId), [1011, 1012, 1021]);

// ---- production ----

test('a covered facility produces nothing however long it waits: its view holds 0, settled at the purchase', (t) => {
  const b = bought(t, MINT, 1);
  const view = facilityViewAt(t, b.s, b.ids[0]!, NOW + 10 * HOUR);
  t.like(view, { covered: true, accruedAt: '2026-11-21T12:00:00' });
  t.deepEqual(view?.production, { itemNo: 0, perHour: 600, cap: 2400, stock: 0 });
});

test('production pauses while a facility levels: the hours of a level-up add nothing, even when gems finish it', (t) => {
  const o = opened(t, MINT);
  const id = o.ids[0]!;
  // One hour at level 1 (600 coins), then a one-hour level-up from NOW + 1 h.
  const levelling = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: id }, { now: NOW + HOUR }).state;
  const during = facilityViewAt(t, levelling, id, NOW + 90 * MINUTE);
  t.is(during?.production?.stock, 600, 'half-way through the level-up, still what was held at its start');
  t.is(during?.levelUpCompletesAt, '2026-11-21T14:00:00');
  const done = ok(t, 'gemLevelUpPlayerTownFacility', levelling, { managedTownFacilityId: id }, { now: NOW + 90 * MINUTE }).state;
  t.is(fac(done, id)?.stock, 600);
  t.is(ok(t, 'itemUpPlayerTownFacility', done, { managedTownFacilityId: id, itemNo: 0, amount: 6000 }, { now: NOW + 90 * MINUTE }).response.amount, 600);
});

test('settling a facility up to the moment it was last settled, or to an earlier one, changes nothing', (t) => {
  const o = opened(t, BAKERY);
  // 15 minutes: one loaf and half of the next in hand.
  const f = accrue(m, fac(o.s, o.ids[0]!)!, NOW + 15 * MINUTE);
  t.like(f, { stock: 1, carry: HOUR / 2, accruedAt: NOW + 15 * MINUTE });
  t.is(accrue(m, f, f.accruedAt), f, 'no time: the very same facility');
  t.is(accrue(m, f, f.accruedAt - HOUR), f, 'a moment before the last settlement takes nothing back');
});

test('a store that fills up mid-unit keeps nothing of the time after it was full', (t) => {
  const o = opened(t, BAKERY);
  const id = o.ids[0]!;
  const collect = (s: PlayerState, now: number) => ok(t, 'itemUpPlayerTownFacility', s, { managedTownFacilityId: id, itemNo: 20001, amount: 24 }, { now });
  // Full (24) after 4 hours; 5 minutes later half a loaf would have been made, but a full store stops.
  const first = collect(o.s, NOW + 4 * HOUR + 5 * MINUTE);
  t.is(first.response.amount, 24);
  t.is(fac(first.state, id)?.carry, 0);
  t.is(collect(first.state, NOW + 4 * HOUR + 10 * MINUTE).response.amount, 0, 'five minutes after the collection: half a loaf');
  t.is(collect(first.state, NOW + 4 * HOUR + 15 * MINUTE).response.amount, 1, 'ten minutes after it: one');
});

test('a store holding more than its cap (master data lowered it) keeps what it holds and produces nothing more', (t) => {
  const o = opened(t, BAKERY);
  const over: OwnedFacility = { ...fac(o.s, o.ids[0]!)!, stock: 30, carry: 0 };
  t.like(accrue(m, over, NOW + 5 * HOUR), { stock: 30, carry: 0, accruedAt: NOW + 5 * HOUR });
});

test('a level-up that takes no time costs no gems to finish', (t) => {
  t.is(gemPriceLeft(50, { startedAt: NOW, completesAt: NOW }, NOW), 0);
  t.is(gemPriceLeft(50, { startedAt: NOW, completesAt: NOW + HOUR }, NOW + HOUR), 0, 'nothing left of a one-hour level-up');
  t.is(gemPriceLeft(50, { startedAt: NOW, completesAt: NOW + HOUR }, NOW + HOUR - 1), 1, 'a millisecond left still costs a gem');
});

test('an operation on one facility leaves the player\'s other facilities as they were', (t) => {
  const o = opened(t, MINT, 2);
  const [a, b] = o.ids as [number, number];
  const levelled = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: a }, { now: NOW + HOUR }).state;
  t.is(fac(levelled, a)?.level, 2);
  t.deepEqual(fac(levelled, b), fac(o.s, b));
  t.deepEqual(levelled.facilities.map((f) => f.managedTownFacilityId), [a, b]);
  t.is(ok(t, 'itemUpPlayerTownFacility', levelled, { managedTownFacilityId: b, itemNo: 0, amount: 6000 }, { now: NOW + HOUR }).response.amount, 600);
});

test('an unknown facility is 107 naming the town facility', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'openUpPlayerTownFacility', rich(), { managedTownFacilityId: 9999 }), { entity: 'town facility', id: 9999 });
});

// ---- a sale and the town ----

/** Three mints: a on build point 1, b on build point 2, c and d near content room 101 (lot 1, slots 1 and 2), e nowhere. */
const placedTown = (t: ExecutionContext) => {
  const f = bought(t, MINT, 5, townsfolk());
  const [a, b, c, d, e] = f.ids as [number, number, number, number, number];
  const s = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 1, managedTownFacilityId: c }, { slot: 2, managedTownFacilityId: d }] }],
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }, { buildPointId: 2, managedTownFacilityId: b }],
  }).state;
  return { s, a, b, c, d, e };
};

test('a sold facility leaves its build point; the other build points and content buildings keep theirs', (t) => {
  const { s, a, b, c, d } = placedTown(t);
  const r = ok(t, 'salePlayerTownFacility', s, { managedTownFacilityId: a });
  t.deepEqual(r.state.townLayout.buildPoints, [{ buildPointId: 2, managedTownFacilityId: b }]);
  t.deepEqual(r.state.townLayout.contentBuildings, [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 1, managedTownFacilityId: c }, { slot: 2, managedTownFacilityId: d }] }]);
  t.deepEqual(r.response.town, r.state.townLayout, 'the changed town comes with the answer');
});

test('a sold facility leaves its content building\'s slot; the building\'s other facilities and the build points stay', (t) => {
  const { s, a, b, c, d } = placedTown(t);
  const r = ok(t, 'salePlayerTownFacility', s, { managedTownFacilityId: c });
  t.deepEqual(r.state.townLayout.contentBuildings, [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 2, managedTownFacilityId: d }] }]);
  t.deepEqual(r.state.townLayout.buildPoints, [{ buildPointId: 1, managedTownFacilityId: a }, { buildPointId: 2, managedTownFacilityId: b }]);
  t.deepEqual(r.response.town, r.state.townLayout, 'the changed town comes with the answer');
});

test('selling a facility placed nowhere leaves the town as it is, and the answer does not send it', (t) => {
  const { s, e } = placedTown(t);
  const r = ok(t, 'salePlayerTownFacility', s, { managedTownFacilityId: e });
  t.is(fac(r.state, e), undefined);
  t.is(r.state.townLayout, s.townLayout);
  t.false('town' in r.response);
});

// ---- content rooms and the field party ----

test('the field party lists the residents room by room in room id order, whatever order the rooms were filled in', (t) => {
  const s0 = townsfolk();
  const a = ok(t, 'setAllPlayerContentRoomMember', s0, { contentRoomId: ROOM2, managedCharacterIds: [mid(s0, 1021)] }).state;
  const b = ok(t, 'setAllPlayerContentRoomMember', a, { contentRoomId: ROOM1, managedCharacterIds: [mid(s0, 1012), mid(s0, 1011)] }).state;
  const list = ok(t, 'getAllPlayerFieldPartyMember', b, {}).response.fieldPartyMembers;
  t.deepEqual(list.map((x) => [x.contentRoomId, x.characterId]), [[ROOM1, 1012], [ROOM1, 1011], [ROOM2, 1021]]);
  t.deepEqual(b.contentRooms.map((r) => r.contentRoomId), [ROOM1, ROOM2], 'stored by room id');
});

test('a room emptied before it was ever shown is not kept; one that was shown is kept, still shown', (t) => {
  const s0 = townsfolk();
  const lived = ok(t, 'setAllPlayerContentRoomMember', s0, { contentRoomId: ROOM1, managedCharacterIds: [mid(s0, 1011)] }).state;
  t.deepEqual(lived.contentRooms, [{ contentRoomId: ROOM1, shown: false, managedCharacterIds: [mid(s0, 1011)] }]);
  const emptied = ok(t, 'setAllPlayerContentRoomMember', lived, { contentRoomId: ROOM1, managedCharacterIds: [] }).state;
  t.deepEqual(emptied.contentRooms, [], 'nothing to remember: not shown, nobody living there');
  t.true(ok(t, 'getAllPlayerContentRoomMember', emptied, { contentRoomId: ROOM1 }).response.isNew);
  const shown = ok(t, 'setShownPlayerContentRoom', lived, { contentRoomId: ROOM1 }).state;
  const shownEmptied = ok(t, 'setAllPlayerContentRoomMember', shown, { contentRoomId: ROOM1, managedCharacterIds: [] }).state;
  t.deepEqual(shownEmptied.contentRooms, [{ contentRoomId: ROOM1, shown: true, managedCharacterIds: [] }]);
  t.false(ok(t, 'getAllPlayerContentRoomMember', shownEmptied, { contentRoomId: ROOM1 }).response.isNew);
});

test('a content room not appeared yet is 107 naming the content room', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'setShownPlayerContentRoom', townsfolk(), { contentRoomId: 103 }), { entity: 'content room', id: 103 });
});

// ---- room placements ----

const buyObjects = (t: ExecutionContext, s: PlayerState, roomObjectId: number, amount: number, extra: Record<string, unknown> = {}) => {
  const r = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId, amount, ...extra });
  return { s: r.state, ids: r.response.managedRoomObjectIds };
};
const placement = (managedRoomObjectId: number, x: number, y: number, dir = 0) => ({ managedRoomObjectId, x, y, dir });

test('objects touching another on any side (or at a corner) do not overlap it, whichever was placed first', (t) => {
  const b = buyObjects(t, rich(), TABLE, 5);
  const [a, left, above, below, right] = b.ids as [number, number, number, number, number];
  // a covers cells x 4-5, y 4-5; the others end where it begins or begin where it ends.
  const around = [placement(left, 2, 4), placement(above, 4, 2), placement(below, 4, 6), placement(right, 6, 4)];
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(a, 4, 4), ...around] });
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [...around, placement(a, 4, 4)] });
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(a, 4, 4), placement(left, 2, 2), placement(right, 6, 6)] });
  // One cell further in is an overlap, on each side.
  for (const [x, y] of [[3, 4], [4, 3], [4, 5], [5, 4]] as const) {
    fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(a, 4, 4), placement(left, x, y)] });
  }
});

test('a half turn (dir 2) keeps width along x and depth along y; a quarter or three quarters swap them', (t) => {
  const b = buyObjects(t, rich(), BED, 1);
  const bed = b.ids[0]!;
  // The 2 × 3 bed at (10, 9) fills the 12 × 12 room to its last column and row.
  for (const dir of [0, 2]) ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(bed, 10, 9, dir)] });
  for (const dir of [1, 3]) fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(bed, 10, 9, dir)] });
  for (const dir of [1, 3]) ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(bed, 9, 10, dir)] });
});

test('clearing a floor stores no empty floor; the other floor keeps its objects', (t) => {
  const b = buyObjects(t, { ...rich(), level: 10 }, LAMP, 2);
  const [x, y] = b.ids as [number, number];
  const loft = ok(t, 'setPlayerRoom', b.s, { floorId: 2, placements: [placement(x, 0, 0)] }).state;
  const both = ok(t, 'setPlayerRoom', loft, { floorId: 1, placements: [placement(y, 0, 0)] }).state;
  const cleared = ok(t, 'setPlayerRoom', both, { floorId: 1, placements: [] }).state;
  t.deepEqual(cleared.rooms, [{ floorId: 2, placements: [placement(x, 0, 0)] }]);
  t.deepEqual(ok(t, 'setPlayerRoom', cleared, { floorId: 2, placements: [] }).state.rooms, []);
});

test('room/set may move objects already on the same floor', (t) => {
  const b = buyObjects(t, rich(), LAMP, 2, { floorId: 1, placements: [{ x: 0, y: 0, dir: 0 }, { x: 1, y: 0, dir: 0 }] });
  const [x, y] = b.ids as [number, number];
  const r = ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(x, 5, 5), placement(y, 0, 0)] });
  t.deepEqual(r.state.rooms, [{ floorId: 1, placements: [placement(x, 5, 5), placement(y, 0, 0)] }]);
});

test('placing on one floor leaves the other floor as it is; the floors are stored in floor order', (t) => {
  const b = buyObjects(t, { ...rich(), level: 10 }, LAMP, 3);
  const [x, y, z] = b.ids as [number, number, number];
  const loft = ok(t, 'setPlayerRoom', b.s, { floorId: 2, placements: [placement(x, 0, 0)] }).state;
  const both = ok(t, 'setPlayerRoom', loft, { floorId: 1, placements: [placement(y, 3, 3)] }).state;
  t.deepEqual(both.rooms, [{ floorId: 1, placements: [placement(y, 3, 3)] }, { floorId: 2, placements: [placement(x, 0, 0)] }]);
  // Buying onto the loft adds to the loft's objects only, whatever the main room holds.
  const more = ok(t, 'buySetPlayerRoomObject', both, { roomObjectId: LAMP, amount: 1, floorId: 2, placements: [{ x: 1, y: 0, dir: 0 }] });
  const fresh = more.response.managedRoomObjectIds[0]!;
  t.deepEqual(more.state.rooms, [{ floorId: 1, placements: [placement(y, 3, 3)] }, { floorId: 2, placements: [placement(x, 0, 0), placement(fresh, 1, 0)] }]);
  // Setting the main room again changes it alone.
  const again = ok(t, 'setPlayerRoom', more.state, { floorId: 1, placements: [placement(z, 7, 7)] }).state;
  t.deepEqual(again.rooms.map((r) => [r.floorId, r.placements.map((p) => p.managedRoomObjectId)]), [[1, [z]], [2, [x, fresh]]]);
});

test('a refused placement says which object and why', (t) => {
  const b = buyObjects(t, { ...rich(), level: 10 }, TABLE, 3);
  const [x, y, z] = b.ids as [number, number, number];
  const loft = ok(t, 'setPlayerRoom', b.s, { floorId: 2, placements: [placement(z, 0, 0)] }).state;
  const refused = (placements: unknown[]) => reasonOf(fails(t, 'ROOM_LIMIT', 'setPlayerRoom', loft, { floorId: 1, placements }));
  t.is(refused([placement(x, 0, 0), placement(x, 4, 4)]), `room object ${x} is placed twice`);
  t.is(refused([placement(z, 0, 0)]), `room object ${z} is already placed on floor 2`);
  t.is(refused([placement(x, 11, 0)]), `room object ${x} at (11, 0) does not fit in the 12×12 grid`);
  t.is(refused([placement(x, 0, 0), placement(y, 1, 1)]), `room object ${y} overlaps room object ${x}`);
  t.like(fails(t, 'NOT_FOUND', 'setPlayerRoom', loft, { floorId: 1, placements: [placement(9999, 0, 0)] }), { entity: 'room object', id: 9999 });
  t.is(reasonOf(fails(t, 'STATE_CONFLICT', 'setPlayerRoom', rich(), { floorId: 2, placements: [] })), 'floor 2 opens at player level 10');
});

test('an owned object whose kind is no longer in master data cannot be placed: 107 naming the kind', (t) => {
  const s = rich();
  const odd: PlayerState = { ...s, roomObjects: [...s.roomObjects, { managedRoomObjectId: 777, roomObjectId: 424242, createdAt: NOW }] };
  t.like(fails(t, 'NOT_FOUND', 'setPlayerRoom', odd, { floorId: 1, placements: [placement(777, 0, 0)] }), { entity: 'room object', id: 424242 });
});

test('a floor master data does not have is 107 naming the floor, for placements and for the unlock check', (t) => {
  const s = rich();
  const placed = checkFloor(m, s, 3, []);
  t.like(placed._tag === 'Left' ? placed.left : undefined, { code: 'NOT_FOUND', entity: 'floor', id: 3 });
  const open = checkFloorOpen(m, s, 3);
  t.like(open._tag === 'Left' ? open.left : undefined, { code: 'NOT_FOUND', entity: 'floor', id: 3 });
  t.deepEqual(checkFloorOpen(m, s, 1), { _tag: 'Right', right: true });
});

// ---- the town layout's refusals ----

test('town/set refusals name the entity, or the field at fault and why', (t) => {
  const f = bought(t, MINT, 2, townsfolk());
  const [a, b] = f.ids as [number, number];
  const slots = m.contentLot.get(1)!;
  const cb = (lotId: number, contentRoomId: number, facilities: Array<{ slot: number; managedTownFacilityId: number }> = []) => ({ lotId, contentRoomId, facilities });
  const invalid = (req: unknown, name: 'setPlayerTown' | 'setAllPlayerTownFacilityBuildPoint' = 'setPlayerTown') => {
    const e = fails(t, 'INVALID_PARAMETERS', name, f.s, req);
    return [fieldOf(e), reasonOf(e)];
  };
  const notFound = (req: unknown) => fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, req);

  t.like(notFound({ contentBuildings: [], buildPoints: [{ buildPointId: 1, managedTownFacilityId: 9999 }] }), { entity: 'town facility', id: 9999 });
  t.like(notFound({ contentBuildings: [], buildPoints: [{ buildPointId: 999, managedTownFacilityId: a }] }), { entity: 'build point', id: 999 });
  t.like(notFound({ contentBuildings: [cb(99, ROOM1)] }), { entity: 'content lot', id: 99 });
  t.like(notFound({ contentBuildings: [cb(1, 103)] }), { entity: 'content room', id: 103 });

  t.deepEqual(invalid({ buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }, { buildPointId: 1, managedTownFacilityId: b }] }, 'setAllPlayerTownFacilityBuildPoint'),
    ['buildPoints.1.buildPointId', 'build point 1 is used twice']);
  t.deepEqual(invalid({ buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }, { buildPointId: 2, managedTownFacilityId: a }] }, 'setAllPlayerTownFacilityBuildPoint'),
    ['buildPoints.1.managedTownFacilityId', `town facility ${a} is placed twice`]);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1), cb(1, ROOM2)] }), ['contentBuildings.1.lotId', 'lot 1 is used twice']);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1), cb(2, ROOM1)] }), ['contentBuildings.1.contentRoomId', `content room ${ROOM1} is placed twice`]);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1, [{ slot: slots + 1, managedTownFacilityId: a }])] }),
    ['contentBuildings.0.facilities.0.slot', `lot 1 has slots 1 to ${slots}`]);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }, { slot: 1, managedTownFacilityId: b }])] }),
    ['contentBuildings.0.facilities.1.slot', 'slot 1 is used twice']);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }]), cb(2, ROOM2, [{ slot: 1, managedTownFacilityId: a }])] }),
    ['contentBuildings.1.facilities.0.managedTownFacilityId', `town facility ${a} is placed twice`]);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }])], buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }] }),
    ['contentBuildings.0.facilities.0.managedTownFacilityId', `town facility ${a} is placed twice`]);
});

// ---- storage slots ----

test('each storage at its cap refuses more slots with its own error: 295 for facilities, 298 for room objects', (t) => {
  const s = rich();
  const fl = m.game.limits.facilities;
  const rl = m.game.limits.roomObjects;
  const full = { ...s, limitAdds: { ...s.limitAdds, facility: (fl.cap - fl.base) / fl.step, roomObject: (rl.cap - rl.base) / rl.step } };
  t.like(fails(t, 'FACILITY_EXT_LIMIT', 'addPlayerTownFacilityLimit', full, {}), { max: fl.cap });
  t.like(fails(t, 'ROOM_OBJECT_EXT_LIMIT', 'addPlayerRoomObjectLimit', full, {}), { max: rl.cap });
});

// ---- reads of a player given by id ----

test('reading one\'s own id shows one\'s own town, residents and rooms with managed ids, even with oneself loaded as the other player', (t) => {
  const { s, a, c } = placedTown(t);
  const housed = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [mid(s, 1011)] }).state;
  const withLamp = buyObjects(t, housed, LAMP, 1, { placements: [{ x: 0, y: 0, dir: 0 }] });
  const me = withLamp.s;
  const opts = { others: [me] };
  const town = ok(t, 'getAllPlayerTown', me, { playerId: me.playerId }, opts).response.town;
  t.like(town.buildPoints[0], { buildPointId: 1, facility: { managedTownFacilityId: a } });
  t.like(town.contentBuildings[0]?.facilities[0], { slot: 1, facility: { managedTownFacilityId: c } });
  t.deepEqual(town.contentBuildings[0]?.residents, [{ managedCharacterId: mid(me, 1011), characterId: 1011 }]);
  const party = ok(t, 'getAllPlayerFieldPartyMember', me, { playerId: me.playerId }, opts).response.fieldPartyMembers;
  t.like(party[0], { managedCharacterId: mid(me, 1011), characterId: 1011 });
  const rooms = ok(t, 'getAllPlayerRoom', me, { playerId: me.playerId, floorId: 1 }, opts).response.rooms;
  t.like(rooms[0]?.placements[0], { managedRoomObjectId: withLamp.ids[0] });
});

test('a read with playerId loads that player; without it, nobody else', (t) => {
  for (const name of ['getAllPlayerTown', 'getAllPlayerFieldPartyMember', 'getAllPlayerRoom'] as const) {
    const touches = operationNamed(name).touches;
    if (!touches) return t.fail(`${name} declares the players it reads`);
    t.deepEqual(touches({ playerId: 42 }), [{ by: 'playerId', playerId: 42 }], name);
    t.deepEqual(touches({}), [], name);
  }
});
