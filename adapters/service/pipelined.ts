// Pipelined commits (issue 34): the service lets go of a player's lock once its commit
// is taken into the store's order, so the player's next request runs on that commit's
// state while it is being written; each answer is given only once what it was built on
// is durable (its own commit, or the states a refusal read). A store without
// pipelining is durable when it answers, and nothing here waits.
import { gameError, type GameError } from '../../core/errors.js';
import { E } from '../../core/shared/result.js';
import { StorageError } from '../storage/storage.js';
import { left, type Answer } from './answers.js';

/** An answer held until `durable` resolves; an error answer (105) if it rejects. */
export class Awaiting {
  constructor(
    readonly answer: Answer,
    readonly durable: Promise<void>,
  ) {}
}

/** The answer to give, once what it was built on is durable. */
export const whenDurable = async (x: Answer | Awaiting): Promise<Answer> => {
  if (!(x instanceof Awaiting)) return x;
  try {
    await x.durable;
    return x.answer;
  } catch (e) {
    // Its commit, or one it was built on, was never stored: nothing is acknowledged.
    if (e instanceof StorageError) return left(gameError('DB_ERROR', { reason: e.message }));
    throw e;
  }
};

/** A storage call; a StorageError as Left (105), never a 500. */
export const orDbError = async <T>(f: () => Promise<T>): Promise<E.Either<GameError, T>> => {
  try {
    return E.right(await f());
  } catch (e) {
    if (e instanceof StorageError) return E.left(gameError('DB_ERROR', { reason: e.message }));
    throw e;
  }
};
