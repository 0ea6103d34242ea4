import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, itemsOf } from '../_support/core.js';
import { HOUR, MINUTE } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';

const MINT = 1; // coins: 600/h cap 2400 at level 1; 1200/h cap 6000 at level 2
const BAKERY = 2; // item 20001: 6/h cap 24 at level 1
const FOUNTAIN = 6; // decoration

const rich = (): PlayerState => withWealth(freshPlayer(), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });

/** A bought facility (covered); returns the state and its id. */
const bought = (t: ExecutionContext, facilityId: number, s: PlayerState = rich(), now = NOW): { s: PlayerState; id: number } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount: 1 }] }, { now });
  return { s: r.state, id: r.response.managedTownFacilityIds[0]! };
};
/** A bought and opened facility, production starting at `now`. */
const opened = (t: ExecutionContext, facilityId: number, s: PlayerState = rich(), now = NOW): { s: PlayerState; id: number } => {
  const b = bought(t, facilityId, s, now);
  return { s: ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }, { now }).state, id: b.id };
};
const fac = (s: PlayerState, id: number) => s.facilities.find((f) => f.managedTownFacilityId === id);
const collect = (t: ExecutionContext, s: PlayerState, id: number, now: number, req: Record<string, unknown> = {}) =>
  ok(t, 'itemUpPlayerTownFacility', s, { managedTownFacilityId: id, itemNo: 0, amount: 6000, ...req }, { now });

// ---- buy_all ----
test('buy_all pays coins and town points and adds covered facilities', (t) => {
  const s = rich();
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: 2 }, { facilityId: BAKERY, amount: 1 }] });
  const m = master();
  const mint = m.facility.get(MINT)!.price;
  const bakery = m.facility.get(BAKERY)!.price;
  t.is(s.gold - r.state.gold, mint.gold * 2 + bakery.gold);
  t.is(s.kirara - r.state.kirara, mint.kirara * 2 + bakery.kirara);
  const ids = r.response.managedTownFacilityIds;
  t.is(ids.length, 3);
  t.true(r.state.facilities.every((f) => f.covered && f.level === 1 && f.levelUp === null));
  t.deepEqual(r.state.facilities.map((f) => f.facilityId), [MINT, MINT, BAKERY]);
  t.deepEqual(r.response.managedTownFacilities?.map((f) => f.managedTownFacilityId), r.state.facilities.map((f) => f.managedTownFacilityId), 'the changed collection is in the response');
});

test('buy_all: an empty list, a zero or fractional amount and a total over the cap are 102', (t) => {
  const s = rich();
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: 0 }] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: 1.5 }] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: -1 }] });
  fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: MINT, amount: master().game.limits.facilities.cap + 1 }] });
});

test('buy_all: an unknown facility is 107', (t) => {
  fails(t, 'NOT_FOUND', 'buyAllPlayerTownFacility', rich(), { facilities: [{ facilityId: MINT, amount: 1 }, { facilityId: 999, amount: 1 }] });
});

test('buy_all over the storage limit is 302; limit/add makes room', (t) => {
  const base = master().game.limits.facilities.base;
  const full = ok(t, 'buyAllPlayerTownFacility', rich(), { facilities: [{ facilityId: FOUNTAIN, amount: base }] }).state;
  fails(t, 'FACILITY_LIMIT', 'buyAllPlayerTownFacility', full, { facilities: [{ facilityId: MINT, amount: 1 }] });
  const more = ok(t, 'addPlayerTownFacilityLimit', full, {}).state;
  ok(t, 'buyAllPlayerTownFacility', more, { facilities: [{ facilityId: MINT, amount: 1 }] });
});

test('buy_all short of coins is 441, short of town points 446', (t) => {
  const price = master().facility.get(MINT)!.price;
  fails(t, 'GOLD_IS_SHORT', 'buyAllPlayerTownFacility', withWealth(rich(), { gold: price.gold - 1 }), { facilities: [{ facilityId: MINT, amount: 1 }] });
  fails(t, 'KIRARA_IS_SHORT', 'buyAllPlayerTownFacility', withWealth(rich(), { kirara: price.kirara * 2 - 1 }), { facilities: [{ facilityId: MINT, amount: 2 }] });
});

