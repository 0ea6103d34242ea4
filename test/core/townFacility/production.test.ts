// What town facilities produce and item_up collects (docs/rules/town.md, Town facilities):
// production at the level's rate since the last collection, fractions carried over, paused
// while covered or levelling, stopped at the storage cap; collecting into a full or nearly
// full purse or item box; what each refusal names; production collected over any split of a
// span equals one collection over it.
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { fails, master, NOW, ok, withWealth, itemsOf, freshPlayer, runOp } from '../../_support/core.js';
import { HOUR, MINUTE } from '../../../core/time.js';
import type { PlayerState, OwnedFacility } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';
import { accrue } from '../../../core/shared/town.js';
import type { Executed } from '../../../core/operation.js';
import type { OperationName, ResponseOf } from '../../../core/operations/table.js';

const MINT = 1; // coins: 600/h cap 2400 at level 1; 1200/h cap 6000 at level 2
const BAKERY = 2; // item 20001: 6/h (one every 10 minutes), cap 24 at level 1
const FOUNTAIN = 6; // decoration: produces nothing; 3 levels

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
const collect = (t: ExecutionContext, s: PlayerState, id: number, now: number, req: Record<string, unknown> = {}) =>
  ok(t, 'itemUpPlayerTownFacility', s, { managedTownFacilityId: id, itemNo: 0, amount: 6000, ...req }, { now });

const m = master();
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
/** Bought and opened facilities, their production starting at `now`. */
const opened = (
  t: ExecutionContext,
  facilityId: number,
  amount = 1,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; ids: number[] } => {
  const b = bought(t, facilityId, amount, s, now);
  let cur = b.s;
  for (const id of b.ids) cur = ok(t, 'openUpPlayerTownFacility', cur, { managedTownFacilityId: id }, { now }).state;
  return { s: cur, ids: b.ids };
};
const facilityViewAt = (t: ExecutionContext, s: PlayerState, id: number, now: number) =>
  ok(t, 'getAllPlayer', s, {}, { now }).response.managedTownFacilities.find((f) => f.managedTownFacilityId === id);

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

const openedFacility = (facilityId: number): { s: PlayerState; id: number } => {
  const b = step(veryRich(), 'buyAllPlayerTownFacility', { facilities: [{ facilityId, amount: 1 }] });
  if (!b.ok) throw new Error('buying a facility failed');
  const id = b.response.managedTownFacilityIds[0]!;
  return { s: step(b.s, 'openUpPlayerTownFacility', { managedTownFacilityId: id }).s, id };
};

const PRODUCERS = [1, 2, 3, 8, 15];

test('item_up collects exactly the production since the last collection, at the level rate', (t) => {
  const o = openedOne(t, MINT);
  const a = collect(t, o.s, o.id, NOW + HOUR);
  t.is(a.response.amount, 600);
  t.is(a.state.gold - o.s.gold, 600);
  const b = collect(t, a.state, o.id, NOW + HOUR + 30 * MINUTE);
  t.is(b.response.amount, 300);
  t.is(b.state.gold - o.s.gold, 900);
});

test('item_up gives items for a material facility, up to its storage cap', (t) => {
  const o = openedOne(t, BAKERY);
  const r = ok(
    t,
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 },
    { now: NOW + 100 * HOUR },
  );
  t.is(r.response.amount, 24);
  t.is(itemsOf(r.state)['20001'], 24);
  t.truthy(r.response.itemSummary);
});

test('item_up: fractions of a unit carry over to the next collection', (t) => {
  const o = openedOne(t, BAKERY); // 6 an hour: one every 10 minutes
  const a = ok(
    t,
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 },
    { now: NOW + 15 * MINUTE },
  );
  t.is(a.response.amount, 1);
  const b = ok(
    t,
    'itemUpPlayerTownFacility',
    a.state,
    { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 },
    { now: NOW + 20 * MINUTE },
  );
  t.is(b.response.amount, 1);
});

