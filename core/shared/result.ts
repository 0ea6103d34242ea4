// The result type of every reducer and helper: Either a domain error or a value.
import * as E from 'fp-ts/lib/Either.js';
import { gameError, type ErrorData, type ErrorName, type ErrorOf } from '../errors.js';

/** A value or one of the errors K (all errors when not narrowed): the compiler tracks which errors a step can give. */
export type Result<A, K extends ErrorName = ErrorName> = E.Either<ErrorOf<K>, A>;
export const ok = <A>(a: A): Result<A, never> => E.right(a);
export const fail = <K extends ErrorName>(code: K, data: ErrorData[K]): Result<never, K> =>
  E.left(gameError(code, data));
export { E };

/** Threads a state through steps that can each fail: the first failure wins. */
export const chain = <S, K extends ErrorName>(s: S, ...steps: ReadonlyArray<(s: S) => Result<S, K>>): Result<S, K> => {
  let cur: Result<S, K> = E.right(s);
  for (const step of steps) {
    if (E.isLeft(cur)) return cur;
    cur = step(cur.right);
  }
  return cur;
};

/** Runs a step over each element in order, failing on the first error. */
export const fold = <S, X, K extends ErrorName>(
  s: S,
  xs: ReadonlyArray<X>,
  step: (s: S, x: X, i: number) => Result<S, K>,
): Result<S, K> => {
  let cur = s;
  for (let i = 0; i < xs.length; i++) {
    const r = step(cur, xs[i] as X, i);
    if (E.isLeft(r)) return r;
    cur = r.right;
  }
  return E.right(cur);
};
