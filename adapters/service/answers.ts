// What the service answers, and what an Idempotency-Key keeps of it: the record a
// key keeps, and the answer a retry with the key gets from it.
import { gameError, type GameError } from '../../core/errors.js';
import type { AnyOperation } from '../../core/operation.js';
import { E } from '../../core/shared/result.js';
import type { Commit, IdempotencyRecord } from '../storage/storage.js';
import type { Idem } from './context.js';

export type Answer = E.Either<GameError, Record<string, unknown>>;

export const left = (e: GameError): Answer => E.left(e);

/** A key scoped by who the caller is (the player, a sign-up's uuid): another caller's same key is another key. */
export const scopedKey = (idem: Idem | undefined, scope: string | undefined): Idem | undefined =>
  idem && scope !== undefined ? { ...idem, key: `${scope}:${idem.key}` } : undefined;

/** The fields of an entry's answer that are secrets the edge made (never stored, never replayed). */
export const secretsOf = (op: AnyOperation): ReadonlyArray<string> =>
  op.issues === 'accessToken' ? ['accessToken'] : op.issues === 'session' ? ['sessionId'] : [];

/** Failures a retry may not meet again: never kept for a key. */
const transient = (answer: Answer): boolean =>
  E.isLeft(answer) && (answer.left.code === 'DB_ERROR' || answer.left.code === 'STATE_CONFLICT');

/**
 * The answer kept for an Idempotency-Key. A success that handed out a secret is kept
 * without it, marked withheld: its replay is refused (112), so whoever holds the key
 * never gets it.
 */
export const recordOf = (
  idem: Idem | undefined,
  answer: Answer,
  now: number,
  secrets: ReadonlyArray<string>,
): NonNullable<Commit['idempotency']> => {
  if (!idem || transient(answer)) return [];
  const withheld = E.isRight(answer) ? secrets.filter((k) => k in answer.right) : [];
  const kept = E.isLeft(answer)
    ? { error: { ...answer.left } }
    : {
        ok:
          withheld.length === 0
            ? answer.right
            : Object.fromEntries(Object.entries(answer.right).filter(([k]) => !withheld.includes(k))),
      };
  const record: IdempotencyRecord = {
    requestHash: idem.requestHash,
    answer: kept,
    createdAt: now,
    ...(withheld.length > 0 ? { withheld } : {}),
  };
  return [{ key: idem.key, record }];
};

/** A stored answer for a key: the answer itself for the same request, 422 for another, 112 for one whose secret was withheld. */
export const storedAnswer = (prior: IdempotencyRecord, idem: Idem): Answer => {
  if (prior.requestHash !== idem.requestHash) return left(gameError('IDEMPOTENCY_KEY_REUSED', {}));
  if (prior.withheld && prior.withheld.length > 0)
    return left(gameError('ANSWER_WITHHELD', { fields: prior.withheld.join(', ') }));
  return 'ok' in prior.answer ? E.right(prior.answer.ok) : E.left(prior.answer.error as unknown as GameError);
};