test('item_up: the storage cap stops production', (t) => {
  const o = openedOne(t, MINT);
  t.is(collect(t, o.s, o.id, NOW + 4 * HOUR).response.amount, 2400);
  t.is(collect(t, o.s, o.id, NOW + 40 * HOUR).response.amount, 2400);
});

test('item_up: actionTime is clamped to the last collection and now', (t) => {
  const o = openedOne(t, MINT);
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
  const o = openedOne(t, MINT);
  const a = collect(t, o.s, o.id, NOW + HOUR, { amount: 100 });
  t.is(a.response.amount, 100);
  t.is(a.response.stock, 500);
  t.is(collect(t, a.state, o.id, NOW + HOUR, { amount: 2400 }).response.amount, 500);
});

test('item_up: 107 unknown, 317 covered, 316 while levelling, 317 for a decoration', (t) => {
  const b = boughtOne(t, MINT);
  fails(t, 'NOT_FOUND', 'itemUpPlayerTownFacility', b.s, { managedTownFacilityId: 9999, itemNo: 0, amount: 1 });
  fails(
    t,
    'STATE_CONFLICT',
    'itemUpPlayerTownFacility',
    b.s,
    { managedTownFacilityId: b.id, itemNo: 0, amount: 1 },
    { now: NOW + HOUR },
  );
  const o = openedOne(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }, { now: NOW + HOUR }).state;
  fails(
    t,
    'TIMER_RUNNING',
    'itemUpPlayerTownFacility',
    running,
    { managedTownFacilityId: o.id, itemNo: 0, amount: 1 },
    { now: NOW + 90 * MINUTE },
  );
  const f = openedOne(t, FOUNTAIN);
  fails(
    t,
    'STATE_CONFLICT',
    'itemUpPlayerTownFacility',
    f.s,
    { managedTownFacilityId: f.id, itemNo: 0, amount: 1 },
    { now: NOW + HOUR },
  );
});

test('item_up: a wrong itemNo, an amount over the storage or not positive is 102', (t) => {
  const o = openedOne(t, MINT);
  const at = { now: NOW + HOUR };
  fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 20001, amount: 1 },
    at,
  );
  const maxCap = master().facility.get(MINT)!.levels.at(-1)!.production!.cap;
  fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 0, amount: maxCap + 1 },
    at,
  );
  t.is(collect(t, o.s, o.id, NOW + HOUR, { amount: maxCap }).response.amount, 600);
  fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 0, amount: 0 },
    at,
  );
  fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 0, amount: 2.5 },
    at,
  );
});

test('item_up: a full item box is 305 and a full purse 311; otherwise only what fits is taken', (t) => {
  const o = openedOne(t, BAKERY);
  const max = master().item.get(20001)!.max;
  fails(
    t,
    'ITEM_LIMIT',
    'itemUpPlayerTownFacility',
    withWealth(o.s, { items: { 20001: max } }),
    { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 },
    { now: NOW + 2 * HOUR },
  );
  const r = ok(
    t,
    'itemUpPlayerTownFacility',
    withWealth(o.s, { items: { 20001: max - 5 } }),
    { managedTownFacilityId: o.id, itemNo: 20001, amount: 24 },
    { now: NOW + 2 * HOUR },
  );
  t.is(r.response.amount, 5);
  t.is(r.response.stock, 7);
  const g = openedOne(t, MINT);
  fails(
    t,
    'CURRENCY_LIMIT',
    'itemUpPlayerTownFacility',
    withWealth(g.s, { gold: master().game.currencyMax.gold }),
    { managedTownFacilityId: g.id, itemNo: 0, amount: 10 },
    { now: NOW + HOUR },
  );
});

