// The one storage interface every adapter implements (in-memory, JSON files, later
// PostgreSQL). A commit of several players is atomic and checks each player's
// expected version, so no write is lost under concurrency.
import * as t from 'io-ts';
import { isDeleted, type DrawRecord, type IndexName, type PlayerState } from '../../core/state.js';
import type { LogRun, StoredLogEntry } from './replay-log.js';

/** A session as stored (the key is the hash of its id). */
export const SessionCodec = t.readonly(
  t.type({
    playerId: t.number,
    /** The player's session epoch when it was made; a move raises the epoch and voids it. */
    epoch: t.number,
    createdAt: t.number,
    lastSeenAt: t.number,
  }),
);
export type Session = t.TypeOf<typeof SessionCodec>;

/**
 * A request answered under an Idempotency-Key: the hash of the request it answered
 * and the answer (a payload or a game error), committed with the state it changed.
 * `withheld`: the answer's secrets (accessToken, sessionId), left out of `answer`: a
 * replay is refused (112), never handed them.
 */
export const IdempotencyRecordCodec = t.readonly(
  t.intersection([
    t.type({
      requestHash: t.string,
      answer: t.union([t.readonly(t.type({ ok: t.UnknownRecord })), t.readonly(t.type({ error: t.UnknownRecord }))]),
      createdAt: t.number,
    }),
    t.partial({ withheld: t.readonlyArray(t.string) }),
  ]),
);
export type IdempotencyRecord = t.TypeOf<typeof IdempotencyRecordCodec>;

/** A stored state as a load answers it: a deleted player's tombstone is no player. */
export const liveState = (s: PlayerState | undefined): PlayerState | undefined =>
  s === undefined || isDeleted(s) ? undefined : s;

/** A stored value read back through its codec: a row that does not decode is the storage's failure, named. */
export const decodeStored = <A>(codec: t.Decoder<unknown, A>, value: unknown, what: string): A => {
  const d = codec.decode(value);
  if (d._tag === 'Left') throw new StorageError(`${what} does not decode as stored`);
  return d.right;
};

export interface CommitPlayer {
  readonly state: PlayerState;
  /** The version the writer read; null for a new player. */
  readonly expectedVersion: number | null;
}

/**
 * A player the commit deletes (its state is the tombstone: core/state.ts isDeleted), and
 * what the store purges of it besides its state (docs/privacy.md): the kept answers of
 * the scopes that were its own, dropped with the commit; in the scopes of players who may
 * have been shown it, its name and friend code in the kept answers emptied; and, at the
 * store's next checkpoint or compaction, its personal fields in the replay log.
 */
export interface Erasure {
  readonly playerId: number;
  /** Idempotency-Key scopes whose kept answers are dropped whole (the player's own). */
  readonly drop: ReadonlyArray<string>;
  /** Scopes whose kept answers are kept with the player's name and friend code emptied where they show it. */
  readonly scrub: ReadonlyArray<string>;
}

export interface Commit {
  readonly players: ReadonlyArray<CommitPlayer>;
  /** Sessions to put (by key, the hash of the session id) or remove (null). */
  readonly sessions?: ReadonlyArray<{ readonly key: string; readonly session: Session | null }>;
  /** Idempotency records to keep (by scoped key), in the same atomic commit. */
  readonly idempotency?: ReadonlyArray<{ readonly key: string; readonly record: IdempotencyRecord }>;
  /**
   * What ran to make this commit's states, for the replay log: the storage makes
   * the entry, kept or dropped with the commit, numbering it and hashing the states
   * it stores (replay-log.ts entryOf), in `players` order.
   */
  readonly log?: LogRun;
  /**
   * Players the run read but did not write, at the versions it read: the commit is
   * refused (a version conflict) when any has moved on. A store whose loads may serve
   * another process's stale state (PostgreSQL's cache) relies on it; the others check it too.
   */
  readonly reads?: ReadonlyArray<{ readonly playerId: number; readonly version: number }>;
  /** The player this commit deletes (its tombstone is among `players`), and what else goes with it. */
  readonly erase?: Erasure;
}

/** An Idempotency-Key claimed for a request about to run (claimIdempotency). */
export interface IdempotencyClaim {
  /** The answer kept for the key, if any (the caller judges its age). */
  readonly record?: IdempotencyRecord;
  /** True when this caller holds the key now; false when another process's request with it is still running. */
  readonly claimed: boolean;
}

/**
 * A commit taken into a store's order before it is durable (pipelined commits): its
 * result now, `durable` settled once it survives a crash (rejected when it never will:
 * its write failed, or one it may be built on did).
 */
export interface Accepted {
  readonly result: CommitResult;
  readonly durable: Promise<void>;
}

export type CommitResult =
  { readonly ok: true } | { readonly ok: false; readonly conflict: 'version' | 'unique'; readonly detail: string };

/** What a storage can tell GET /metrics, read at each scrape; each figure is optional. */
export interface StorageStats {
  /** Player states held in memory (cached, or changed and not yet in a snapshot). */
  readonly playersInMemory?: number;
  /** Bytes written to the journal since the last checkpoint (the JSON-file store). */
  readonly journalBytes?: number;
  /** Answers kept for Idempotency-Keys that memory holds (changed since the last checkpoint, and cached). */
  readonly answersInMemory?: number;
  /** The kept answers on disk or in the database: records (where known) and bytes, as last measured. */
  readonly answersStored?: { readonly records?: number; readonly bytes: number };
  /** The replay log's kept bytes on disk (JSON files: its segments and indexes; PostgreSQL: replay_log and replay_log_players, as last measured). */
  readonly replayLogBytes?: number;
  /** Entries in the kept replay log (the JSON-file store). */
  readonly replayLogEntries?: number;
  /** Statements sent to the database so far, each one round trip (PostgreSQL). */
  readonly roundTrips?: number;
  /** The PostgreSQL connection pool: open connections, idle ones, callers waiting for one, the bound. */
  readonly pool?: { readonly total: number; readonly idle: number; readonly waiting: number; readonly max: number };
}

