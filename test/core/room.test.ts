// Rooms and room objects: buying (bargains, shop periods, limits), placing on the
// grid, selling, storage slots, and reading another player's room.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth } from '../_support/core.js';
import { appearedRooms } from '../../core/shared/town.js';
import { contentRoomsView } from '../../core/views/town.js';
import { DAY } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';
import { array as arrayOf } from 'io-ts';
import { answerProblems } from '../../core/answer-check.js';
import { FloorView, PublicFloorView } from '../../core/views/codecs.js';

const BED = 1; // 2×3, 3000 coins
const TABLE = 2; // 2×2, 1500
const LAMP = 3; // 1×1, 500
const LANTERN = 9; // 800, bargain 400 in November 2026
const HAMMOCK = 10; // 2500, its bargain is long over
const SNOW_GLOBE = 11; // sold only from 2026-12-20 to 2027-01-10

const rich = (playerId = 1): PlayerState => withWealth(freshPlayer({ playerId }), { gold: 1_000_000, gem: 10_000 });

const buy = (t: ExecutionContext, s: PlayerState, roomObjectId: number, amount = 1, extra: Record<string, unknown> = {}) => {
  const r = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId, amount, ...extra });
  return { s: r.state, ids: r.response.managedRoomObjectIds, r };
};
const floor = (s: PlayerState, floorId: number) => s.rooms.find((r) => r.floorId === floorId)?.placements ?? [];

// ---- buy_set ----
test('buy_set pays the price per object and adds them to storage', (t) => {
  const s = rich();
  const b = buy(t, s, TABLE, 3);
  t.is(s.gold - b.s.gold, 4500);
  t.is(b.ids.length, 3);
  t.deepEqual(b.s.roomObjects.map((o) => o.roomObjectId), [TABLE, TABLE, TABLE]);
  t.deepEqual(floor(b.s, 1), [], 'nothing placed without positions');
  t.deepEqual(b.r.response.managedRoomObjects?.map((o) => o.managedRoomObjectId), b.ids, 'the changed room objects come with the answer');
});

test('buy_set uses the bargain price inside its period only', (t) => {
  const s = rich();
  t.is(s.gold - buy(t, s, LANTERN, 2).s.gold, 800);
  const december = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId: LANTERN, amount: 2 }, { now: NOW + 15 * DAY });
  t.is(s.gold - december.state.gold, 1600);
  t.is(s.gold - buy(t, s, HAMMOCK).s.gold, 2500);
});

test('buy_set places the bought objects given positions', (t) => {
  const b = buy(t, rich(), TABLE, 3, { floorId: 1, placements: [{ x: 0, y: 0, dir: 0 }, { x: 2, y: 0, dir: 0 }] });
  t.deepEqual(floor(b.s, 1), [
    { managedRoomObjectId: b.ids[0], x: 0, y: 0, dir: 0 },
    { managedRoomObjectId: b.ids[1], x: 2, y: 0, dir: 0 },
  ]);
  t.deepEqual(b.r.response.rooms?.[0]?.placements.map((p) => p.managedRoomObjectId), b.ids.slice(0, 2), 'the changed rooms come with the answer');
});

test('buy_set: a sold-only-in-period object is 464 outside it', (t) => {
  fails(t, 'BUY_OUT_OF_PERIOD', 'buySetPlayerRoomObject', rich(), { roomObjectId: SNOW_GLOBE, amount: 1 });
  ok(t, 'buySetPlayerRoomObject', rich(), { roomObjectId: SNOW_GLOBE, amount: 1 }, { now: NOW + 30 * DAY });
});

test('buy_set: amounts not positive or over the per-request limit, and more positions than objects, are 102', (t) => {
  const s = rich();
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 0 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1.5 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: master().town.maxPerRequest + 1 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1, placements: [{ x: 0, y: 0, dir: 0 }, { x: 1, y: 0, dir: 0 }] });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1, placements: [{ x: 0, y: 0, dir: 4 }] });
});

test('buy_set: an unknown object is 107; a floor other than 1 and 2 is 102; a locked floor is 317', (t) => {
  const s = rich();
  fails(t, 'NOT_FOUND', 'buySetPlayerRoomObject', s, { roomObjectId: 999, amount: 1 });
  fails(t, 'INVALID_PARAMETERS', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1, floorId: 9, placements: [{ x: 0, y: 0, dir: 0 }] });
  fails(t, 'STATE_CONFLICT', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1, floorId: 2, placements: [{ x: 0, y: 0, dir: 0 }] });
  ok(t, 'buySetPlayerRoomObject', { ...s, level: 10 }, { roomObjectId: LAMP, amount: 1, floorId: 2, placements: [{ x: 0, y: 0, dir: 0 }] });
});

