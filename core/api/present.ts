// The descriptions of core/operations/present.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { PresentView, WireTime } from '../views/codecs.js';
import { objWithOptional, IdList, Int } from '../codecs.js';

/** A present the player received, and when. */
export const ReceivedPresentView = t.type({ ...PresentView.props, receivedAt: WireTime }, 'ReceivedPresentView');
export type ReceivedPresentView = t.TypeOf<typeof ReceivedPresentView>;

/** Why a named present was not received. */
export const NotReceivedReason = t.keyof(
  { NOT_FOUND: null, ALREADY_RECEIVED: null, EXPIRED: null, CAPACITY: null },
  'NotReceivedReason',
);
export type NotReceivedReason = t.TypeOf<typeof NotReceivedReason>;
/** A named present left where it was, with the result code and message it would have had alone (0 for already received or expired). */
export const NotReceived = t.type(
  { managedPresentId: t.number, reason: NotReceivedReason, resultCode: t.number, resultMessage: t.string },
  'NotReceivedPresent',
);

export const getAll = describeOp({
  name: 'getAllPlayerPresent',
  method: 'GET',
  path: '/player/present/get_all',
  group: 'present',
  readOnly: true,
  summary: 'Lists unreceived presents whose deadline has not passed, newest first.',
  request: objWithOptional({}, {}, 'GetAllPlayerPresentRequest'),
  response: t.type({ presents: t.array(PresentView) }, 'GetAllPlayerPresentResponse'),
  errors: [],
});

export const receive = describeOp({
  name: 'getPlayerPresent',
  method: 'GET',
  path: '/player/present/get',
  group: 'present',
  summary: 'Receives the named presents (receive-all sends every id); what would pass a capacity stays in the box.',
  request: t.exact(
    t.intersection([t.type({ managedPresentId: IdList(1000) }), t.partial({ stepCode: Int })]),
    'GetPlayerPresentRequest',
  ),
  response: t.type(
    {
      receivedPresents: t.array(ReceivedPresentView),
      notReceived: t.array(NotReceived),
      /** The box after receiving (unreceived, not expired), newest first. */
      presents: t.array(PresentView),
    },
    'GetPlayerPresentResponse',
  ),
  errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS'],
});

export const getReceived = describeOp({
  name: 'getReceivedPlayerPresent',
  method: 'GET',
  path: '/player/present/get_received',
  group: 'present',
  readOnly: true,
  summary: 'The recently received presents (configured count and age), newest first.',
  request: objWithOptional({}, {}, 'GetReceivedPlayerPresentRequest'),
  response: t.type({ receivedPresents: t.array(ReceivedPresentView) }, 'GetReceivedPlayerPresentResponse'),
  errors: [],
});

/** The group's descriptions, in the table's order. */
export const presentApi = [getAll, receive, getReceived] as const;
