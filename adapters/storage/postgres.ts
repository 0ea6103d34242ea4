// PostgreSQL storage: each player a row (state as json, version as a column), the
// indexes as tables with unique keys, and the replay log indexed by player. Any
// number of server processes can share one database.
//
// What a write costs the database (issue 17): one round trip, or less (issue 34: commits
// that arrive together go as one call). A commit is one call of a server-side function
// (commit_v5, a prepared statement) that updates each row
// only at the version the writer read, checks the versions of the players it only
// read, writes the index keys that changed, the sessions, the idempotency record and
// the log entry, and raises a conflict otherwise (nothing is kept). A load served
// from this process's cache asks nothing: the commit's own version check catches a
// state another process changed, and an answer made without a commit is checked
// (verify) before it is given. State is stored as json, not jsonb, compressed with
// lz4: the text is kept as sent (no conversion either way), which measured cheapest
// to write (the bench's floor rows: PostgreSQL CPU a write, jsonb ~1,300 µs, json
// ~540, json with lz4 ~370); operators still query it with ->, ->> and casts.
//
// This file holds the store itself, put together from its parts; beside it:
//   postgres-options.ts     the options and the pool made from them;
//   postgres-query.ts       a statement sent (a round trip counted, prepared when named);
//   postgres-states.ts      the states this process knows (the cache, those just read, their rows' deltas);
//   postgres-commit.ts      a commit as commit_v5's call, its conflicts and retries;
//   kept-answer-json.ts     a kept answer's record as the commit writes it, its payload encoded once for the answer too;
//   postgres-erase.ts       a deleted player's purge (its log entries, the answers that showed it);
//   postgres-sessions.ts    the sessions read, kept in memory a short while, several to a round trip;
//   postgres-verify.ts      verify: the versions of players answered from memory, several to a round trip;
//   postgres-commits.ts     the commits, several to a call under load (grouped-calls.ts);
//   postgres-idempotency.ts the answers kept for Idempotency-Keys and the keys' claims, several to a round trip;
//   postgres-sizes.ts       the replay log's and the answers' sizes the stats report, measured every 30 s;
//   postgres-schema.ts      the migrations (tables, commit_v1..v5, take_tokens);
//   postgres-statements.ts  the statements prepared;
//   postgres-rows.ts        a player's row: a base and its deltas, decoded, encoded and folded;
//   postgres-replay-log.ts  the replay log read, pruned and measured;
//   postgres-scans.ts       the searches over every row (by name, the draw histories);
//   postgres-vacuum.ts      the self-vacuum, where autovacuum is off.
import pg from 'pg';
import type { DrawRecord, IndexName, PlayerState } from '../../core/state.js';
import type { StoredLogEntry } from './replay-log.js';
import { poolOf, type PostgresOptions } from './postgres-options.js';
import { queryOn, type Prepared } from './postgres-query.js';
import { PostgresMasterRegistry } from './postgres-master.js';
import { PostgresLiveOpsRecords } from './postgres-liveops.js';
import { ident, migrate } from './postgres-schema.js';
import { statementsOf, type Statements } from './postgres-statements.js';
import { KnownStates } from './postgres-states.js';
import { PostgresCommits } from './postgres-commits.js';
import { SessionReads } from './postgres-sessions.js';
import { Verifies } from './postgres-verify.js';
import { IdempotencyRows } from './postgres-idempotency.js';
import { MeasuredSizes } from './postgres-sizes.js';
import { vacuumTables } from './postgres-vacuum.js';
import { bytesOnDisk, firstSeq, pruneEntries, readEntries } from './postgres-replay-log.js';
import { eachDrawHistory, playersNamed } from './postgres-scans.js';
import { purgeErasures } from './postgres-erase.js';
import {
  liveState,
  StorageError,
  type Commit,
  type CommitResult,
  type IdempotencyClaim,
  type IdempotencyRecord,
  type LogFilter,
  type Session,
  type Storage,
  type StorageObserver,
  type StorageStats,
} from './storage.js';

export { MIGRATION_COUNT } from './postgres-schema.js';
export type { PostgresOptions } from './postgres-options.js';

