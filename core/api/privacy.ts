// The descriptions of core/operations/privacy.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { obj, Text } from '../codecs.js';
import * as t from 'io-ts';
import { WireTime } from '../views/codecs.js';

export const deletePlayer = describeOp({
  name: 'deletePlayer',
  method: 'POST',
  path: '/player/delete',
  group: 'player',
  summary:
    "Deletes the caller's account, confirmed with its access token: it no longer logs in, its session ends, and friends and requests drop it. What is kept: docs/privacy.md.",
  // The access token, which only the device holds (a session id travels with every request): a stolen session alone cannot delete.
  request: obj({ accessToken: Text(16, 128) }, 'DeletePlayerRequest'),
  response: t.type({ playerId: t.number, deletedAt: WireTime }, 'DeletePlayerResponse'),
  errors: ['INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const privacyApi = [deletePlayer] as const;
