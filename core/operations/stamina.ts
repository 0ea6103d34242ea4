// Stamina restores (gems or a stamina item) and the player's age bracket, which bounds
// a minor's monthly paid-gem purchases. Numbers in fixtures/original.json.
import * as t from 'io-ts';
import { IntEnum, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { PlayerState } from '../state.js';
import { fail, ok } from '../shared/result.js';
import { pay } from '../shared/pay.js';
import { settleStamina, staminaMax } from '../shared/player.js';
import { bumpCounter } from '../shared/counters.js';
import { nullable } from '../views/codecs.js';

const num = t.number;
const GEMS = 1;
const ITEM = 2;
/** The original's "no item". */
const NO_ITEM = -1;

/** stamina/add's type (the original's values). */
export const StaminaAddType = IntEnum('StaminaAddType', {
  [GEMS]:
    'with gems (itemId -1 or absent): each restore refills the stamina maximum for original.stamina.gemPrice gems, free gems first',
  [ITEM]: 'with a stamina item (itemId): each item restores its staminaPercent of the stamina maximum',
});

const staminaAdd = defineOp({
  name: 'addPlayerStamina',
  method: 'POST',
  path: '/player/stamina/add',
  group: 'player',
  summary:
    'Restores stamina with gems (type 1, itemId -1) or stamina items (type 2); num restores or items, up to original.stamina.perRequestMax. Stamina may pass its maximum up to a ceiling (311 past it).',
  request: objWithOptional(
    { type: StaminaAddType, num: PosInt },
    { itemId: IntRange(NO_ITEM, Number.MAX_SAFE_INTEGER) },
    'AddPlayerStaminaRequest',
  ),
  response: t.type(
    {
      /** Stamina now, and the maximum it regenerates to. */
      stamina: num,
      staminaMax: num,
      /** Points restored by this request. */
      restored: num,
      /** Gems spent (free and paid together); 0 for items. */
      gem: num,
      /** The item used and how many; null for gems. */
      itemId: nullable(num),
      itemAmount: num,
    },
    'AddPlayerStaminaResponse',
  ),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'GEM_IS_SHORT', 'ITEM_IS_SHORT', 'CURRENCY_LIMIT'],
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

const ageSet = defineOp({
  name: 'setPlayerAge',
  method: 'POST',
  path: '/player/age/set',
  group: 'player',
  summary:
    "Sets the player's age bracket (original.json ageBrackets), which bounds a minor's monthly paid-gem purchases. Once set it only moves to an older bracket (317 otherwise); the same bracket again changes nothing.",
  request: obj({ age: PosInt }, 'SetPlayerAgeRequest'),
  response: t.type(
    {
      /** The bracket's code, name and the paid gems a month it allows (null: no limit). */
      age: num,
      name: t.string,
      monthlyPaidGemLimit: nullable(num),
    },
    'SetPlayerAgeResponse',
  ),
  errors: ['INVALID_PARAMETERS', 'STATE_CONFLICT'],
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
