// The descriptions of core/operations/weapon.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { WeaponView, ItemStackView } from '../views/codecs.js';
import { obj, PosInt, IdList, objWithOptional } from '../codecs.js';
import { COST_ERRORS } from '../shared/growth.js';
import { ItemAmountRequest } from './character.js';

/** An answer that shows the weapon it made or changed. */
export const WeaponResponse = (name: string) => t.type({ managedWeapon: WeaponView }, name);

// ---- make ----
export const make = describeOp({
  name: 'makePlayerWeapon',
  method: 'POST',
  path: '/player/weapon/make',
  group: 'weapon',
  summary: 'Makes a weapon by its recipe (items and coins used implicitly); storage full is 301.',
  request: obj({ weaponId: PosInt }, 'MakePlayerWeaponRequest'),
  response: WeaponResponse('MakePlayerWeaponResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'WEAPON_LIMIT', ...COST_ERRORS],
});

// ---- receive ----
export const receive = describeOp({
  name: 'receivePlayerWeapon',
  method: 'POST',
  path: '/player/weapon/receive',
  group: 'weapon',
  summary: "Receives the character's own weapon, once per character, when the character is at the receive level (100).",
  request: obj({ managedCharacterId: PosInt }, 'ReceivePlayerWeaponRequest'),
  response: WeaponResponse('ReceivePlayerWeaponResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'WEAPON_LIMIT'],
});

// ---- upgrade ----
export const upgrade = describeOp({
  name: 'upgradePlayerWeapon',
  method: 'POST',
  path: '/player/weapon/upgrade',
  group: 'weapon',
  summary:
    'Levels a weapon with weapon exp items; each item used costs coins (level × perLevel + base); exp past the maximum level is lost; at the maximum is 293.',
  request: obj({ managedWeaponId: PosInt, items: t.array(ItemAmountRequest) }, 'UpgradePlayerWeaponRequest'),
  response: t.type(
    { managedWeapon: WeaponView, usedItems: t.array(ItemStackView), gold: t.number },
    'UpgradePlayerWeaponResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'WEAPON_UPGRADE_LIMIT', 'ITEM_IS_SHORT', 'GOLD_IS_SHORT'],
});

// ---- evolution ----
export const evolution = describeOp({
  name: 'evolutionPlayerWeapon',
  method: 'POST',
  path: '/player/weapon/evolution',
  group: 'weapon',
  summary:
    'Evolves a weapon at its maximum level into its evolved form by its evolution recipe; it keeps its level and exp.',
  request: obj({ managedWeaponId: PosInt }, 'EvolutionPlayerWeaponRequest'),
  response: WeaponResponse('EvolutionPlayerWeaponResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', ...COST_ERRORS],
});

// ---- sale ----
export const sale = describeOp({
  name: 'salePlayerWeapon',
  method: 'POST',
  path: '/player/weapon/sale',
  group: 'weapon',
  summary: 'Sells the named weapons for their sale price in coins; a weapon in a battle party cannot be sold.',
  request: obj({ managedWeaponIds: IdList(1000) }, 'SalePlayerWeaponRequest'),
  response: t.type({ managedWeaponIds: t.array(t.number), gold: t.number }, 'SalePlayerWeaponResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'STATE_CONFLICT', 'CURRENCY_LIMIT'],
});

// ---- limit/add ----
export const limitAdd = describeOp({
  name: 'addPlayerWeaponLimit',
  method: 'POST',
  path: '/player/weapon/limit/add',
  group: 'weapon',
  summary: 'Adds weapon storage slots (+step) for gems, up to the cap (299 over it; 445 short of gems).',
  request: objWithOptional({}, {}, 'AddPlayerWeaponLimitRequest'),
  response: t.type({ weaponLimit: t.number }, 'AddPlayerWeaponLimitResponse'),
  errors: ['WEAPON_EXT_LIMIT', 'GEM_IS_SHORT'],
});

/** The group's descriptions, in the table's order. */
export const weaponApi = [limitAdd, evolution, make, receive, sale, upgrade] as const;
