// Room objects at their edges (docs/rules/town.md, "Rooms and room objects"): a
// bargain or shop period from its first instant up to (not including) its end,
// the per-request and storage limits at their boundary and which check refuses
// first, what each refusal names, purchases that place nothing, and sales that
// leave the other floor alone.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const LAMP = 3; // 1×1, 500 coins, sells for 125
const LANTERN = 9; // 800 coins; bargain 400 from 2026-11-01T00:00 to 2026-12-01T00:00 (game time, +09:00)
const SNOW_GLOBE = 11; // sold only from 2026-12-20T00:00 to 2027-01-10T00:00 (game time, +09:00)
const MAX = m.town.maxPerRequest; // 50

const rich = (): PlayerState => withWealth(freshPlayer(), { gold: 1_000_000, gem: 10_000 });
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const buy = (t: ExecutionContext, s: PlayerState, roomObjectId: number, amount = 1, extra: Record<string, unknown> = {}) => {
  const r = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId, amount, ...extra });
  return { s: r.state, ids: r.response.managedRoomObjectIds };
};
const floor = (s: PlayerState, floorId: number) => s.rooms.find((r) => r.floorId === floorId)?.placements ?? [];
/** A player whose room-object storage (base 100) is full of lamps. */
const fullStorage = (t: ExecutionContext): PlayerState => {
  let s = rich();
  for (let n = 0; n < m.game.limits.roomObjects.base; n += MAX) s = buy(t, s, LAMP, MAX).s;
  return s;
};

// ---- periods ----

test('the bargain price applies from the first instant of its period up to, not including, its end', (t) => {
  // Game time is UTC+9: 2026-11-01T00:00 there is 2026-10-31T15:00Z; 2026-12-01T00:00 is 2026-11-30T15:00Z.
  const start = Date.UTC(2026, 9, 31, 15);
  const end = Date.UTC(2026, 10, 30, 15);
  const price = (now: number) => ok(t, 'buySetPlayerRoomObject', rich(), { roomObjectId: LANTERN, amount: 1 }, { now }).response.unitPrice;
  t.is(price(start - 1), 800);
  t.is(price(start), 400);
  t.is(price(end - 1), 400);
  t.is(price(end), 800);
});

test('an object sold only in a period can be bought from its first instant up to, not including, its end (464 outside)', (t) => {
  // 2026-12-20T00:00+09:00 is 2026-12-19T15:00Z; 2027-01-10T00:00+09:00 is 2027-01-09T15:00Z.
  const start = Date.UTC(2026, 11, 19, 15);
  const end = Date.UTC(2027, 0, 9, 15);
  const req = { roomObjectId: SNOW_GLOBE, amount: 1 };
  t.like(fails(t, 'BUY_OUT_OF_PERIOD', 'buySetPlayerRoomObject', rich(), req, { now: start - 1 }), { id: SNOW_GLOBE });
  ok(t, 'buySetPlayerRoomObject', rich(), req, { now: start });
  ok(t, 'buySetPlayerRoomObject', rich(), req, { now: end - 1 });
  t.like(fails(t, 'BUY_OUT_OF_PERIOD', 'buySetPlayerRoomObject', rich(), req, { now: end }), { id: SNOW_GLOBE });
});

// ---- buy_set ----

test('buy_set refusals name the field at fault: an amount over the per-request limit (named), more placements than objects', (t) => {
  const over = fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', rich(), { roomObjectId: LAMP, amount: MAX + 1 });
  t.is(fieldOf(over), 'amount');
  t.regex(reasonOf(over), new RegExp(`\\b${MAX}\\b`));
  const placements = fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', rich(), { roomObjectId: LAMP, amount: 1, placements: [{ x: 0, y: 0, dir: 0 }, { x: 1, y: 0, dir: 0 }] });
  t.is(fieldOf(placements), 'placements');
  t.regex(reasonOf(placements), /more placements than/);
});

