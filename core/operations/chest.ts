// chest: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const chestOps: AnyOperation[] = [
  notYet('drawPlayerChest', 'POST', '/player/chest/draw', 'chest', 'Draws a specified chest and yields an item.'),
  notYet('getAllPlayerChest', 'GET', '/player/chest/get_all', 'chest', 'All available chests.'),
  notYet('getStepPlayerChest', 'POST', '/player/chest/get_step', 'chest', 'Prizes left in a specified chest.'),
  notYet('resetPlayerChest', 'POST', '/player/chest/reset', 'chest', 'Resets a specified chest.'),
];