test('item_up refusals name the facility: still covered, or producing nothing (317)', (t) => {
  const b = boughtIds(t, MINT);
  const id = b.ids[0]!;
  t.regex(
    reasonOf(
      fails(
        t,
        'STATE_CONFLICT',
        'itemUpPlayerTownFacility',
        b.s,
        { managedTownFacilityId: id, itemNo: 0, amount: 1 },
        { now: NOW + HOUR },
      ),
    ),
    new RegExp(`town facility ${id}\\b.*covered.*open it`),
  );
  const f = openedOne(t, FOUNTAIN);
  t.regex(
    reasonOf(
      fails(
        t,
        'STATE_CONFLICT',
        'itemUpPlayerTownFacility',
        f.s,
        { managedTownFacilityId: f.id, itemNo: 0, amount: 1 },
        { now: NOW + HOUR },
      ),
    ),
    new RegExp(`town facility ${f.id}\\b.*produces nothing`),
  );
});

test('a wrong itemNo is 102 on itemNo saying what the facility makes: coins as itemNo 0, or its item id', (t) => {
  const mint = openedOne(t, MINT);
  const coins = fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    mint.s,
    { managedTownFacilityId: mint.id, itemNo: 20001, amount: 1 },
    { now: NOW + HOUR },
  );
  t.is(fieldOf(coins), 'itemNo');
  t.regex(reasonOf(coins), new RegExp(`town facility ${mint.id}\\b.*coins \\(itemNo 0\\)`));
  const bakery = openedOne(t, BAKERY);
  const item = fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    bakery.s,
    { managedTownFacilityId: bakery.id, itemNo: 0, amount: 1 },
    { now: NOW + HOUR },
  );
  t.is(fieldOf(item), 'itemNo');
  t.regex(reasonOf(item), new RegExp(`town facility ${bakery.id}\\b.*item 20001$`));
  t.notRegex(reasonOf(item), /coins/);
});

test('item_up asking more than the largest storage is 102 on amount naming that storage', (t) => {
  const o = openedOne(t, BAKERY);
  const largest = Math.max(...m.facility.get(BAKERY)!.levels.map((l) => l.production?.cap ?? 0)); // 240 at level 5
  const e = fails(
    t,
    'INVALID_PARAMETERS',
    'itemUpPlayerTownFacility',
    o.s,
    { managedTownFacilityId: o.id, itemNo: 20001, amount: largest + 1 },
    { now: NOW + HOUR },
  );
  t.is(fieldOf(e), 'amount');
  t.regex(reasonOf(e), new RegExp(`\\b${largest}\\b`));
});

test('collecting coins into a nearly full purse takes only what fits and leaves the rest in the facility', (t) => {
  const o = openedOne(t, MINT);
  const max = m.game.currencyMax.gold;
  const r = ok(
    t,
    'itemUpPlayerTownFacility',
    withWealth(o.s, { gold: max - 100 }),
    { managedTownFacilityId: o.id, itemNo: 0, amount: 600 },
    { now: NOW + HOUR },
  );
  t.is(r.response.amount, 100);
  t.is(r.response.stock, 500);
  t.is(r.state.gold, max);
  t.is(r.state.facilities.find((f) => f.managedTownFacilityId === o.id)!.stock, 500);
});

test('collecting coins into a full purse is 311 naming gold and its maximum; with nothing produced yet it is no refusal and changes nothing', (t) => {
  const o = openedOne(t, MINT);
  const max = m.game.currencyMax.gold;
  const full = withWealth(o.s, { gold: max });
  t.like(
    fails(
      t,
      'CURRENCY_LIMIT',
      'itemUpPlayerTownFacility',
      full,
      { managedTownFacilityId: o.id, itemNo: 0, amount: 10 },
      { now: NOW + HOUR },
    ),
    { currency: 'gold', max },
  );
  // At the opening nothing is held: zero units are collected, whatever the purse.
  const r = ok(
    t,
    'itemUpPlayerTownFacility',
    full,
    { managedTownFacilityId: o.id, itemNo: 0, amount: 10 },
    { now: NOW },
  );
  t.is(r.response.amount, 0);
  t.is(r.response.stock, 0);
  t.is(r.state, full);
});

// ---- production over time ----

