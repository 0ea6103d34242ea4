// Town facilities at their edges (docs/rules/town.md, "Town facilities"): the
// storage cap and limit at and past their boundary, which check refuses first,
// what each refusal names for the client, collecting into a purse that is nearly
// or wholly full, and what a sale leaves behind.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import { HOUR } from '../../core/time.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const MINT = 1; // coins: 600/h, cap 2400 at level 1; level-up 1 h
const BAKERY = 2; // item 20001: 6/h, cap 24 at level 1
const FOUNTAIN = 6; // decoration: produces nothing; 3 levels
const LANTERN_POST = 13; // decoration, the cheapest facility (500 coins, 300 town points)

const rich = (): PlayerState => withWealth(freshPlayer(), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');

const bought = (t: ExecutionContext, facilityId: number, amount = 1, s: PlayerState = rich()): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};
const opened = (t: ExecutionContext, facilityId: number, s: PlayerState = rich()): { s: PlayerState; id: number } => {
  const b = bought(t, facilityId, 1, s);
  const id = b.ids[0]!;
  return { s: ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: id }).state, id };
};

// ---- buy_all ----

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
  const e = fails(t, 'INVALID_PARAMETERS', 'buyAllPlayerTownFacility', raised, { facilities: [{ facilityId: LANTERN_POST, amount: l.cap }, { facilityId: MINT, amount: 1 }] });
  t.is(fieldOf(e), 'facilities');
  t.regex(reasonOf(e), new RegExp(`\\b${l.cap}\\b`));
});

test('an unknown facility in buy_all is 107 naming the town facility and its id', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'buyAllPlayerTownFacility', rich(), { facilities: [{ facilityId: MINT, amount: 1 }, { facilityId: 999, amount: 1 }] }),
    { entity: 'town facility', id: 999 });
});

test('buy_all past the storage limit is 302 with the limit, before anything is paid: a short purse too gets 302', (t) => {
  const base = m.game.limits.facilities.base;
  const full = bought(t, LANTERN_POST, base).s;
  const poor = withWealth(full, { gold: 0, kirara: 0 });
  t.like(fails(t, 'FACILITY_LIMIT', 'buyAllPlayerTownFacility', poor, { facilities: [{ facilityId: MINT, amount: 1 }] }), { max: base });
  // One short of full, two more pass the limit by one; one more fills it exactly.
  const almost = bought(t, LANTERN_POST, base - 1).s;
  t.like(fails(t, 'FACILITY_LIMIT', 'buyAllPlayerTownFacility', withWealth(almost, { gold: 0 }), { facilities: [{ facilityId: MINT, amount: 2 }] }), { max: base });
  t.is(ok(t, 'buyAllPlayerTownFacility', almost, { facilities: [{ facilityId: MINT, amount: 1 }] }).state.facilities.length, base);
});

// ---- open_up, level_up ----

test('open_up on an open facility is 317 saying which facility is already open', (t) => {
  const o = opened(t, MINT);
  const reason = reasonOf(fails(t, 'STATE_CONFLICT', 'openUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }));
  t.regex(reason, new RegExp(`town facility ${o.id}\\b.*already open`));
});

test('a covered facility cannot level (317): the refusal names it and says to open it first', (t) => {
  const b = bought(t, MINT);
  const id = b.ids[0]!;
  for (const name of ['levelUpPlayerTownFacility', 'gemLevelUpPlayerTownFacility'] as const) {
    const reason = reasonOf(fails(t, 'STATE_CONFLICT', name, b.s, { managedTownFacilityId: id }));
    t.regex(reason, new RegExp(`town facility ${id}\\b.*covered.*open it`), name);
  }
});

test('a facility at its maximum level cannot level (317): the refusal names it and its level', (t) => {
  const o = opened(t, FOUNTAIN);
  let s = withWealth(o.s, { items: { 5004: 1000 } });
  const top = m.facility.get(FOUNTAIN)!.levels.length; // 3
  for (let level = 1; level < top; level++) s = ok(t, 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: o.id }).state;
  const reason = reasonOf(fails(t, 'STATE_CONFLICT', 'levelUpPlayerTownFacility', s, { managedTownFacilityId: o.id }));
  t.regex(reason, new RegExp(`town facility ${o.id}\\b.*maximum level ${top}$`));
});

test('a running level-up refuses another level-up and a collection with 316 naming the level-up and when it completes', (t) => {
  const o = opened(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  const expected = { entity: `level-up of town facility ${o.id}`, completesAt: NOW + HOUR };
  t.like(fails(t, 'TIMER_RUNNING', 'levelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + HOUR - 1 }), expected);
  t.like(fails(t, 'TIMER_RUNNING', 'itemUpPlayerTownFacility', running, { managedTownFacilityId: o.id, itemNo: 0, amount: 1 }, { now: NOW + HOUR - 1 }), expected);
  t.like(fails(t, 'TIMER_RUNNING', 'salePlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + HOUR - 1 }), expected);
});

// ---- item_up ----

test('item_up refusals name the facility: still covered, or producing nothing (317)', (t) => {
  const b = bought(t, MINT);
  const id = b.ids[0]!;
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'itemUpPlayerTownFacility', b.s, { managedTownFacilityId: id, itemNo: 0, amount: 1 }, { now: NOW + HOUR })),
    new RegExp(`town facility ${id}\\b.*covered.*open it`));
  const f = opened(t, FOUNTAIN);
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'itemUpPlayerTownFacility', f.s, { managedTownFacilityId: f.id, itemNo: 0, amount: 1 }, { now: NOW + HOUR })),
    new RegExp(`town facility ${f.id}\\b.*produces nothing`));
});

