// Trading by recipe (docs/rules/progression.md, Items and trade): trade/recipe/get_all lists
// the constant recipes and the event recipes open now; a trade pays count × the source and
// grants count × the result; each recipe's own daily and total counts (today's reset at the
// game day); an event recipe from the first instant of its period to its end; what each
// refusal names; trades conserve items.
import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, NOW, ok, runOp, withWealth, itemsOf } from '../../_support/core.js';
import { DAY, HOUR } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const rich = (items: Record<string, number> = {}) => withWealth(freshPlayer(), { gold: 100_000, items });

const value = (s: PlayerState): Map<number, number> => {
  const out = new Map<number, number>();
  for (const [id, n] of Object.entries(itemsOf(s))) out.set(Number(id), n);
  for (const p of s.presents) if (p.kind === 'item') out.set(p.objectId, (out.get(p.objectId) ?? 0) + p.amount);
  return out;
};
const TOKEN = 10501; // Lantern Token: no sale price
const STAR_DUST = 5005;
const DAILY = 2; // 5000 coins + 20 Star Dust → a Prism Shard; 3 a day
const TOTAL = 3; // 3 Gold Badges → a Radiant Seed; 10 in all
const LANTERN = 4; // 10 Lantern Tokens → a ticket; 20 in all, open in its event period

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const wealthy = (items: Record<string, number> = {}): PlayerState =>
  withWealth(freshPlayer(), { gold: 1_000_000, items });
const lantern = m.tradeRecipe.get(LANTERN);
const period = { startsAt: lantern?.startsAt ?? 0, endsAt: lantern?.endsAt ?? 0 };
const listed = (t: Parameters<typeof ok>[0], s: PlayerState, now: number) =>
  ok(t, 'getAllPlayerItemTradeRecipe', s, {}, { now }).response.recipes;

test('trade/recipe/get_all lists constant recipes and the event recipes open now, with counts and limits', (t) => {
  const s = rich();
  const r = ok(t, 'getAllPlayerItemTradeRecipe', s, {});
  const recipes = r.response.recipes;
  t.deepEqual(
    recipes.map((x) => x.recipeId),
    [1, 2, 3, 4],
  );
  t.is(recipes.find((x) => x.recipeId === 4)?.endAt, '2027-01-15T00:00:00');
  t.is(recipes.find((x) => x.recipeId === 2)?.remaining, 3);
  t.is(recipes.find((x) => x.recipeId === 1)?.remaining, null);
  const later = ok(t, 'getAllPlayerItemTradeRecipe', s, {}, { now: Date.UTC(2099, 2, 10) });
  t.deepEqual(
    later.response.recipes.map((x) => x.recipeId),
    [1, 2, 3, 6],
  );
});

test('trade pays count × the source and grants count × the result, counting against the limit', (t) => {
  const s = rich({ 10501: 30 });
  const r = ok(t, 'tradePlayerItemTrade', s, { recipeId: 4, count: 2 });
  t.is(itemsOf(r.state)['10501'], 10);
  t.is(itemsOf(r.state)['3001'], 2);
  t.deepEqual(r.state.tradeCounts, [
    { recipeId: 4, total: 2, dayIndex: r.state.tradeCounts[0]?.dayIndex ?? 0, today: 2 },
  ]);
  t.is(r.response.recipe.remaining, 18);
});

test('trade: the daily limit is 312 until the game day turns; coins in the source are paid too', (t) => {
  const s = rich({ 5005: 200 });
  const a = ok(t, 'tradePlayerItemTrade', s, { recipeId: 2, count: 3 });
  t.is(s.gold - a.state.gold, 15_000);
  t.is(itemsOf(a.state)['9001'], 3);
  fails(t, 'TRADE_LIMIT', 'tradePlayerItemTrade', a.state, { recipeId: 2, count: 1 }, { now: NOW + HOUR });
  ok(t, 'tradePlayerItemTrade', a.state, { recipeId: 2, count: 1 }, { now: NOW + DAY });
});

