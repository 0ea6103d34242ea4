// roomObject: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const roomObjectOps: AnyOperation[] = [
  notYet('addPlayerRoomObjectLimit', 'POST', '/player/room_object/limit/add', 'roomObject', 'Raises the maximum count of room objects, using gems.'),
  notYet('buySetPlayerRoomObject', 'POST', '/player/room_object/buy_set', 'roomObject', 'Buys and places a room object using coins.'),
  notYet('salePlayerRoomObject', 'POST', '/player/room_object/sale', 'roomObject', 'Sells a specified room object for coins.'),
];