// ---- open_up ----
test('open_up removes the cover and production starts then', (t) => {
  const b = bought(t, MINT);
  const r = ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }, { now: NOW + HOUR });
  t.false(fac(r.state, b.id)!.covered);
  t.is(fac(r.state, b.id)!.accruedAt, NOW + HOUR);
  // Production counts from the opening, not the purchase.
  t.is(collect(t, r.state, b.id, NOW + 2 * HOUR).response.amount, 600);
});

test('open_up: an unknown facility is 107; an open one is 317', (t) => {
  const o = opened(t, MINT);
  fails(t, 'NOT_FOUND', 'openUpPlayerTownFacility', o.s, { managedTownFacilityId: 9999 });
  fails(t, 'STATE_CONFLICT', 'openUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id });
});

// ---- level_up ----
test('level_up pays and starts a timer; the level rises once it has passed, settled by the next read', (t) => {
  const o = opened(t, MINT);
  const r = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id });
  t.is(o.s.gold - r.state.gold, 2000);
  t.deepEqual(fac(r.state, o.id)!.levelUp, { startedAt: NOW, completesAt: NOW + HOUR });
  t.is(fac(r.state, o.id)!.level, 1);
  t.is(r.response.completesAt, '2026-11-21T13:00:00');
  // A later operation settles it: the level is 2, whenever that operation comes.
  for (const later of [NOW + HOUR, NOW + 5 * HOUR]) {
    const after = ok(t, 'levelUpPlayerTownFacility', withWealth(r.state, { items: { 5001: 100 } }), { managedTownFacilityId: o.id }, { now: later });
    t.is(fac(after.state, o.id)!.level, 2);
    t.is(after.response.level, 2);
  }
});

test('level_up: 107 unknown, 317 covered, 316 while running, 317 at the maximum level', (t) => {
  const b = bought(t, MINT);
  fails(t, 'NOT_FOUND', 'levelUpPlayerTownFacility', b.s, { managedTownFacilityId: 9999 });
  fails(t, 'STATE_CONFLICT', 'levelUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id });
  const o = opened(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'TIMER_RUNNING', 'levelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + HOUR - 1 });
  const f = opened(t, FOUNTAIN);
  let s = withWealth(f.s, { items: { 5004: 1000 } });
  for (let i = 0; i < 2; i++) s = ok(t, 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: f.id }).state;
  t.is(fac(s, f.id)!.level, 3);
  fails(t, 'STATE_CONFLICT', 'levelUpPlayerTownFacility', s, { managedTownFacilityId: f.id });
});

test('level_up short of coins is 441, short of items 442', (t) => {
  const o = opened(t, MINT);
  fails(t, 'GOLD_IS_SHORT', 'levelUpPlayerTownFacility', withWealth(o.s, { gold: 1999 }), { managedTownFacilityId: o.id });
  const lv2 = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'ITEM_IS_SHORT', 'levelUpPlayerTownFacility', withWealth(lv2, { items: { 5001: 9 } }), { managedTownFacilityId: o.id });
  const r = ok(t, 'levelUpPlayerTownFacility', withWealth(lv2, { items: { 5001: 10 } }), { managedTownFacilityId: o.id });
  t.is(itemsOf(r.state)['5001'], undefined);
});

test('production pauses while levelling and restarts at the new rate when the level-up ends', (t) => {
  const o = opened(t, MINT);
  // One hour of level 1, then a two-hour wait that ends the one-hour level-up, then an hour at level 2.
  const lv = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }, { now: NOW + HOUR }).state;
  const r = collect(t, lv, o.id, NOW + 3 * HOUR);
  t.is(r.response.amount, 600 + 1200);
});

