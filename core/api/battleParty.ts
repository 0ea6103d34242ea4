// The descriptions of core/operations/battleParty.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { IntRange, DisplayText, objWithOptional, PosInt, obj } from '../codecs.js';
import { PARTY_COUNT } from '../state/social.js';
import * as t from 'io-ts';
import { BattlePartyView } from '../views/codecs.js';

export const PartyId = IntRange(1, PARTY_COUNT);
/** Shown to friends: DisplayText (no control or format characters, NFC, trimmed, not empty); master data's battleParty.nameMaxLength bounds it. */
export const PartyName = DisplayText(1, 64);

export const SlotIn = objWithOptional(
  {},
  { managedCharacterId: t.union([PosInt, t.null]), managedWeaponId: t.union([PosInt, t.null]) },
  'BattlePartySlot',
);
export const PartyIn = objWithOptional(
  { slots: t.array(SlotIn) },
  { managedBattlePartyId: PartyId, name: PartyName },
  'BattlePartyInput',
);
export type PartyIn = t.TypeOf<typeof PartyIn>;

export const Parties = t.array(PartyIn);

export const getAll = describeOp({
  name: 'getAllPlayerBattleParty',
  method: 'GET',
  path: '/player/battle_party/get_all',
  group: 'battleParty',
  readOnly: true,
  summary: 'All 15 battle parties with their names and slots (managedBattleParties, as the original named the list).',
  request: objWithOptional({}, {}, 'GetAllPlayerBattlePartyRequest'),
  response: t.type({ managedBattleParties: t.array(BattlePartyView) }, 'GetAllPlayerBattlePartyResponse'),
  errors: [],
});

export const setAll = describeOp({
  name: 'setAllPlayerBattleParty',
  method: 'POST',
  path: '/player/battle_party/set_all',
  group: 'battleParty',
  summary:
    "Replaces all 15 battle parties (managedBattleParties; battleParties is accepted as its older name): characters and weapons owned, none repeated within a party, weapons fitting their characters' class.",
  // One of the two names is required; the reducer says which is missing (103) or that both were sent (102).
  request: objWithOptional(
    {},
    { managedBattleParties: Parties, battleParties: Parties },
    'SetAllPlayerBattlePartyRequest',
  ),
  response: t.type({ managedBattleParties: t.array(BattlePartyView) }, 'SetAllPlayerBattlePartyResponse'),
  errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'NOT_FOUND'],
});

export const setName = describeOp({
  name: 'setNamePlayerBattleParty',
  method: 'POST',
  path: '/player/battle_party/set_name',
  group: 'battleParty',
  summary: 'Renames one battle party (length limit from master data).',
  request: obj({ managedBattlePartyId: PartyId, name: PartyName }, 'SetNamePlayerBattlePartyRequest'),
  response: t.type({ managedBattlePartyId: t.number, name: t.string }, 'SetNamePlayerBattlePartyResponse'),
  errors: ['INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const battlePartyApi = [getAll, setAll, setName] as const;
