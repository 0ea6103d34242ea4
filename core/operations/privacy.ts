// A player's own data: deleting the account (App Store guideline 5.1.1(v)). The
// reducer turns the player into a tombstone (its id and version, nothing of the
// player) and drops it from every related player's friends and requests, in one
// commit; the stores then purge what they kept of it (docs/privacy.md).
import * as t from 'io-ts';
import { Text, obj } from '../codecs.js';
import { unbornPlayer } from '../account.js';
import { implementOp } from '../operation.js';
import { sameHash, tokenHash } from '../secret.js';
import { fail, ok } from '../shared/result.js';
import type { PlayerState } from '../state.js';
import { withFields } from '../state/copy.js';
import { timeText } from '../view.js';
import { WireTime } from '../views/codecs.js';
import * as api from '../api/privacy.js';

/** What a deleted player's state keeps: its id, its version (raised as by any change) and when; every other field empty. */
export const tombstoneOf = (s: PlayerState, now: number): PlayerState =>
  withFields(unbornPlayer(s.playerId), {
    version: s.version,
    account: {
      uuid: '',
      platform: 0,
      tokenHash: '',
      movedFrom: [],
      // Raised, as a move raises it, so every session the store still held is void.
      sessionEpoch: s.account.sessionEpoch + 1,
      deletedAt: now,
    },
  });

/** A related player's state without its relation with `playerId` (undefined, or unchanged when it has none). */
const unrelated = (o: PlayerState | undefined, playerId: number): PlayerState | undefined =>
  o && o.friends.some((f) => f.playerId === playerId)
    ? withFields(o, { friends: o.friends.filter((f) => f.playerId !== playerId) })
    : o;

/** A deletion as the replay log keeps it: the token presented, as its hash. */
type LoggedDelete = { readonly accessTokenHash: string };

const deletePlayer = implementOp(api.deletePlayer, {
  touches: () => [{ by: 'related' }],
  logged: ({ accessToken }): LoggedDelete => ({ accessTokenHash: tokenHash(accessToken) }),
  reduce: (s, req: { readonly accessToken: string } | LoggedDelete, _rng, now, env) => {
    const presented = 'accessTokenHash' in req ? req.accessTokenHash : tokenHash(req.accessToken);
    if (!sameHash(s.account.tokenHash, presented))
      return fail('INVALID_PARAMETERS', { field: 'accessToken', reason: "is not this account's access token" });
    return ok({
      state: tombstoneOf(s, now),
      others: env.others.map((o) => unrelated(o, s.playerId)),
      response: { playerId: s.playerId, deletedAt: timeText({ master: env.master, now }, now) },
    });
  },
});

export const privacyOps = [deletePlayer] as const;
