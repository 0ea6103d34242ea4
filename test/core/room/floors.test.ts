// The room's floors (docs/rules/town.md, Rooms and room objects). room/set places objects:
// one floor's placements replaced, the footprint turned by direction, objects that touch
// without overlapping, nothing outside the grid or on the other floor, the floors stored in
// order; what a refused placement names; placements never overlap, whatever is asked.
// room/get_all reads them: one's own with managed ids, or one floor; another player's
// without; a floor master data does not have refused naming it.
import test, { type ExecutionContext } from 'ava';
import { array as arrayOf } from 'io-ts';
import fc from 'fast-check';
import { fails, freshPlayer, master, ok, withWealth, NOW, runOp } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { answerProblems } from '../../../core/answer-check.js';
import { FloorView, PublicFloorView } from '../../../core/views/codecs.js';
import { checkFloor, checkFloorOpen, footprint, overlaps, type Rect } from '../../../core/shared/town.js';
import type { GameError } from '../../../core/errors.js';
import type { Executed } from '../../../core/operation.js';
import type { OperationName, ResponseOf } from '../../../core/operations/table.js';
import type { Master } from '../../../core/master/index.js';

const BED = 1; // room object 2 wide × 3 deep
const TABLE = 2; // room object 2 × 2
const LAMP = 3; // room object 1 × 1

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

/** Whether rooms shown are exactly the owner's view (managed ids included). */
const isOwnRooms = (rooms: FloorView[] | PublicFloorView[]): rooms is FloorView[] =>
  answerProblems(arrayOf(FloorView), rooms).length === 0;

const m = master();

const rich = (playerId = 1): PlayerState =>
  withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

const buyObjects = (
  t: ExecutionContext,
  s: PlayerState,
  roomObjectId: number,
  amount: number,
  extra: Record<string, unknown> = {},
) => {
  const r = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId, amount, ...extra });
  return { s: r.state, ids: r.response.managedRoomObjectIds };
};
const placement = (managedRoomObjectId: number, x: number, y: number, dir = 0) => ({ managedRoomObjectId, x, y, dir });

const veryRich = (): PlayerState =>
  withWealth(
    { ...freshPlayer(), level: 10 },
    { gold: 10_000_000, kirara: 1_000_000, gem: 100_000, items: { 5001: 500, 5002: 500, 5004: 500 } },
  );

/** Runs an operation; a failure must leave the input state exactly as it was. */
type Step<N extends OperationName> =
  { s: PlayerState; ok: true; response: Executed<ResponseOf<N>>['response'] } | { s: PlayerState; ok: false };
const step = <N extends OperationName>(s: PlayerState, name: N, req: unknown, now = NOW): Step<N> => {
  const before = JSON.stringify(s);
  const r = runOp(name, s, req, { now });
  if (JSON.stringify(s) !== before) throw new Error(`${name} mutated its input`);
  if (r._tag === 'Left') return { s, ok: false };
  return { s: r.right.state, ok: true, response: r.right.response };
};

const Pos = fc.record({
  x: fc.integer({ min: -2, max: 13 }),
  y: fc.integer({ min: -2, max: 13 }),
  dir: fc.integer({ min: 0, max: 3 }),
});
const RoomCommand = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    roomObjectId: fc.integer({ min: 1, max: 15 }),
    amount: fc.integer({ min: 1, max: 3 }),
    floorId: fc.constantFrom(1, 2),
    placements: fc.array(Pos, { maxLength: 3 }),
  }),
  fc.record({
    kind: fc.constant('set' as const),
    floorId: fc.constantFrom(1, 2, 3),
    picks: fc.array(fc.record({ pick: fc.nat(), pos: Pos }), { maxLength: 6 }),
  }),
  fc.record({ kind: fc.constant('sale' as const), picks: fc.array(fc.nat(), { maxLength: 3 }) }),
);
type RoomCommand = typeof RoomCommand extends fc.Arbitrary<infer T> ? T : never;

const runRoom = (s: PlayerState, c: RoomCommand): PlayerState => {
  const ids = s.roomObjects.map((o) => o.managedRoomObjectId);
  const pick = (n: number) => (ids.length === 0 ? n + 1 : (ids[n % ids.length] as number));
  switch (c.kind) {
    case 'buy':
      return step(s, 'buySetPlayerRoomObject', {
        roomObjectId: c.roomObjectId,
        amount: c.amount,
        floorId: c.floorId,
        placements: c.placements,
      }).s;
    case 'set':
      return step(s, 'setPlayerRoom', {
        floorId: c.floorId,
        placements: c.picks.map((p) => ({ managedRoomObjectId: pick(p.pick), ...p.pos })),
      }).s;
    case 'sale':
      return step(s, 'salePlayerRoomObject', { managedRoomObjectIds: c.picks.map(pick) }).s;
  }
};