export class PostgresStorage implements Storage {
  /** The player states this process knows (postgres-states.ts). */
  private readonly states: KnownStates;
  private readonly sessions: SessionReads;
  private readonly verifies: Verifies;
  private readonly idempotency: IdempotencyRows;
  /** Commits, sent alone or several to a call (postgres-commits.ts). */
  private readonly commits: PostgresCommits;
  /** Where loads are reported, a hit when served from memory (GET /metrics). */
  observer: StorageObserver = {};
  /** Statements sent to the database so far (each one round trip). */
  private roundTrips = 0;
  /** The replay log's and the kept answers' sizes, as last measured (postgres-sizes.ts). */
  private readonly sizes: MeasuredSizes;
  private readonly sql: Statements;
  /** A query; `name` makes it a prepared statement (postgres-query.ts). The modules that send statements for the store are given it. */
  private readonly query: Prepared;
  private constructor(
    private readonly pool: pg.Pool,
    private readonly s: string,
    private readonly opts: PostgresOptions,
  ) {
    this.states = new KnownStates(opts.cacheSize ?? 10_000, opts.cacheIdleMs ?? 0);
    this.sql = statementsOf(s);
    this.query = queryOn(pool, s, () => {
      this.roundTrips++;
    });
    this.sessions = new SessionReads(this.query, s, this.sql, opts);
    this.verifies = new Verifies(this.query, this.sql, this.states);
    this.idempotency = new IdempotencyRows(this.query, pool, s, this.sql, opts);
    this.commits = new PostgresCommits(pool, s, this.sql.commit, opts, {
      states: this.states,
      sessions: this.sessions,
      idempotency: this.idempotency,
      observer: () => this.observer,
      sent: () => {
        this.roundTrips++;
      },
      erased: () => {
        this.purging = this.purging
          .then(() => this.purgeErased())
          .catch((e: unknown) => this.opts.log?.('player.purge_failed', { error: String(e) }));
      },
    });
    this.sizes = new MeasuredSizes(
      () => this.replayLogSize(),
      () => this.answersSize(),
      opts,
    );
  }

  static async open(o: PostgresOptions): Promise<PostgresStorage> {
    const schema = ident(o.schema ?? 'hoshi');
    const pool = poolOf(o);
    const store = new PostgresStorage(pool, schema, o);
    try {
      await migrate(pool, schema, o.log);
    } catch (e) {
      await pool.end();
      throw new StorageError(`cannot prepare PostgreSQL schema ${schema}: ${(e as Error).message}`, e);
    }
    return store;
  }

  async nextPlayerId(): Promise<number> {
    for (;;) {
      const r = await this.query<{ id: number; taken: boolean }>(
        `SELECT n.id, EXISTS (SELECT 1 FROM ${this.s}.players p WHERE p.player_id = n.id) AS taken FROM (SELECT nextval('${this.s}.player_ids') AS id) n`,
      );
      const row = r.rows[0] as { id: number; taken: boolean };
      if (!row.taken) return row.id;
      // Players committed with ids of their own (an import, the bench's fill): the sequence moves past them.
      await this.query(
        `SELECT setval('${this.s}.player_ids', greatest((SELECT max(player_id) FROM ${this.s}.players), (SELECT last_value FROM ${this.s}.player_ids)))`,
      );
    }
  }

  async load(playerId: number): Promise<PlayerState | undefined> {
    const cached = this.states.hit(playerId);
    if (cached) {
      this.observer.cache?.(true);
      return liveState(cached);
    }
    this.observer.cache?.(false);
    const state = await this.readRow(playerId);
    if (state === undefined) return undefined;
    this.states.loaded(state);
    return liveState(state);
  }

  /** A player's current state from its row: the base with its deltas applied (not kept in memory). */
  private async readRow(playerId: number): Promise<PlayerState | undefined> {
    const r = await this.query<{ state: string; deltas: string | null }>(this.sql.load, [playerId], 'load');
    const row = r.rows[0];
    if (!row) return undefined;
    return this.states.decode(playerId, row);
  }

