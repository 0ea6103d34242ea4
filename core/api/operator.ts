// The descriptions of core/operations/operator.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { PosInt, DisplayText, NonNegInt } from '../codecs.js';
import { Grant } from '../master/common.js';
import { StoredState } from '../player-document.js';
import { Uuid } from './player.js';

export const SendPresentRequest = t.intersection(
  [
    t.type({
      playerId: PosInt,
      grant: Grant,
      title: DisplayText(1, 64),
      message: DisplayText(0, 1000, { multiline: true }),
      deadline: t.union([NonNegInt, t.null]),
    }),
    /** The operator's send it belongs to (absent in logs from before sends had ids). */
    t.partial({ sendId: PosInt }),
  ],
  'AdminSendPresentRequest',
);

/** A player's state from an export (POST /admin/players/import, which reads the document), and the device uuid to bind it to. */
export const ImportPlayerRequest = t.intersection(
  [t.type({ state: StoredState }), t.partial({ uuid: Uuid })],
  'AdminImportPlayerRequest',
);

/** One present to one player from the operator: the admin API's adminDeliverPresents runs it once per player it reaches (its name is in the replay log, so it stays). */
export const sendPresentOp = describeOp({
  name: 'adminSendPresent',
  method: 'POST',
  path: '/admin/presents',
  group: 'operator',
  summary: "Puts a grant in one player's gift box, from the operator.",
  access: 'operator',
  request: SendPresentRequest,
  response: t.type({}, 'AdminSendPresentResponse'),
  errors: ['NOT_FOUND'],
});

/**
 * Suspends a player from `from` until `until` (null: until lifted): its sessions end
 * (the epoch is raised) and every request of the player answers 204 meanwhile (the
 * service's gate). A suspension in force is replaced by the new one.
 */
export const suspendOp = describeOp({
  name: 'adminSuspendPlayer',
  method: 'POST',
  path: '/admin/players/:playerId/suspend',
  group: 'operator',
  summary: 'Suspends a player (the operator).',
  access: 'operator',
  request: t.type(
    {
      playerId: PosInt,
      until: t.union([NonNegInt, t.null]),
      reason: DisplayText(1, 500, { multiline: true }),
      by: DisplayText(1, 64),
    },
    'AdminSuspendPlayerRequest',
  ),
  response: t.type({}, 'AdminSuspendPlayerResponse'),
  errors: ['INVALID_PARAMETERS'],
});

/** Lifts the suspension in force (the player logs in again); none in force is 317. */
export const liftOp = describeOp({
  name: 'adminLiftSuspension',
  // Served as DELETE /admin/players/:playerId/suspend (the admin table says so).
  method: 'POST',
  path: '/admin/players/:playerId/suspend',
  group: 'operator',
  summary: "Lifts a player's suspension (the operator).",
  access: 'operator',
  request: t.type({ playerId: PosInt }, 'AdminLiftSuspensionRequest'),
  response: t.type({}, 'AdminLiftSuspensionResponse'),
  errors: ['STATE_CONFLICT'],
});

/** Takes back the unreceived presents of one operator send from one player; counts those already received. */
export const recallOp = describeOp({
  name: 'adminRecallPresents',
  method: 'POST',
  path: '/admin/presents/recall',
  group: 'operator',
  summary: "Removes a send's unreceived presents from one player (the operator's recall, once per player reached).",
  access: 'operator',
  request: t.type({ playerId: PosInt, sendId: PosInt }, 'AdminRecallPresentsRequest'),
  response: t.type({ removed: t.number, alreadyReceived: t.number }, 'AdminRecallPresentsResponse'),
  errors: [],
});

/**
 * An exported player made a new player: a new id, bound to the document's uuid (or the
 * one given), with a new access token and friend code. Its relations are not carried
 * over (the other side of each is another player's state), nor a move code (a live
 * credential) or the uuids it moved from. Managed ids stay as exported: they are unique
 * within the player, which is all a look-up needs.
 */
export const importPlayerOp = describeOp({
  name: 'adminImportPlayer',
  method: 'POST',
  path: '/admin/players/import',
  group: 'operator',
  summary: 'Makes a new player of an exported state, with a new id, access token and friend code.',
  access: 'account',
  issues: 'accessToken',
  request: ImportPlayerRequest,
  response: t.type({ playerId: t.number, uuid: t.string, accessToken: Uuid }, 'AdminImportPlayerResponse'),
  errors: [],
});

/**
 * An exported state written over the same player (the operator confirmed it: overwrite).
 * What is the account's now stays (uuid, access token, moved-from uuids, move code, friend
 * code) and so do its relations (each is also another player's); its sessions end (the
 * game reloads everything at its next log-in). Managed ids are never handed out twice:
 * the next one is the later of the two.
 */
export const restorePlayerOp = describeOp({
  name: 'adminRestorePlayer',
  method: 'POST',
  path: '/admin/players/import',
  group: 'operator',
  summary: 'Writes an exported state over the same player; its account, friend code and relations stay as they are.',
  access: 'operator',
  request: t.type({ state: StoredState }, 'AdminRestorePlayerRequest'),
  response: t.type({ playerId: t.number, version: t.number }, 'AdminRestorePlayerResponse'),
  errors: [],
});

/** The group's descriptions, in the table's order. */
export const operatorApi = [sendPresentOp, suspendOp, liftOp, recallOp, importPlayerOp, restorePlayerOp] as const;
