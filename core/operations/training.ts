// training: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const trainingOps: AnyOperation[] = [
  notYet('cancelPlayerTraining', 'POST', '/player/training/cancel', 'training', 'Cancels an on-going training.'),
  notYet('completesPlayerTraining', 'POST', '/player/training/completes', 'training', 'Completes a training; gives items and experience.'),
  notYet('getListPlayerTraining', 'POST', '/player/training/get_list', 'training', 'Training slot infos, including open or closed status and on-going or not.'),
  notYet('ordersPlayerTraining', 'POST', '/player/training/orders', 'training', 'Starts the training named in the request.'),
];
