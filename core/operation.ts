// What an operation is: one entry of the single table (name, method, path, codecs,
// possible errors and its reducer), and the runner every caller goes through.
import * as t from 'io-ts';
import { gameError, type ErrorName, type ErrorOf, type GameError } from './errors.js';
import { type Changes } from './views/codecs.js';
import type { Master } from './master/index.js';
import type { Rng } from './rng.js';
import { isDeleted, type PlayerState } from './state.js';
import { requestError } from './codecs.js';
import { changes, type ViewCtx } from './view.js';
import { E, type Result } from './shared/result.js';
import { AFTER_HOOKS } from './hooks.js';
import { withFields } from './state/copy.js';
import { accessOf, type Access, type OpDescription } from './api/describe.js';

// Who may call an entry and its whole answer's codec are the description's (core/api/describe.ts).
export { accessOf, answerCodec, type Access } from './api/describe.js';

/** Another player an operation reads or changes, named by the request. */
export type OtherRef =
  | { readonly by: 'playerId'; readonly playerId: number }
  | { readonly by: 'myCode'; readonly myCode: string }
  /** Every player the caller has a friend relation with (friends and requests), read from the caller's state. */
  | { readonly by: 'related' }
  /** Up to `count` players who committed most recently, the caller left out (guests). */
  | { readonly by: 'recentlyActive'; readonly count: number };

export interface Env {
  readonly master: Master;
  /** The players named by `touches`, in the same order; undefined when none exists. */
  readonly others: ReadonlyArray<PlayerState | undefined>;
  /** What the edge made for this request (the core makes no secret); absent for the game operations, which need none. */
  readonly issued?: Issued;
  /** The operator's notices in force at the request's time (given to the entries that list them). */
  readonly notices?: ReadonlyArray<LiveNotice>;
}

/** A notice the operator wrote, as the core lists it to players. */
export interface LiveNotice {
  readonly id: number;
  readonly kind: string;
  readonly title: string;
  readonly body: string;
  readonly from: number;
  readonly until: number | null;
}

/**
 * Secrets the edge (the service) makes for a request and passes in: the core never
 * draws one. A reducer keeps their hashes in the state and hands the secrets out in
 * its answer; the replay log keeps the hashes only, so a replay has '' for the
 * secrets themselves (the answers it makes are not compared, the states are).
 */
export interface Issued {
  /** A fresh access token (sign-up, move) and its hash (tokenHash). */
  readonly accessToken: string;
  readonly accessTokenHash: string;
  /** A fresh session id (log-in). */
  readonly sessionId: string;
}

/** What a reducer answers: the next state and the answer, or the next state and a refusal. */
export type Outcome<Res, K extends ErrorName = ErrorName> =
  | {
      readonly state: PlayerState;
      readonly response: Res;
      /** Changed states of other players (same order as env.others, unchanged ones as given). */
      readonly others?: ReadonlyArray<PlayerState | undefined>;
    }
  /**
   * The request is refused, yet the state changed and is committed (a move's wrong
   * password counts toward voiding the code): the answer is the error.
   */
  | { readonly state: PlayerState; readonly refused: ErrorOf<K>; readonly others?: undefined };

/**
 * A reducer: (state, request, rng, now) → (state, response), with master data and
 * other players in env. It can fail only with the errors K its operation declares.
 */
export type Reducer<Req, Res, K extends ErrorName = ErrorName> = (
  state: PlayerState,
  request: Req,
  rng: Rng,
  now: number,
  env: Env,
) => Result<Outcome<Res, K>, K>;

/**
 * How the service finds the player an entry acts on, before it runs the reducer.
 * The service locks that player, loads it, and commits what the reducer made with
 * the version check; a conflict reruns the reducer on the fresh state.
 */
