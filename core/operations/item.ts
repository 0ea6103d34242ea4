// item: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const itemOps: AnyOperation[] = [
  notYet('getAllPlayerItemTradeRecipe', 'GET', '/player/item/trade/recipe/get_all', 'item', 'All tradeable recipes, including event-only and constant recipes.'),
  notYet('salePlayerItem', 'POST', '/player/item/sale', 'item', 'Sells specified items for coins.'),
  notYet('tradePlayerItemTrade', 'POST', '/player/item/trade/trade', 'item', 'Trades a specified item for a new item.'),
];