test('trade errors: unknown 107, out of period 463 (past and future), over the total limit 312, count over its maximum 102, short 442 and 441', (t) => {
  const s = rich({ 10501: 500, 10502: 500, 10403: 100, 5005: 100 });
  fails(t, 'NOT_FOUND', 'tradePlayerItemTrade', s, { recipeId: 99, count: 1 });
  fails(t, 'TRADE_OUT_OF_PERIOD', 'tradePlayerItemTrade', s, { recipeId: 5, count: 1 });
  fails(t, 'TRADE_OUT_OF_PERIOD', 'tradePlayerItemTrade', s, { recipeId: 6, count: 1 });
  fails(t, 'TRADE_OUT_OF_PERIOD', 'tradePlayerItemTrade', s, { recipeId: 4, count: 1 }, { now: Date.UTC(2027, 0, 20) });
  const a = ok(t, 'tradePlayerItemTrade', s, { recipeId: 3, count: 8 }).state;
  fails(t, 'TRADE_LIMIT', 'tradePlayerItemTrade', a, { recipeId: 3, count: 3 }, { now: NOW + 30 * DAY });
  ok(t, 'tradePlayerItemTrade', a, { recipeId: 3, count: 2 });
  fails(t, 'INVALID_PARAMETERS', 'tradePlayerItemTrade', s, { recipeId: 1, count: 100 });
  fails(t, 'INVALID_PARAMETERS', 'tradePlayerItemTrade', s, { recipeId: 1, count: 0 });
  fails(t, 'ITEM_IS_SHORT', 'tradePlayerItemTrade', s, { recipeId: 1, count: 1 });
  fails(t, 'GOLD_IS_SHORT', 'tradePlayerItemTrade', withWealth(s, { gold: 4999 }), { recipeId: 2, count: 1 });
});

test('trade: a result over its item maximum goes to the present box', (t) => {
  const s = rich({ 10401: 10, 10002: 9999 });
  const r = ok(t, 'tradePlayerItemTrade', s, { recipeId: 1, count: 2 });
  t.is(itemsOf(r.state)['10002'], 9999);
  t.like(r.state.presents.at(-1), { kind: 'item', objectId: 10002, amount: 2 });
  t.is(r.response.managedPresentId, r.state.presents.at(-1)!.managedPresentId);
});

test('trade: a recipe that costs gems or town points is 445 or 446 when they are short (operator-tuned master data)', (t) => {
  const r1 = m.tradeRecipe.get(1);
  if (!r1) return t.fail('recipe 1');
  const tuned = (source: NonNullable<typeof r1>['source']) => ({
    ...m,
    tradeRecipe: new Map([...m.tradeRecipe, [1, { ...r1, source }]]),
  });
  const s = withWealth(rich(), { gem: 5, kirara: 5 });
  fails(t, 'GEM_IS_SHORT', 'tradePlayerItemTrade', s, { recipeId: 1, count: 2 }, { m: tuned({ gem: 3 }) });
  fails(t, 'KIRARA_IS_SHORT', 'tradePlayerItemTrade', s, { recipeId: 1, count: 2 }, { m: tuned({ kirara: 3 }) });
  const r = ok(t, 'tradePlayerItemTrade', s, { recipeId: 1, count: 1 }, { m: tuned({ gem: 3, kirara: 3 }) });
  t.is(r.state.gem, 2);
  t.is(r.state.kirara, 2);
});

test('an event recipe is open from the first instant of its period and closed at its end (listed and traded)', (t) => {
  const s = wealthy({ [TOKEN]: 100 });
  t.true(
    listed(t, s, period.startsAt).some((r) => r.recipeId === LANTERN),
    'listed at its start',
  );
  t.false(
    listed(t, s, period.startsAt - 1).some((r) => r.recipeId === LANTERN),
    'not listed just before',
  );
  t.true(
    listed(t, s, period.endsAt - 1).some((r) => r.recipeId === LANTERN),
    'listed at its last instant',
  );
  t.false(
    listed(t, s, period.endsAt).some((r) => r.recipeId === LANTERN),
    'not listed at its end',
  );
  ok(t, 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.startsAt });
  ok(t, 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.endsAt - 1 });
  t.like(
    fails(t, 'TRADE_OUT_OF_PERIOD', 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.endsAt }),
    { recipeId: LANTERN },
  );
  fails(
    t,
    'TRADE_OUT_OF_PERIOD',
    'tradePlayerItemTrade',
    s,
    { recipeId: LANTERN, count: 1 },
    { now: period.startsAt - 1 },
  );
});

test('each recipe counts its own trades: trading one leaves the others at 0 traded', (t) => {
  const a = ok(t, 'tradePlayerItemTrade', wealthy({ [STAR_DUST]: 100 }), { recipeId: DAILY, count: 3 }).state;
  const recipes = listed(t, a, NOW);
  t.like(
    recipes.find((r) => r.recipeId === DAILY),
    { traded: 3, remaining: 0 },
  );
  t.like(
    recipes.find((r) => r.recipeId === 1),
    { traded: 0, remaining: null },
  );
  t.like(
    recipes.find((r) => r.recipeId === TOTAL),
    { traded: 0, remaining: 10 },
  );
  t.like(
    recipes.find((r) => r.recipeId === LANTERN),
    { traded: 0, remaining: 20 },
  );
});