test('buy_set: over the storage limit is 303; short of coins 441', (t) => {
  const base = master().game.limits.roomObjects.base;
  let s = rich();
  for (let i = 0; i < base / 50; i++) s = buy(t, s, LAMP, 50).s;
  fails(t, 'ROOM_OBJECT_LIMIT', 'buySetPlayerRoomObject', s, { roomObjectId: LAMP, amount: 1 });
  ok(t, 'buySetPlayerRoomObject', ok(t, 'addPlayerRoomObjectLimit', s, {}).state, { roomObjectId: LAMP, amount: 1 });
  fails(t, 'GOLD_IS_SHORT', 'buySetPlayerRoomObject', withWealth(rich(), { gold: 2999 }), { roomObjectId: TABLE, amount: 2 });
});

test('buy_set: a position that overlaps or leaves the grid is 307 and nothing is bought', (t) => {
  const b = buy(t, rich(), TABLE, 1, { placements: [{ x: 0, y: 0, dir: 0 }] });
  fails(t, 'ROOM_LIMIT', 'buySetPlayerRoomObject', b.s, { roomObjectId: LAMP, amount: 1, placements: [{ x: 1, y: 1, dir: 0 }] });
  fails(t, 'ROOM_LIMIT', 'buySetPlayerRoomObject', b.s, { roomObjectId: TABLE, amount: 1, placements: [{ x: 11, y: 0, dir: 0 }] });
  fails(t, 'ROOM_LIMIT', 'buySetPlayerRoomObject', b.s, { roomObjectId: TABLE, amount: 2, placements: [{ x: 4, y: 4, dir: 0 }, { x: 5, y: 5, dir: 0 }] });
});

// ---- room/set ----
test('room/set replaces one floor\'s placements; direction turns the footprint', (t) => {
  const b = buy(t, rich(), BED, 2);
  const [x, y] = b.ids as [number, number];
  // A 2×3 bed turned a quarter is 3×2: at x 9 it reaches column 11, the last one.
  const r = ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: x, x: 0, y: 9, dir: 0 }, { managedRoomObjectId: y, x: 9, y: 0, dir: 1 }] });
  t.is(floor(r.state, 1).length, 2);
  fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: y, x: 10, y: 0, dir: 1 }] });
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: y, x: 10, y: 0, dir: 0 }] });
  const cleared = ok(t, 'setPlayerRoom', r.state, { floorId: 1, placements: [] });
  t.deepEqual(cleared.state.rooms, []);
});

test('room/set: overlapping, outside the grid (either side) or placed twice is 307', (t) => {
  const b = buy(t, rich(), TABLE, 2);
  const [x, y] = b.ids as [number, number];
  const set = (placements: unknown[]) => fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements });
  set([{ managedRoomObjectId: x, x: 0, y: 0, dir: 0 }, { managedRoomObjectId: y, x: 1, y: 1, dir: 0 }]);
  set([{ managedRoomObjectId: x, x: 11, y: 0, dir: 0 }]);
  set([{ managedRoomObjectId: x, x: 0, y: 11, dir: 0 }]);
  set([{ managedRoomObjectId: x, x: -1, y: 0, dir: 0 }]);
  set([{ managedRoomObjectId: x, x: 0, y: 0, dir: 0 }, { managedRoomObjectId: x, x: 4, y: 4, dir: 0 }]);
  // Touching edges is not overlapping.
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: x, x: 0, y: 0, dir: 0 }, { managedRoomObjectId: y, x: 2, y: 0, dir: 0 }] });
});

test('room/set: an object already on the other floor is 307', (t) => {
  const b = buy(t, { ...rich(), level: 10 }, LAMP, 1, { floorId: 2, placements: [{ x: 0, y: 0, dir: 0 }] });
  fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: b.ids[0], x: 0, y: 0, dir: 0 }] });
});

test('room/set: an object not owned is 107; a locked floor is 317; a floor other than 1 and 2, or a bad direction, is 102', (t) => {
  const b = buy(t, rich(), LAMP, 1);
  fails(t, 'NOT_FOUND', 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: 9999, x: 0, y: 0, dir: 0 }] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerRoom', b.s, { floorId: 3, placements: [] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerRoom', b.s, { floorId: 0, placements: [] });
  fails(t, 'STATE_CONFLICT', 'setPlayerRoom', b.s, { floorId: 2, placements: [] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: b.ids[0], x: 0, y: 0, dir: 7 }] });
});

// ---- room/get_all ----
/** Whether rooms shown are exactly the owner's view (managed ids included). */
const isOwnRooms = (rooms: FloorView[] | PublicFloorView[]): rooms is FloorView[] => answerProblems(arrayOf(FloorView), rooms).length === 0;

