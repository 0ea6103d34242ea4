import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, NOW, ok, runOp, withWealth, itemsOf } from '../_support/core.js';
import { DAY, HOUR } from '../../core/time.js';
import { itemCount } from '../../core/shared/player.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const rich = (items: Record<string, number> = {}) => withWealth(freshPlayer(), { gold: 100_000, items });

// ---- sale ----
test('sale sells an amount of an item for its sale price', (t) => {
  const s = rich({ 2001: 10 });
  const r = ok(t, 'salePlayerItem', s, { itemId: 2001, amount: 4 });
  t.is(itemsOf(r.state)['2001'], 6);
  t.is(r.state.gold - s.gold, 4 * 20);
  t.deepEqual(r.response.itemSummary, [{ itemId: 2001, amount: 6 }]);
  const all = ok(t, 'salePlayerItem', r.state, { itemId: 2001, amount: 6 });
  t.is(itemsOf(all.state)['2001'], undefined);
});

test('sale errors: unknown 107, not sellable 102, over the maximum 102, zero/negative/fractional 102, short 442, coins over the maximum 311', (t) => {
  const s = rich({ 2001: 10, 10501: 5 });
  fails(t, 'NOT_FOUND', 'salePlayerItem', s, { itemId: 424242, amount: 1 });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: 10501, amount: 1 });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: 2001, amount: 10_000 });
  for (const amount of [0, -3, 2.5, 'two']) fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: 2001, amount });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'salePlayerItem', s, { itemId: 2001 });
  fails(t, 'ITEM_IS_SHORT', 'salePlayerItem', s, { itemId: 2001, amount: 11 });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerItem', withWealth(s, { gold: m.game.currencyMax.gold - 10 }), { itemId: 2001, amount: 1 });
});

// ---- recipes ----
test('trade/recipe/get_all lists constant recipes and the event recipes open now, with counts and limits', (t) => {
  const s = rich();
  const r = ok(t, 'getAllPlayerItemTradeRecipe', s, {});
  const recipes = r.response.recipes;
  t.deepEqual(recipes.map((x) => x.recipeId), [1, 2, 3, 4]);
  t.is(recipes.find((x) => x.recipeId === 4)?.endAt, '2027-01-15T00:00:00');
  t.is(recipes.find((x) => x.recipeId === 2)?.remaining, 3);
  t.is(recipes.find((x) => x.recipeId === 1)?.remaining, null);
  const later = ok(t, 'getAllPlayerItemTradeRecipe', s, {}, { now: Date.UTC(2099, 2, 10) });
  t.deepEqual(later.response.recipes.map((x) => x.recipeId), [1, 2, 3, 6]);
});

// ---- trade ----
test('trade pays count × the source and grants count × the result, counting against the limit', (t) => {
  const s = rich({ 10501: 30 });
  const r = ok(t, 'tradePlayerItemTrade', s, { recipeId: 4, count: 2 });
  t.is(itemsOf(r.state)['10501'], 10);
  t.is(itemsOf(r.state)['3001'], 2);
  t.deepEqual(r.state.tradeCounts, [{ recipeId: 4, total: 2, dayIndex: r.state.tradeCounts[0]?.dayIndex ?? 0, today: 2 }]);
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

// ---- properties ----
const value = (s: PlayerState): Map<number, number> => {
  const out = new Map<number, number>();
  for (const [id, n] of Object.entries(itemsOf(s))) out.set(Number(id), n);
  for (const p of s.presents) if (p.kind === 'item') out.set(p.objectId, (out.get(p.objectId) ?? 0) + p.amount);
  return out;
};

test('property: item sales conserve value (coins gained = sale price × amount removed)', (t) => {
  const sellable = m.items.filter((i) => i.salePrice > 0).slice(0, 40).map((i) => i.itemId);
  fc.assert(fc.property(fc.constantFrom(...sellable), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 200 }), (itemId, held, amount) => {
    const s = rich({ [itemId]: held });
    const r = runOp('salePlayerItem', s, { itemId, amount });
    if (amount > held) return r._tag === 'Left' && r.left.code === 'ITEM_IS_SHORT';
    if (r._tag === 'Left') return false;
    const price = m.item.get(itemId)?.salePrice ?? 0;
    return r.right.state.gold - s.gold === price * amount && itemCount(r.right.state, itemId) === held - amount;
  }), { numRuns: 100 });
  t.pass();
});

test('property: trades conserve items (out of the box exactly count × source, in exactly count × result, box or presents)', (t) => {
  const recipes = [1, 2, 3, 4];
  fc.assert(fc.property(fc.constantFrom(...recipes), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 300 }), (recipeId, count, stock) => {
    const r0 = m.tradeRecipe.get(recipeId);
    if (!r0) return false;
    const s = rich(Object.fromEntries((r0.source.items ?? []).map((x) => [String(x.itemId), stock])));
    const r = runOp('tradePlayerItemTrade', s, { recipeId, count });
    if (r._tag === 'Left') return ['ITEM_IS_SHORT', 'TRADE_LIMIT', 'INVALID_PARAMETERS'].includes(r.left.code);
    const before = value(s);
    const after = value(r.right.state);
    for (const x of r0.source.items ?? []) if ((before.get(x.itemId) ?? 0) - (after.get(x.itemId) ?? 0) !== x.amount * count) return false;
    const got = (after.get(r0.result.objectId) ?? 0) - (before.get(r0.result.objectId) ?? 0);
    return got === r0.result.amount * count && s.gold - r.right.state.gold === (r0.source.gold ?? 0) * count;
  }), { numRuns: 100 });
  t.pass();
});

test('trade: a recipe that costs gems or town points is 445 or 446 when they are short (operator-tuned master data)', (t) => {
  const r1 = m.tradeRecipe.get(1);
  if (!r1) return t.fail('recipe 1');
  const tuned = (source: NonNullable<typeof r1>['source']) => ({ ...m, tradeRecipe: new Map([...m.tradeRecipe, [1, { ...r1, source }]]) });
  const s = withWealth(rich(), { gem: 5, kirara: 5 });
  fails(t, 'GEM_IS_SHORT', 'tradePlayerItemTrade', s, { recipeId: 1, count: 2 }, { m: tuned({ gem: 3 }) });
  fails(t, 'KIRARA_IS_SHORT', 'tradePlayerItemTrade', s, { recipeId: 1, count: 2 }, { m: tuned({ kirara: 3 }) });
  const r = ok(t, 'tradePlayerItemTrade', s, { recipeId: 1, count: 1 }, { m: tuned({ gem: 3, kirara: 3 }) });
  t.is(r.state.gem, 2);
  t.is(r.state.kirara, 2);
});
