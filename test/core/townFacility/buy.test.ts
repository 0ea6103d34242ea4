// Buying and opening town facilities (docs/rules/town.md, Town facilities): buy_all pays
// coins and town points and adds covered facilities; the storage cap and limit at and past
// their boundary (limit/add makes room), checked before anything is paid; open_up removes
// the cover. Each refusal names what refused.
import test, { type ExecutionContext } from 'ava';
import { fails, master, NOW, ok, withWealth, freshPlayer } from '../../_support/core.js';
import { HOUR } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const MINT = 1; // coins: 600/h cap 2400 at level 1; 1200/h cap 6000 at level 2
const BAKERY = 2; // item 20001: 6/h cap 24 at level 1
const FOUNTAIN = 6; // decoration

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
const fac = (s: PlayerState, id: number) => s.facilities.find((f) => f.managedTownFacilityId === id);
const collect = (t: ExecutionContext, s: PlayerState, id: number, now: number, req: Record<string, unknown> = {}) =>
  ok(t, 'itemUpPlayerTownFacility', s, { managedTownFacilityId: id, itemNo: 0, amount: 6000, ...req }, { now });

const m = master();
const LANTERN_POST = 13; // decoration, the cheapest facility (500 coins, 300 town points)
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');

const boughtIds = (
  t: ExecutionContext,
  facilityId: number,
  amount = 1,
  s: PlayerState = rich(),
): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};

const rich = (playerId = 1): PlayerState =>
  withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });

test('buy_all pays coins and town points and adds covered facilities', (t) => {
  const s = rich();
  const r = ok(t, 'buyAllPlayerTownFacility', s, {
    facilities: [
      { facilityId: MINT, amount: 2 },
      { facilityId: BAKERY, amount: 1 },
    ],
  });
  const m = master();
  const mint = m.facility.get(MINT)!.price;
  const bakery = m.facility.get(BAKERY)!.price;
  t.is(s.gold - r.state.gold, mint.gold * 2 + bakery.gold);
  t.is(s.kirara - r.state.kirara, mint.kirara * 2 + bakery.kirara);
  const ids = r.response.managedTownFacilityIds;
  t.is(ids.length, 3);
  t.true(r.state.facilities.every((f) => f.covered && f.level === 1 && f.levelUp === null));
  t.deepEqual(
    r.state.facilities.map((f) => f.facilityId),
    [MINT, MINT, BAKERY],
  );
  t.deepEqual(
    r.response.managedTownFacilities?.map((f) => f.managedTownFacilityId),
    r.state.facilities.map((f) => f.managedTownFacilityId),
    'the changed collection is in the response',
  );
});

test('buy_all: an empty list, a zero or fractional amount and a total over the cap are 102', (t) => {
  const s = rich();
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: 0 }] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: 1.5 }] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: -1 }] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, {
    facilities: [{ facilityId: MINT, amount: master().game.limits.facilities.cap + 1 }],
  });
});

test('buy_all: an unknown facility is 107', (t) => {
  fails(t, 'NOT_FOUND', 'buyAllPlayerTownFacility', rich(), {
    facilities: [
      { facilityId: MINT, amount: 1 },
      { facilityId: 999, amount: 1 },
    ],
  });
});

test('buy_all over the storage limit is 302; limit/add makes room', (t) => {
  const base = master().game.limits.facilities.base;
  const full = ok(t, 'buyAllPlayerTownFacility', rich(), {
    facilities: [{ facilityId: FOUNTAIN, amount: base }],
  }).state;
  fails(t, 'FACILITY_LIMIT', 'buyAllPlayerTownFacility', full, { facilities: [{ facilityId: MINT, amount: 1 }] });
  const more = ok(t, 'addPlayerTownFacilityLimit', full, {}).state;
  ok(t, 'buyAllPlayerTownFacility', more, { facilities: [{ facilityId: MINT, amount: 1 }] });
});

test('buy_all short of coins is 441, short of town points 446', (t) => {
  const price = master().facility.get(MINT)!.price;
  fails(t, 'GOLD_IS_SHORT', 'buyAllPlayerTownFacility', withWealth(rich(), { gold: price.gold - 1 }), {
    facilities: [{ facilityId: MINT, amount: 1 }],
  });
  fails(t, 'KIRARA_IS_SHORT', 'buyAllPlayerTownFacility', withWealth(rich(), { kirara: price.kirara * 2 - 1 }), {
    facilities: [{ facilityId: MINT, amount: 2 }],
  });
});

test('buy_all naming no facility is 102 on the field facilities, saying one is needed', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', rich(), { facilities: [] });
  t.is(fieldOf(e), 'facilities');
  t.regex(reasonOf(e), /at least one/);
});

