// The operator's entries (the admin API under /admin): table entries like the
// game's, run by the service on the one commit path and kept in the replay log,
// but not served under /api, not in the OpenAPI operations or the client.
import * as t from 'io-ts';
import { DisplayText, NonNegInt, PosInt } from '../codecs.js';
import { gameError } from '../errors.js';
import { Grant } from '../master/common.js';
import { grantTargetExists } from '../master/index.js';
import { defineOp } from '../operation.js';
import { sendPresent } from '../shared/grant.js';
import { fail, ok } from '../shared/result.js';
import { MY_CODE_LENGTH } from '../account.js';
import { randomCode } from '../rng.js';
import { StoredState } from '../player-document.js';
import { withFields } from '../state/copy.js';
import { Uuid } from './player.js';

export const SendPresentRequest = t.type(
  {
    playerId: PosInt,
    grant: Grant,
    title: DisplayText(1, 64),
    message: DisplayText(0, 1000, { multiline: true }),
    deadline: t.union([NonNegInt, t.null]),
  },
  'AdminSendPresentRequest',
);

/** One present to one player from the operator: the admin API's adminDeliverPresents runs it once per player it reaches (its name is in the replay log, so it stays). */
const sendPresentOp = defineOp({
  name: 'adminSendPresent',
  method: 'POST',
  path: '/admin/presents',
  group: 'operator',
  summary: "Puts a grant in one player's gift box, from the operator.",
  find: {
    by: 'playerId',
    key: (req) => req.playerId,
    missing: gameError('PLAYER_NOT_FOUND', {}),
    conflict: 'the player changed concurrently; try again',
  },
  request: SendPresentRequest,
  response: t.type({}, 'AdminSendPresentResponse'),
  errors: ['NOT_FOUND'],
  reduce: (s, req, _rng, now, { master }) => {
    if (!grantTargetExists(master, req.grant))
      return fail('NOT_FOUND', { entity: req.grant.kind, id: req.grant.objectId });
    const meta = { title: req.title, message: req.message, deadline: req.deadline, source: 'operator' };
    return ok({ state: sendPresent(s, req.grant, meta, now).state, response: {} });
  },
});

/** A player's state from an export (POST /admin/players/import, which reads the document), and the device uuid to bind it to. */
export const ImportPlayerRequest = t.intersection(
  [t.type({ state: StoredState }), t.partial({ uuid: Uuid })],
  'AdminImportPlayerRequest',
);

/**
 * An exported player made a new player: a new id, bound to the document's uuid (or the
 * one given), with a new access token and friend code. Its relations are not carried
 * over (the other side of each is another player's state), nor a move code (a live
 * credential) or the uuids it moved from. Managed ids stay as exported: they are unique
 * within the player, which is all a look-up needs.
 */
const importPlayerOp = defineOp({
  name: 'adminImportPlayer',
  method: 'POST',
  path: '/admin/players/import',
  group: 'operator',
  summary: 'Makes a new player of an exported state, with a new id, access token and friend code.',
  find: {
    by: 'new',
    claims: (req) => req.uuid ?? req.state.account.uuid,
    conflict: 'could not allocate a friend code; try again',
  },
  issues: 'accessToken',
  request: ImportPlayerRequest,
  response: t.type({ playerId: t.number, uuid: t.string, accessToken: Uuid }, 'AdminImportPlayerResponse'),
  errors: [],
  reduce: (unborn, req, rng, _now, { issued }) => {
    const src = req.state;
    const uuid = req.uuid ?? src.account.uuid;
    const state = withFields(src, {
      playerId: unborn.playerId,
      version: unborn.version,
      myCode: randomCode(rng, MY_CODE_LENGTH),
      account: {
        uuid,
        platform: src.account.platform,
        tokenHash: issued?.accessTokenHash ?? '',
        movedFrom: [],
        sessionEpoch: 0,
      },
      move: null,
      friends: [],
    });
    return ok({ state, response: { playerId: unborn.playerId, uuid, accessToken: issued?.accessToken ?? '' } });
  },
});

/**
 * An exported state written over the same player (the operator confirmed it: overwrite).
 * What is the account's now stays (uuid, access token, moved-from uuids, move code, friend
 * code) and so do its relations (each is also another player's); its sessions end (the
 * game reloads everything at its next log-in). Managed ids are never handed out twice:
 * the next one is the later of the two.
 */
const restorePlayerOp = defineOp({
  name: 'adminRestorePlayer',
  method: 'POST',
  path: '/admin/players/import',
  group: 'operator',
  summary: 'Writes an exported state over the same player; its account, friend code and relations stay as they are.',
  find: {
    by: 'playerId',
    key: (req) => req.state.playerId,
    missing: gameError('PLAYER_NOT_FOUND', {}),
    conflict: 'the player changed concurrently; try again',
  },
  request: t.type({ state: StoredState }, 'AdminRestorePlayerRequest'),
  response: t.type({ playerId: t.number, version: t.number }, 'AdminRestorePlayerResponse'),
  errors: [],
  reduce: (s, req) => {
    const state = withFields(req.state, {
      playerId: s.playerId,
      version: s.version,
      myCode: s.myCode,
      account: { ...s.account, sessionEpoch: s.account.sessionEpoch + 1 },
      move: s.move,
      friends: s.friends,
      nextManagedId: Math.max(req.state.nextManagedId, s.nextManagedId),
    });
    return ok({ state, response: { playerId: s.playerId, version: s.version + 1 } });
  },
});

export const operatorOps = [sendPresentOp, importPlayerOp, restorePlayerOp] as const;