  /** Whether each state is still its player's current version (postgres-verify.ts). */
  async verify(states: ReadonlyArray<PlayerState>): Promise<boolean> {
    return this.verifies.verify(states);
  }

  async lookup(index: IndexName, key: string): Promise<number | undefined> {
    const r = await this.query<{ player_id: number }>(
      `SELECT player_id FROM ${this.s}.player_keys WHERE index_name = $1 AND key = $2`,
      [index, key],
      'lookup',
    );
    return r.rows[0]?.player_id;
  }

  /** A session, from memory when read in the last two seconds (`fresh`: from the database; postgres-sessions.ts). */
  async getSession(key: string, fresh = false): Promise<Session | undefined> {
    return this.sessions.get(key, fresh);
  }

  async sessionsOf(playerId: number): Promise<Array<{ key: string; session: Session }>> {
    return this.sessions.of(playerId);
  }

  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> {
    return this.idempotency.get(key);
  }

  async claimIdempotency(key: string, now: number): Promise<IdempotencyClaim> {
    return this.idempotency.claim(key, now);
  }

  async releaseIdempotency(key: string): Promise<void> {
    await this.idempotency.release(key);
  }

  async takeTokens(
    key: string,
    bucket: { readonly rate: number; readonly burst: number },
    want: number,
    now: number,
  ): Promise<{ granted: number; waitSeconds: number }> {
    const r = await this.query<{ granted: number; left_tokens: number }>(
      this.sql.take,
      [key, bucket.rate, bucket.burst, want, now],
      'take',
    );
    const row = r.rows[0] ?? { granted: 0, left_tokens: 0 };
    const waitSeconds =
      row.granted > 0 || row.left_tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - row.left_tokens) / bucket.rate));
    return { granted: row.granted, waitSeconds };
  }

  /**
   * Drops what the shared tables keep past its use (the server calls it every ten minutes):
   * idempotency answers older than `ttlMs`, rate buckets idle an hour (every default bucket is
   * full again by then, and a dropped one starts full), claims an hour old (their process died).
   */
  async prune(now: number, ttlMs: number): Promise<void> {
    await this.purgeErased(now);
    await this.pruneIdempotency(now - ttlMs);
    const retention = this.opts.replayLogRetentionMs ?? 0;
    if (retention > 0) await this.pruneReplayLog(now - retention);
    await this.query(`DELETE FROM ${this.s}.rate_buckets WHERE at < $1`, [now - 3_600_000]);
    await this.query(`DELETE FROM ${this.s}.idempotency_claims WHERE claimed_at < $1`, [now - 3_600_000]);
  }

  async playerIds(): Promise<number[]> {
    // Every live player has its friend code's key; a deleted one has none.
    const r = await this.query<{ player_id: number }>(
      `SELECT player_id FROM ${this.s}.player_keys WHERE index_name = 'myCode' ORDER BY player_id`,
    );
    return r.rows.map((x) => Number(x.player_id));
  }

  async recentlyActive(limit: number): Promise<number[]> {
    const r = await this.query<{ player_id: number }>(
      `SELECT player_id FROM ${this.s}.players ORDER BY updated_at DESC, player_id DESC LIMIT $1`,
      [limit],
      'recent',
    );
    return r.rows.map((x) => x.player_id);
  }

  async readLog(filter: LogFilter = {}): Promise<StoredLogEntry[]> {
    return readEntries(this.query, this.s, filter);
  }

  /** Deletes the replay log's entries older than `olderThan`, in bounded batches (postgres-replay-log.ts pruneEntries): the entries deleted. */
  async pruneReplayLog(
    olderThan: number,
    limits: { readonly batch?: number; readonly maxBatches?: number } = {},
  ): Promise<number> {
    return pruneEntries(this.query, this.s, this.opts.log, olderThan, limits);
  }

  /** The first seq the replay log keeps (undefined: it keeps none). */
  async replayLogStart(): Promise<number | undefined> {
    return firstSeq(this.query, this.s);
  }

  /** The replay log's bytes on disk, with its indexes and TOAST. Not counted in roundTrips (stats asks it). */
  async replayLogSize(): Promise<number> {
    return bytesOnDisk(this.pool, this.s);
  }

  /** The kept answers for Idempotency-Keys: their rows and the table's bytes with its indexes and TOAST. Not counted in roundTrips (stats asks it). */
  async answersSize(): Promise<{ records: number; bytes: number }> {
    return this.idempotency.size();
  }

  /** The game data's versions and schedule, shared by every process on the database. */
  masterRegistry(): PostgresMasterRegistry {
    return new PostgresMasterRegistry(this.query, this.s);
  }
  /** The operator's records (maintenance, notices, sends, operators), shared by every process. */
  liveOpsRecords(): PostgresLiveOpsRecords {
    return new PostgresLiveOpsRecords(this.query, this.s);
  }

  /** Keeps a copy of master data by its hash (once). */
  async saveMasterSnapshot(hash: string, files: unknown): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.master_snapshots (hash, files) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`,
      [hash, JSON.stringify(files)],
    );
  }

  async readMasterSnapshot(hash: string): Promise<unknown> {
    const r = await this.query<{ files: unknown }>(`SELECT files FROM ${this.s}.master_snapshots WHERE hash = $1`, [
      hash,
    ]);
    return r.rows[0]?.files;
  }

  /** Whether PostgreSQL's autovacuum runs (SHOW autovacuum): when it does not, the server vacuums its own tables (vacuum). */
  async autovacuumOn(): Promise<boolean> {
    const r = await this.query<{ autovacuum: string }>('SHOW autovacuum');
    return r.rows[0]?.autovacuum === 'on';
  }

  /** VACUUM of the tables writes churn, by one process at a time (postgres-vacuum.ts): `ran` false when another process holds it. */
  async vacuum(): Promise<{ ran: boolean; ms: number }> {
    return vacuumTables(this.pool, this.s, (n) => {
      this.roundTrips += n;
    });
  }

  /** The purge of a deletion this process committed, started at once (close waits for it). */
  private purging: Promise<unknown> = Promise.resolve();
  /** Purges deleted players whose erasure is not done (postgres-erase.ts): the deleting process starts it, every prune again. */
  async purgeErased(now = Date.now()): Promise<number> {
    return purgeErasures(this.pool, this.query, this.s, this.sql.load, this.opts.log, now);
  }

  /** Drops idempotency records older than an instant (operators may run it from a timer). */
  async pruneIdempotency(olderThan: number): Promise<number> {
    return this.idempotency.prune(olderThan);
  }

  async commit(commit: Commit): Promise<CommitResult> {
    return this.commits.commit(commit);
  }

  async findByName(name: string, limit: number): Promise<number[]> {
    return playersNamed(this.query, this.s, (id) => this.readRow(id), name, limit);
  }

  /** Each player's draw history, in pages by id (postgres-scans.ts): memory bounded by a page, whatever the players. */
  async drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number> {
    return eachDrawHistory(this.query, this.s, (id) => this.readRow(id), visit);
  }

  stats(): StorageStats {
    return {
      playersInMemory: this.states.count,
      roundTrips: this.roundTrips,
      pool: {
        total: this.pool.totalCount,
        idle: this.pool.idleCount,
        waiting: this.pool.waitingCount,
        max: this.opts.poolSize ?? 10,
      },
      ...this.sizes.stats(),
    };
  }

  /** The database answers and takes writes (a hot standby, or a primary set read-only, does not). */
  async check(): Promise<string | null> {
    try {
      const r = await this.pool.query<{ transaction_read_only: string }>('SHOW transaction_read_only');
      return r.rows[0]?.transaction_read_only === 'off' ? null : 'the database is read-only';
    } catch (e) {
      return `PostgreSQL: ${(e as Error).message}`;
    }
  }

  async close(): Promise<void> {
    await this.purging;
    await this.sizes.close();
    await this.pool.end();
  }

  /** Drops the schema and everything in it (tests). */
  static async dropSchema(connectionString: string, schema: string): Promise<void> {
    const c = new pg.Client({ connectionString });
    await c.connect();
    try {
      await c.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`);
    } finally {
      await c.end();
    }
  }
}
