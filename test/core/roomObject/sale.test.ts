// Selling room objects (docs/rules/town.md, Rooms and room objects): the sale price paid,
// placed objects taken out of their floor only, exactly the per-request limit and one past,
// and an object that sells for nothing leaving the purse alone.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, ok, withWealth } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

const TABLE = 2; // 2×2, 1500
const LAMP = 3; // 1×1, 500 coins, sells for 125

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

test('sale sells for the sale price and takes placed objects out of the room', (t) => {
  const b = buy(t, shopper(), TABLE, 2, {
    placements: [
      { x: 0, y: 0, dir: 0 },
      { x: 4, y: 0, dir: 0 },
    ],
  });
  const r = ok(t, 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0]] });
  t.is(r.state.gold - b.s.gold, master().roomObject.get(TABLE)!.salePrice);
  t.deepEqual(
    r.state.roomObjects.map((o) => o.managedRoomObjectId),
    [b.ids[1]],
  );
  t.deepEqual(
    floor(r.state, 1).map((p) => p.managedRoomObjectId),
    [b.ids[1]],
  );
  const both = ok(t, 'salePlayerRoomObject', r.state, { managedRoomObjectIds: [b.ids[1]] });
  t.deepEqual(both.state.rooms, []);
});

test('sale: empty, repeated or too many ids are 102; not owned 107; a full purse 311', (t) => {
  const b = buy(t, shopper(), LAMP, 2);
  fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [] });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], b.ids[0]] });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, {
    managedRoomObjectIds: Array.from({ length: master().town.maxPerRequest + 1 }, (_, i) => i + 1),
  });
  fails(t, 'NOT_FOUND', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], 9999] });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerRoomObject', withWealth(b.s, { gold: master().game.currencyMax.gold }), {
    managedRoomObjectIds: [b.ids[0]],
  });
});

test('sale refusals name managedRoomObjectIds and why: none named, more than the per-request limit (named), one named twice', (t) => {
  const b = buy(t, shopper(), LAMP, 2);
  const field = 'managedRoomObjectIds';
  const none = fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [] });
  t.is(fieldOf(none), field);
  t.regex(reasonOf(none), /at least one/);
  const many = fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, {
    managedRoomObjectIds: Array.from({ length: MAX + 1 }, (_, i) => i + 1),
  });
  t.is(fieldOf(many), field);
  t.regex(reasonOf(many), new RegExp(`\\b${MAX}\\b`));
  const twice = fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, {
    managedRoomObjectIds: [b.ids[0], b.ids[0]],
  });
  t.is(fieldOf(twice), field);
  t.regex(reasonOf(twice), /twice/);
  t.like(fails(t, 'NOT_FOUND', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], 9999] }), {
    entity: 'room object',
    id: 9999,
  });
});

test('a sale may name exactly the per-request limit of objects', (t) => {
  const b = buy(t, shopper(), LAMP, MAX);
  const r = ok(t, 'salePlayerRoomObject', b.s, { managedRoomObjectIds: b.ids });
  t.deepEqual(r.state.roomObjects, []);
  t.is(r.response.gold, MAX * m.roomObject.get(LAMP)!.salePrice);
  t.is(r.state.gold - b.s.gold, MAX * m.roomObject.get(LAMP)!.salePrice);
});

test('selling an object placed on floor 1 takes it out of floor 1 only: floor 2 keeps its objects', (t) => {
  const s = { ...shopper(), level: 10 }; // floor 2 is open
  const one = buy(t, s, LAMP, 2, {
    floorId: 1,
    placements: [
      { x: 0, y: 0, dir: 0 },
      { x: 1, y: 0, dir: 0 },
    ],
  });
  const two = buy(t, one.s, LAMP, 1, { floorId: 2, placements: [{ x: 3, y: 3, dir: 0 }] });
  const r = ok(t, 'salePlayerRoomObject', two.s, { managedRoomObjectIds: [one.ids[0]] });
  t.deepEqual(floor(r.state, 1), [{ managedRoomObjectId: one.ids[1], x: 1, y: 0, dir: 0 }]);
  t.deepEqual(floor(r.state, 2), floor(two.s, 2));
});

test('an object that sells for nothing is sold without touching the purse, even one above a lowered coin maximum', (t) => {
  const b = buy(t, shopper(), LAMP);
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