/** Events a storage reports as they happen, for GET /metrics (each hook optional). */
export interface StorageObserver {
  /** A player load served from memory (a hit) or read from disk or the database (a miss). */
  cache?(hit: boolean): void;
  /** Commits made durable together by one write and fsync of the journal (group commit), and how long that took. */
  batch?(commits: number, seconds: number): void;
}

/** Which replay-log entries a read returns (readLog); none given: every entry. */
export interface LogFilter {
  /** Only entries whose `playerIds` (the players whose states the entry changed) include one of these. */
  readonly players?: ReadonlyArray<number>;
}

/** Whether an entry passes a filter (the stores that filter in memory share it). */
export const passesFilter = (
  e: { readonly playerIds: ReadonlyArray<number> },
  filter: LogFilter | undefined,
): boolean => {
  const players = filter?.players;
  return players === undefined || e.playerIds.some((id) => players.includes(id));
};

export interface Storage {
  /** A fresh player id (ids are never reused). */
  nextPlayerId(): Promise<number>;
  /** The player's state; undefined when there is none, or it was deleted (its tombstone is kept, never answered). */
  load(playerId: number): Promise<PlayerState | undefined>;
  lookup(index: IndexName, key: string): Promise<number | undefined>;
  /** `fresh`: not from a memory of it (a store shared by several processes may keep sessions a moment). */
  getSession(key: string, fresh?: boolean): Promise<Session | undefined>;
  /** A player's sessions with their keys, oldest first (the operator's console; expired or voided ones too, until removed). */
  sessionsOf(playerId: number): Promise<Array<{ readonly key: string; readonly session: Session }>>;
  getIdempotency(key: string): Promise<IdempotencyRecord | undefined>;
  commit(commit: Commit): Promise<CommitResult>;
  /**
   * Pipelined commits (optional; the JSON-file store): the commit taken into the store's
   * order and answered before it is durable (Accepted). The player's next commit may then
   * be built on its state (loadLatest); nothing built on it may be acknowledged before
   * `durable` resolves. Without it, commit is used and a commit is durable when answered.
   */
  accept?(commit: Commit): Promise<Accepted>;
  /** The player's state with the commits taken but not yet durable (accept); without accept, load. */
  loadLatest?(playerId: number): Promise<PlayerState | undefined>;
  /** Resolves once every one of these states (loaded by loadLatest) is durable; rejects when one never will be. */
  durable?(states: ReadonlyArray<PlayerState>): Promise<void>;
  /** Every player id (for operator broadcasts), deleted players left out. */
  playerIds(): Promise<number[]>;
  /** Up to `limit` players who committed most recently, newest first (guests for the friend list; not kept across restarts). */
  recentlyActive(limit: number): Promise<number[]>;
  /**
   * The replay log, in commit order, each entry with its seq (a log begun before issue 16
   * holds the old kinds too): every entry, or those the filter lets through.
   */
  readLog(filter?: LogFilter): Promise<StoredLogEntry[]>;
  close(): Promise<void>;
  /**
   * Hands every player's kept draw history to `visit`, reading the players without
   * keeping them in memory (the live players' cache is left as it was), and answers
   * how many were read. For the operator's observed gacha rates.
   */
  drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number>;
  /** Up to `limit` players named exactly `name`, by id (the operator API's search; optional: without it the caller scans). */
  findByName?(name: string, limit: number): Promise<number[]>;
  /** Figures for GET /metrics (optional). */
  stats?(): StorageStats;
  /** Null when the storage is open and takes writes now, else why not (GET /readyz; optional). */
  check?(): Promise<string | null>;
  /**
   * True when each state is still its player's current one (their versions checked
   * against the store). Only stores whose loads may be stale (shared by several
   * processes) have it; the service asks before answering from states it did not commit.
   */
  verify?(states: ReadonlyArray<PlayerState>): Promise<boolean>;
  /**
   * Claims an Idempotency-Key across every process sharing the storage, and reads its
   * kept answer in the same step: a second request with the key while the first runs
   * anywhere is told so (claimed: false). A commit holding the key's record releases
   * the claim; releaseIdempotency releases it otherwise. Stores without it are used by
   * one process, whose in-flight set is the claim.
   */
  claimIdempotency?(key: string, now: number): Promise<IdempotencyClaim>;
  releaseIdempotency?(key: string): Promise<void>;
  /**
   * A token bucket held by the storage, shared by every process using it: takes up to
   * `want` tokens from bucket `key` (refilled at `rate` a second up to `burst`) and
   * says how many it got and, when none, the seconds until one is there. `want` 0 only looks.
   */
  takeTokens?(
    key: string,
    bucket: { readonly rate: number; readonly burst: number },
    want: number,
    now: number,
  ): Promise<{ granted: number; waitSeconds: number }>;
  /** Where the storage reports its events (optional; set by whoever serves the metrics). */
  observer?: StorageObserver;
}

/** A storage failure (disk full, I/O error): the commit did not happen. */
export class StorageError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}
