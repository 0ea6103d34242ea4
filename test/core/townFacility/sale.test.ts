// Selling town facilities (docs/rules/town.md, Town facilities): the sale price paid, the
// facility taken out of storage and out of the town (its build point or content building's
// slot, the others kept), never while levelling; one that sells for nothing leaves the purse
// alone.
import test, { type ExecutionContext } from 'ava';
import { fails, master, NOW, ok, withWealth, freshPlayer, grantCharacters } from '../../_support/core.js';
import { HOUR } from '../../../core/time.js';
import type { PlayerState, OwnedFacility } from '../../../core/state.js';
import type { Master } from '../../../core/master/index.js';

const MINT = 1; // coins: 600/h cap 2400 at level 1; 1200/h cap 6000 at level 2

/** A bought facility (covered); returns the state and its id. */
const boughtOne = (
  t: ExecutionContext,
  facilityId: number,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; id: number } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount: 1 }] }, { now });
  return { s: r.state, id: r.response.managedTownFacilityIds[0]! };
};
/** A bought and opened facility, production starting at `now`. */
const openedOne = (
  t: ExecutionContext,
  facilityId: number,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; id: number } => {
  const b = boughtOne(t, facilityId, s, now);
  return { s: ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }, { now }).state, id: b.id };
};

const m = master();
const FOUNTAIN = 6; // decoration: produces nothing; 3 levels

const boughtIds = (
  t: ExecutionContext,
  facilityId: number,
  amount = 1,
  s: PlayerState = rich(),
): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};
// Title 1: characters 1011-1015 (content room 101); title 2: 1021-1024 (room 102).
const ROOM1 = 101;

const rich = (playerId = 1): PlayerState =>
  withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
const fac = (s: PlayerState, id: number): OwnedFacility | undefined =>
  s.facilities.find((f) => f.managedTownFacilityId === id);

/** Bought facilities (covered), all at `now`. */
const bought = (
  t: ExecutionContext,
  facilityId: number,
  amount: number,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] }, { now });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};

const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
/** A player owning characters of titles 1 and 2 (so content rooms 101 and 102 have appeared). */
const townsfolk = (playerId = 1): PlayerState => withCharacters(rich(playerId), [1011, 1012, 1021]);

/** Three mints: a on build point 1, b on build point 2, c and d near content room 101 (lot 1, slots 1 and 2), e nowhere. */
const placedTown = (t: ExecutionContext) => {
  const f = bought(t, MINT, 5, townsfolk());
  const [a, b, c, d, e] = f.ids as [number, number, number, number, number];
  const s = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [
      {
        lotId: 1,
        contentRoomId: ROOM1,
        facilities: [
          { slot: 1, managedTownFacilityId: c },
          { slot: 2, managedTownFacilityId: d },
        ],
      },
    ],
    buildPoints: [
      { buildPointId: 1, managedTownFacilityId: a },
      { buildPointId: 2, managedTownFacilityId: b },
    ],
  }).state;
  return { s, a, b, c, d, e };
};

test('sale gives the sale price and removes the facility from storage and the town', (t) => {
  const o = openedOne(t, MINT);
  const placed = ok(t, 'setAllPlayerTownFacilityBuildPoint', o.s, {
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: o.id }],
  }).state;
  const r = ok(t, 'salePlayerTownFacility', placed, { managedTownFacilityId: o.id });
  t.is(r.state.gold - placed.gold, master().facility.get(MINT)!.salePrice);
  t.is(fac(r.state, o.id), undefined);
  t.deepEqual(r.state.townLayout.buildPoints, []);
  t.truthy(r.response.town);
});

test('sale: 107 unknown, 316 while levelling (allowed once the level-up has passed), 311 purse full', (t) => {
  const o = openedOne(t, MINT);
  fails(t, 'NOT_FOUND', 'salePlayerTownFacility', o.s, { managedTownFacilityId: 9999 });
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(
    t,
    'TIMER_RUNNING',
    'salePlayerTownFacility',
    running,
    { managedTownFacilityId: o.id },
    { now: NOW + HOUR - 1 },
  );
  ok(t, 'salePlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + HOUR });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerTownFacility', withWealth(o.s, { gold: master().game.currencyMax.gold }), {
    managedTownFacilityId: o.id,
  });
});

test("selling one facility removes only it: the player's other facilities stay as they were", (t) => {
  const b = boughtIds(t, MINT, 3);
  const [a, sold, c] = b.ids as [number, number, number];
  const r = ok(t, 'salePlayerTownFacility', b.s, { managedTownFacilityId: sold });
  t.deepEqual(
    r.state.facilities.map((f) => f.managedTownFacilityId),
    [a, c],
  );
  t.deepEqual(
    r.state.facilities,
    b.s.facilities.filter((f) => f.managedTownFacilityId !== sold),
  );
  t.is(r.response.gold, m.facility.get(MINT)!.salePrice);
});

test('a facility that sells for nothing is sold without touching the purse, even one above a lowered coin maximum', (t) => {
  const fountain = m.facility.get(FOUNTAIN)!;
  const b = boughtIds(t, FOUNTAIN);
  // Master data now gives the fountain no sale price and caps coins below what the player holds.
  const lowered: Master = {
    ...m,
    facility: new Map(m.facility).set(FOUNTAIN, { ...fountain, salePrice: 0 }),
    game: { ...m.game, currencyMax: { ...m.game.currencyMax, gold: 1000 } },
  };
  const r = ok(t, 'salePlayerTownFacility', b.s, { managedTownFacilityId: b.ids[0] }, { m: lowered });
  t.is(r.response.gold, 0);
  t.is(r.state.gold, b.s.gold);
  t.deepEqual(r.state.facilities, []);
});

test('a sold facility leaves its build point; the other build points and content buildings keep theirs', (t) => {
  const { s, a, b, c, d } = placedTown(t);
  const r = ok(t, 'salePlayerTownFacility', s, { managedTownFacilityId: a });
  t.deepEqual(r.state.townLayout.buildPoints, [{ buildPointId: 2, managedTownFacilityId: b }]);
  t.deepEqual(r.state.townLayout.contentBuildings, [
    {
      lotId: 1,
      contentRoomId: ROOM1,
      facilities: [
        { slot: 1, managedTownFacilityId: c },
        { slot: 2, managedTownFacilityId: d },
      ],
    },
  ]);
  t.deepEqual(r.response.town, r.state.townLayout, 'the changed town comes with the answer');
});

test("a sold facility leaves its content building's slot; the building's other facilities and the build points stay", (t) => {
  const { s, a, b, c, d } = placedTown(t);
  const r = ok(t, 'salePlayerTownFacility', s, { managedTownFacilityId: c });
  t.deepEqual(r.state.townLayout.contentBuildings, [
    { lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 2, managedTownFacilityId: d }] },
  ]);
  t.deepEqual(r.state.townLayout.buildPoints, [
    { buildPointId: 1, managedTownFacilityId: a },
    { buildPointId: 2, managedTownFacilityId: b },
  ]);
  t.deepEqual(r.response.town, r.state.townLayout, 'the changed town comes with the answer');
});

test('selling a facility placed nowhere leaves the town as it is, and the answer does not send it', (t) => {
  const { s, e } = placedTown(t);
  const r = ok(t, 'salePlayerTownFacility', s, { managedTownFacilityId: e });
  t.is(fac(r.state, e), undefined);
  t.is(r.state.townLayout, s.townLayout);
  t.false('town' in r.response);
});
