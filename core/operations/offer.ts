// offer: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const offerOps: AnyOperation[] = [
  notYet('completePlayerOffer', 'POST', '/player/offer/complete', 'offer', 'Completes the offer named in the request.'),
  notYet('getAllPlayerOffer', 'GET', '/player/offer/get_all', 'offer', 'All offers the player can start.'),
  notYet('orderPlayerOffer', 'POST', '/player/offer/order', 'offer', 'Starts the offer named in the request.'),
];
