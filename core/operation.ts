// What an operation is: one entry of the single table (name, method, path, codecs,
// possible errors and its reducer), and the runner every caller goes through.
import * as t from 'io-ts';
import { gameError, type ErrorName, type ErrorOf } from './errors.js';
import { Changes } from './views/codecs.js';
import type { Master } from './master/index.js';
import type { Rng } from './rng.js';
import type { PlayerState } from './state.js';
import { requestError } from './codecs.js';
import { changes, type ViewCtx } from './view.js';
import { E, type Result } from './shared/result.js';
import { AFTER_HOOKS } from './hooks.js';
import { withFields } from './state/copy.js';

/** Another player an operation reads or changes, named by the request. */
export type OtherRef = { readonly by: 'playerId'; readonly playerId: number } | { readonly by: 'myCode'; readonly myCode: string }
  /** Every player the caller has a friend relation with (friends and requests), read from the caller's state. */
  | { readonly by: 'related' }
  /** Up to `count` players who committed most recently, the caller left out (guests). */
  | { readonly by: 'recentlyActive'; readonly count: number };

export interface Env {
  readonly master: Master;
  /** The players named by `touches`, in the same order; undefined when none exists. */
  readonly others: ReadonlyArray<PlayerState | undefined>;
}

export interface Outcome<Res> {
  readonly state: PlayerState;
  readonly response: Res;
  /** Changed states of other players (same order as env.others, unchanged ones as given). */
  readonly others?: ReadonlyArray<PlayerState | undefined>;
}

/**
 * A reducer: (state, request, rng, now) → (state, response), with master data and
 * other players in env. It can fail only with the errors K its operation declares.
 */
export type Reducer<Req, Res, K extends ErrorName = ErrorName> = (state: PlayerState, request: Req, rng: Rng, now: number, env: Env) => Result<Outcome<Res>, K>;

/** Operations that need no session are served by the adapter's account handlers. */
export type Access = 'session' | 'account';

export interface Operation<Req = unknown, Res = unknown, K extends ErrorName = ErrorName, N extends string = string> {
  /** The spec's operation name (drawPlayerGacha), or the service's own (signupPlayer). */
  readonly name: N;
  readonly method: 'GET' | 'POST';
  /** Path under /api. */
  readonly path: string;
  readonly group: string;
  readonly summary: string;
  readonly access: Access;
  readonly request: t.Type<Req, unknown, unknown>;
  /**
   * The operation's own answer. An answer that changes the state also carries the
   * changed parts of the player's view (views/codecs.ts Changes): see answerCodec.
   */
  readonly response: t.Type<Res, unknown, unknown>;
  /** The domain errors the reducer can give (request and session errors are implied); the reducer's type allows no other. */
  readonly errors: ReadonlyArray<K>;
  /** Other players the request names; the service loads them (and commits them atomically). */
  readonly touches?: (request: Req) => ReadonlyArray<OtherRef>;
  /** Null for the account operations, which the service serves itself. */
  readonly reduce: Reducer<Req, Res, K> | null;
  /** True when the operation never changes state (no commit needed). */
  readonly readOnly?: boolean;
}

/** An operation in the table: its types erased. Sound because a request only reaches its reducer through its own codec. */
export type AnyOperation = Operation<unknown, Record<string, unknown>, ErrorName, string>;

/** What defineOp takes: the types come from the codecs and the error list, and the reducer is checked against them. */
type OperationSpec<Req, Res, K extends ErrorName, N extends string> = Omit<Operation<Req, Res, K, N>, 'reduce' | 'touches'> & {
  readonly touches?: (request: NoInfer<Req>) => ReadonlyArray<OtherRef>;
  readonly reduce: Reducer<NoInfer<Req>, NoInfer<Res>, NoInfer<K>> | null;
};

/** Defines a table entry, keeping its types (the typed client reads them); the reducer may fail only with the listed errors. */
export const defineOp = <const N extends string, Req, Res, const K extends ErrorName = never>(op: OperationSpec<Req, Res, K, N>): Operation<Req, Res, K, N> => op;

/** The same entry with its types erased, for the table. */
export const erased = <Req, Res, K extends ErrorName, N extends string>(op: Operation<Req, Res, K, N>): AnyOperation => op as unknown as AnyOperation;

export interface Executed<Res = Record<string, unknown>> {
  readonly state: PlayerState;
  /** The operation's answer and the changed parts of the player's view. */
  readonly response: Res & Changes;
  readonly others: ReadonlyArray<PlayerState | undefined>;
  /** Whether the player or any other player changed (and so must be committed). */
  readonly changed: boolean;
}

const bump = (before: PlayerState, after: PlayerState): PlayerState =>
  after === before ? before : withFields(after, { version: before.version + 1 });

/**
 * Runs an operation on a decoded request: the reducer, then the after-hooks, the
 * version bump and the change lists. A failure returns the error and nothing else.
 */
export const execute = <Req, Res, K extends ErrorName>(
  op: Operation<Req, Res, K>, state: PlayerState, request: Req, rng: Rng, now: number, env: Env,
): Result<Executed<Res>, K | 'NOT_IMPLEMENTED'> => {
  if (!op.reduce) return E.left(gameError('NOT_IMPLEMENTED', { operation: op.name }));
  const r = op.reduce(state, request, rng, now, env);
  // ErrorOf<K> is one of ErrorOf<K | 'NOT_IMPLEMENTED'>; the compiler does not see it through the generic K.
  if (E.isLeft(r)) return r as unknown as Result<never, K | 'NOT_IMPLEMENTED'>;
  let next = r.right.state;
  if (next !== state) for (const h of AFTER_HOOKS) next = h(state, next, now, env.master);
  const given = r.right.others ?? env.others;
  // Most operations touch no other player: no list to map then.
  const others = given.length === 0 ? given : given.map((o, i) => {
    const prev = env.others[i];
    if (!o || !prev || o === prev) return o;
    let after = o;
    for (const h of AFTER_HOOKS) after = h(prev, after, now, env.master);
    return bump(prev, after);
  });
  const ctx: ViewCtx = { master: env.master, now };
  const own = r.right.response;
  // changes() gives a fresh object: assigning into it avoids a spread of two shapes per operation.
  const response: Res & Changes = Object.assign(changes(state, next, ctx, own as object), own);
  const changed = next !== state || others.some((o, i) => o !== env.others[i]);
  return E.right({ state: bump(state, next), response, others, changed });
};

/** Decodes a raw request with the operation's codec, then executes it (for library users and tests). */
export const run = <Req, Res, K extends ErrorName>(
  op: Operation<Req, Res, K>, state: PlayerState, rawRequest: unknown, rng: Rng, now: number, env: Env,
): Result<Executed<Res>, K | 'NOT_IMPLEMENTED' | 'INVALID_PARAMETERS' | 'INSUFFICIENT_PARAMETERS'> => {
  const decoded = op.request.decode(rawRequest ?? {});
  if (decoded._tag === 'Left') return E.left(requestError(decoded.left) as ErrorOf<'INVALID_PARAMETERS' | 'INSUFFICIENT_PARAMETERS'>);
  return execute(op, state, decoded.right, rng, now, env) as unknown as Result<Executed<Res>, K | 'NOT_IMPLEMENTED' | 'INVALID_PARAMETERS' | 'INSUFFICIENT_PARAMETERS'>;
};

/** The codec of an operation's whole answer: its own part, and for one that can change state, the changed parts of the view. */
export const answerCodec = (op: AnyOperation): t.Mixed =>
  op.readOnly || op.access === 'account' ? op.response : t.intersection([op.response, Changes]);
