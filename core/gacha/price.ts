// What a draw costs and how it is paid (the ticket when held, else gems), for the draw
// in core/operations/gacha-draw.ts.
import type { Master } from '../master/model.js';
import type { GachaStat, Payment, PlayerState } from '../state.js';
import type { Cost } from '../master/common.js';
import { fail, ok, type Result } from '../shared/result.js';
import { itemCount } from '../shared/player.js';
import { pay, splitGems } from '../shared/pay.js';
import { DRAW_PAID_SINGLE, DRAW_SINGLE } from './stats.js';
import type { GachaIndexed } from './table.js';

/** What a draw costs and how it is paid: the server chooses ticket or gems. */
export const priceOf = (
  m: Master,
  s: PlayerState,
  g: GachaIndexed,
  st: GachaStat,
  drawType: number,
): Result<{ cost: Cost; payment: Payment }, 'INVALID_PARAMETERS'> => {
  const c = g.cost;
  if (drawType === DRAW_SINGLE) {
    if (c.ticketItemId !== null && itemCount(s, c.ticketItemId) >= c.ticketAmount) {
      return ok({
        cost: { items: [{ itemId: c.ticketItemId, amount: c.ticketAmount }] },
        payment: { ticket: c.ticketAmount, gem: 0, paidGem: 0 },
      });
    }
    return ok({ cost: { gem: c.singleGem }, payment: { ticket: 0, ...splitGems(s, c.singleGem) } });
  }
  if (drawType === DRAW_PAID_SINGLE) {
    if (c.paidSingleGem === null)
      return fail('INVALID_PARAMETERS', {
        field: 'drawType',
        reason: `gacha ${g.gachaId} has no paid-gem single draw`,
      });
    return ok({ cost: { paidGem: c.paidSingleGem }, payment: { ticket: 0, gem: 0, paidGem: c.paidSingleGem } });
  }
  const price = !st.firstTenUsed && c.firstTenGem !== null ? c.firstTenGem : c.tenGem;
  return ok({ cost: { gem: price }, payment: { ticket: 0, ...splitGems(s, price) } });
};

/** Pays a draw's price: a ticket is chosen only when held, so only free or paid gems can be short. */
export const payPrice = (
  m: Master,
  s: PlayerState,
  cost: Cost,
  now: number,
): Result<PlayerState, 'GEM_IS_SHORT' | 'UNLIMITED_GEM_IS_SHORT'> =>
  pay(m, s, cost, now) as Result<PlayerState, 'GEM_IS_SHORT' | 'UNLIMITED_GEM_IS_SHORT'>;
