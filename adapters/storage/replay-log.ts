// The replay log: one entry per committed state change, holding exactly the
// inputs needed to run it again through `execute` (the operation, the player, the
// request as logged, the seed, now, the master data's hash, the other players, the
// hashes of secrets the edge made) and the hash of every resulting state, so a
// replay can say where it first differs. One kind of entry for every operation.
//
// The service hands the storage what ran (a LogRun); the storage numbers the entry
// and hashes the states it stores, inside `commit` (entryOf), so an entry is kept
// or dropped with its commit and its hashes are of what was stored.
//
// The file adapter keeps the entries in DATA_DIR/oplog.jsonl, one JSON entry a
// line (oplog.ts), with an index by player (oplog-index.ts), sealed into segments and
// archived past REPLAY_LOG_RETENTION_DAYS (oplog-segments.ts, oplog-archive.ts).
import type { Grant } from '../../core/master/common.js';
import type { PlayerState } from '../../core/state.js';
import { stateHash } from './canonical.js';

/** A state a log entry produced: its player, version and stateHash. */
export interface LogResult {
  readonly playerId: number;
  readonly version: number;
  readonly stateHash: string;
}

/** What ran: what the service puts in a commit; the storage adds the results (entryOf). */
export interface LogRun {
  readonly kind: 'op';
  /** The instant read once for the request at the edge (epoch ms). */
  readonly at: number;
  /** sha256 of the master data the entry ran with (see adapters/master/load.ts). */
  readonly masterHash: string;
  /** The table entry's name (core/operations/table.ts entryByName). */
  readonly op: string;
  /** The player it ran on (a new player's id for a sign-up). */
  readonly playerId: number;
  /** The decoded request, as the entry logs it (`logged`: a secret replaced by its hash). */
  readonly request: unknown;
  readonly seed: string;
  /** The other players it named, resolved (null: none existed). */
  readonly others: ReadonlyArray<number | null>;
  /** Hashes of the secrets the edge made for it (a new access token's); the secrets themselves are never logged. */
  readonly issued?: { readonly accessTokenHash: string };
}

export interface LogEntry extends LogRun {
  /** The players whose states changed, in results order. */
  readonly playerIds: ReadonlyArray<number>;
  readonly results: ReadonlyArray<LogResult>;
  /** Position in the whole log (1, 2, …), given by the storage when it commits the entry. */
  readonly seq?: number;
  /**
   * Only in getPlayerMove entries written before issue 16: the hash the state kept,
   * the request lacking the password. Read as the request's passwordHash.
   */
  readonly movePasswordHash?: string;
}

// ---- entries written before issue 16: kinds of their own, read by adapters/service/replay.ts ----

interface LegacyBase {
  readonly seq?: number;
  readonly at: number;
  readonly masterHash: string;
  readonly playerIds: ReadonlyArray<number>;
  readonly results: ReadonlyArray<LogResult>;
  readonly playerId: number;
}
/** A sign-up: createPlayer's inputs, the access token as its hash. */
export interface LegacySignupEntry extends LegacyBase {
  readonly kind: 'signup';
  readonly uuid: string;
  readonly platform: number;
  readonly name: string;
  readonly stepCode: number;
  readonly tokenHash: string;
  readonly seed: string;
}
/** A log-in (its token was checked when it ran). */
export interface LegacyLoginEntry extends LegacyBase {
  readonly kind: 'login';
}
/** A move, also a failed try: the new token's hash and the password tried, hashed with the code's salt. */
export interface LegacyMoveSetEntry extends LegacyBase {
  readonly kind: 'moveSet';
  readonly moveCode: string;
  readonly uuid: string;
  readonly platform: number;
  readonly tokenHash: string;
  readonly movePasswordHash: string;
}
/** An operator's present to one player. */
export interface LegacyAdminPresentEntry extends LegacyBase {
  readonly kind: 'admin.present';
  readonly grant: Grant;
  readonly meta: { readonly title: string; readonly message: string; readonly deadline: number | null };
}
export type LegacyEntry = LegacySignupEntry | LegacyLoginEntry | LegacyMoveSetEntry | LegacyAdminPresentEntry;

/** What a storage's log holds: entries, and in logs begun before issue 16 the old kinds too. */
export type StoredLogEntry = LogEntry | LegacyEntry;

/**
 * The entry of a commit: what ran, with the results hashed from the states the
 * commit stores (`befores[i]`, the state `states[i]` replaced, is stateHash's hint:
 * the digests of its lists' unchanged elements are reused). Keys in the order
 * entries have always been written.
 */
export const entryOf = (
  run: LogRun,
  states: ReadonlyArray<PlayerState>,
  befores: ReadonlyArray<PlayerState | undefined>,
): LogEntry => {
  const { kind, at, masterHash, ...rest } = run;
  return {
    kind,
    at,
    masterHash,
    playerIds: states.map((s) => s.playerId),
    results: states.map((s, i) => ({ playerId: s.playerId, version: s.version, stateHash: stateHash(s, befores[i]) })),
    ...rest,
  };
};
