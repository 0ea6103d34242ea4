// Buying room objects (buy_set, docs/rules/town.md, Rooms and room objects): the price per
// object, the bargain price and shop period from their first instant up to (not including)
// their end, placements made on purchase, the per-request and storage limits (and
// room_object/limit/add), which check refuses first, and what each refusal names.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../../_support/core.js';
import { DAY } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const TABLE = 2; // 2×2, 1500
const LAMP = 3; // 1×1, 500 coins, sells for 125
const LANTERN = 9; // 800 coins; bargain 400 from 2026-11-01T00:00 to 2026-12-01T00:00 (game time, +09:00)
const HAMMOCK = 10; // 2500, its bargain is long over
const SNOW_GLOBE = 11; // sold only from 2026-12-20T00:00 to 2027-01-10T00:00 (game time, +09:00)

const shopper = (playerId = 1): PlayerState => withWealth(freshPlayer({ playerId }), { gold: 1_000_000, gem: 10_000 });

const buy = (
  t: ExecutionContext,
  s: PlayerState,
  roomObjectId: number,
  amount = 1,
  extra: Record<string, unknown> = {},
) => {
  const r = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId, amount, ...extra });
  return { s: r.state, ids: r.response.managedRoomObjectIds, r };
};
const floor = (s: PlayerState, floorId: number) => s.rooms.find((r) => r.floorId === floorId)?.placements ?? [];

const m = master();
const MAX = m.town.maxPerRequest; // 50
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
/** A player whose room-object storage (base 100) is full of lamps. */
const fullStorage = (t: ExecutionContext): PlayerState => {
  let s = shopper();
  for (let n = 0; n < m.game.limits.roomObjects.base; n += MAX) s = buy(t, s, LAMP, MAX).s;
  return s;
};

test('buy_set pays the price per object and adds them to storage', (t) => {
  const s = shopper();
  const b = buy(t, s, TABLE, 3);
  t.is(s.gold - b.s.gold, 4500);
  t.is(b.ids.length, 3);
  t.deepEqual(
    b.s.roomObjects.map((o) => o.roomObjectId),
    [TABLE, TABLE, TABLE],
  );
  t.deepEqual(floor(b.s, 1), [], 'nothing placed without positions');
  t.deepEqual(
    b.r.response.managedRoomObjects?.map((o) => o.managedRoomObjectId),
    b.ids,
    'the changed room objects come with the answer',
  );
});

test('buy_set uses the bargain price inside its period only', (t) => {
  const s = shopper();
  t.is(s.gold - buy(t, s, LANTERN, 2).s.gold, 800);
  const december = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId: LANTERN, amount: 2 }, { now: NOW + 15 * DAY });
  t.is(s.gold - december.state.gold, 1600);
  t.is(s.gold - buy(t, s, HAMMOCK).s.gold, 2500);
});

test('buy_set places the bought objects given positions', (t) => {
  const b = buy(t, shopper(), TABLE, 3, {
    floorId: 1,
    placements: [
      { x: 0, y: 0, dir: 0 },
      { x: 2, y: 0, dir: 0 },
    ],
  });
  t.deepEqual(floor(b.s, 1), [
    { managedRoomObjectId: b.ids[0], x: 0, y: 0, dir: 0 },
    { managedRoomObjectId: b.ids[1], x: 2, y: 0, dir: 0 },
  ]);
  t.deepEqual(
    b.r.response.rooms?.[0]?.placements.map((p) => p.managedRoomObjectId),
    b.ids.slice(0, 2),
    'the changed rooms come with the answer',
  );
});

test('buy_set: a sold-only-in-period object is 464 outside it', (t) => {
  fails(t, 'BUY_OUT_OF_PERIOD', 'buySetPlayerRoomObject', shopper(), { roomObjectId: SNOW_GLOBE, amount: 1 });
  ok(t, 'buySetPlayerRoomObject', shopper(), { roomObjectId: SNOW_GLOBE, amount: 1 }, { now: NOW + 30 * DAY });
});

