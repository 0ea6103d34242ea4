// room: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const roomOps: AnyOperation[] = [
  notYet('getAllPlayerRoom', 'GET', '/player/room/get_all', 'room', 'Customized room infos of the specified player.'),
  notYet('setPlayerRoom', 'POST', '/player/room/set', 'room', 'Sets the current player\'s room customization.'),
];
