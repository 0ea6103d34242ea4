// The descriptions of core/operations/fieldParty.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { objWithOptional, PosInt, obj } from '../codecs.js';

export const ScheduleEntry = t.type({ hour: t.number, spotId: t.number }, 'FieldScheduleEntry');
/** A resident of another player's town: no managed id. */
export const PublicFieldPartyMember = t.type(
  { characterId: t.number, contentRoomId: t.number, schedule: t.array(ScheduleEntry) },
  'PublicFieldPartyMember',
);
/** One of the caller's own residents. */
export const FieldPartyMember = t.type(
  { managedCharacterId: t.number, ...PublicFieldPartyMember.props },
  'FieldPartyMember',
);
export type FieldPartyMember = t.TypeOf<typeof FieldPartyMember>;
export type PublicFieldPartyMember = t.TypeOf<typeof PublicFieldPartyMember>;

export const getAll = describeOp({
  name: 'getAllPlayerFieldPartyMember',
  method: 'GET',
  path: '/player/field_party/member/get_all',
  group: 'fieldParty',
  readOnly: true,
  summary:
    "The characters living in the town of the given player (default: the caller), each with today's schedule: where it goes each hour.",
  request: objWithOptional({}, { playerId: PosInt }, 'GetAllPlayerFieldPartyMemberRequest'),
  response: t.type(
    {
      playerId: t.number,
      dayIndex: t.number,
      fieldPartyMembers: t.union([t.array(FieldPartyMember), t.array(PublicFieldPartyMember)]),
    },
    'GetAllPlayerFieldPartyMemberResponse',
  ),
  errors: ['PLAYER_NOT_FOUND'],
});

export const removeAll = describeOp({
  name: 'removeAllPlayerFieldPartyMember',
  method: 'POST',
  path: '/player/field_party/member/remove_all',
  group: 'fieldParty',
  summary: 'Makes exactly the named characters stop living in the town (they leave their content rooms).',
  request: obj({ managedCharacterIds: t.array(PosInt) }, 'RemoveAllPlayerFieldPartyMemberRequest'),
  response: t.type({ removed: t.array(t.number) }, 'RemoveAllPlayerFieldPartyMemberResponse'),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'STATE_CONFLICT'],
});

/** The group's descriptions, in the table's order. */
export const fieldPartyApi = [getAll, removeAll] as const;
