// What an operation is to a caller: its name, method, path, codecs, possible errors,
// doc text and flags, with no reducer. The typed client (client/index.ts) reads these
// descriptions only, so it bundles for a browser without the reducers (or node:crypto);
// the operations table (core/operations/table.ts) pairs each with its reducer
// (core/operation.ts implementOp), so one table still drives routing, docs and tests.
import * as t from 'io-ts';
import type { ErrorName } from '../errors.js';
import { Changes } from '../views/codecs.js';

/**
 * Who may call an entry: a player's session (the game operations), anyone naming an
 * account (sign-up, log-in, the move's second half), the operator (by player id), or
 * anyone at all (no player). Only the session's operations run the after-hooks and
 * answer the changed parts of the view. The implementation's `find` agrees (implementOp checks).
 */
export type Access = 'session' | 'account' | 'operator' | 'public';

export interface OpDescription<
  Req = unknown,
  Res = unknown,
  K extends ErrorName = ErrorName,
  N extends string = string,
> {
  /** The spec's operation name (drawPlayerGacha), or the service's own (signupPlayer). */
  readonly name: N;
  readonly method: 'GET' | 'POST';
  /** Path under /api (under /admin for the operator's). */
  readonly path: string;
  /**
   * Older paths of the same entry (the original's 2017 names, e.g. /player/quest_log/add
   * for /player/quest_log/order), served exactly as `path`; the router, the OpenAPI
   * document and the operations reference read them.
   */
  readonly aliases?: ReadonlyArray<string>;
  readonly group: string;
  readonly summary: string;
  /** Who may call it (default: a player's session). */
  readonly access?: Access;
  /** Secrets the edge makes for it and passes in env.issued: a new access token, or a new session (the service stores it with the commit). */
  readonly issues?: 'accessToken' | 'session';
  readonly request: t.Type<Req, unknown, unknown>;
  /**
   * The operation's own answer. An answer that changes the state also carries the
   * changed parts of the player's view (views/codecs.ts Changes): see answerCodec.
   */
  readonly response: t.Type<Res, unknown, unknown>;
  /** The domain errors the reducer can give (request and session errors are implied); the reducer's type allows no other. */
  readonly errors: ReadonlyArray<K>;
  /** True when the operation never changes state (no commit needed). */
  readonly readOnly?: boolean;
  /** Served while the game is closed for maintenance (the version check, the notices): every other entry answers 10. */
  readonly duringMaintenance?: boolean;
  /** Shared by every caller alike: a cache may keep its answer this many seconds (else no cache keeps it). */
  readonly cacheSeconds?: number;
}

/** A description with its types erased. Sound because a request only reaches its reducer through its own codec. */
export type AnyDescription = OpDescription<unknown, Record<string, unknown>, ErrorName, string>;

/** Describes an operation, keeping its types (the typed client reads them). */
export const describeOp = <const N extends string, Req, Res, const K extends ErrorName = never>(
  d: OpDescription<Req, Res, K, N>,
): OpDescription<Req, Res, K, N> => d;

/** Who may call an entry (default: a player's session). */
export const accessOf = (op: { readonly access?: Access }): Access => op.access ?? 'session';

/** The codec of an operation's whole answer: its own part, and for one that can change state, the changed parts of the view. */
export const answerCodec = (op: AnyDescription): t.Mixed =>
  op.readOnly || accessOf(op) !== 'session' ? op.response : t.intersection([op.response, Changes]);