test('production pauses while levelling and restarts at the new rate when the level-up ends', (t) => {
  const o = openedOne(t, MINT);
  // One hour of level 1, then a two-hour wait that ends the one-hour level-up, then an hour at level 2.
  const lv = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }, { now: NOW + HOUR }).state;
  const r = collect(t, lv, o.id, NOW + 3 * HOUR);
  t.is(r.response.amount, 600 + 1200);
});

test('the facility view shows a passed level-up as done and the production held now', (t) => {
  const o = openedOne(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }, { now: NOW + HOUR });
  const view = running.response.managedTownFacilities?.[0];
  if (!view) return t.fail('the changed facilities come with the answer');
  t.is(view.level, 1);
  t.is(view.levelUpCompletesAt, '2026-11-21T14:00:00');
  t.deepEqual(view.production, { itemNo: 0, perHour: 600, cap: 2400, stock: 600 });
  // Read two hours later through an operation that changes the facilities: settled.
  const b = boughtOne(t, FOUNTAIN, running.state, NOW + 3 * HOUR);
  const r = ok(
    t,
    'buyAllPlayerTownFacility',
    b.s,
    { facilities: [{ facilityId: FOUNTAIN, amount: 1 }] },
    { now: NOW + 3 * HOUR },
  );
  const later = r.response.managedTownFacilities?.find((f) => f.managedTownFacilityId === o.id);
  if (!later) return t.fail('the changed facilities come with the answer');
  t.is(later.level, 2);
  t.is(later.levelUpCompletesAt, null);
  t.deepEqual(later.production, { itemNo: 0, perHour: 1200, cap: 6000, stock: 600 + 1200 });
});

test('a covered facility produces nothing however long it waits: its view holds 0, settled at the purchase', (t) => {
  const b = bought(t, MINT, 1);
  const view = facilityViewAt(t, b.s, b.ids[0]!, NOW + 10 * HOUR);
  t.like(view, { covered: true, accruedAt: '2026-11-21T12:00:00' });
  t.deepEqual(view?.production, { itemNo: 0, perHour: 600, cap: 2400, stock: 0 });
});

test('production pauses while a facility levels: the hours of a level-up add nothing, even when gems finish it', (t) => {
  const o = opened(t, MINT);
  const id = o.ids[0]!;
  // One hour at level 1 (600 coins), then a one-hour level-up from NOW + 1 h.
  const levelling = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: id }, { now: NOW + HOUR }).state;
  const during = facilityViewAt(t, levelling, id, NOW + 90 * MINUTE);
  t.is(during?.production?.stock, 600, 'half-way through the level-up, still what was held at its start');
  t.is(during?.levelUpCompletesAt, '2026-11-21T14:00:00');
  const done = ok(
    t,
    'gemLevelUpPlayerTownFacility',
    levelling,
    { managedTownFacilityId: id },
    { now: NOW + 90 * MINUTE },
  ).state;
  t.is(fac(done, id)?.stock, 600);
  t.is(
    ok(
      t,
      'itemUpPlayerTownFacility',
      done,
      { managedTownFacilityId: id, itemNo: 0, amount: 6000 },
      { now: NOW + 90 * MINUTE },
    ).response.amount,
    600,
  );
});

test('settling a facility up to the moment it was last settled, or to an earlier one, changes nothing', (t) => {
  const o = opened(t, BAKERY);
  // 15 minutes: one loaf and half of the next in hand.
  const f = accrue(m, fac(o.s, o.ids[0]!)!, NOW + 15 * MINUTE);
  t.like(f, { stock: 1, carry: HOUR / 2, accruedAt: NOW + 15 * MINUTE });
  t.is(accrue(m, f, f.accruedAt), f, 'no time: the very same facility');
  t.is(accrue(m, f, f.accruedAt - HOUR), f, 'a moment before the last settlement takes nothing back');
});