// ---- gem_level_up ----
test('gem_level_up finishes a running level-up for gems priced on the time left', (t) => {
  const o = opened(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  const half = ok(t, 'gemLevelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + 30 * MINUTE });
  t.is(half.response.gemSpent, 25);
  t.is(running.gem - half.state.gem, 25);
  t.is(running.gold, half.state.gold, 'the cost was paid when it started');
  t.is(fac(half.state, o.id)!.level, 2);
  t.is(fac(half.state, o.id)!.levelUp, null);
  // A moment after the start, the price is the whole price (rounded up).
  t.is(ok(t, 'gemLevelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + 1 }).response.gemSpent, 50);
  t.is(ok(t, 'gemLevelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + 45 * MINUTE }).response.gemSpent, 13);
});

test('gem_level_up on an idle facility pays its cost and the full gem price', (t) => {
  const o = opened(t, MINT);
  const r = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id });
  t.is(o.s.gem - r.state.gem, 50);
  t.is(o.s.gold - r.state.gold, 2000);
  t.is(fac(r.state, o.id)!.level, 2);
});

test('gem_level_up: 107 unknown, 317 covered or at maximum, 445 short of gems, 441/442 short of the cost when idle', (t) => {
  const b = bought(t, MINT);
  fails(t, 'NOT_FOUND', 'gemLevelUpPlayerTownFacility', b.s, { managedTownFacilityId: 9999 });
  fails(t, 'STATE_CONFLICT', 'gemLevelUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id });
  const o = opened(t, MINT);
  fails(t, 'GEM_IS_SHORT', 'gemLevelUpPlayerTownFacility', withWealth(o.s, { gem: 49 }), { managedTownFacilityId: o.id });
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'GEM_IS_SHORT', 'gemLevelUpPlayerTownFacility', withWealth(running, { gem: 24 }), { managedTownFacilityId: o.id }, { now: NOW + 30 * MINUTE });
  fails(t, 'GOLD_IS_SHORT', 'gemLevelUpPlayerTownFacility', withWealth(o.s, { gold: 0 }), { managedTownFacilityId: o.id });
  const lv2 = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'ITEM_IS_SHORT', 'gemLevelUpPlayerTownFacility', lv2, { managedTownFacilityId: o.id });
  const f = opened(t, FOUNTAIN);
  let s = withWealth(f.s, { items: { 5004: 1000 } });
  for (let i = 0; i < 2; i++) s = ok(t, 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: f.id }).state;
  fails(t, 'STATE_CONFLICT', 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: f.id });
});

// ---- item_up ----
test('item_up collects exactly the production since the last collection, at the level rate', (t) => {
  const o = opened(t, MINT);
  const a = collect(t, o.s, o.id, NOW + HOUR);
  t.is(a.response.amount, 600);
  t.is(a.state.gold - o.s.gold, 600);
  const b = collect(t, a.state, o.id, NOW + HOUR + 30 * MINUTE);
  t.is(b.response.amount, 300);
  t.is(b.state.gold - o.s.gold, 900);
});

test('item_up gives items for a material facility, up to its storage cap', (t) => {
  const o = opened(t, BAKERY);
  const r = ok(t, 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 }, { now: NOW + 100 * HOUR });
  t.is(r.response.amount, 24);
  t.is(itemsOf(r.state)['20001'], 24);
  t.truthy(r.response.itemSummary);
});

test('item_up: fractions of a unit carry over to the next collection', (t) => {
  const o = opened(t, BAKERY); // 6 an hour: one every 10 minutes
  const a = ok(t, 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 }, { now: NOW + 15 * MINUTE });
  t.is(a.response.amount, 1);
  const b = ok(t, 'itemUpPlayerTownFacility', a.state, { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 }, { now: NOW + 20 * MINUTE });
  t.is(b.response.amount, 1);
});

test('item_up: the storage cap stops production', (t) => {
  const o = opened(t, MINT);
  t.is(collect(t, o.s, o.id, NOW + 4 * HOUR).response.amount, 2400);
  t.is(collect(t, o.s, o.id, NOW + 40 * HOUR).response.amount, 2400);
});