/** Every placed object is owned, placed once in all the floors, inside its grid and clear of the others. */
const roomsValid = (s: PlayerState): boolean => {
  const m = master();
  const seen = new Set<number>();
  for (const r of s.rooms) {
    const fl = m.floor.get(r.floorId);
    if (!fl) return false;
    const rects: Rect[] = [];
    for (const p of r.placements) {
      if (seen.has(p.managedRoomObjectId)) return false;
      seen.add(p.managedRoomObjectId);
      const o = s.roomObjects.find((x) => x.managedRoomObjectId === p.managedRoomObjectId);
      if (!o) return false;
      const rect = footprint(m.roomObject.get(o.roomObjectId)!, p);
      if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > fl.width || rect.y + rect.h > fl.height) return false;
      if (rects.some((q) => overlaps(q, rect))) return false;
      rects.push(rect);
    }
  }
  return true;
};

test("room/set replaces one floor's placements; direction turns the footprint", (t) => {
  const b = buy(t, shopper(), BED, 2);
  const [x, y] = b.ids as [number, number];
  // A 2×3 bed turned a quarter is 3×2: at x 9 it reaches column 11, the last one.
  const r = ok(t, 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [
      { managedRoomObjectId: x, x: 0, y: 9, dir: 0 },
      { managedRoomObjectId: y, x: 9, y: 0, dir: 1 },
    ],
  });
  t.is(floor(r.state, 1).length, 2);
  fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [{ managedRoomObjectId: y, x: 10, y: 0, dir: 1 }],
  });
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [{ managedRoomObjectId: y, x: 10, y: 0, dir: 0 }] });
  const cleared = ok(t, 'setPlayerRoom', r.state, { floorId: 1, placements: [] });
  t.deepEqual(cleared.state.rooms, []);
});

test('room/set: overlapping, outside the grid (either side) or placed twice is 307', (t) => {
  const b = buy(t, shopper(), TABLE, 2);
  const [x, y] = b.ids as [number, number];
  const set = (placements: unknown[]) => fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements });
  set([
    { managedRoomObjectId: x, x: 0, y: 0, dir: 0 },
    { managedRoomObjectId: y, x: 1, y: 1, dir: 0 },
  ]);
  set([{ managedRoomObjectId: x, x: 11, y: 0, dir: 0 }]);
  set([{ managedRoomObjectId: x, x: 0, y: 11, dir: 0 }]);
  set([{ managedRoomObjectId: x, x: -1, y: 0, dir: 0 }]);
  set([
    { managedRoomObjectId: x, x: 0, y: 0, dir: 0 },
    { managedRoomObjectId: x, x: 4, y: 4, dir: 0 },
  ]);
  // Touching edges is not overlapping.
  ok(t, 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [
      { managedRoomObjectId: x, x: 0, y: 0, dir: 0 },
      { managedRoomObjectId: y, x: 2, y: 0, dir: 0 },
    ],
  });
});

test('room/set: an object already on the other floor is 307', (t) => {
  const b = buy(t, { ...shopper(), level: 10 }, LAMP, 1, { floorId: 2, placements: [{ x: 0, y: 0, dir: 0 }] });
  fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [{ managedRoomObjectId: b.ids[0], x: 0, y: 0, dir: 0 }],
  });
});

test('room/set: an object not owned is 107; a locked floor is 317; a floor other than 1 and 2, or a bad direction, is 102', (t) => {
  const b = buy(t, shopper(), LAMP, 1);
  fails(t, 'NOT_FOUND', 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [{ managedRoomObjectId: 9999, x: 0, y: 0, dir: 0 }],
  });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerRoom', b.s, { floorId: 3, placements: [] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerRoom', b.s, { floorId: 0, placements: [] });
  fails(t, 'STATE_CONFLICT', 'setPlayerRoom', b.s, { floorId: 2, placements: [] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [{ managedRoomObjectId: b.ids[0], x: 0, y: 0, dir: 7 }],
  });
});

