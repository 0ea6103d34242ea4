// What a player is worth, in the game's own prices: coins, gems (free and paid),
// and what the items and weapons held would sell for (master data salePrice), with
// the presents not yet received counted as what they hold. A designer's properties
// compare these before and after an operation ("no trade makes wealth from
// nothing"); the simulation reports them per player.
import type { Master } from '../core/master/index.js';
import type { Grant } from '../core/master/common.js';
import type { PlayerState } from '../core/state.js';

export interface Wealth {
  readonly coins: number;
  readonly freeGems: number;
  readonly paidGems: number;
  /** Free + paid gems. */
  readonly gems: number;
  /** Town points (kirara). */
  readonly kirara: number;
  /** The items held at their sale price (items that cannot be sold count 0). */
  readonly items: number;
  /** The weapons held at their sale price. */
  readonly weapons: number;
  /** Coins and items (at sale price) waiting in the present box. */
  readonly presents: number;
  /** coins + items + weapons + presents: what the player could turn into coins. */
  readonly saleValue: number;
}

/** The sale value of an item stack (0 for an unknown item or one that cannot be sold). */
export const itemValue = (m: Master, itemId: number, amount: number): number =>
  (m.item.get(itemId)?.salePrice ?? 0) * amount;

/** What a grant is worth in coins at sale prices: coins as they are, items at their sale price, the rest 0. */
export const grantValue = (m: Master, g: Grant): number =>
  g.kind === 'gold' ? g.amount : g.kind === 'item' ? itemValue(m, g.objectId, g.amount) : 0;

export const wealth = (m: Master, s: PlayerState): Wealth => {
  const items = s.items.reduce((a, x) => a + itemValue(m, x.itemId, x.amount), 0);
  const weapons = s.weapons.reduce((a, w) => a + (m.weapon.get(w.weaponId)?.salePrice ?? 0), 0);
  const presents = s.presents.reduce((a, p) => a + grantValue(m, p), 0);
  return {
    coins: s.gold,
    freeGems: s.gem,
    paidGems: s.paidGem,
    gems: s.gem + s.paidGem,
    kirara: s.kirara,
    items,
    weapons,
    presents,
    saleValue: s.gold + items + weapons + presents,
  };
};