test('an unknown room object is 107 naming it, even when the storage is full', (t) => {
  const s = fullStorage(t);
  t.like(fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', s, { roomObjectId: 999, amount: 1 }), { entity: 'room object', id: 999 });
  t.like(fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', rich(), { roomObjectId: 999, amount: 1 }), { entity: 'room object', id: 999 });
});

test('buying past the room-object storage is 303 with the limit, before anything is paid: a short purse too gets 303', (t) => {
  const s = fullStorage(t);
  const base = m.game.limits.roomObjects.base;
  t.like(fails(t, 'ROOM_OBJECT_LIMIT', 'buySetPlayerRoomObject', withWealth(s, { gold: 0 }), { roomObjectId: LAMP, amount: 1 }), { max: base });
  // One short of full: two more are one too many, one more fills it exactly.
  const almost = ok(t, 'salePlayerRoomObject', s, { managedRoomObjectIds: [s.roomObjects[0]!.managedRoomObjectId] }).state;
  t.like(fails(t, 'ROOM_OBJECT_LIMIT', 'buySetPlayerRoomObject', withWealth(almost, { gold: 0 }), { roomObjectId: LAMP, amount: 2 }), { max: base });
  t.is(buy(t, almost, LAMP).s.roomObjects.length, base);
});

test('a floorId without placements places nothing: a locked floor 2 named then does not refuse the purchase', (t) => {
  const s = rich(); // level 1: floor 2 opens at level 10
  const r = buy(t, s, LAMP, 1, { floorId: 2 });
  t.is(r.ids.length, 1);
  t.deepEqual(r.s.rooms, s.rooms);
  // With a placement the lock counts.
  fails(t, 'STATE_CONFLICT', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1, floorId: 2, placements: [{ x: 0, y: 0, dir: 0 }] });
});

test('a purchase without placements does not check the floors: an object master data no longer has, placed on floor 1, does not block it', (t) => {
  const s0 = rich();
  // An object bought earlier, of a kind master data has since dropped, placed at (0, 0).
  const s: PlayerState = {
    ...s0,
    roomObjects: [...s0.roomObjects, { managedRoomObjectId: 777, roomObjectId: 424242, createdAt: NOW }],
    rooms: [{ floorId: 1, placements: [{ managedRoomObjectId: 777, x: 0, y: 0, dir: 0 }] }],
  };
  const r = buy(t, s, LAMP);
  t.deepEqual(r.s.rooms, s.rooms, 'the floor is as it was');
  t.is(r.s.roomObjects.length, s.roomObjects.length + 1);
  // Placing on that floor checks it whole, and the dropped kind is 107.
  t.like(fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1, placements: [{ x: 5, y: 5, dir: 0 }] }), { entity: 'room object', id: 424242 });
});

// ---- sale ----

test('sale refusals name managedRoomObjectIds and why: none named, more than the per-request limit (named), one named twice', (t) => {
  const b = buy(t, rich(), LAMP, 2);
  const field = 'managedRoomObjectIds';
  const none = fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [] });
  t.is(fieldOf(none), field);
  t.regex(reasonOf(none), /at least one/);
  const many = fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: Array.from({ length: MAX + 1 }, (_, i) => i + 1) });
  t.is(fieldOf(many), field);
  t.regex(reasonOf(many), new RegExp(`\\b${MAX}\\b`));
  const twice = fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], b.ids[0]] });
  t.is(fieldOf(twice), field);
  t.regex(reasonOf(twice), /twice/);
  t.like(fails(t, 'NOT_FOUND', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], 9999] }), { entity: 'room object', id: 9999 });
});

test('a sale may name exactly the per-request limit of objects', (t) => {
  const b = buy(t, rich(), LAMP, MAX);
  const r = ok(t, 'salePlayerRoomObject', b.s, { managedRoomObjectIds: b.ids });
  t.deepEqual(r.state.roomObjects, []);
  t.is(r.response.gold, MAX * m.roomObject.get(LAMP)!.salePrice);
  t.is(r.state.gold - b.s.gold, MAX * m.roomObject.get(LAMP)!.salePrice);
});

test('selling an object placed on floor 1 takes it out of floor 1 only: floor 2 keeps its objects', (t) => {
  const s = { ...rich(), level: 10 }; // floor 2 is open
  const one = buy(t, s, LAMP, 2, { floorId: 1, placements: [{ x: 0, y: 0, dir: 0 }, { x: 1, y: 0, dir: 0 }] });
  const two = buy(t, one.s, LAMP, 1, { floorId: 2, placements: [{ x: 3, y: 3, dir: 0 }] });
  const r = ok(t, 'salePlayerRoomObject', two.s, { managedRoomObjectIds: [one.ids[0]] });
  t.deepEqual(floor(r.state, 1), [{ managedRoomObjectId: one.ids[1], x: 1, y: 0, dir: 0 }]);
  t.deepEqual(floor(r.state, 2), floor(two.s, 2));
});

test('an object that sells for nothing is sold without touching the purse, even one above a lowered coin maximum', (t) => {
  const b = buy(t, rich(), LAMP);
  // Master data now gives the lamp no sale price and caps coins below what the player holds.
  const lowered: Master = {
    ...m,
    roomObject: new Map(m.roomObject).set(LAMP, { ...m.roomObject.get(LAMP)!, salePrice: 0 }),
    game: { ...m.game, currencyMax: { ...m.game.currencyMax, gold: 1000 } },
  };
  const r = ok(t, 'salePlayerRoomObject', b.s, { managedRoomObjectIds: b.ids }, { m: lowered });
  t.is(r.response.gold, 0);
  t.is(r.state.gold, b.s.gold);
  t.deepEqual(r.state.roomObjects, []);
});