test('item_up: actionTime is clamped to the last collection and now', (t) => {
  const o = opened(t, MINT);
  // A client clock ahead of the server gets no more than now.
  t.is(collect(t, o.s, o.id, NOW + HOUR, { actionTime: NOW + 3 * HOUR }).response.amount, 600);
  // Before the last collection: nothing.
  const a = collect(t, o.s, o.id, NOW + HOUR);
  const b = collect(t, a.state, o.id, NOW + 2 * HOUR, { actionTime: NOW });
  t.is(b.response.amount, 0);
  t.is(b.state, a.state, 'nothing collected changes nothing');
  // In between: up to actionTime, and the rest stays for later.
  const c = collect(t, o.s, o.id, NOW + 2 * HOUR, { actionTime: NOW + HOUR });
  t.is(c.response.amount, 600);
  t.is(collect(t, c.state, o.id, NOW + 2 * HOUR).response.amount, 600);
});

test('item_up: asking for less leaves the rest; asking for more gives what is there', (t) => {
  const o = opened(t, MINT);
  const a = collect(t, o.s, o.id, NOW + HOUR, { amount: 100 });
  t.is(a.response.amount, 100);
  t.is(a.response.stock, 500);
  t.is(collect(t, a.state, o.id, NOW + HOUR, { amount: 2400 }).response.amount, 500);
});

test('item_up: 107 unknown, 317 covered, 316 while levelling, 317 for a decoration', (t) => {
  const b = bought(t, MINT);
  fails(t, 'NOT_FOUND', 'itemUpPlayerTownFacility', b.s, { managedTownFacilityId: 9999, itemNo: 0, amount: 1 });
  fails(t, 'STATE_CONFLICT', 'itemUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id, itemNo: 0, amount: 1 }, { now: NOW + HOUR });
  const o = opened(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }, { now: NOW + HOUR }).state;
  fails(t, 'TIMER_RUNNING', 'itemUpPlayerTownFacility', running, { managedTownFacilityId: o.id, itemNo: 0, amount: 1 }, { now: NOW + 90 * MINUTE });
  const f = opened(t, FOUNTAIN);
  fails(t, 'STATE_CONFLICT', 'itemUpPlayerTownFacility', f.s, { managedTownFacilityId: f.id, itemNo: 0, amount: 1 }, { now: NOW + HOUR });
});

test('item_up: a wrong itemNo, an amount over the storage or not positive is 102', (t) => {
  const o = opened(t, MINT);
  const at = { now: NOW + HOUR };
  fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 20001, amount: 1 }, at);
  const maxCap = master().facility.get(MINT)!.levels.at(-1)!.production!.cap;
  fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 0, amount: maxCap + 1 }, at);
  t.is(collect(t, o.s, o.id, NOW + HOUR, { amount: maxCap }).response.amount, 600);
  fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 0, amount: 0 }, at);
  fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 0, amount: 2.5 }, at);
});

test('item_up: a full item box is 305 and a full purse 311; otherwise only what fits is taken', (t) => {
  const o = opened(t, BAKERY);
  const max = master().item.get(20001)!.max;
  fails(t, 'ITEM_LIMIT', 'itemUpPlayerTownFacility', withWealth(o.s, { items: { 20001: max } }), { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 }, { now: NOW + 2 * HOUR });
  const r = ok(t, 'itemUpPlayerTownFacility', withWealth(o.s, { items: { 20001: max - 5 } }), { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 }, { now: NOW + 2 * HOUR });
  t.is(r.response.amount, 5);
  t.is(r.response.stock, 7);
  const g = opened(t, MINT);
  fails(t, 'CURRENCY_LIMIT', 'itemUpPlayerTownFacility', withWealth(g.s, { gold: master().game.currencyMax.gold }), { managedTownFacilityId: g.id, itemNo: 0, amount: 10 }, { now: NOW + HOUR });
});

