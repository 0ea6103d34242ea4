// The operator's entries (the admin API under /admin): table entries like the
// game's, run by the service on the one commit path and kept in the replay log,
// but not served under /api, not in the OpenAPI operations or the client.
import * as t from 'io-ts';
import { DisplayText, NonNegInt, PosInt } from '../codecs.js';
import { gameError } from '../errors.js';
import { Grant } from '../master/common.js';
import { grantTargetExists } from '../master/index.js';
import { implementOp } from '../operation.js';
import { sendPresent } from '../shared/grant.js';
import { fail, ok } from '../shared/result.js';
import { suspensionAt } from '../state/liveops.js';
import { MY_CODE_LENGTH } from '../account.js';
import { randomCode } from '../rng.js';
import { StoredState } from '../player-document.js';
import { withFields } from '../state/copy.js';
import { Uuid } from './player.js';
import * as api from '../api/operator.js';
export { SendPresentRequest, ImportPlayerRequest } from '../api/operator.js';

/** One present to one player from the operator: the admin API's adminDeliverPresents runs it once per player it reaches (its name is in the replay log, so it stays). */
const sendPresentOp = implementOp(api.sendPresentOp, {
  find: {
    by: 'playerId',
    key: (req) => req.playerId,
    missing: gameError('PLAYER_NOT_FOUND', {}),
    conflict: 'the player changed concurrently; try again',
  },
  reduce: (s, req, _rng, now, { master }) => {
    if (!grantTargetExists(master, req.grant))
      return fail('NOT_FOUND', { entity: req.grant.kind, id: req.grant.objectId });
    const meta = {
      title: req.title,
      message: req.message,
      deadline: req.deadline,
      source: 'operator',
      ...(req.sendId !== undefined ? { sendId: req.sendId } : {}),
    };
    return ok({ state: sendPresent(s, req.grant, meta, now).state, response: {} });
  },
});

/** Found by the player's id, as every operator entry is. */
const byPlayerId = {
  by: 'playerId',
  key: (req: { readonly playerId: number }) => req.playerId,
  missing: gameError('PLAYER_NOT_FOUND', {}),
  conflict: 'the player changed concurrently; try again',
} as const;

/**
 * Suspends a player from `from` until `until` (null: until lifted): its sessions end
 * (the epoch is raised) and every request of the player answers 204 meanwhile (the
 * service's gate). A suspension in force is replaced by the new one.
 */
const suspendOp = implementOp(api.suspendOp, {
  find: byPlayerId,
  reduce: (s, req, _rng, now) => {
    if (req.until !== null && req.until <= now)
      return fail('INVALID_PARAMETERS', { field: 'until', reason: 'must be later than now' });
    const current = suspensionAt(s, now);
    const earlier = current ? [...s.suspensions.slice(0, -1), { ...current, liftedAt: now }] : s.suspensions;
    const suspension = { from: now, until: req.until, reason: req.reason, by: req.by, liftedAt: null };
    return ok({
      state: withFields(s, {
        suspensions: [...earlier, suspension],
        account: { ...s.account, sessionEpoch: s.account.sessionEpoch + 1 },
      }),
      response: {},
    });
  },
});

/** Lifts the suspension in force (the player logs in again); none in force is 317. */
const liftOp = implementOp(api.liftOp, {
  find: byPlayerId,
  reduce: (s, _req, _rng, now) => {
    const current = suspensionAt(s, now);
    if (!current) return fail('STATE_CONFLICT', { reason: 'the player is not suspended' });
    return ok({
      state: withFields(s, { suspensions: [...s.suspensions.slice(0, -1), { ...current, liftedAt: now }] }),
      response: {},
    });
  },
});

/** Takes back the unreceived presents of one operator send from one player; counts those already received. */
const recallOp = implementOp(api.recallOp, {
  find: byPlayerId,
  reduce: (s, req) => {
    const presents = s.presents.filter((p) => p.sendId !== req.sendId);
    const alreadyReceived = s.received.filter((p) => p.sendId === req.sendId).length;
    const removed = s.presents.length - presents.length;
    return ok({ state: removed === 0 ? s : withFields(s, { presents }), response: { removed, alreadyReceived } });
  },
});

/**
 * An exported player made a new player: a new id, bound to the document's uuid (or the
 * one given), with a new access token and friend code. Its relations are not carried
 * over (the other side of each is another player's state), nor a move code (a live
 * credential) or the uuids it moved from. Managed ids stay as exported: they are unique
 * within the player, which is all a look-up needs.
 */
const importPlayerOp = implementOp(api.importPlayerOp, {
  find: {
    by: 'new',
    claims: (req) => req.uuid ?? req.state.account.uuid,
    conflict: 'could not allocate a friend code; try again',
  },
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
const restorePlayerOp = implementOp(api.restorePlayerOp, {
  find: {
    by: 'playerId',
    key: (req) => req.state.playerId,
    missing: gameError('PLAYER_NOT_FOUND', {}),
    conflict: 'the player changed concurrently; try again',
  },
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

export const operatorOps = [sendPresentOp, suspendOp, liftOp, recallOp, importPlayerOp, restorePlayerOp] as const;
