// The descriptions of core/operations/ability.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { AbilityTreeView, ItemStackView } from '../views/codecs.js';
import { obj, PosInt } from '../codecs.js';
import { COST_ERRORS } from '../shared/growth.js';
import { ItemAmountRequest } from './character.js';

/** An answer that shows the ability tree it changed, as managedAbilityTrees shows it. */
export const TreeResponse = (name: string) => t.type({ abilityTree: AbilityTreeView }, name);

// ---- release ----
export const release = describeOp({
  name: 'releasePlayerAbility',
  method: 'POST',
  path: '/player/ability/release',
  group: 'ability',
  summary: "Unlocks a character's ability tree with the named item (one of the tree's unlock items, in its amount).",
  request: obj({ managedCharacterId: PosInt, itemId: PosInt }, 'ReleasePlayerAbilityRequest'),
  response: TreeResponse('ReleasePlayerAbilityResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'STATE_CONFLICT', 'ITEM_IS_SHORT'],
});

// ---- release_slot ----
export const releaseSlot = describeOp({
  name: 'releaseSlotPlayerAbility',
  method: 'POST',
  path: '/player/ability/release_slot',
  group: 'ability',
  summary: "Unlocks a slot of an unlocked ability tree, paying the slot's master-data cost.",
  request: obj({ managedCharacterId: PosInt, slotNo: PosInt }, 'ReleaseSlotPlayerAbilityRequest'),
  response: TreeResponse('ReleaseSlotPlayerAbilityResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', ...COST_ERRORS],
});

// ---- equip ----
export const equip = describeOp({
  name: 'equipPlayerAbility',
  method: 'POST',
  path: '/player/ability/equip',
  group: 'ability',
  summary:
    'Puts a fruit item (sphere) from the item box into an unlocked slot; the one it replaces returns to the item box.',
  request: obj({ managedCharacterId: PosInt, slotNo: PosInt, itemId: PosInt }, 'EquipPlayerAbilityRequest'),
  response: TreeResponse('EquipPlayerAbilityResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'STATE_CONFLICT', 'ITEM_IS_SHORT'],
});

// ---- upgrade_sphere ----
export const upgradeSphere = describeOp({
  name: 'upgradeSpherePlayerAbility',
  method: 'POST',
  path: '/player/ability/upgrade_sphere',
  group: 'ability',
  summary: 'Levels the fruit item in a slot with the named material items (coins per item), up to its maximum level.',
  request: obj(
    { managedCharacterId: PosInt, slotNo: PosInt, items: t.array(ItemAmountRequest) },
    'UpgradeSpherePlayerAbilityRequest',
  ),
  response: t.type(
    { abilityTree: AbilityTreeView, usedItems: t.array(ItemStackView), gold: t.number },
    'UpgradeSpherePlayerAbilityResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'STATE_CONFLICT', 'ITEM_IS_SHORT', 'GOLD_IS_SHORT'],
});

/** The group's descriptions, in the table's order. */
export const abilityApi = [equip, release, releaseSlot, upgradeSphere] as const;
