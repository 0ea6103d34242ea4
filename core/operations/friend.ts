// friend: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const friendOps: AnyOperation[] = [
  notYet('acceptPlayerFriend', 'POST', '/player/friend/accept', 'friend', 'Accepts a friend request sent by another player.'),
  notYet('cancelPlayerFriend', 'POST', '/player/friend/cancel', 'friend', 'Cancels a request made by the current player.'),
  notYet('getAllPlayerFriend', 'POST', '/player/friend/get_all', 'friend', 'Lists current friends; includes guests when called from the quest screen.'),
  notYet('proposePlayerFriend', 'POST', '/player/friend/propose', 'friend', 'Sends a friend request to another player.'),
  notYet('refusePlayerFriend', 'POST', '/player/friend/refuse', 'friend', 'Denies a request sent by another player.'),
  notYet('searchPlayerFriend', 'POST', '/player/friend/search', 'friend', 'Searches a player by friend code.'),
  notYet('terminatePlayerFriend', 'POST', '/player/friend/terminate', 'friend', 'Removes the specified friend from the friend list.'),
];
