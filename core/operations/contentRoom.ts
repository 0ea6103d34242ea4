// contentRoom: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const contentRoomOps: AnyOperation[] = [
  notYet('getAllPlayerContentRoomMember', 'POST', '/player/content_room/member/get_all', 'contentRoom', 'Characters living in a specified content room.'),
  notYet('setAllPlayerContentRoomMember', 'POST', '/player/content_room/member/set_all', 'contentRoom', 'Sets the characters living in a specified content room.'),
  notYet('setShownPlayerContentRoom', 'POST', '/player/content_room/set_shown', 'contentRoom', 'Marks a content room as shown.'),
];
