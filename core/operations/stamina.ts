// Stamina restores (gems or a stamina item) and the player's age bracket, which bounds
// a minor's monthly paid-gem purchases. Numbers in fixtures/original.json.
import * as t from 'io-ts';
import { IntEnum, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { PlayerState } from '../state.js';
import { fail, ok } from '../shared/result.js';
import { pay } from '../shared/pay.js';
import { settleStamina, staminaMax } from '../shared/player.js';
import { bumpCounter } from '../shared/counters.js';
import { nullable } from '../views/codecs.js';
import * as api from '../api/stamina.js';
import { GEMS, NO_ITEM, num } from '../api/stamina.js';
export { StaminaAddType } from '../api/stamina.js';

const staminaAdd = implementOp(api.staminaAdd, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const cfg = m.original.stamina;
    if (req.num > cfg.perRequestMax)
      return fail('INVALID_PARAMETERS', { field: 'num', reason: `must be at most ${cfg.perRequestMax}` });
    const max = staminaMax(m, s);
    const itemId = req.itemId ?? NO_ITEM;
    let gain: number;
    let cost: { gem?: number; items?: Array<{ itemId: number; amount: number }> };
    if (req.type === GEMS) {
      if (itemId !== NO_ITEM && itemId !== 0)
        return fail('INVALID_PARAMETERS', { field: 'itemId', reason: 'must be -1 for a restore with gems' });
      gain = max * req.num;
      cost = { gem: cfg.gemPrice * req.num };
    } else {
      if (itemId === NO_ITEM || itemId === 0)
        return fail('INVALID_PARAMETERS', { field: 'itemId', reason: 'must name a stamina item for type 2' });
      const item = m.item.get(itemId);
      if (!item) return fail('NOT_FOUND', { entity: 'item', id: itemId });
      if (item.category !== 'stamina' || item.staminaPercent === undefined)
        return fail('INVALID_PARAMETERS', { field: 'itemId', reason: `item ${itemId} is not a stamina item` });
      gain = Math.max(1, Math.floor((max * item.staminaPercent) / 100)) * req.num;
      cost = { items: [{ itemId, amount: req.num }] };
    }
    const settled = settleStamina(m, s, now);
    const value = settled.stamina.value + gain;
    if (value > cfg.ceiling) return fail('CURRENCY_LIMIT', { currency: 'stamina', max: cfg.ceiling });
    const paid = pay(m, s, cost, now);
    if (paid._tag === 'Left') return paid;
    // Paying touched no stamina: the settled value is the one to raise. At or over the maximum regeneration pauses (from now).
    const after = settleStamina(m, paid.right, now);
    const next: PlayerState = bumpCounter(
      { ...after, stamina: { value, at: value >= max ? now : after.stamina.at } },
      'staminaRestores',
      req.num,
    );
    return ok({
      state: next,
      response: {
        stamina: value,
        staminaMax: max,
        restored: gain,
        gem: req.type === GEMS ? cfg.gemPrice * req.num : 0,
        itemId: req.type === GEMS ? null : itemId,
        itemAmount: req.type === GEMS ? 0 : req.num,
      },
    });
  },
});

const ageSet = implementOp(api.ageSet, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const bracket = m.ageBracket.get(req.age);
    if (!bracket)
      return fail('INVALID_PARAMETERS', {
        field: 'age',
        reason: `must be one of ${[...m.ageBracket.keys()].join(', ')}`,
      });
    const current = s.ageBracket === null ? undefined : m.ageBracket.get(s.ageBracket);
    if (current && bracket.minAge < current.minAge) {
      return fail('STATE_CONFLICT', { reason: `the age bracket is ${current.name}: it only moves to an older one` });
    }
    const next = s.ageBracket === bracket.age ? s : { ...s, ageBracket: bracket.age };
    return ok({
      state: next,
      response: { age: bracket.age, name: bracket.name, monthlyPaidGemLimit: bracket.monthlyPaidGemLimit },
    });
  },
});

export const staminaOps = [staminaAdd, ageSet] as const;
