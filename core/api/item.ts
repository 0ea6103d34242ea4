// The descriptions of core/operations/item.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { TradeRecipe } from '../master/progression.js';
import { nullable, WireTime } from '../views/codecs.js';
import { Cost, Grant } from '../master/common.js';
import { obj, PosInt, objWithOptional } from '../codecs.js';

export const num = t.number;

/** A trade recipe open now, with the player's trades counted against its limit. */
export const TradeRecipeView = t.type(
  {
    recipeId: num,
    name: t.string,
    kind: TradeRecipe.props.kind,
    /** The event period; null for a constant recipe. */
    startAt: nullable(WireTime),
    endAt: nullable(WireTime),
    /** What one trade pays, and what it gives. */
    source: Cost,
    result: Grant,
    /** The most trades one request may make. */
    maxCount: num,
    /** null: unlimited. */
    limit: TradeRecipe.props.limit,
    /** Trades counted against the limit now (today's for a daily limit). */
    traded: num,
    /** Trades left under the limit; null when unlimited. */
    remaining: nullable(num),
  },
  'TradeRecipeView',
);
export type TradeRecipeView = t.TypeOf<typeof TradeRecipeView>;

// ---- sale ----
export const sale = describeOp({
  name: 'salePlayerItem',
  method: 'POST',
  path: '/player/item/sale',
  group: 'item',
  summary: 'Sells an amount of an item for its sale price in coins (items with no sale price cannot be sold).',
  request: obj({ itemId: PosInt, amount: PosInt }, 'SalePlayerItemRequest'),
  response: t.type(
    {
      itemId: num,
      amount: num,
      /** Coins received. */
      gold: num,
    },
    'SalePlayerItemResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'ITEM_IS_SHORT', 'CURRENCY_LIMIT'],
});

export const getAll = describeOp({
  name: 'getAllPlayerItemTradeRecipe',
  method: 'GET',
  path: '/player/item/trade/recipe/get_all',
  group: 'item',
  readOnly: true,
  summary:
    "The trade recipes open now (constant ones always, event ones in their period) with the player's trade counts and limits.",
  request: objWithOptional({}, {}, 'GetAllPlayerItemTradeRecipeRequest'),
  response: t.type({ recipes: t.array(TradeRecipeView) }, 'GetAllPlayerItemTradeRecipeResponse'),
  errors: [],
});

export const trade = describeOp({
  name: 'tradePlayerItemTrade',
  method: 'POST',
  path: '/player/item/trade/trade',
  group: 'item',
  summary:
    'Trades count times by a recipe open now and under its limit: pays count × its source, grants count × its result.',
  request: obj({ recipeId: PosInt, count: PosInt }, 'TradePlayerItemTradeRequest'),
  response: t.type(
    {
      recipeId: num,
      count: num,
      /** What was given: the recipe's result count times over. */
      result: Grant,
      /** The present it went to when it did not fit; null when granted. */
      managedPresentId: nullable(num),
      /** The recipe after the trade. */
      recipe: TradeRecipeView,
    },
    'TradePlayerItemTradeResponse',
  ),
  errors: [
    'NOT_FOUND',
    'INVALID_PARAMETERS',
    'TRADE_OUT_OF_PERIOD',
    'TRADE_LIMIT',
    'ITEM_IS_SHORT',
    'GOLD_IS_SHORT',
    'GEM_IS_SHORT',
    'KIRARA_IS_SHORT',
  ],
});

/** The group's descriptions, in the table's order. */
export const itemApi = [getAll, sale, trade] as const;
