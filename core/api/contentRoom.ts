// The descriptions of core/operations/contentRoom.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { obj, PosInt } from '../codecs.js';
import * as t from 'io-ts';

export const ByRoom = (name: string) => obj({ contentRoomId: PosInt }, name);

export const getAllMember = describeOp({
  name: 'getAllPlayerContentRoomMember',
  method: 'POST',
  path: '/player/content_room/member/get_all',
  group: 'contentRoom',
  readOnly: true,
  summary: 'The characters living in a content room.',
  request: ByRoom('GetAllPlayerContentRoomMemberRequest'),
  response: t.type(
    {
      contentRoomId: t.number,
      capacity: t.number,
      isNew: t.boolean,
      members: t.array(t.type({ managedCharacterId: t.number, characterId: t.number })),
    },
    'GetAllPlayerContentRoomMemberResponse',
  ),
  errors: ['NOT_FOUND'],
});

export const setAllMember = describeOp({
  name: 'setAllPlayerContentRoomMember',
  method: 'POST',
  path: '/player/content_room/member/set_all',
  group: 'contentRoom',
  summary:
    'Replaces the characters living in a content room: owned characters of its title, each once, up to its capacity.',
  request: obj({ contentRoomId: PosInt, managedCharacterIds: t.array(PosInt) }, 'SetAllPlayerContentRoomMemberRequest'),
  response: t.type(
    { contentRoomId: t.number, managedCharacterIds: t.array(t.number) },
    'SetAllPlayerContentRoomMemberResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
});

export const setShown = describeOp({
  name: 'setShownPlayerContentRoom',
  method: 'POST',
  path: '/player/content_room/set_shown',
  group: 'contentRoom',
  summary: 'Marks a content room as seen (no longer new).',
  request: ByRoom('SetShownPlayerContentRoomRequest'),
  response: t.type({ contentRoomId: t.number }, 'SetShownPlayerContentRoomResponse'),
  errors: ['NOT_FOUND'],
});

/** The group's descriptions, in the table's order. */
export const contentRoomApi = [getAllMember, setAllMember, setShown] as const;
