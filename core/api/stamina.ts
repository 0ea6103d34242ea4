// The descriptions of core/operations/stamina.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { IntEnum, objWithOptional, PosInt, IntRange, obj } from '../codecs.js';
import { nullable } from '../views/codecs.js';

export const num = t.number;
export const GEMS = 1;
export const ITEM = 2;
/** The original's "no item". */
export const NO_ITEM = -1;

/** stamina/add's type (the original's values). */
export const StaminaAddType = IntEnum('StaminaAddType', {
  [GEMS]:
    'with gems (itemId -1 or absent): each restore refills the stamina maximum for original.stamina.gemPrice gems, free gems first',
  [ITEM]: 'with a stamina item (itemId): each item restores its staminaPercent of the stamina maximum',
});

export const staminaAdd = describeOp({
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
});

export const ageSet = describeOp({
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
});

/** The group's descriptions, in the table's order. */
export const staminaApi = [staminaAdd, ageSet] as const;
