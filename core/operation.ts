// What an operation is: one entry of the single table (name, method, path, codecs,
// possible errors and its reducer), and the runner every caller goes through.
import * as t from 'io-ts';
import type { ErrorName, GameError } from './errors.js';
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

/** A reducer: (state, request, rng, now) → (state, response), with master data and other players in env. */
export type Reducer<Req, Res> = (state: PlayerState, request: Req, rng: Rng, now: number, env: Env) => Result<Outcome<Res>>;

/** Operations that need no session are served by the adapter's account handlers. */
export type Access = 'session' | 'account';

export interface Operation<Req = unknown, Res = unknown> {
  /** The spec's operation name (drawPlayerGacha), or the service's own (signupPlayer). */
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** Path under /api. */
  readonly path: string;
  readonly group: string;
  readonly summary: string;
  readonly access: Access;
  readonly request: t.Type<Req, unknown, unknown>;
  readonly response: t.Type<Res, unknown, unknown>;
  /** The domain errors the reducer can give (request and session errors are implied). */
  readonly errors: ReadonlyArray<ErrorName>;
  /** Other players the request names; the service loads them (and commits them atomically). */
  readonly touches?: (request: Req) => ReadonlyArray<OtherRef>;
  /** Null until implemented: the service answers NOT_IMPLEMENTED. */
  readonly reduce: Reducer<Req, Res> | null;
  /** True when the operation never changes state (no commit needed). */
  readonly readOnly?: boolean;
}

/** An operation in the table: its types erased. Sound because a request only reaches its reducer through its own codec. */
export type AnyOperation = Operation<unknown, unknown>;

/** Defines a table entry, checking the reducer against the codecs, then erasing the types. */
export const defineOp = <Req, Res>(op: Operation<Req, Res>): AnyOperation => op as unknown as AnyOperation;

export interface Executed {
  readonly state: PlayerState;
  readonly response: Record<string, unknown>;
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
export const execute = <Req, Res>(
  op: Operation<Req, Res>, state: PlayerState, request: Req, rng: Rng, now: number, env: Env,
): Result<Executed> => {
  if (!op.reduce) return E.left({ code: 'NOT_IMPLEMENTED', operation: op.name } as GameError);
  const r = op.reduce(state, request, rng, now, env);
  if (E.isLeft(r)) return r;
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
  const own = r.right.response as Record<string, unknown>;
  // changes() gives a fresh object: assigning into it avoids a spread of two shapes per operation.
  const response: Record<string, unknown> = Object.assign(changes(state, next, ctx, own), own);
  const changed = next !== state || others.some((o, i) => o !== env.others[i]);
  return E.right({ state: bump(state, next), response, others, changed });
};

/** Decodes a raw request with the operation's codec, then executes it (for library users and tests). */
export const run = <Req, Res>(
  op: Operation<Req, Res>, state: PlayerState, rawRequest: unknown, rng: Rng, now: number, env: Env,
): Result<Executed> => {
  const decoded = op.request.decode(rawRequest ?? {});
  if (decoded._tag === 'Left') return E.left(requestError(decoded.left));
  return execute(op, state, decoded.right, rng, now, env);
};
