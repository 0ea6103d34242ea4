// PostgreSQL storage's options, the connection pool made from them (ids and versions
// decoded from int8 as exact numbers), and the form of a statement sent through the store.
import pg from 'pg';
import { StorageError } from './storage.js';

export interface PostgresOptions {
  readonly connectionString: string;
  /** The schema the tables live in (created if missing). */
  readonly schema?: string;
  readonly poolSize?: number;
  readonly statementTimeoutMs?: number;
  /** Attempts of a commit that meets a serialization failure or a deadlock. */
  readonly retries?: number;
  readonly log?: (event: string, data: Record<string, unknown>) => void;
  /** Player states kept in memory (a commit checks the version each was read at); 0 turns the cache off. */
  readonly cacheSize?: number;
  /** A player state unused this long leaves memory (ms; 0: only the size bounds them; CACHE_IDLE_SECONDS). */
  readonly cacheIdleMs?: number;
  /** How long a session read is reused before it is read again (ms; default 2,000): another process may end it meanwhile. */
  readonly sessionCacheMs?: number;
  /** How long an Idempotency-Key's answer is kept (ms): a commit may replace an older record under the same key. */
  readonly idempotencyTtlMs?: number;
  /** Answers kept per caller (scope): a commit drops its scopes' older ones (IDEMPOTENCY_KEYS_PER_SCOPE). */
  readonly answersPerScope?: number;
  /** Commits sent in one call at most, when several wait (group commit; 1: each its own call; default 32). */
  readonly commitBatch?: number;
  /** Commit calls out at once at most; a commit arriving when this many are out waits and goes with the next (default 1). */
  readonly commitCallsInFlight?: number;
  /** prune deletes replay-log entries older than this (ms; 0 or none: kept for ever; REPLAY_LOG_RETENTION_DAYS). */
  readonly replayLogRetentionMs?: number;
}

const INT8 = 20;
/** node-postgres returns int8 as strings; ids and versions are within 2^53, so decode them exactly to numbers. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8) {
      return (v: string) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n)) throw new StorageError(`int8 ${v} is beyond 2^53`);
        return n;
      };
    }
    return format === 'binary' ? pg.types.getTypeParser(oid, 'binary') : pg.types.getTypeParser(oid, 'text');
  }) as pg.CustomTypesConfig['getTypeParser'],
};

/** The pool of a store's connections (an idle client's error is logged, never thrown). */
export const poolOf = (o: PostgresOptions): pg.Pool => {
  const pool = new pg.Pool({
    connectionString: o.connectionString,
    max: o.poolSize ?? 10,
    types,
    statement_timeout: o.statementTimeoutMs ?? 5000,
  });
  pool.on('error', (e) => o.log?.('postgres.idle_client_error', { error: e.message }));
  return pool;
};

/** A statement sent through the store (its query): counted as a round trip, a failure thrown as StorageError. */
export type Query = <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => Promise<pg.QueryResult<R>>;
