// The descriptions of core/operations/character.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { obj, PosInt, DisplayText, objWithOptional, IntRange, IdList } from '../codecs.js';
import * as t from 'io-ts';
import { CharacterView, ItemStackView, SupportPartyView } from '../views/codecs.js';
import { COST_ERRORS } from '../shared/growth.js';

export const VIEW_BASE = 0;
export const VIEW_EVOLVED = 1;

export const ItemAmountRequest = obj({ itemId: PosInt, amount: PosInt }, 'ItemAmount');
/** An answer that shows the character it changed, as its entry in managedCharacters shows it. */
export const CharacterResponse = (name: string) => t.type({ managedCharacter: CharacterView }, name);

// ---- support/set_all ----
// The codec's bounds are generous; the master-data limits are checked by the reducer.
// Names: DisplayText (no control or format characters, NFC, trimmed); the reducer checks 1 to support.nameMaxLength.
export const SupportPartyRequest = obj(
  { name: DisplayText(0, 200), managedCharacterIds: t.array(PosInt) },
  'SupportPartyRequest',
);

// ---- upgrade ----
export const upgrade = describeOp({
  name: 'upgradePlayerCharacter',
  method: 'POST',
  path: '/player/character/upgrade',
  group: 'character',
  summary:
    "Raises a character's level with exp items; each item used costs coins (level × perLevel + base), exp past the cap is lost.",
  request: obj({ managedCharacterId: PosInt, items: t.array(ItemAmountRequest) }, 'UpgradePlayerCharacterRequest'),
  response: t.type(
    { managedCharacter: CharacterView, usedItems: t.array(ItemStackView), gold: t.number },
    'UpgradePlayerCharacterResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'CHARACTER_UPGRADE_LIMIT', 'ITEM_IS_SHORT', 'GOLD_IS_SHORT'],
});

// ---- limitBreak ----
export const limitBreak = describeOp({
  name: 'limitbreakPlayerCharacter',
  method: 'POST',
  path: '/player/character/limitBreak',
  group: 'character',
  summary:
    "Limit-breaks a character with its own limit-break item, or the universal one named by itemId, in its rarity's amount.",
  request: objWithOptional({ managedCharacterId: PosInt }, { itemId: PosInt }, 'LimitbreakPlayerCharacterRequest'),
  response: CharacterResponse('LimitbreakPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'LIMIT_BREAK_LIMIT', 'ITEM_IS_SHORT'],
});

// ---- evolution ----
export const evolution = describeOp({
  name: 'evolutionPlayerCharacter',
  method: 'POST',
  path: '/player/character/evolution',
  group: 'character',
  summary:
    'Evolves a character at its level cap after its last limit break, paying the master-data items and coins; its cap rises and its view becomes evolved.',
  request: obj({ managedCharacterId: PosInt }, 'EvolutionPlayerCharacterRequest'),
  response: CharacterResponse('EvolutionPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', ...COST_ERRORS],
});

// ---- set_view ----
export const setView = describeOp({
  name: 'setViewPlayerCharacter',
  method: 'POST',
  path: '/player/character/set_view',
  group: 'character',
  summary: "Sets a character's battle view: 0 base form, 1 evolved form (only when evolved).",
  request: obj(
    { managedCharacterId: PosInt, view: IntRange(VIEW_BASE, VIEW_EVOLVED) },
    'SetViewPlayerCharacterRequest',
  ),
  response: CharacterResponse('SetViewPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
});

// ---- reset_all_view ----
export const resetAllView = describeOp({
  name: 'resetAllViewPlayerCharacter',
  method: 'POST',
  path: '/player/character/reset_all_view',
  group: 'character',
  summary: "Resets every character's battle view to its default: evolved if evolved, else base.",
  request: objWithOptional({}, {}, 'ResetAllViewPlayerCharacterRequest'),
  response: t.type({ changed: t.number }, 'ResetAllViewPlayerCharacterResponse'),
  errors: [],
});

// ---- set_shown ----
export const setShown = describeOp({
  name: 'setShownPlayerCharacter',
  method: 'POST',
  path: '/player/character/set_shown',
  group: 'character',
  summary: 'Marks the named characters as shown (shown becomes 1).',
  request: obj({ managedCharacterIds: IdList(500) }, 'SetShownPlayerCharacterRequest'),
  response: t.type({ managedCharacterIds: t.array(t.number) }, 'SetShownPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'INSUFFICIENT_PARAMETERS'],
});

export const supportSetAll = describeOp({
  name: 'setAllPlayerCharacterSupport',
  method: 'POST',
  path: '/player/character/support/set_all',
  group: 'character',
  summary:
    'Replaces all support parties: at most the master-data number of parties (297) of at most the master-data number of owned characters (296), none repeated in a party.',
  request: obj({ supportParties: t.array(SupportPartyRequest) }, 'SetAllPlayerCharacterSupportRequest'),
  response: t.type({ supportParties: t.array(SupportPartyView) }, 'SetAllPlayerCharacterSupportResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'SUPPORT_LIMIT', 'SUPPORT_CHAR_LIMIT'],
});

// ---- support/set_name ----
export const supportSetName = describeOp({
  name: 'setNamePlayerCharacterSupport',
  method: 'POST',
  path: '/player/character/support/set_name',
  group: 'character',
  summary: 'Renames one support party (supportPartyNo counts from 1, in the order set_all gave).',
  request: obj({ supportPartyNo: PosInt, name: DisplayText(0, 200) }, 'SetNamePlayerCharacterSupportRequest'),
  response: t.type({ supportPartyNo: t.number, name: t.string }, 'SetNamePlayerCharacterSupportResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const characterApi = [
  evolution,
  limitBreak,
  resetAllView,
  supportSetAll,
  supportSetName,
  setShown,
  setView,
  upgrade,
] as const;
