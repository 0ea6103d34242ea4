// The account tests' shared helpers (sign-up, log-in, the move): a player made by
// createPlayer, the secrets the edge issues, and an account entry run as the service runs it.
import type { ExecutionContext } from 'ava';
import { master, NOW } from '../../_support/core.js';
import { createPlayer, type NewPlayer } from '../../../core/account.js';
import { rngFromSeed } from '../../../core/rng.js';
import { tokenHash } from '../../../core/secret.js';
import type { PlayerState } from '../../../core/state.js';
import { runNamed, type OperationName } from '../../../core/operations/table.js';
import type { Issued } from '../../../core/operation.js';
import type { GameError } from '../../../core/errors.js';

export const UUID = '00000000-0000-4000-8000-000000000007';
const m = master();

export const signup = (p: Partial<NewPlayer> = {}) =>
  createPlayer(
    master(),
    {
      playerId: 7,
      uuid: UUID,
      platform: 2,
      name: 'Aki',
      stepCode: 0,
      accessToken: 'token-of-aki-00001',
      ...p,
    } as NewPlayer,
    rngFromSeed('signup'),
    NOW,
  );

export const created = (p: Partial<NewPlayer> = {}): PlayerState => {
  const r = signup(p);
  if (r._tag === 'Left') throw new Error(`sign-up failed: ${r.left.code}`);
  return r.right;
};

export const TOKEN = 'c0ffee00-1234-4abc-8def-0123456789ab';
export const issued = (token = TOKEN, sessionId = 'session-0001'): Issued => ({
  accessToken: token,
  accessTokenHash: tokenHash(token),
  sessionId,
});

/** Runs an account entry as the service does: with the secrets the edge issued for it (or none). */
export const run = <N extends OperationName>(name: N, s: PlayerState, request: unknown, secrets?: Issued) =>
  runNamed(name, s, request, rngFromSeed('account'), NOW, {
    master: m,
    others: [],
    ...(secrets ? { issued: secrets } : {}),
  });

export const right = <R>(
  t: ExecutionContext,
  r: { _tag: 'Left'; left: GameError } | { _tag: 'Right'; right: R },
): R => {
  if (r._tag === 'Left') {
    t.fail(`refused with ${r.left.code}: ${JSON.stringify(r.left)}`);
    throw new Error('unreachable');
  }
  return r.right;
};
