// The descriptions of core/operations/friend.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { obj, PosInt, Text, objWithOptional, Flag } from '../codecs.js';
import * as t from 'io-ts';
import { nullable, WireTime, PublicPlayerView } from '../views/codecs.js';
import { FriendState } from '../state/social.js';

export const PlayerRequest = (name: string) => obj({ playerId: PosInt }, name);
/** The caller's relation with the player after the operation (null: none). */
export const RelationResponse = (name: string) => t.type({ playerId: t.number, state: nullable(FriendState) }, name);

/**
 * A relation in the list: the other player's current public summary, the relation's
 * state and since when. myCode, level and lastLoginAt are null only when that player
 * cannot be read (then the name is the one the relation remembers).
 */
export const FriendEntryView = t.type(
  {
    playerId: t.number,
    name: t.string,
    myCode: nullable(t.string),
    level: nullable(t.number),
    lastLoginAt: nullable(WireTime),
    achievementId: nullable(t.number),
    supportParties: PublicPlayerView.props.supportParties,
    state: FriendState,
    since: WireTime,
  },
  'FriendEntry',
);
export type FriendEntryView = t.TypeOf<typeof FriendEntryView>;

// ---- search ----
export const search = describeOp({
  name: 'searchPlayerFriend',
  method: 'POST',
  path: '/player/friend/search',
  group: 'friend',
  readOnly: true,
  summary: 'Finds a player by friend code: public summary (id, name, level, last log-in, support characters).',
  request: obj({ myCode: Text(1, 32) }, 'SearchPlayerFriendRequest'),
  response: t.type({ player: PublicPlayerView, state: nullable(FriendState) }, 'SearchPlayerFriendResponse'),
  errors: ['PLAYER_NOT_FOUND', 'INVALID_PARAMETERS'],
});

// ---- propose ----
export const propose = describeOp({
  name: 'proposePlayerFriend',
  method: 'POST',
  path: '/player/friend/propose',
  group: 'friend',
  summary: 'Sends a friend request; if that player had already asked the caller, both become friends.',
  request: PlayerRequest('ProposePlayerFriendRequest'),
  response: RelationResponse('ProposePlayerFriendResponse'),
  errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'ALREADY_FRIEND', 'STATE_CONFLICT', 'FRIEND_LIMIT'],
});

// ---- accept ----
export const accept = describeOp({
  name: 'acceptPlayerFriend',
  method: 'POST',
  path: '/player/friend/accept',
  group: 'friend',
  summary: 'Accepts a friend request received from another player: both become friends.',
  request: PlayerRequest('AcceptPlayerFriendRequest'),
  response: RelationResponse('AcceptPlayerFriendResponse'),
  errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'NOT_FOUND', 'ALREADY_FRIEND', 'FRIEND_LIMIT'],
});

// ---- refuse ----
export const refuse = describeOp({
  name: 'refusePlayerFriend',
  method: 'POST',
  path: '/player/friend/refuse',
  group: 'friend',
  summary: 'Refuses a friend request received from another player: the request is gone on both sides.',
  request: PlayerRequest('RefusePlayerFriendRequest'),
  response: RelationResponse('RefusePlayerFriendResponse'),
  errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'NOT_FOUND', 'ALREADY_FRIEND'],
});

// ---- cancel ----
export const cancel = describeOp({
  name: 'cancelPlayerFriend',
  method: 'POST',
  path: '/player/friend/cancel',
  group: 'friend',
  summary: 'Cancels a friend request the caller proposed: the request is gone on both sides.',
  request: PlayerRequest('CancelPlayerFriendRequest'),
  response: RelationResponse('CancelPlayerFriendResponse'),
  errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'NOT_FOUND', 'ALREADY_FRIEND'],
});

// ---- terminate ----
export const terminate = describeOp({
  name: 'terminatePlayerFriend',
  method: 'POST',
  path: '/player/friend/terminate',
  group: 'friend',
  summary: 'Removes a friend: the friendship ends on both sides.',
  request: PlayerRequest('TerminatePlayerFriendRequest'),
  response: RelationResponse('TerminatePlayerFriendResponse'),
  errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'NOT_YET_FRIEND'],
});

// ---- get_all ----
export const getAll = describeOp({
  name: 'getAllPlayerFriend',
  method: 'POST',
  path: '/player/friend/get_all',
  group: 'friend',
  readOnly: true,
  summary:
    'Lists friends and requests both ways; with fromQuest (the quest screen) adds guests: recently active non-friends chosen at random.',
  request: objWithOptional({}, { fromQuest: Flag }, 'GetAllPlayerFriendRequest'),
  response: t.type(
    {
      friends: t.array(FriendEntryView),
      proposed: t.array(FriendEntryView),
      received: t.array(FriendEntryView),
      guests: t.array(PublicPlayerView),
      friendCount: t.number,
      friendLimit: t.number,
    },
    'GetAllPlayerFriendResponse',
  ),
  errors: [],
});

/** The group's descriptions, in the table's order. */
export const friendApi = [accept, cancel, getAll, propose, refuse, search, terminate] as const;