test('buy_set: amounts not positive or over the per-request limit, and more positions than objects, are 102', (t) => {
  const s = shopper();
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 0 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1.5 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, {
    roomObjectId: LAMP,
    amount: master().town.maxPerRequest + 1,
  });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, {
    roomObjectId: LAMP,
    amount: 1,
    placements: [
      { x: 0, y: 0, dir: 0 },
      { x: 1, y: 0, dir: 0 },
    ],
  });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, {
    roomObjectId: LAMP,
    amount: 1,
    placements: [{ x: 0, y: 0, dir: 4 }],
  });
});

test('buy_set: an unknown object is 107; a floor other than 1 and 2 is 102; a locked floor is 317', (t) => {
  const s = shopper();
  fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', s, { roomObjectId: 999, amount: 1 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, {
    roomObjectId: LAMP,
    amount: 1,
    floorId: 9,
    placements: [{ x: 0, y: 0, dir: 0 }],
  });
  fails(t, 'STATE_CONFLICT', 'buySetPlayerRoomObject', s, {
    roomObjectId: LAMP,
    amount: 1,
    floorId: 2,
    placements: [{ x: 0, y: 0, dir: 0 }],
  });
  ok(
    t,
    'buySetPlayerRoomObject',
    { ...s, level: 10 },
    { roomObjectId: LAMP, amount: 1, floorId: 2, placements: [{ x: 0, y: 0, dir: 0 }] },
  );
});

test('buy_set: over the storage limit is 303; short of coins 441', (t) => {
  const base = master().game.limits.roomObjects.base;
  let s = shopper();
  for (let i = 0; i < base / 50; i++) s = buy(t, s, LAMP, 50).s;
  fails(t, 'ROOM_OBJECT_LIMIT', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1 });
  ok(t, 'buySetPlayerRoomObject', ok(t, 'addPlayerRoomObjectLimit', s, {}).state, { roomObjectId: LAMP, amount: 1 });
  fails(t, 'GOLD_IS_SHORT', 'buySetPlayerRoomObject', withWealth(shopper(), { gold: 2999 }), {
    roomObjectId: TABLE,
    amount: 2,
  });
});

test('buy_set: a position that overlaps or leaves the grid is 307 and nothing is bought', (t) => {
  const b = buy(t, shopper(), TABLE, 1, { placements: [{ x: 0, y: 0, dir: 0 }] });
  fails(t, 'ROOM_LIMIT', 'buySetPlayerRoomObject', b.s, {
    roomObjectId: LAMP,
    amount: 1,
    placements: [{ x: 1, y: 1, dir: 0 }],
  });
  fails(t, 'ROOM_LIMIT', 'buySetPlayerRoomObject', b.s, {
    roomObjectId: TABLE,
    amount: 1,
    placements: [{ x: 11, y: 0, dir: 0 }],
  });
  fails(t, 'ROOM_LIMIT', 'buySetPlayerRoomObject', b.s, {
    roomObjectId: TABLE,
    amount: 2,
    placements: [
      { x: 4, y: 4, dir: 0 },
      { x: 5, y: 5, dir: 0 },
    ],
  });
});

test('the bargain price applies from the first instant of its period up to, not including, its end', (t) => {
  // Game time is UTC+9: 2026-11-01T00:00 there is 2026-10-31T15:00Z; 2026-12-01T00:00 is 2026-11-30T15:00Z.
  const start = Date.UTC(2026, 9, 31, 15);
  const end = Date.UTC(2026, 10, 30, 15);
  const price = (now: number) =>
    ok(t, 'buySetPlayerRoomObject', shopper(), { roomObjectId: LANTERN, amount: 1 }, { now }).response.unitPrice;
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
  t.like(fails(t, 'BUY_OUT_OF_PERIOD', 'buySetPlayerRoomObject', shopper(), req, { now: start - 1 }), {
    id: SNOW_GLOBE,
  });
  ok(t, 'buySetPlayerRoomObject', shopper(), req, { now: start });
  ok(t, 'buySetPlayerRoomObject', shopper(), req, { now: end - 1 });
  t.like(fails(t, 'BUY_OUT_OF_PERIOD', 'buySetPlayerRoomObject', shopper(), req, { now: end }), { id: SNOW_GLOBE });
});