export type Find<Req> =
  /** The caller's session names the player (every game operation). */
  | { readonly by: 'session' }
  /**
   * A new player: the storage gives its id; the reducer gets the unborn state
   * (account.ts unbornPlayer, version −1). `claims` is the uuid it binds, which must be free.
   */
  | { readonly by: 'new'; readonly claims: (request: Req) => string; readonly conflict: string }
  /**
   * Through a storage index, by the key the request gives: `missing` answers when
   * no player holds it. `claims`: a uuid the player is bound to, which must be free
   * or its own. `attempts`: commits tried before STATE_CONFLICT with `conflict` as
   * its reason (1: a conflict is answered at once).
   */
  | {
      readonly by: 'uuid' | 'moveCode';
      readonly key: (request: Req) => string;
      readonly missing: GameError;
      readonly claims?: (request: Req) => string;
      readonly attempts: number;
      readonly conflict: string;
      /** Work done when no player holds the key, so that a miss takes as long as a refusal (a move code: the password's hash). */
      readonly whenMissing?: (request: Req) => void;
    }
  /**
   * No player and no session (app/version/get, quest_chapter/get_all): the answer is
   * a function of the request, master data and the clock. The reducer is given the
   * unborn state of no one (id 0) and must not change it; nothing is locked, loaded,
   * committed or logged.
   */
  | { readonly by: 'none' }
  /** The operator names the player by id; `missing` answers when there is none. */
  | {
      readonly by: 'playerId';
      readonly key: (request: Req) => number;
      readonly missing: GameError;
      readonly conflict: string;
    };

/**
 * An entry of the table: its description (core/api/describe.ts, what a caller sees)
 * and its implementation (how the service finds the player, the reducer).
 */
export interface Operation<
  Req = unknown,
  Res = unknown,
  K extends ErrorName = ErrorName,
  N extends string = string,
> extends OpDescription<Req, Res, K, N> {
  /** How the player is found (default: by the caller's session): it agrees with the description's access. */
  readonly find?: Find<Req>;
  /** Other players the request names; the service loads them (and commits them atomically). */
  readonly touches?: (request: Req) => ReadonlyArray<OtherRef>;
  /**
   * The request as the replay log keeps it, when it carries a secret (a password,
   * a token): the secret replaced by its hash, in a form the reducer also accepts.
   * `before` and `after` are the states the reducer was given and made.
   */
  readonly logged?: (request: Req, before: PlayerState, after: PlayerState) => unknown;
  readonly reduce: Reducer<Req, Res, K>;
}

/** An operation in the table: its types erased. Sound because a request only reaches its reducer through its own codec. */
export type AnyOperation = Operation<unknown, Record<string, unknown>, ErrorName, string>;

/** What defineOp takes: the types come from the codecs and the error list, and the reducer is checked against them. */
type OperationSpec<Req, Res, K extends ErrorName, N extends string> = Omit<OpDescription<Req, Res, K, N>, 'access'> & {
  readonly touches?: (request: NoInfer<Req>) => ReadonlyArray<OtherRef>;
  readonly find?: Find<NoInfer<Req>>;
  readonly logged?: (request: NoInfer<Req>, before: PlayerState, after: PlayerState) => unknown;
  readonly reduce: Reducer<NoInfer<Req>, NoInfer<Res>, NoInfer<K>>;
};

/** Defines a whole entry in one (tests' own entries), its access derived from how it finds its player. */
export const defineOp = <const N extends string, Req, Res, const K extends ErrorName = never>(
  op: OperationSpec<Req, Res, K, N>,
): Operation<Req, Res, K, N> => ({ ...op, access: accessOfFind(op.find) });

/** What implementOp adds to a description: how the player is found, the others, the logged form, the reducer. */
type Implementation<Req, Res, K extends ErrorName> = Pick<
  OperationSpec<Req, Res, K, string>,
  'touches' | 'find' | 'logged' | 'reduce'
>;

/**
 * A table entry: an operation's description (core/api/) and its reducer, the reducer
 * checked against the description's codecs and errors. How it finds its player must
 * agree with the access the description declares (else the table does not load).
 */
export const implementOp = <const N extends string, Req, Res, const K extends ErrorName>(
  d: OpDescription<Req, Res, K, N>,
  impl: Implementation<Req, Res, K>,
): Operation<Req, Res, K, N> => {
  if (accessOfFind(impl.find) !== accessOf(d))
    throw new Error(`${d.name}: finds its player by ${findOf(impl).by}, yet its description says ${accessOf(d)}`);
  return { ...d, ...impl };
};

/** The same entry with its types erased, for the table. */
export const erased = <Req, Res, K extends ErrorName, N extends string>(op: Operation<Req, Res, K, N>): AnyOperation =>
  op as unknown as AnyOperation;

export interface Executed<Res = Record<string, unknown>, K extends ErrorName = ErrorName> {
  readonly state: PlayerState;
  /** The operation's answer and, for a session's operation, the changed parts of the player's view. */
  readonly response: Res & Changes;
  readonly others: ReadonlyArray<PlayerState | undefined>;
  /** Whether the player or any other player changed (and so must be committed). */
  readonly changed: boolean;
  /** Set when the request was refused but its state change stands (committed; the answer is this error). */
  readonly refused?: ErrorOf<K>;
}

