// Item and trade rules at their edges (docs/rules/progression.md, Items and trade):
// an amount exactly at the item maximum and one past, coins reaching the coin maximum
// exactly and one past, an event recipe at the first and last instant of its period,
// each recipe's own count (today's reset at the game day), the trade counts as the
// answer lists them, and what each refusal names.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import { DAY, HOUR } from '../../core/time.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const GOLD_MAX = m.game.currencyMax.gold;
const CANDY = 2001; // sells for 20, maximum 9999
const TOKEN = 10501; // Lantern Token: no sale price
const STAR_DUST = 5005;
const DAILY = 2; // 5000 coins + 20 Star Dust → a Prism Shard; 3 a day
const TOTAL = 3; // 3 Gold Badges → a Radiant Seed; 10 in all
const LANTERN = 4; // 10 Lantern Tokens → a ticket; 20 in all, open in its event period

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const rich = (items: Record<string, number> = {}): PlayerState => withWealth(freshPlayer(), { gold: 1_000_000, items });
const lantern = m.tradeRecipe.get(LANTERN);
const period = { startsAt: lantern?.startsAt ?? 0, endsAt: lantern?.endsAt ?? 0 };
const listed = (t: Parameters<typeof ok>[0], s: PlayerState, now: number) => ok(t, 'getAllPlayerItemTradeRecipe', s, {}, { now }).response.recipes;

// ---- sale ----
test('sale: an unknown item is 107 naming it; an item with no sale price is 102 on itemId naming it', (t) => {
  const s = rich({ [TOKEN]: 5 });
  t.like(fails(t, 'NOT_FOUND', 'salePlayerItem', s, { itemId: 424242, amount: 1 }), { entity: 'item', id: 424242 });
  const e = fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: TOKEN, amount: 1 });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /item 10501 cannot be sold/);
});

test('sale of exactly the item maximum (9999) is sold; one more is 102 on amount naming the maximum', (t) => {
  const max = m.item.get(CANDY)?.max ?? 0;
  const s = withWealth(freshPlayer(), { gold: 0, items: { [CANDY]: max } });
  const r = ok(t, 'salePlayerItem', s, { itemId: CANDY, amount: max });
  t.is(r.state.gold, max * 20);
  t.deepEqual(r.state.items.filter((i) => i.itemId === CANDY), []);
  const e = fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: CANDY, amount: max + 1 });
  t.like(e, { field: 'amount' });
  t.regex(reasonOf(e), /at most 9999/);
});

test('sale: coins reaching the coin maximum exactly are paid; one coin past it is 311 on gold naming the maximum', (t) => {
  const r = ok(t, 'salePlayerItem', withWealth(freshPlayer(), { gold: GOLD_MAX - 20, items: { [CANDY]: 1 } }), { itemId: CANDY, amount: 1 });
  t.is(r.state.gold, GOLD_MAX);
  const e = fails(t, 'CURRENCY_LIMIT', 'salePlayerItem', withWealth(freshPlayer(), { gold: GOLD_MAX - 19, items: { [CANDY]: 1 } }), { itemId: CANDY, amount: 1 });
  t.like(e, { currency: 'gold', max: GOLD_MAX });
});

// ---- the event period ----
test('an event recipe is open from the first instant of its period and closed at its end (listed and traded)', (t) => {
  const s = rich({ [TOKEN]: 100 });
  t.true(listed(t, s, period.startsAt).some((r) => r.recipeId === LANTERN), 'listed at its start');
  t.false(listed(t, s, period.startsAt - 1).some((r) => r.recipeId === LANTERN), 'not listed just before');
  t.true(listed(t, s, period.endsAt - 1).some((r) => r.recipeId === LANTERN), 'listed at its last instant');
  t.false(listed(t, s, period.endsAt).some((r) => r.recipeId === LANTERN), 'not listed at its end');
  ok(t, 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.startsAt });
  ok(t, 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.endsAt - 1 });
  t.like(fails(t, 'TRADE_OUT_OF_PERIOD', 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.endsAt }), { recipeId: LANTERN });
  fails(t, 'TRADE_OUT_OF_PERIOD', 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 }, { now: period.startsAt - 1 });
});

// ---- counts ----
test('each recipe counts its own trades: trading one leaves the others at 0 traded', (t) => {
  const a = ok(t, 'tradePlayerItemTrade', rich({ [STAR_DUST]: 100 }), { recipeId: DAILY, count: 3 }).state;
  const recipes = listed(t, a, NOW);
  t.like(recipes.find((r) => r.recipeId === DAILY), { traded: 3, remaining: 0 });
  t.like(recipes.find((r) => r.recipeId === 1), { traded: 0, remaining: null });
  t.like(recipes.find((r) => r.recipeId === TOTAL), { traded: 0, remaining: 10 });
  t.like(recipes.find((r) => r.recipeId === LANTERN), { traded: 0, remaining: 20 });
});

test('a daily count adds up within the game day and starts again from the trade of the next day; the total keeps counting', (t) => {
  const s = rich({ [STAR_DUST]: 200 });
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
  const s = rich({ [STAR_DUST]: 200, [TOKEN]: 100, 10403: 30 });
  const a = ok(t, 'tradePlayerItemTrade', s, { recipeId: LANTERN, count: 1 });
  const b = ok(t, 'tradePlayerItemTrade', a.state, { recipeId: DAILY, count: 1 });
  t.deepEqual(b.state.tradeCounts.map((c) => c.recipeId), [DAILY, LANTERN]);
  t.deepEqual(b.response.tradeCounts?.map((c) => c.recipeId), [DAILY, LANTERN]);
  const c = ok(t, 'tradePlayerItemTrade', b.state, { recipeId: LANTERN, count: 2 });
  t.deepEqual(c.state.tradeCounts.map((x) => [x.recipeId, x.total]), [[DAILY, 1], [LANTERN, 3]]);
  const d = ok(t, 'tradePlayerItemTrade', c.state, { recipeId: TOTAL, count: 1 });
  t.deepEqual(d.state.tradeCounts.map((x) => [x.recipeId, x.total]), [[DAILY, 1], [TOTAL, 1], [LANTERN, 3]]);
  const other = ok(t, 'tradePlayerItemTrade', ok(t, 'tradePlayerItemTrade', s, { recipeId: DAILY, count: 1 }).state, { recipeId: LANTERN, count: 1 });
  t.deepEqual(other.state.tradeCounts.map((x) => x.recipeId), [DAILY, LANTERN]);
});

// ---- refusals ----
test('trade refusals name the recipe not found (107) and the count over its maximum (102 on count)', (t) => {
  const s = rich({ 10401: 1000 });
  t.like(fails(t, 'NOT_FOUND', 'tradePlayerItemTrade', s, { recipeId: 99, count: 1 }), { entity: 'trade recipe', id: 99 });
  const e = fails(t, 'INVALID_PARAMETERS', 'tradePlayerItemTrade', s, { recipeId: 1, count: 100 });
  t.like(e, { field: 'count' });
  t.regex(reasonOf(e), /at most 99/);
});