test('objects touching another on any side (or at a corner) do not overlap it, whichever was placed first', (t) => {
  const b = buyObjects(t, rich(), TABLE, 5);
  const [a, left, above, below, right] = b.ids as [number, number, number, number, number];
  // a covers cells x 4-5, y 4-5; the others end where it begins or begin where it ends.
  const around = [placement(left, 2, 4), placement(above, 4, 2), placement(below, 4, 6), placement(right, 6, 4)];
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(a, 4, 4), ...around] });
  ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [...around, placement(a, 4, 4)] });
  ok(t, 'setPlayerRoom', b.s, {
    floorId: 1,
    placements: [placement(a, 4, 4), placement(left, 2, 2), placement(right, 6, 6)],
  });
  // One cell further in is an overlap, on each side.
  for (const [x, y] of [
    [3, 4],
    [4, 3],
    [4, 5],
    [5, 4],
  ] as const) {
    fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, {
      floorId: 1,
      placements: [placement(a, 4, 4), placement(left, x, y)],
    });
  }
});

test('a half turn (dir 2) keeps width along x and depth along y; a quarter or three quarters swap them', (t) => {
  const b = buyObjects(t, rich(), BED, 1);
  const bed = b.ids[0]!;
  // The 2 × 3 bed at (10, 9) fills the 12 × 12 room to its last column and row.
  for (const dir of [0, 2]) ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(bed, 10, 9, dir)] });
  for (const dir of [1, 3])
    fails(t, 'ROOM_LIMIT', 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(bed, 10, 9, dir)] });
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
  const b = buyObjects(t, rich(), LAMP, 2, {
    floorId: 1,
    placements: [
      { x: 0, y: 0, dir: 0 },
      { x: 1, y: 0, dir: 0 },
    ],
  });
  const [x, y] = b.ids as [number, number];
  const r = ok(t, 'setPlayerRoom', b.s, { floorId: 1, placements: [placement(x, 5, 5), placement(y, 0, 0)] });
  t.deepEqual(r.state.rooms, [{ floorId: 1, placements: [placement(x, 5, 5), placement(y, 0, 0)] }]);
});

test('placing on one floor leaves the other floor as it is; the floors are stored in floor order', (t) => {
  const b = buyObjects(t, { ...rich(), level: 10 }, LAMP, 3);
  const [x, y, z] = b.ids as [number, number, number];
  const loft = ok(t, 'setPlayerRoom', b.s, { floorId: 2, placements: [placement(x, 0, 0)] }).state;
  const both = ok(t, 'setPlayerRoom', loft, { floorId: 1, placements: [placement(y, 3, 3)] }).state;
  t.deepEqual(both.rooms, [
    { floorId: 1, placements: [placement(y, 3, 3)] },
    { floorId: 2, placements: [placement(x, 0, 0)] },
  ]);
  // Buying onto the loft adds to the loft's objects only, whatever the main room holds.
  const more = ok(t, 'buySetPlayerRoomObject', both, {
    roomObjectId: LAMP,
    amount: 1,
    floorId: 2,
    placements: [{ x: 1, y: 0, dir: 0 }],
  });
  const fresh = more.response.managedRoomObjectIds[0]!;
  t.deepEqual(more.state.rooms, [
    { floorId: 1, placements: [placement(y, 3, 3)] },
    { floorId: 2, placements: [placement(x, 0, 0), placement(fresh, 1, 0)] },
  ]);
  // Setting the main room again changes it alone.
  const again = ok(t, 'setPlayerRoom', more.state, { floorId: 1, placements: [placement(z, 7, 7)] }).state;
  t.deepEqual(
    again.rooms.map((r) => [r.floorId, r.placements.map((p) => p.managedRoomObjectId)]),
    [
      [1, [z]],
      [2, [x, fresh]],
    ],
  );
});

test('a refused placement says which object and why', (t) => {
  const b = buyObjects(t, { ...rich(), level: 10 }, TABLE, 3);
  const [x, y, z] = b.ids as [number, number, number];
  const loft = ok(t, 'setPlayerRoom', b.s, { floorId: 2, placements: [placement(z, 0, 0)] }).state;
  const refused = (placements: unknown[]) =>
    reasonOf(fails(t, 'ROOM_LIMIT', 'setPlayerRoom', loft, { floorId: 1, placements }));
  t.is(refused([placement(x, 0, 0), placement(x, 4, 4)]), `room object ${x} is placed twice`);
  t.is(refused([placement(z, 0, 0)]), `room object ${z} is already placed on floor 2`);
  t.is(refused([placement(x, 11, 0)]), `room object ${x} at (11, 0) does not fit in the 12×12 grid`);
  t.is(refused([placement(x, 0, 0), placement(y, 1, 1)]), `room object ${y} overlaps room object ${x}`);
  t.like(fails(t, 'NOT_FOUND', 'setPlayerRoom', loft, { floorId: 1, placements: [placement(9999, 0, 0)] }), {
    entity: 'room object',
    id: 9999,
  });
  t.is(
    reasonOf(fails(t, 'STATE_CONFLICT', 'setPlayerRoom', rich(), { floorId: 2, placements: [] })),
    'floor 2 opens at player level 10',
  );
});