/** The one place a state's version is raised: by one for every change an operation makes. */
const bump = (before: PlayerState, after: PlayerState): PlayerState =>
  after === before ? before : withFields(after, { version: before.version + 1 });

/**
 * Runs an operation on a decoded request: the reducer, then (for a session's
 * operation) the after-hooks and the change lists, and the version bump. A failure
 * returns the error and nothing else. Every caller goes through here: the service,
 * the replay, the simulator and the tests.
 */
/**
 * A change that would leave a present box beyond master data's presents.boxMax
 * (larger than it was): refused as a whole, 313, so nothing earned is dropped
 * unannounced (issue 18). What overflows storage merges (grant.ts sendPresent), so
 * the box fills with distinct things, not with repetitions.
 */
const overfull = (before: PlayerState | undefined, after: PlayerState | undefined, m: Env['master']): boolean =>
  after !== undefined &&
  after.presents.length > m.game.presents.boxMax &&
  after.presents.length > (before?.presents.length ?? 0);
const presentLimit = (m: Env['master']) => E.left(gameError('PRESENT_LIMIT', { max: m.game.presents.boxMax }));

export const execute = <Req, Res, K extends ErrorName>(
  op: Operation<Req, Res, K>,
  state: PlayerState,
  request: Req,
  rng: Rng,
  now: number,
  env: Env,
): Result<Executed<Res, K>> => {
  const r = op.reduce(state, request, rng, now, env);
  if (E.isLeft(r)) return r;
  const out = r.right;
  if (findOf(op).by !== 'session') {
    // Account and operator entries change what they say and answer their own part only.
    const next = bump(state, out.state);
    if (overfull(state, next, env.master)) return presentLimit(env.master);
    const response = ('refused' in out ? {} : out.response) as Res & Changes;
    return E.right({
      state: next,
      response,
      others: env.others,
      changed: next !== state,
      ...('refused' in out ? { refused: out.refused } : {}),
    });
  }
  if ('refused' in out) return E.left(out.refused);
  let next = out.state;
  // A deleted player (player/delete) has no game left to settle and no view to answer.
  const ended = isDeleted(next) && !isDeleted(state);
  if (next !== state && !ended) for (const h of AFTER_HOOKS) next = h(state, next, now, env.master);
  const given = out.others ?? env.others;
  // Most operations touch no other player: no list to map then.
  const others =
    given.length === 0
      ? given
      : given.map((o, i) => {
          const prev = env.others[i];
          if (!o || !prev || o === prev) return o;
          let after = o;
          for (const h of AFTER_HOOKS) after = h(prev, after, now, env.master);
          return bump(prev, after);
        });
  if (
    overfull(state, next, env.master) ||
    others.some((o, i) => o !== env.others[i] && overfull(env.others[i], o, env.master))
  ) {
    return presentLimit(env.master);
  }
  const ctx: ViewCtx = { master: env.master, now };
  const own = out.response;
  // changes() gives a fresh object: assigning into it avoids a spread of two shapes per operation.
  const response: Res & Changes = Object.assign(ended ? {} : changes(state, next, ctx, own as object), own);
  const changed = next !== state || others.some((o, i) => o !== env.others[i]);
  return E.right({ state: bump(state, next), response, others, changed });
};

/** Decodes a raw request with the operation's codec, then executes it (for library users and tests). */
export const run = <Req, Res, K extends ErrorName>(
  op: Operation<Req, Res, K>,
  state: PlayerState,
  rawRequest: unknown,
  rng: Rng,
  now: number,
  env: Env,
): Result<Executed<Res, K>> => {
  const decoded = op.request.decode(rawRequest ?? {});
  if (decoded._tag === 'Left') return E.left(requestError(decoded.left));
  return execute(op, state, decoded.right, rng, now, env);
};

/** How an entry finds its player (the default: the caller's session). */
export const findOf = <Req>(op: { readonly find?: Find<Req> }): Find<Req> => op.find ?? SESSION;
const SESSION = { by: 'session' } as const;

/** The access an entry's way of finding its player implies (implementOp checks the description agrees). */
const accessOfFind = (find: Find<never> | undefined): Access => {
  switch ((find ?? SESSION).by) {
    case 'session':
      return 'session';
    case 'none':
      return 'public';
    case 'playerId':
      return 'operator';
    default:
      return 'account';
  }
};
