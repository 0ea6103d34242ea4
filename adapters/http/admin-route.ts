// What the admin route modules (admin-liveops.ts, admin-operators.ts) share: the
// request as they read it, their answer, and the refusals and path ids they make.
import { gameError, type GameError } from '../../core/errors.js';
import { E } from '../../core/shared/result.js';

/** A refusal: a game error, or "No such player" naming the id the operator gave. */
export type Refusal = GameError | { readonly noSuchPlayer: number };
export type RouteAnswer = E.Either<Refusal, Record<string, unknown>>;

/** The request as a route reads it. */
export interface RouteCtx {
  readonly state: object;
  readonly params: Record<string, string | undefined>;
  readonly request: unknown;
  readonly query: Record<string, string | string[] | undefined>;
}

/** The request's JSON body (the body parser's), or an empty object. */
export const bodyOf = (ctx: RouteCtx): unknown => (ctx.request as { body?: unknown }).body ?? {};

export const invalid = (field: string, reason: string): RouteAnswer =>
  E.left(gameError('INVALID_PARAMETERS', { field, reason }));

/** A path parameter that names something by a positive integer, or why not. */
export const pathId = (ctx: RouteCtx, name: string): E.Either<RouteAnswer, number> => {
  const raw = ctx.params[name] ?? '';
  const id = /^\d+$/.test(raw) ? Number(raw) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? E.right(id) : E.left(invalid(name, 'must be a positive integer'));
};