test('buy_set refusals name the field at fault: an amount over the per-request limit (named), more placements than objects', (t) => {
  const over = fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', shopper(), {
    roomObjectId: LAMP,
    amount: MAX + 1,
  });
  t.is(fieldOf(over), 'amount');
  t.regex(reasonOf(over), new RegExp(`\\b${MAX}\\b`));
  const placements = fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', shopper(), {
    roomObjectId: LAMP,
    amount: 1,
    placements: [
      { x: 0, y: 0, dir: 0 },
      { x: 1, y: 0, dir: 0 },
    ],
  });
  t.is(fieldOf(placements), 'placements');
  t.regex(reasonOf(placements), /more placements than/);
});

test('an unknown room object is 107 naming it, even when the storage is full', (t) => {
  const s = fullStorage(t);
  t.like(fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', s, { roomObjectId: 999, amount: 1 }), {
    entity: 'room object',
    id: 999,
  });
  t.like(fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', shopper(), { roomObjectId: 999, amount: 1 }), {
    entity: 'room object',
    id: 999,
  });
});

test('buying past the room-object storage is 303 with the limit, before anything is paid: a short purse too gets 303', (t) => {
  const s = fullStorage(t);
  const base = m.game.limits.roomObjects.base;
  t.like(
    fails(t, 'ROOM_OBJECT_LIMIT', 'buySetPlayerRoomObject', withWealth(s, { gold: 0 }), {
      roomObjectId: LAMP,
      amount: 1,
    }),
    { max: base },
  );
  // One short of full: two more are one too many, one more fills it exactly.
  const almost = ok(t, 'salePlayerRoomObject', s, {
    managedRoomObjectIds: [s.roomObjects[0]!.managedRoomObjectId],
  }).state;
  t.like(
    fails(t, 'ROOM_OBJECT_LIMIT', 'buySetPlayerRoomObject', withWealth(almost, { gold: 0 }), {
      roomObjectId: LAMP,
      amount: 2,
    }),
    { max: base },
  );
  t.is(buy(t, almost, LAMP).s.roomObjects.length, base);
});

test('a floorId without placements places nothing: a locked floor 2 named then does not refuse the purchase', (t) => {
  const s = shopper(); // level 1: floor 2 opens at level 10
  const r = buy(t, s, LAMP, 1, { floorId: 2 });
  t.is(r.ids.length, 1);
  t.deepEqual(r.s.rooms, s.rooms);
  // With a placement the lock counts.
  fails(t, 'STATE_CONFLICT', 'buySetPlayerRoomObject', s, {
    roomObjectId: LAMP,
    amount: 1,
    floorId: 2,
    placements: [{ x: 0, y: 0, dir: 0 }],
  });
});

test('a purchase without placements does not check the floors: an object master data no longer has, placed on floor 1, does not block it', (t) => {
  const s0 = shopper();
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
  t.like(
    fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', s, {
      roomObjectId: LAMP,
      amount: 1,
      placements: [{ x: 5, y: 5, dir: 0 }],
    }),
    { entity: 'room object', id: 424242 },
  );
});

test('room_object/limit/add adds the step for gems up to the cap (298); short of gems 445', (t) => {
  const l = master().game.limits.roomObjects;
  const s = shopper();
  const r = ok(t, 'addPlayerRoomObjectLimit', s, {});
  t.is(r.response.roomObjectLimit, l.base + l.step);
  t.is(s.gem - r.state.gem, l.gemPrice);
  fails(t, 'GEM_IS_SHORT', 'addPlayerRoomObjectLimit', withWealth(s, { gem: l.gemPrice - 1 }), {});
  fails(
    t,
    'ROOM_OBJECT_EXT_LIMIT',
    'addPlayerRoomObjectLimit',
    { ...s, limitAdds: { ...s.limitAdds, roomObject: (l.cap - l.base) / l.step } },
    {},
  );
});