// ---- sale ----
test('sale gives the sale price and removes the facility from storage and the town', (t) => {
  const o = opened(t, MINT);
  const placed = ok(t, 'setAllPlayerTownFacilityBuildPoint', o.s, { buildPoints: [{ buildPointId: 1, managedTownFacilityId: o.id }] }).state;
  const r = ok(t, 'salePlayerTownFacility', placed, { managedTownFacilityId: o.id });
  t.is(r.state.gold - placed.gold, master().facility.get(MINT)!.salePrice);
  t.is(fac(r.state, o.id), undefined);
  t.deepEqual(r.state.townLayout.buildPoints, []);
  t.truthy(r.response.town);
});

test('sale: 107 unknown, 316 while levelling (allowed once the level-up has passed), 311 purse full', (t) => {
  const o = opened(t, MINT);
  fails(t, 'NOT_FOUND', 'salePlayerTownFacility', o.s, { managedTownFacilityId: 9999 });
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'TIMER_RUNNING', 'salePlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + HOUR - 1 });
  ok(t, 'salePlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + HOUR });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerTownFacility', withWealth(o.s, { gold: master().game.currencyMax.gold }), { managedTownFacilityId: o.id });
});

// ---- limit/add ----
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

// ---- build_point/set_all ----
test('build_point/set_all replaces the facilities on build points', (t) => {
  const a = opened(t, MINT);
  const b = bought(t, FOUNTAIN, a.s);
  const one = ok(t, 'setAllPlayerTownFacilityBuildPoint', b.s, { buildPoints: [{ buildPointId: 1, managedTownFacilityId: a.id }, { buildPointId: 2, managedTownFacilityId: b.id }] });
  t.is(one.state.townLayout.buildPoints.length, 2);
  const two = ok(t, 'setAllPlayerTownFacilityBuildPoint', one.state, { buildPoints: [{ buildPointId: 5, managedTownFacilityId: b.id }] });
  t.deepEqual(two.state.townLayout.buildPoints, [{ buildPointId: 5, managedTownFacilityId: b.id }]);
});

test('build_point/set_all: 107 for an unknown facility or build point, 102 for a point or facility used twice', (t) => {
  const a = opened(t, MINT);
  const b = bought(t, FOUNTAIN, a.s);
  fails(t, 'NOT_FOUND', 'setAllPlayerTownFacilityBuildPoint', b.s, { buildPoints: [{ buildPointId: 1, managedTownFacilityId: 9999 }] });
  fails(t, 'NOT_FOUND', 'setAllPlayerTownFacilityBuildPoint', b.s, { buildPoints: [{ buildPointId: 999, managedTownFacilityId: a.id }] });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerTownFacilityBuildPoint', b.s, { buildPoints: [{ buildPointId: 1, managedTownFacilityId: a.id }, { buildPointId: 1, managedTownFacilityId: b.id }] });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerTownFacilityBuildPoint', b.s, { buildPoints: [{ buildPointId: 1, managedTownFacilityId: a.id }, { buildPointId: 2, managedTownFacilityId: a.id }] });
});

test('the facility view shows a passed level-up as done and the production held now', (t) => {
  const o = opened(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }, { now: NOW + HOUR });
  const view = running.response.managedTownFacilities?.[0];
  if (!view) return t.fail('the changed facilities come with the answer');
  t.is(view.level, 1);
  t.is(view.levelUpCompletesAt, '2026-11-21T14:00:00');
  t.deepEqual(view.production, { itemNo: 0, perHour: 600, cap: 2400, stock: 600 });
  // Read two hours later through an operation that changes the facilities: settled.
  const b = bought(t, FOUNTAIN, running.state, NOW + 3 * HOUR);
  const r = ok(t, 'buyAllPlayerTownFacility', b.s, { facilities: [{ facilityId: FOUNTAIN, amount: 1 }] }, { now: NOW + 3 * HOUR });
  const later = r.response.managedTownFacilities?.find((f) => f.managedTownFacilityId === o.id);
  if (!later) return t.fail('the changed facilities come with the answer');
  t.is(later.level, 2);
  t.is(later.levelUpCompletesAt, null);
  t.deepEqual(later.production, { itemNo: 0, perHour: 1200, cap: 6000, stock: 600 + 1200 });
});