test('a wrong itemNo is 102 on itemNo saying what the facility makes: coins as itemNo 0, or its item id', (t) => {
  const mint = opened(t, MINT);
  const coins = fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', mint.s, { managedTownFacilityId: mint.id, itemNo: 20001, amount: 1 }, { now: NOW + HOUR });
  t.is(fieldOf(coins), 'itemNo');
  t.regex(reasonOf(coins), new RegExp(`town facility ${mint.id}\\b.*coins \\(itemNo 0\\)`));
  const bakery = opened(t, BAKERY);
  const item = fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', bakery.s, { managedTownFacilityId: bakery.id, itemNo: 0, amount: 1 }, { now: NOW + HOUR });
  t.is(fieldOf(item), 'itemNo');
  t.regex(reasonOf(item), new RegExp(`town facility ${bakery.id}\\b.*item 20001$`));
  t.notRegex(reasonOf(item), /coins/);
});

test('item_up asking more than the largest storage is 102 on amount naming that storage', (t) => {
  const o = opened(t, BAKERY);
  const largest = Math.max(...m.facility.get(BAKERY)!.levels.map((l) => l.production?.cap ?? 0)); // 240 at level 5
  const e = fails(t, 'INVALID_PARAMETERS', 'itemUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id, itemNo: 20001, amount: largest + 1 }, { now: NOW + HOUR });
  t.is(fieldOf(e), 'amount');
  t.regex(reasonOf(e), new RegExp(`\\b${largest}\\b`));
});

test('collecting coins into a nearly full purse takes only what fits and leaves the rest in the facility', (t) => {
  const o = opened(t, MINT);
  const max = m.game.currencyMax.gold;
  const r = ok(t, 'itemUpPlayerTownFacility', withWealth(o.s, { gold: max - 100 }), { managedTownFacilityId: o.id, itemNo: 0, amount: 600 }, { now: NOW + HOUR });
  t.is(r.response.amount, 100);
  t.is(r.response.stock, 500);
  t.is(r.state.gold, max);
  t.is(r.state.facilities.find((f) => f.managedTownFacilityId === o.id)!.stock, 500);
});

test('collecting coins into a full purse is 311 naming gold and its maximum; with nothing produced yet it is no refusal and changes nothing', (t) => {
  const o = opened(t, MINT);
  const max = m.game.currencyMax.gold;
  const full = withWealth(o.s, { gold: max });
  t.like(fails(t, 'CURRENCY_LIMIT', 'itemUpPlayerTownFacility', full, { managedTownFacilityId: o.id, itemNo: 0, amount: 10 }, { now: NOW + HOUR }),
    { currency: 'gold', max });
  // At the opening nothing is held: zero units are collected, whatever the purse.
  const r = ok(t, 'itemUpPlayerTownFacility', full, { managedTownFacilityId: o.id, itemNo: 0, amount: 10 }, { now: NOW });
  t.is(r.response.amount, 0);
  t.is(r.response.stock, 0);
  t.is(r.state, full);
});

// ---- sale ----

test('selling one facility removes only it: the player\'s other facilities stay as they were', (t) => {
  const b = bought(t, MINT, 3);
  const [a, sold, c] = b.ids as [number, number, number];
  const r = ok(t, 'salePlayerTownFacility', b.s, { managedTownFacilityId: sold });
  t.deepEqual(r.state.facilities.map((f) => f.managedTownFacilityId), [a, c]);
  t.deepEqual(r.state.facilities, b.s.facilities.filter((f) => f.managedTownFacilityId !== sold));
  t.is(r.response.gold, m.facility.get(MINT)!.salePrice);
});

test('a facility that sells for nothing is sold without touching the purse, even one above a lowered coin maximum', (t) => {
  const fountain = m.facility.get(FOUNTAIN)!;
  const b = bought(t, FOUNTAIN);
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
