// Paying a cost: every part is checked before anything is taken, so a failed
// payment changes nothing. Free gems go before paid gems unless paid are required.
import type { Cost } from '../master/common.js';
import type { Master } from '../master/index.js';
import type { ItemStack, PlayerState } from '../state.js';
import { fail, ok, type Result } from './result.js';
import { itemAmount, itemCount, itemIndex, settleStamina } from './player.js';
import { withFields } from '../state/copy.js';

/** The shortfall each part of a cost can give. */
interface ShortOf {
  gold: 'GOLD_IS_SHORT';
  paidGem: 'UNLIMITED_GEM_IS_SHORT';
  gem: 'GEM_IS_SHORT';
  kirara: 'KIRARA_IS_SHORT';
  stamina: 'STAMINA_IS_SHORT';
  items: 'ITEM_IS_SHORT';
}
/** What paying a cost can fail with: the first currency, stamina or item that is short. */
export type PayError = ShortOf[keyof ShortOf];
/**
 * What paying a cost of type C can fail with: only the parts it has (a part it
 * lacks counts as 0 and is never short), so an operation declares only the
 * shortfalls it can meet. A cost from master data (type Cost) can give them all.
 */
export type ShortfallOf<C> = C extends unknown ? ShortOf[keyof C & keyof ShortOf] : never;

/** Sums item amounts by item id, keeping first-seen order. */
export const mergeItems = (
  items: ReadonlyArray<{ itemId: number; amount: number }>,
): Array<{ itemId: number; amount: number }> => {
  const out: Array<{ itemId: number; amount: number }> = [];
  for (const it of items) {
    const found = out.find((o) => o.itemId === it.itemId);
    if (found) found.amount += it.amount;
    else out.push({ itemId: it.itemId, amount: it.amount });
  }
  return out;
};

/** The item list with one item's amount set (removed at zero), kept sorted by item id; the input is not changed. */
export const setItem = (items: ReadonlyArray<ItemStack>, itemId: number, amount: number): ItemStack[] => {
  const i = itemIndex(items, itemId);
  const found = i < items.length && (items[i] as ItemStack).itemId === itemId;
  const next = items.slice();
  if (amount <= 0) {
    if (found) next.splice(i, 1);
  } else if (found) next[i] = { itemId, amount };
  else next.splice(i, 0, { itemId, amount });
  return next;
};

/** Checks a cost against the state; the first shortfall is the error (only a part the cost has can be short). */
export const checkCost = <C extends Cost>(
  m: Master,
  s: PlayerState,
  cost: C,
  now: number,
): Result<true, ShortfallOf<C>> =>
  // Each check below runs only on a part the cost has (an absent part counts as 0); the compiler cannot follow that through C.
  checkAnyCost(m, s, cost, now) as Result<true, ShortfallOf<C>>;

const checkAnyCost = (m: Master, s: PlayerState, cost: Cost, now: number): Result<true, PayError> => {
  const gold = cost.gold ?? 0;
  if (gold > s.gold) return fail('GOLD_IS_SHORT', { need: gold, have: s.gold });
  const paid = cost.paidGem ?? 0;
  if (paid > s.paidGem) return fail('UNLIMITED_GEM_IS_SHORT', { need: paid, have: s.paidGem });
  const gem = cost.gem ?? 0;
  if (gem > s.gem + (s.paidGem - paid)) return fail('GEM_IS_SHORT', { need: gem, have: s.gem + s.paidGem - paid });
  const kirara = cost.kirara ?? 0;
  if (kirara > s.kirara) return fail('KIRARA_IS_SHORT', { need: kirara, have: s.kirara });
  const stamina = cost.stamina ?? 0;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent (checking a zero stamina cost finds nothing short; stamina is never negative)
  if (stamina > 0) {
    const have = settleStamina(m, s, now).stamina.value;
    if (stamina > have) return fail('STAMINA_IS_SHORT', { need: stamina, have });
  }
  for (const it of mergeItems(cost.items ?? [])) {
    const have = itemCount(s, it.itemId);
    if (it.amount > have) return fail('ITEM_IS_SHORT', { itemId: it.itemId, need: it.amount, have });
  }
  return ok(true);
};

/** How a gem cost splits into free and paid gems (free first). */
export const splitGems = (s: PlayerState, gem: number): { gem: number; paidGem: number } => {
  const free = Math.min(gem, s.gem);
  return { gem: free, paidGem: gem - free };
};

/** Pays a cost whole, or fails with the first shortfall and changes nothing. */
export const pay = <C extends Cost>(
  m: Master,
  s: PlayerState,
  cost: C,
  now: number,
): Result<PlayerState, ShortfallOf<C>> => {
  const check = checkCost(m, s, cost, now);
  if (check._tag === 'Left') return check;
  let next: PlayerState = s;
  const gem = splitGems(s, cost.gem ?? 0);
  const paid = (cost.paidGem ?? 0) + gem.paidGem;
  if ((cost.gold ?? 0) > 0 || gem.gem > 0 || paid > 0 || (cost.kirara ?? 0) > 0) {
    next = withFields(next, {
      gold: next.gold - (cost.gold ?? 0),
      gem: next.gem - gem.gem,
      paidGem: next.paidGem - paid,
      kirara: next.kirara - (cost.kirara ?? 0),
    });
  }
  if ((cost.stamina ?? 0) > 0) {
    const settled = settleStamina(m, next, now);
    next = withFields(settled, {
      stamina: { value: settled.stamina.value - (cost.stamina ?? 0), at: settled.stamina.at },
    });
  }
  const items = mergeItems(cost.items ?? []);
  if (items.length > 0) {
    let bag = next.items;
    for (const it of items) bag = setItem(bag, it.itemId, itemAmount(bag, it.itemId) - it.amount);
    next = withFields(next, { items: bag });
  }
  return ok(next);
};
