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

export const operatorOps = [sendPresentOp] as const;