test('an owned object whose kind is no longer in master data cannot be placed: 107 naming the kind', (t) => {
  const s = rich();
  const odd: PlayerState = {
    ...s,
    roomObjects: [...s.roomObjects, { managedRoomObjectId: 777, roomObjectId: 424242, createdAt: NOW }],
  };
  t.like(fails(t, 'NOT_FOUND', 'setPlayerRoom', odd, { floorId: 1, placements: [placement(777, 0, 0)] }), {
    entity: 'room object',
    id: 424242,
  });
});

test('a floor master data does not have is 107 naming the floor, for placements and for the unlock check', (t) => {
  const s = rich();
  const placed = checkFloor(m, s, 3, []);
  t.like(placed._tag === 'Left' ? placed.left : undefined, { code: 'NOT_FOUND', entity: 'floor', id: 3 });
  const open = checkFloorOpen(m, s, 3);
  t.like(open._tag === 'Left' ? open.left : undefined, { code: 'NOT_FOUND', entity: 'floor', id: 3 });
  t.deepEqual(checkFloorOpen(m, s, 1), { _tag: 'Right', right: true });
});

test('placements never overlap, never leave the grid and never name an object twice, whatever is asked', (t) => {
  let placed = 0;
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(RoomCommand, { maxLength: 15 }), (cmds) => {
        let s = veryRich();
        for (const c of cmds) {
          s = runRoom(s, c);
          if (!roomsValid(s)) return false;
        }
        placed += s.rooms.reduce((n, r) => n + r.placements.length, 0);
        return true;
      }),
      { numRuns: 150 },
    ),
  );
  t.true(placed > 0, 'the commands did place objects');
});

// ---- room/get_all ----

test('room/get_all reads the own rooms with managed ids, or one floor', (t) => {
  const b = buy(t, shopper(), TABLE, 1, { placements: [{ x: 3, y: 4, dir: 1 }] });
  const all = ok(t, 'getAllPlayerRoom', b.s, {}).response.rooms;
  if (!isOwnRooms(all)) return t.fail('the own rooms show managed ids');
  t.deepEqual(
    all.map((r) => [r.floorId, r.unlocked]),
    [
      [1, true],
      [2, false],
    ],
  );
  t.deepEqual(all[0]!.placements, [{ managedRoomObjectId: b.ids[0], roomObjectId: TABLE, x: 3, y: 4, dir: 1 }]);
  const one = ok(t, 'getAllPlayerRoom', b.s, { floorId: 2 }).response.rooms;
  t.deepEqual(one, [
    { floorId: 2, name: master().floor.get(2)!.name, width: 10, height: 8, unlocked: false, placements: [] },
  ]);
  fails(t, 'INVALID_PARAMETERS', 'getAllPlayerRoom', b.s, { floorId: 5 });
});

test("room/get_all?playerId shows another player's room without managed ids; unknown player 202", (t) => {
  const other = buy(t, shopper(2), TABLE, 1, { placements: [{ x: 3, y: 4, dir: 0 }] }).s;
  const r = ok(t, 'getAllPlayerRoom', shopper(1), { playerId: 2, floorId: 1 }, { others: [other] });
  const rooms = r.response.rooms;
  t.deepEqual(answerProblems(arrayOf(PublicFloorView), rooms), [], 'exactly the public view');
  t.deepEqual(rooms[0]!.placements, [{ roomObjectId: TABLE, x: 3, y: 4, dir: 0 }]);
  t.false(JSON.stringify(r.response).includes('managed'));
  fails(t, 'PLAYER_NOT_FOUND', 'getAllPlayerRoom', shopper(1), { playerId: 3 }, { others: [undefined] });
});

test('room/get_all for a floor master data does not have is 107 naming the floor; the floors it has still read', (t) => {
  // Master data without the sub room (floor 2), which a request may still name.
  const mainOnly: Master = { ...m, floor: new Map([...m.floor].filter(([id]) => id === 1)) };
  const s = freshPlayer();
  t.like(fails(t, 'NOT_FOUND', 'getAllPlayerRoom', s, { floorId: 2 }, { m: mainOnly }), { entity: 'floor', id: 2 });
  const rooms = ok(t, 'getAllPlayerRoom', s, { floorId: 1 }, { m: mainOnly }).response.rooms;
  t.deepEqual(
    rooms.map((r) => r.floorId),
    [1],
  );
});
