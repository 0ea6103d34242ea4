// Rooms at their edges (docs/rules/town.md, "Rooms and room objects"): a floor
// the request may name but master data does not have.
import test from 'ava';
import { fails, freshPlayer, master, ok } from '../_support/core.js';
import type { Master } from '../../core/master/index.js';

const m = master();

test('room/get_all for a floor master data does not have is 107 naming the floor; the floors it has still read', (t) => {
  // Master data without the sub room (floor 2), which a request may still name.
  const mainOnly: Master = { ...m, floor: new Map([...m.floor].filter(([id]) => id === 1)) };
  const s = freshPlayer();
  t.like(fails(t, 'NOT_FOUND', 'getAllPlayerRoom', s, { floorId: 2 }, { m: mainOnly }), { entity: 'floor', id: 2 });
  const rooms = ok(t, 'getAllPlayerRoom', s, { floorId: 1 }, { m: mainOnly }).response.rooms;
  t.deepEqual(rooms.map((r) => r.floorId), [1]);
});
