// Levelling town facilities (docs/rules/town.md, Town facilities): level_up pays and starts
// a timer, the level rising once it has passed; gem_level_up finishes a running level-up for
// gems priced on the time left (or pays the whole price on an idle facility); a covered
// facility, one at its maximum level, or one already levelling is refused, naming it.
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, NOW, ok, withWealth, itemsOf, master, runOp } from '../../_support/core.js';
import { HOUR, MINUTE } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';
import { gemPriceLeft } from '../../../core/shared/town.js';
import type { Executed } from '../../../core/operation.js';
import type { OperationName, ResponseOf } from '../../../core/operations/table.js';

const MINT = 1; // coins: 600/h cap 2400 at level 1; 1200/h cap 6000 at level 2
const FOUNTAIN = 6; // decoration: produces nothing; 3 levels

const rich = (): PlayerState => withWealth(freshPlayer(), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });

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

const m = master();
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

const boughtIds = (
  t: ExecutionContext,
  facilityId: number,
  amount = 1,
  s: PlayerState = rich(),
): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};

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

test('level_up pays and starts a timer; the level rises once it has passed, settled by the next read', (t) => {
  const o = openedOne(t, MINT);
  const r = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id });
  t.is(o.s.gold - r.state.gold, 2000);
  t.deepEqual(fac(r.state, o.id)!.levelUp, { startedAt: NOW, completesAt: NOW + HOUR });
  t.is(fac(r.state, o.id)!.level, 1);
  t.is(r.response.completesAt, '2026-11-21T13:00:00');
  // A later operation settles it: the level is 2, whenever that operation comes.
  for (const later of [NOW + HOUR, NOW + 5 * HOUR]) {
    const after = ok(
      t,
      'levelUpPlayerTownFacility',
      withWealth(r.state, { items: { 5001: 100 } }),
      { managedTownFacilityId: o.id },
      { now: later },
    );
    t.is(fac(after.state, o.id)!.level, 2);
    t.is(after.response.level, 2);
  }
});

test('level_up: 107 unknown, 317 covered, 316 while running, 317 at the maximum level', (t) => {
  const b = boughtOne(t, MINT);
  fails(t, 'NOT_FOUND', 'levelUpPlayerTownFacility', b.s, { managedTownFacilityId: 9999 });
  fails(t, 'STATE_CONFLICT', 'levelUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id });
  const o = openedOne(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(
    t,
    'TIMER_RUNNING',
    'levelUpPlayerTownFacility',
    running,
    { managedTownFacilityId: o.id },
    { now: NOW + HOUR - 1 },
  );
  const f = openedOne(t, FOUNTAIN);
  let s = withWealth(f.s, { items: { 5004: 1000 } });
  for (let i = 0; i < 2; i++) s = ok(t, 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: f.id }).state;
  t.is(fac(s, f.id)!.level, 3);
  fails(t, 'STATE_CONFLICT', 'levelUpPlayerTownFacility', s, { managedTownFacilityId: f.id });
});

test('level_up short of coins is 441, short of items 442', (t) => {
  const o = openedOne(t, MINT);
  fails(t, 'GOLD_IS_SHORT', 'levelUpPlayerTownFacility', withWealth(o.s, { gold: 1999 }), {
    managedTownFacilityId: o.id,
  });
  const lv2 = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'ITEM_IS_SHORT', 'levelUpPlayerTownFacility', withWealth(lv2, { items: { 5001: 9 } }), {
    managedTownFacilityId: o.id,
  });
  const r = ok(t, 'levelUpPlayerTownFacility', withWealth(lv2, { items: { 5001: 10 } }), {
    managedTownFacilityId: o.id,
  });
  t.is(itemsOf(r.state)['5001'], undefined);
});

test('a covered facility cannot level (317): the refusal names it and says to open it first', (t) => {
  const b = boughtIds(t, MINT);
  const id = b.ids[0]!;
  for (const name of ['levelUpPlayerTownFacility', 'gemLevelUpPlayerTownFacility'] as const) {
    const reason = reasonOf(fails(t, 'STATE_CONFLICT', name, b.s, { managedTownFacilityId: id }));
    t.regex(reason, new RegExp(`town facility ${id}\\b.*covered.*open it`), name);
  }
});

test('a facility at its maximum level cannot level (317): the refusal names it and its level', (t) => {
  const o = openedOne(t, FOUNTAIN);
  let s = withWealth(o.s, { items: { 5004: 1000 } });
  const top = m.facility.get(FOUNTAIN)!.levels.length; // 3
  for (let level = 1; level < top; level++)
    s = ok(t, 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: o.id }).state;
  const reason = reasonOf(fails(t, 'STATE_CONFLICT', 'levelUpPlayerTownFacility', s, { managedTownFacilityId: o.id }));
  t.regex(reason, new RegExp(`town facility ${o.id}\\b.*maximum level ${top}$`));
});

