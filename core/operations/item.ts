// Items: sell for coins, list the trade recipes open now, and trade.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import { TradeRecipe, type TradeRecipeIndexed } from '../master/progression.js';
import { type Cost, Grant } from '../master/common.js';
import type { PlayerState } from '../state.js';
import type { TradeCount } from '../state/progression.js';
import { dayIndex, formatTime } from '../time.js';
import { fail, ok, type Result } from '../shared/result.js';
import { pay, setItem } from '../shared/pay.js';
import { itemCount } from '../shared/player.js';
import { grantOrPresent } from '../shared/grant.js';
import { WireTime, nullable } from '../views/codecs.js';
import * as api from '../api/item.js';
import { type TradeRecipeView } from '../api/item.js';
export { TradeRecipeView } from '../api/item.js';

// ---- sale ----
const sale = implementOp(api.sale, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const item = m.item.get(req.itemId);
    if (!item) return fail('NOT_FOUND', { entity: 'item', id: req.itemId });
    if (req.amount > item.max)
      return fail('INVALID_PARAMETERS', { field: 'amount', reason: `must be at most ${item.max}` });
    if (item.salePrice <= 0)
      return fail('INVALID_PARAMETERS', { field: 'itemId', reason: `item ${req.itemId} cannot be sold` });
    const have = itemCount(s, req.itemId);
    if (req.amount > have) return fail('ITEM_IS_SHORT', { itemId: req.itemId, need: req.amount, have });
    const gold = item.salePrice * req.amount;
    const cap = m.game.currencyMax.gold;
    if (s.gold + gold > cap) return fail('CURRENCY_LIMIT', { currency: 'gold', max: cap });
    const state = { ...s, gold: s.gold + gold, items: setItem(s.items, req.itemId, have - req.amount) };
    return ok({ state, response: { itemId: req.itemId, amount: req.amount, gold } });
  },
});

// ---- trade ----
const today = (m: Master, now: number): number => dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const isOpen = (r: TradeRecipeIndexed, now: number): boolean =>
  (r.startsAt === null || now >= r.startsAt) && (r.endsAt === null || now < r.endsAt);

const countOf = (s: PlayerState, recipeId: number): TradeCount =>
  s.tradeCounts.find((x) => x.recipeId === recipeId) ?? { recipeId, total: 0, dayIndex: 0, today: 0 };

/** Trades that count against the recipe's limit now. */
const usedNow = (m: Master, r: TradeRecipeIndexed, c: TradeCount, now: number): number =>
  r.limit?.per === 'day' ? (c.dayIndex === today(m, now) ? c.today : 0) : c.total;

/** A recipe's source n times over: coins, town points, gems and items (what a recipe pays). */
const times = (c: Cost, n: number): Cost => ({
  ...(c.gold !== undefined ? { gold: c.gold * n } : {}),
  ...(c.kirara !== undefined ? { kirara: c.kirara * n } : {}),
  ...(c.gem !== undefined ? { gem: c.gem * n } : {}),
  items: (c.items ?? []).map((x) => ({ itemId: x.itemId, amount: x.amount * n })),
});

/** Pays a trade: times() keeps coins, town points, free-first gems and items, so only those can be short. */
const payTrade = (
  m: Master,
  s: PlayerState,
  cost: Cost,
  now: number,
): Result<PlayerState, 'GOLD_IS_SHORT' | 'KIRARA_IS_SHORT' | 'GEM_IS_SHORT' | 'ITEM_IS_SHORT'> =>
  pay(m, s, cost, now) as Result<PlayerState, 'GOLD_IS_SHORT' | 'KIRARA_IS_SHORT' | 'GEM_IS_SHORT' | 'ITEM_IS_SHORT'>;

const recipeView = (m: Master, s: PlayerState, r: TradeRecipeIndexed, now: number): TradeRecipeView => {
  const used = usedNow(m, r, countOf(s, r.recipeId), now);
  return {
    recipeId: r.recipeId,
    name: r.name,
    kind: r.kind,
    startAt: r.startsAt === null ? null : formatTime(r.startsAt, m.game.timezoneOffsetMinutes),
    endAt: r.endsAt === null ? null : formatTime(r.endsAt, m.game.timezoneOffsetMinutes),
    source: r.source,
    result: r.result,
    maxCount: r.maxCount,
    limit: r.limit,
    traded: used,
    remaining: r.limit === null ? null : Math.max(0, r.limit.max - used),
  };
};

const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master: m }) => {
    const recipes = m.tradeRecipes
      .map((x) => m.tradeRecipe.get(x.recipeId) as TradeRecipeIndexed)
      .filter((r) => isOpen(r, now));
    return ok({ state: s, response: { recipes: recipes.map((r) => recipeView(m, s, r, now)) } });
  },
});

const trade = implementOp(api.trade, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const r = m.tradeRecipe.get(req.recipeId);
    if (!r) return fail('NOT_FOUND', { entity: 'trade recipe', id: req.recipeId });
    if (!isOpen(r, now)) return fail('TRADE_OUT_OF_PERIOD', { recipeId: r.recipeId });
    if (req.count > r.maxCount)
      return fail('INVALID_PARAMETERS', { field: 'count', reason: `must be at most ${r.maxCount}` });
    const c = countOf(s, r.recipeId);
    const used = usedNow(m, r, c, now);
    if (r.limit !== null && used + req.count > r.limit.max)
      return fail('TRADE_LIMIT', { recipeId: r.recipeId, max: r.limit.max });
    const paid = payTrade(m, s, times(r.source, req.count), now);
    if (paid._tag === 'Left') return paid;
    const result = { ...r.result, amount: r.result.amount * req.count };
    const granted = grantOrPresent(m, paid.right, result, now);
    if (granted._tag === 'Left') return granted;
    const day = today(m, now);
    const counted: TradeCount = {
      recipeId: r.recipeId,
      total: c.total + req.count,
      dayIndex: day,
      today: (c.dayIndex === day ? c.today : 0) + req.count,
    };
    const rest = granted.right.state.tradeCounts.filter((x) => x.recipeId !== r.recipeId);
    const state = { ...granted.right.state, tradeCounts: [...rest, counted].sort((a, b) => a.recipeId - b.recipeId) };
    return ok({
      state,
      response: {
        recipeId: r.recipeId,
        count: req.count,
        result,
        managedPresentId: granted.right.outcome.managedPresentId,
        recipe: recipeView(m, state, r, now),
      },
    });
  },
});

export const itemOps = [getAll, sale, trade] as const;