test('a daily count adds up within the game day and starts again from the trade of the next day; the total keeps counting', (t) => {
  const s = wealthy({ [STAR_DUST]: 200 });
  const a = ok(t, 'tradePlayerItemTrade', s, { recipeId: DAILY, count: 1 });
  const b = ok(t, 'tradePlayerItemTrade', a.state, { recipeId: DAILY, count: 1 }, { now: NOW + HOUR });
  t.like(b.state.tradeCounts[0], { recipeId: DAILY, total: 2, today: 2 });
  t.like(b.response.recipe, { traded: 2, remaining: 1 });
  const c = ok(t, 'tradePlayerItemTrade', b.state, { recipeId: DAILY, count: 1 }, { now: NOW + DAY });
  t.like(c.state.tradeCounts[0], { recipeId: DAILY, total: 3, today: 1 });
  t.is(c.state.tradeCounts[0]?.dayIndex, (b.state.tradeCounts[0]?.dayIndex ?? 0) + 1);
  t.like(c.response.recipe, { traded: 1, remaining: 2 });
});

test('the trade counts are one entry per recipe, in recipe order, whatever order the trades came in (state and answer)', (t) => {
  const s = wealthy({ [STAR_DUST]: 200, [TOKEN]: 100, 10403: 30 });
  const a = ok(t, 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 });
  const b = ok(t, 'tradePlayerItemTrade', a.state, { recipeId: DAILY, count: 1 });
  t.deepEqual(
    b.state.tradeCounts.map((c) => c.recipeId),
    [DAILY, LANTERN],
  );
  t.deepEqual(
    b.response.tradeCounts?.map((c) => c.recipeId),
    [DAILY, LANTERN],
  );
  const c = ok(t, 'tradePlayerItemTrade', b.state, { recipeId: LANTERN, count: 2 });
  t.deepEqual(
    c.state.tradeCounts.map((x) => [x.recipeId, x.total]),
    [
      [DAILY, 1],
      [LANTERN, 3],
    ],
  );
  const d = ok(t, 'tradePlayerItemTrade', c.state, { recipeId: TOTAL, count: 1 });
  t.deepEqual(
    d.state.tradeCounts.map((x) => [x.recipeId, x.total]),
    [
      [DAILY, 1],
      [TOTAL, 1],
      [LANTERN, 3],
    ],
  );
  const other = ok(t, 'tradePlayerItemTrade', ok(t, 'tradePlayerItemTrade', s, { recipeId: DAILY, count: 1 }).state, {
    recipeId: LANTERN,
    count: 1,
  });
  t.deepEqual(
    other.state.tradeCounts.map((x) => x.recipeId),
    [DAILY, LANTERN],
  );
});

test('trade refusals name the recipe not found (107) and the count over its maximum (102 on count)', (t) => {
  const s = wealthy({ 10401: 1000 });
  t.like(fails(t, 'NOT_FOUND', 'tradePlayerItemTrade', s, { recipeId: 99, count: 1 }), {
    entity: 'trade recipe',
    id: 99,
  });
  const e = fails(t, 'INVALID_PARAMETERS', 'tradePlayerItemTrade', s, { recipeId: 1, count: 100 });
  t.like(e, { field: 'count' });
  t.regex(reasonOf(e), /at most 99/);
});

test('property: trades conserve items (out of the box exactly count × source, in exactly count × result, box or presents)', (t) => {
  const recipes = [1, 2, 3, 4];
  fc.assert(
    fc.property(
      fc.constantFrom(...recipes),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 0, max: 300 }),
      (recipeId, count, stock) => {
        const r0 = m.tradeRecipe.get(recipeId);
        if (!r0) return false;
        const s = rich(Object.fromEntries((r0.source.items ?? []).map((x) => [String(x.itemId), stock])));
        const r = runOp('tradePlayerItemTrade', s, { recipeId, count });
        if (r._tag === 'Left') return ['ITEM_IS_SHORT', 'TRADE_LIMIT', 'INVALID_PARAMETERS'].includes(r.left.code);
        const before = value(s);
        const after = value(r.right.state);
        for (const x of r0.source.items ?? [])
          if ((before.get(x.itemId) ?? 0) - (after.get(x.itemId) ?? 0) !== x.amount * count) return false;
        const got = (after.get(r0.result.objectId) ?? 0) - (before.get(r0.result.objectId) ?? 0);
        return got === r0.result.amount * count && s.gold - r.right.state.gold === (r0.source.gold ?? 0) * count;
      },
    ),
    { numRuns: 100 },
  );
  t.pass();
});
