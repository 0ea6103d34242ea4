// The descriptions of core/operations/offer.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { Offer } from '../master/social.js';
import { Grant } from '../master/common.js';
import { nullable, OfferRunView, WireTime } from '../views/codecs.js';
import { objWithOptional, obj, PosInt } from '../codecs.js';

export const num = t.number;

/** An offer the player can start now: its master entry and the player's completions. */
export const OfferView = t.type(
  {
    offerId: num,
    name: t.string,
    requires: Offer.props.requires,
    materials: Offer.props.materials,
    durationSeconds: num,
    rewards: t.array(Grant),
    /** How many times a player may complete it; null: without limit. */
    limit: nullable(num),
    /** How many times the player completed it. */
    completed: num,
  },
  'OfferView',
);
export type OfferView = t.TypeOf<typeof OfferView>;

/** A reward given, and the present it went to when it did not fit (null when granted). */
export const OfferReward = t.type({ ...Grant.props, managedPresentId: nullable(num) }, 'OfferReward');

export const getAll = describeOp({
  name: 'getAllPlayerOffer',
  method: 'GET',
  path: '/player/offer/get_all',
  group: 'offer',
  readOnly: true,
  summary: 'The offers the player can start now and those on-going (with their timers).',
  request: objWithOptional({}, {}, 'GetAllPlayerOfferRequest'),
  response: t.type(
    {
      /** The offers the player can start now. */
      offers: t.array(OfferView),
      /** The on-going ones, with their timers. */
      ongoing: t.array(OfferRunView),
      /** The most offers on-going at once. */
      maxActive: num,
    },
    'GetAllPlayerOfferResponse',
  ),
  errors: [],
});

export const order = describeOp({
  name: 'orderPlayerOffer',
  method: 'POST',
  path: '/player/offer/order',
  group: 'offer',
  summary:
    'Starts an offer: its conditions met, a free slot, under its limit; pays the materials and starts the timer.',
  request: obj({ offerId: PosInt }, 'OrderPlayerOfferRequest'),
  response: t.type({ offerId: num, completesAt: WireTime }, 'OrderPlayerOfferResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'GOLD_IS_SHORT', 'ITEM_IS_SHORT'],
});

export const complete = describeOp({
  name: 'completePlayerOffer',
  method: 'POST',
  path: '/player/offer/complete',
  group: 'offer',
  summary: 'Completes an on-going offer once its duration has passed, giving its rewards.',
  request: obj({ offerId: PosInt }, 'CompletePlayerOfferRequest'),
  response: t.type({ offerId: num, rewards: t.array(OfferReward) }, 'CompletePlayerOfferResponse'),
  errors: ['NOT_FOUND', 'TIMER_RUNNING'],
});

/** The group's descriptions, in the table's order. */
export const offerApi = [complete, getAll, order] as const;