test('a running level-up refuses another level-up and a collection with 316 naming the level-up and when it completes', (t) => {
  const o = openedOne(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  const expected = { entity: `level-up of town facility ${o.id}`, completesAt: NOW + HOUR };
  t.like(
    fails(
      t,
      'TIMER_RUNNING',
      'levelUpPlayerTownFacility',
      running,
      { managedTownFacilityId: o.id },
      { now: NOW + HOUR - 1 },
    ),
    expected,
  );
  t.like(
    fails(
      t,
      'TIMER_RUNNING',
      'itemUpPlayerTownFacility',
      running,
      { managedTownFacilityId: o.id, itemNo: 0, amount: 1 },
      { now: NOW + HOUR - 1 },
    ),
    expected,
  );
  t.like(
    fails(
      t,
      'TIMER_RUNNING',
      'salePlayerTownFacility',
      running,
      { managedTownFacilityId: o.id },
      { now: NOW + HOUR - 1 },
    ),
    expected,
  );
});

// ---- gem_level_up ----

test('gem_level_up finishes a running level-up for gems priced on the time left', (t) => {
  const o = openedOne(t, MINT);
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  const half = ok(
    t,
    'gemLevelUpPlayerTownFacility',
    running,
    { managedTownFacilityId: o.id },
    { now: NOW + 30 * MINUTE },
  );
  t.is(half.response.gemSpent, 25);
  t.is(running.gem - half.state.gem, 25);
  t.is(running.gold, half.state.gold, 'the cost was paid when it started');
  t.is(fac(half.state, o.id)!.level, 2);
  t.is(fac(half.state, o.id)!.levelUp, null);
  // A moment after the start, the price is the whole price (rounded up).
  t.is(
    ok(t, 'gemLevelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + 1 }).response.gemSpent,
    50,
  );
  t.is(
    ok(t, 'gemLevelUpPlayerTownFacility', running, { managedTownFacilityId: o.id }, { now: NOW + 45 * MINUTE }).response
      .gemSpent,
    13,
  );
});

test('gem_level_up on an idle facility pays its cost and the full gem price', (t) => {
  const o = openedOne(t, MINT);
  const r = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id });
  t.is(o.s.gem - r.state.gem, 50);
  t.is(o.s.gold - r.state.gold, 2000);
  t.is(fac(r.state, o.id)!.level, 2);
});

test('gem_level_up: 107 unknown, 317 covered or at maximum, 445 short of gems, 441/442 short of the cost when idle', (t) => {
  const b = boughtOne(t, MINT);
  fails(t, 'NOT_FOUND', 'gemLevelUpPlayerTownFacility', b.s, { managedTownFacilityId: 9999 });
  fails(t, 'STATE_CONFLICT', 'gemLevelUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id });
  const o = openedOne(t, MINT);
  fails(t, 'GEM_IS_SHORT', 'gemLevelUpPlayerTownFacility', withWealth(o.s, { gem: 49 }), {
    managedTownFacilityId: o.id,
  });
  const running = ok(t, 'levelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(
    t,
    'GEM_IS_SHORT',
    'gemLevelUpPlayerTownFacility',
    withWealth(running, { gem: 24 }),
    { managedTownFacilityId: o.id },
    { now: NOW + 30 * MINUTE },
  );
  fails(t, 'GOLD_IS_SHORT', 'gemLevelUpPlayerTownFacility', withWealth(o.s, { gold: 0 }), {
    managedTownFacilityId: o.id,
  });
  const lv2 = ok(t, 'gemLevelUpPlayerTownFacility', o.s, { managedTownFacilityId: o.id }).state;
  fails(t, 'ITEM_IS_SHORT', 'gemLevelUpPlayerTownFacility', lv2, { managedTownFacilityId: o.id });
  const f = openedOne(t, FOUNTAIN);
  let s = withWealth(f.s, { items: { 5004: 1000 } });
  for (let i = 0; i < 2; i++) s = ok(t, 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: f.id }).state;
  fails(t, 'STATE_CONFLICT', 'gemLevelUpPlayerTownFacility', s, { managedTownFacilityId: f.id });
});

test('a level-up that takes no time costs no gems to finish', (t) => {
  t.is(gemPriceLeft(50, { startedAt: NOW, completesAt: NOW }, NOW), 0);
  t.is(
    gemPriceLeft(50, { startedAt: NOW, completesAt: NOW + HOUR }, NOW + HOUR),
    0,
    'nothing left of a one-hour level-up',
  );
  t.is(
    gemPriceLeft(50, { startedAt: NOW, completesAt: NOW + HOUR }, NOW + HOUR - 1),
    1,
    'a millisecond left still costs a gem',
  );
});

test('a level-up finished for gems costs at most its gem price and never less than the time left asks', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.integer({ min: 0, max: HOUR - 1 }), (elapsed) => {
        const { s, id } = openedFacility(1);
        const running = step(s, 'levelUpPlayerTownFacility', { managedTownFacilityId: id }).s;
        const r = step(running, 'gemLevelUpPlayerTownFacility', { managedTownFacilityId: id }, NOW + elapsed);
        if (!r.ok) return false;
        const spent = r.response.gemSpent;
        return spent <= 50 && spent >= 1 && spent === Math.ceil((50 * (HOUR - elapsed)) / HOUR);
      }),
      { numRuns: 100 },
    ),
  );
});