test('buy_all may buy exactly the storage cap once the storage is raised to it; one more is 102 naming the cap', (t) => {
  const l = m.game.limits.facilities; // base 30, cap 60
  const s0 = rich();
  const raised: PlayerState = { ...s0, limitAdds: { ...s0.limitAdds, facility: (l.cap - l.base) / l.step } };
  const r = ok(t, 'buyAllPlayerTownFacility', raised, { facilities: [{ facilityId: LANTERN_POST, amount: l.cap }] });
  t.is(r.state.facilities.length, l.cap);
  // Split over two kinds, the total counts.
  const e = fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', raised, {
    facilities: [
      { facilityId: LANTERN_POST, amount: l.cap },
      { facilityId: MINT, amount: 1 },
    ],
  });
  t.is(fieldOf(e), 'facilities');
  t.regex(reasonOf(e), new RegExp(`\\b${l.cap}\\b`));
});

test('an unknown facility in buy_all is 107 naming the town facility and its id', (t) => {
  t.like(
    fails(t, 'NOT_FOUND', 'buyAllPlayerTownFacility', rich(), {
      facilities: [
        { facilityId: MINT, amount: 1 },
        { facilityId: 999, amount: 1 },
      ],
    }),
    { entity: 'town facility', id: 999 },
  );
});

test('buy_all past the storage limit is 302 with the limit, before anything is paid: a short purse too gets 302', (t) => {
  const base = m.game.limits.facilities.base;
  const full = boughtIds(t, LANTERN_POST, base).s;
  const poor = withWealth(full, { gold: 0, kirara: 0 });
  t.like(
    fails(t, 'FACILITY_LIMIT', 'buyAllPlayerTownFacility', poor, { facilities: [{ facilityId: MINT, amount: 1 }] }),
    { max: base },
  );
  // One short of full, two more pass the limit by one; one more fills it exactly.
  const almost = boughtIds(t, LANTERN_POST, base - 1).s;
  t.like(
    fails(t, 'FACILITY_LIMIT', 'buyAllPlayerTownFacility', withWealth(almost, { gold: 0 }), {
      facilities: [{ facilityId: MINT, amount: 2 }],
    }),
    { max: base },
  );
  t.is(
    ok(t, 'buyAllPlayerTownFacility', almost, { facilities: [{ facilityId: MINT, amount: 1 }] }).state.facilities
      .length,
    base,
  );
});

test('limit/add adds the step for gems, up to the cap (295); short of gems is 445', (t) => {
  const l = master().game.limits.facilities;
  const s = rich();
  const r = ok(t, 'addPlayerTownFacilityLimit', s, {});
  t.is(r.response.facilityLimit, l.base + l.step);
  t.is(s.gem - r.state.gem, l.gemPrice);
  t.is(r.state.limitAdds.facility, 1);
  fails(t, 'GEM_IS_SHORT', 'addPlayerTownFacilityLimit', withWealth(s, { gem: l.gemPrice - 1 }), {});
  const atCap = { ...s, limitAdds: { ...s.limitAdds, facility: (l.cap - l.base) / l.step } };
  fails(t, 'FACILITY_EXT_LIMIT', 'addPlayerTownFacilityLimit', atCap, {});
});

test('each storage at its cap refuses more slots with its own error: 295 for facilities, 298 for room objects', (t) => {
  const s = rich();
  const fl = m.game.limits.facilities;
  const rl = m.game.limits.roomObjects;
  const full = {
    ...s,
    limitAdds: { ...s.limitAdds, facility: (fl.cap - fl.base) / fl.step, roomObject: (rl.cap - rl.base) / rl.step },
  };
  t.like(fails(t, 'FACILITY_EXT_LIMIT', 'addPlayerTownFacilityLimit', full, {}), { max: fl.cap });
  t.like(fails(t, 'ROOM_OBJECT_EXT_LIMIT', 'addPlayerRoomObjectLimit', full, {}), { max: rl.cap });
});

// ---- open_up ----

test('open_up removes the cover and production starts then', (t) => {
  const b = boughtOne(t, MINT);
  const r = ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }, { now: NOW + HOUR });
  t.false(fac(r.state, b.id)!.covered);
  t.is(fac(r.state, b.id)!.accruedAt, NOW + HOUR);
  // Production counts from the opening, not the purchase.
  t.is(collect(t, r.state, b.id, NOW + 2 * HOUR).response.amount, 600);
});

test('open_up: an unknown facility is 107; an open one is 317', (t) => {
  const o = openedOne(t, MINT);
  fails(t, 'NOT_FOUND', 'openUpPlayerTownFacility', o.s, { managedTownFacilityId: 9999 });
  fails(t, 'STATE_CONFLICT', 'openUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id });
});

test('open_up on an open facility is 317 saying which facility is already open', (t) => {
  const o = openedOne(t, MINT);
  const reason = reasonOf(fails(t, 'STATE_CONFLICT', 'openUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }));
  t.regex(reason, new RegExp(`town facility ${o.id}\\b.*already open`));
});

test('an unknown facility is 107 naming the town facility', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'openUpPlayerTownFacility', rich(), { managedTownFacilityId: 9999 }), {
    entity: 'town facility',
    id: 9999,
  });
});
