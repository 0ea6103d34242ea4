// The one storage interface every adapter implements (in-memory, JSON files, later
// PostgreSQL). A commit of several players is atomic and checks each player's
// expected version, so no write is lost under concurrency.
import type { IndexName, PlayerState } from '../../core/state.js';
import type { LogEntry } from './log.js';

export interface Session {
  readonly playerId: number;
  /** The player's session epoch when it was made; a move raises the epoch and voids it. */
  readonly epoch: number;
  readonly createdAt: number;
  readonly lastSeenAt: number;
}

/**
 * A request answered under an Idempotency-Key: the hash of the request it answered
 * and the answer (a payload or a game error), committed with the state it changed.
 */
export interface IdempotencyRecord {
  readonly requestHash: string;
  readonly answer: { readonly ok: Record<string, unknown> } | { readonly error: Record<string, unknown> };
  readonly createdAt: number;
}

export interface CommitPlayer {
  readonly state: PlayerState;
  /** The version the writer read; null for a new player. */
  readonly expectedVersion: number | null;
}

export interface Commit {
  readonly players: ReadonlyArray<CommitPlayer>;
  /** Sessions to put (by key, the hash of the session id) or remove (null). */
  readonly sessions?: ReadonlyArray<{ readonly key: string; readonly session: Session | null }>;
  /** Idempotency records to keep (by scoped key), in the same atomic commit. */
  readonly idempotency?: ReadonlyArray<{ readonly key: string; readonly record: IdempotencyRecord }>;
  /** Replay-log entries for the state changes of this commit, kept or dropped with it (the storage numbers them). */
  readonly log?: ReadonlyArray<LogEntry>;
}

export type CommitResult =
  | { readonly ok: true }
  | { readonly ok: false; readonly conflict: 'version' | 'unique'; readonly detail: string };

export interface Storage {
  /** A fresh player id (ids are never reused). */
  nextPlayerId(): Promise<number>;
  load(playerId: number): Promise<PlayerState | undefined>;
  lookup(index: IndexName, key: string): Promise<number | undefined>;
  getSession(key: string): Promise<Session | undefined>;
  getIdempotency(key: string): Promise<IdempotencyRecord | undefined>;
  commit(commit: Commit): Promise<CommitResult>;
  /** Every player id (for operator broadcasts). */
  playerIds(): Promise<number[]>;
  /** Up to `limit` players who committed most recently, newest first (guests for the friend list; not kept across restarts). */
  recentlyActive(limit: number): Promise<number[]>;
  /** The whole replay log, in commit order, each entry with its seq. */
  readLog(): Promise<LogEntry[]>;
  close(): Promise<void>;
}

/** A storage failure (disk full, I/O error): the commit did not happen. */
export class StorageError extends Error {
  constructor(message: string, cause?: unknown) { super(message, { cause }); }
}
