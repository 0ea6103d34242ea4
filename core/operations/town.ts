// town: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const townOps: AnyOperation[] = [
  notYet('getAllPlayerTown', 'GET', '/player/town/get_all', 'town', 'Facility placements of the specified player: content buildings and their nearby facilities.'),
  notYet('setPlayerTown', 'POST', '/player/town/set', 'town', 'Sets the placements, including content buildings and nearby facilities.'),
];