test('room/get_all reads the own rooms with managed ids, or one floor', (t) => {
  const b = buy(t, rich(), TABLE, 1, { placements: [{ x: 3, y: 4, dir: 1 }] });
  const all = ok(t, 'getAllPlayerRoom', b.s, {}).response.rooms;
  if (!isOwnRooms(all)) return t.fail('the own rooms show managed ids');
  t.deepEqual(all.map((r) => [r.floorId, r.unlocked]), [[1, true], [2, false]]);
  t.deepEqual(all[0]!.placements, [{ managedRoomObjectId: b.ids[0], roomObjectId: TABLE, x: 3, y: 4, dir: 1 }]);
  const one = ok(t, 'getAllPlayerRoom', b.s, { floorId: 2 }).response.rooms;
  t.deepEqual(one, [{ floorId: 2, name: master().floor.get(2)!.name, width: 10, height: 8, unlocked: false, placements: [] }]);
  fails(t, 'INVALID_PARAMETERS', 'getAllPlayerRoom', b.s, { floorId: 5 });
});

test('room/get_all?playerId shows another player\'s room without managed ids; unknown player 202', (t) => {
  const other = buy(t, rich(2), TABLE, 1, { placements: [{ x: 3, y: 4, dir: 0 }] }).s;
  const r = ok(t, 'getAllPlayerRoom', rich(1), { playerId: 2, floorId: 1 }, { others: [other] });
  const rooms = r.response.rooms;
  t.deepEqual(answerProblems(arrayOf(PublicFloorView), rooms), [], 'exactly the public view');
  t.deepEqual(rooms[0]!.placements, [{ roomObjectId: TABLE, x: 3, y: 4, dir: 0 }]);
  t.false(JSON.stringify(r.response).includes('managed'));
  fails(t, 'PLAYER_NOT_FOUND', 'getAllPlayerRoom', rich(1), { playerId: 3 }, { others: [undefined] });
});

// ---- sale ----
test('sale sells for the sale price and takes placed objects out of the room', (t) => {
  const b = buy(t, rich(), TABLE, 2, { placements: [{ x: 0, y: 0, dir: 0 }, { x: 4, y: 0, dir: 0 }] });
  const r = ok(t, 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0]] });
  t.is(r.state.gold - b.s.gold, master().roomObject.get(TABLE)!.salePrice);
  t.deepEqual(r.state.roomObjects.map((o) => o.managedRoomObjectId), [b.ids[1]]);
  t.deepEqual(floor(r.state, 1).map((p) => p.managedRoomObjectId), [b.ids[1]]);
  const both = ok(t, 'salePlayerRoomObject', r.state, { managedRoomObjectIds: [b.ids[1]] });
  t.deepEqual(both.state.rooms, []);
});

test('sale: empty, repeated or too many ids are 102; not owned 107; a full purse 311', (t) => {
  const b = buy(t, rich(), LAMP, 2);
  fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [] });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], b.ids[0]] });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: Array.from({ length: master().town.maxPerRequest + 1 }, (_, i) => i + 1) });
  fails(t, 'NOT_FOUND', 'salePlayerRoomObject', b.s, { managedRoomObjectIds: [b.ids[0], 9999] });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerRoomObject', withWealth(b.s, { gold: master().game.currencyMax.gold }), { managedRoomObjectIds: [b.ids[0]] });
});

// ---- limit/add ----
test('room_object/limit/add adds the step for gems up to the cap (298); short of gems 445', (t) => {
  const l = master().game.limits.roomObjects;
  const s = rich();
  const r = ok(t, 'addPlayerRoomObjectLimit', s, {});
  t.is(r.response.roomObjectLimit, l.base + l.step);
  t.is(s.gem - r.state.gem, l.gemPrice);
  fails(t, 'GEM_IS_SHORT', 'addPlayerRoomObjectLimit', withWealth(s, { gem: l.gemPrice - 1 }), {});
  fails(t, 'ROOM_OBJECT_EXT_LIMIT', 'addPlayerRoomObjectLimit', { ...s, limitAdds: { ...s.limitAdds, roomObject: (l.cap - l.base) / l.step } }, {});
});

test('a draw shows the content rooms exactly when a room appeared, and the same rooms as a fresh view', (t) => {
  const m = master();
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: 999_999 });
  let shown = 0;
  let quiet = 0;
  for (let i = 0; i < 40; i++) {
    const before = appearedRooms(m, s).map((r) => r.contentRoomId);
    const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: i % 4 === 0 ? 3 : 1 }, { seed: `rooms${i}` });
    const after = appearedRooms(m, r.state).map((x) => x.contentRoomId);
    const appeared = before.join() !== after.join();
    t.is('contentRooms' in r.response, appeared, `draw ${i}`);
    if (appeared) {
      shown++;
      t.deepEqual(r.response.contentRooms, contentRoomsView(m, { ...r.state, characters: [...r.state.characters] }));
    } else quiet++;
    s = r.state;
  }
  // Both cases happened (the seeds give new titles early and repeats later).
  t.true(shown > 0 && quiet > 0, `${shown} shown, ${quiet} quiet`);
});