test('a store that fills up mid-unit keeps nothing of the time after it was full', (t) => {
  const o = opened(t, BAKERY);
  const id = o.ids[0]!;
  const collect = (s: PlayerState, now: number) =>
    ok(t, 'itemUpPlayerTownFacility', s, { managedTownFacilityId: id, itemNo: 20001, amount: 24 }, { now });
  // Full (24) after 4 hours; 5 minutes later half a loaf would have been made, but a full store stops.
  const first = collect(o.s, NOW + 4 * HOUR + 5 * MINUTE);
  t.is(first.response.amount, 24);
  t.is(fac(first.state, id)?.carry, 0);
  t.is(
    collect(first.state, NOW + 4 * HOUR + 10 * MINUTE).response.amount,
    0,
    'five minutes after the collection: half a loaf',
  );
  t.is(collect(first.state, NOW + 4 * HOUR + 15 * MINUTE).response.amount, 1, 'ten minutes after it: one');
});

test('a store holding more than its cap (master data lowered it) keeps what it holds and produces nothing more', (t) => {
  const o = opened(t, BAKERY);
  const over: OwnedFacility = { ...fac(o.s, o.ids[0]!)!, stock: 30, carry: 0 };
  t.like(accrue(m, over, NOW + 5 * HOUR), { stock: 30, carry: 0, accruedAt: NOW + 5 * HOUR });
});

test("an operation on one facility leaves the player's other facilities as they were", (t) => {
  const o = opened(t, MINT, 2);
  const [a, b] = o.ids as [number, number];
  const levelled = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: a }, { now: NOW + HOUR }).state;
  t.is(fac(levelled, a)?.level, 2);
  t.deepEqual(fac(levelled, b), fac(o.s, b));
  t.deepEqual(
    levelled.facilities.map((f) => f.managedTownFacilityId),
    [a, b],
  );
  t.is(
    ok(
      t,
      'itemUpPlayerTownFacility',
      levelled,
      { managedTownFacilityId: b, itemNo: 0, amount: 6000 },
      { now: NOW + HOUR },
    ).response.amount,
    600,
  );
});

test('production collected over any split of a span equals one collection over the span (up to the cap)', (t) => {
  const m = master();
  t.notThrows(() =>
    fc.assert(
      fc.property(
        fc.constantFrom(...PRODUCERS),
        fc.integer({ min: 0, max: 12 * HOUR }),
        fc.array(fc.integer({ min: 0, max: 12 * HOUR }), { maxLength: 6 }),
        fc.boolean(),
        (facilityId, span, cuts, byActionTime) => {
          const { s, id } = openedFacility(facilityId);
          const p = m.facility.get(facilityId)!.levels[0]!.production!;
          const itemNo = p.itemId ?? 0;
          const amount = Math.max(...m.facility.get(facilityId)!.levels.map((l) => l.production!.cap));
          const collectAt = (st: PlayerState, at: number) =>
            byActionTime
              ? // The client reports when it collected; the server's clock is already at the end.
                step(
                  st,
                  'itemUpPlayerTownFacility',
                  { managedTownFacilityId: id, itemNo, amount, actionTime: NOW + at },
                  NOW + span,
                )
              : step(st, 'itemUpPlayerTownFacility', { managedTownFacilityId: id, itemNo, amount }, NOW + at);
          const times = [...new Set(cuts.filter((c) => c < span)), span].sort((a, b) => a - b);
          let cur = s;
          let sum = 0;
          for (const at of times) {
            const r = collectAt(cur, at);
            if (!r.ok) return false;
            sum += r.response.amount;
            cur = r.s;
          }
          const once = collectAt(s, span);
          if (!once.ok) return false;
          const whole = once.response.amount;
          const produced = Math.floor((span * p.perHour) / HOUR);
          if (whole !== Math.min(p.cap, produced)) return false;
          // Below the cap no split loses or gains anything; once the store fills, collecting in between can only help.
          return produced <= p.cap ? sum === whole : sum >= whole;
        },
      ),
      { numRuns: 150 },
    ),
  );
});
