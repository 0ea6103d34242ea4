// PostgreSQL storage: each player a row (state as json, version as a column), the
// indexes as tables with unique keys, and the replay log indexed by player. Any
// number of server processes can share one database.
//
// What a write costs the database (issue 17): one round trip. A commit is one call
// of a server-side function (commit_v1, a prepared statement) that updates each row
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
// This file holds the store itself (the cache, sessions, idempotency, commits); beside it:
//   postgres-options.ts     the options and the pool made from them;
//   postgres-schema.ts      the migrations (tables, commit_v1..v3, take_tokens) and the statements prepared;
//   postgres-rows.ts        a player's row: a base and its deltas, decoded, encoded and folded;
//   postgres-replay-log.ts  the replay log read, pruned and measured;
//   postgres-scans.ts       the searches over every row (by name, the draw histories);
//   postgres-vacuum.ts      the self-vacuum, where autovacuum is off.
import pg from 'pg';
import type { DrawRecord, IndexName, PlayerState } from '../../core/state.js';
import { entryOf, type StoredLogEntry } from './replay-log.js';
import { KEPT_PER_SCOPE } from './kept-answers.js';
import { PlayerCache } from './player-cache.js';
import { poolOf, type PostgresOptions, type Query } from './postgres-options.js';
import { ident, migrate, statementsOf, type Statements } from './postgres-schema.js';
import { decodeRow, encodeRow, keyChanges, type Chain } from './postgres-rows.js';
import { vacuumTables } from './postgres-vacuum.js';
import { bytesOnDisk, firstSeq, pruneEntries, readEntries } from './postgres-replay-log.js';
import { eachDrawHistory, playersNamed } from './postgres-scans.js';
import { decodeStored, IdempotencyRecordCodec, SessionCodec, StorageError, type Commit, type CommitResult, type IdempotencyClaim, type IdempotencyRecord, type LogFilter, type Session, type Storage, type StorageObserver, type StorageStats } from './storage.js';

export { MIGRATION_COUNT } from './postgres-schema.js';
export type { PostgresOptions } from './postgres-options.js';

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const VERSION_CONFLICT = 'HK001';
const UNIQUE_CONFLICT = 'HK002';
/** A claim older than this belongs to a request that died with its process: taken over. */
const CLAIM_STALE_MS = 60_000;

export class PostgresStorage implements Storage {
  private readonly cache: PlayerCache<PlayerState>;
  /** States read from the database by a load not yet followed by a cache hit: current when read, so verify skips them. */
  private readonly justRead = new WeakSet<PlayerState>();
  /** Each state this process read or wrote: what its row holds beyond the base (a state it does not know is written whole). */
  private readonly chains = new WeakMap<PlayerState, Chain>();
  private readonly sessions = new Map<string, { session: Session; at: number }>();
  /** Keys whose claim a commit released (its record written). */
  private readonly released = new Set<string>();
  /** Where loads are reported, a hit when served from memory (GET /metrics). */
  observer: StorageObserver = {};
  /** Statements sent to the database so far (each one round trip). */
  private roundTrips = 0;
  /** The replay log's bytes as last measured, when the last measurement began, the one running, and whether the store is closed. */
  private logBytes: number | undefined;
  /** The kept answers' table as last measured (with the replay log). */
  private answerSize: { records: number; bytes: number } | undefined;
  private logMeasuredAt = Number.NEGATIVE_INFINITY;
  private measuring: Promise<void> | null = null;
  private closed = false;
  private readonly sql: Statements;
  /** query, for the modules that send statements for the store (postgres-replay-log.ts, postgres-scans.ts). */
  private readonly send: Query = (text, values) => this.query(text, values);
  private constructor(private readonly pool: pg.Pool, private readonly s: string, private readonly opts: PostgresOptions) {
    this.cache = new PlayerCache(opts.cacheSize ?? 10_000, opts.cacheIdleMs ?? 0, Date.now);
    this.sql = statementsOf(s);
  }

  private remember(s: PlayerState): void { this.cache.set(s.playerId, s); }

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

  /** A query; `name` makes it a prepared statement (parsed and planned once per connection). */
  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = [], name?: string): Promise<pg.QueryResult<R>> {
    this.roundTrips++;
    try {
      return await this.pool.query<R>(name === undefined ? { text, values } : { name: `${this.s}.${name}`, text, values });
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    }
  }

  async nextPlayerId(): Promise<number> {
    for (;;) {
      const r = await this.query<{ id: number; taken: boolean }>(
        `SELECT n.id, EXISTS (SELECT 1 FROM ${this.s}.players p WHERE p.player_id = n.id) AS taken FROM (SELECT nextval('${this.s}.player_ids') AS id) n`);
      const row = r.rows[0] as { id: number; taken: boolean };
      if (!row.taken) return row.id;
      // Players committed with ids of their own (an import, the bench's fill): the sequence moves past them.
      await this.query(`SELECT setval('${this.s}.player_ids', greatest((SELECT max(player_id) FROM ${this.s}.players), (SELECT last_value FROM ${this.s}.player_ids)))`);
    }
  }

  async load(playerId: number): Promise<PlayerState | undefined> {
    const cached = this.cache.get(playerId);
    if (cached) {
      // No round trip: a commit checks the version it was read at, and verify checks an answer made without one.
      this.justRead.delete(cached);
      this.observer.cache?.(true);
      return cached;
    }
    this.observer.cache?.(false);
    const state = await this.readRow(playerId);
    if (state === undefined) return undefined;
    this.remember(state);
    this.justRead.add(state);
    return state;
  }

  /** A player's current state from its row: the base with its deltas applied (not kept in memory). */
  private async readRow(playerId: number): Promise<PlayerState | undefined> {
    const r = await this.query<{ state: string; deltas: string | null }>(this.sql.load, [playerId], 'load');
    const row = r.rows[0];
    if (!row) return undefined;
    const { state, chain } = decodeRow(playerId, row);
    this.chains.set(state, chain);
    return state;
  }

  async verify(states: ReadonlyArray<PlayerState>): Promise<boolean> {
    const unsure = states.filter((s) => !this.justRead.has(s));
    if (unsure.length === 0) return true;
    const r = await this.query<{ n: number }>(this.sql.verify, [unsure.map((s) => s.playerId), unsure.map((s) => s.version)], 'verify');
    if (r.rows[0]?.n === unsure.length) return true;
    for (const s of unsure) this.forget(s.playerId);
    return false;
  }

  /** Drops a cached state (another process moved it on). */
  private forget(playerId: number): void { this.cache.delete(playerId); }

  async lookup(index: IndexName, key: string): Promise<number | undefined> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.player_keys WHERE index_name = $1 AND key = $2`, [index, key], 'lookup');
    return r.rows[0]?.player_id;
  }

  /** A session, from memory when read in the last two seconds (`fresh`: from the database). */
  async getSession(key: string, fresh = false): Promise<Session | undefined> {
    const now = Date.now();
    const hit = fresh ? undefined : this.sessions.get(key);
    if (hit && now - hit.at < (this.opts.sessionCacheMs ?? 2_000)) return hit.session;
    const r = await this.query<{ session: unknown }>(this.sql.session, [key], 'session');
    const row = r.rows[0];
    const session = row && decodeStored(SessionCodec, row.session, `session ${key}`);
    this.keepSession(key, session, now);
    return session;
  }

  private keepSession(key: string, session: Session | undefined | null, at: number): void {
    this.sessions.delete(key);
    if (!session) return;
    this.sessions.set(key, { session, at });
    // Bounded like the states: the oldest read goes first.
    if (this.sessions.size > Math.max(1, this.opts.cacheSize ?? 10_000)) {
      const oldest = this.sessions.keys().next();
      if (!oldest.done) this.sessions.delete(oldest.value);
    }
  }

  async sessionsOf(playerId: number): Promise<Array<{ key: string; session: Session }>> {
    const r = await this.query<{ key: string; session: unknown }>(
      `SELECT key, session FROM ${this.s}.sessions WHERE (session->>'playerId')::bigint = $1 ORDER BY (session->>'createdAt')::bigint, key`, [playerId]);
    return r.rows.map((x) => ({ key: x.key, session: decodeStored(SessionCodec, x.session, `session ${x.key}`) }));
  }

  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> {
    const r = await this.query<{ record: unknown }>(`SELECT record FROM ${this.s}.idempotency WHERE key = $1`, [key], 'idempotency');
    const row = r.rows[0];
    return row && decodeStored(IdempotencyRecordCodec, row.record, `the answer kept for ${key}`);
  }

  async claimIdempotency(key: string, now: number): Promise<IdempotencyClaim> {
    const ttl = this.opts.idempotencyTtlMs ?? 86_400_000;
    const r = await this.query<{ record: unknown; claimed: boolean }>(this.sql.claim, [key, now, now - CLAIM_STALE_MS, now - ttl], 'claim');
    const row = r.rows[0];
    this.released.delete(key);
    const record = row?.record == null ? undefined : decodeStored(IdempotencyRecordCodec, row.record, `the answer kept for ${key}`);
    return { claimed: row?.claimed === true, ...(record ? { record } : {}) };
  }

  async releaseIdempotency(key: string): Promise<void> {
    if (this.released.delete(key)) return;
    await this.query(`DELETE FROM ${this.s}.idempotency_claims WHERE key = $1`, [key], 'release');
  }

  async takeTokens(key: string, bucket: { readonly rate: number; readonly burst: number }, want: number, now: number): Promise<{ granted: number; waitSeconds: number }> {
    const r = await this.query<{ granted: number; left_tokens: number }>(this.sql.take, [key, bucket.rate, bucket.burst, want, now], 'take');
    const row = r.rows[0] ?? { granted: 0, left_tokens: 0 };
    const waitSeconds = row.granted > 0 || row.left_tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - row.left_tokens) / bucket.rate));
    return { granted: row.granted, waitSeconds };
  }

  /**
   * Drops what the shared tables keep past its use (the server calls it every ten minutes):
   * idempotency answers older than `ttlMs`, rate buckets idle an hour (every default bucket is
   * full again by then, and a dropped one starts full), claims an hour old (their process died).
   */
  async prune(now: number, ttlMs: number): Promise<void> {
    await this.pruneIdempotency(now - ttlMs);
    const retention = this.opts.replayLogRetentionMs ?? 0;
    if (retention > 0) await this.pruneReplayLog(now - retention);
    await this.query(`DELETE FROM ${this.s}.rate_buckets WHERE at < $1`, [now - 3_600_000]);
    await this.query(`DELETE FROM ${this.s}.idempotency_claims WHERE claimed_at < $1`, [now - 3_600_000]);
  }

  async playerIds(): Promise<number[]> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.players ORDER BY player_id`);
    return r.rows.map((x) => x.player_id);
  }

  async recentlyActive(limit: number): Promise<number[]> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.players ORDER BY updated_at DESC, player_id DESC LIMIT $1`, [limit], 'recent');
    return r.rows.map((x) => x.player_id);
  }

  async readLog(filter: LogFilter = {}): Promise<StoredLogEntry[]> { return readEntries(this.send, this.s, filter); }

  /** Deletes the replay log's entries older than `olderThan`, in bounded batches (postgres-replay-log.ts pruneEntries): the entries deleted. */
  async pruneReplayLog(olderThan: number, limits: { readonly batch?: number; readonly maxBatches?: number } = {}): Promise<number> {
    return pruneEntries(this.send, this.s, this.opts.log, olderThan, limits);
  }

  /** The first seq the replay log keeps (undefined: it keeps none). */
  async replayLogStart(): Promise<number | undefined> { return firstSeq(this.send, this.s); }

  /** The replay log's bytes on disk, with its indexes and TOAST. Not counted in roundTrips (stats asks it). */
  async replayLogSize(): Promise<number> { return bytesOnDisk(this.pool, this.s); }

  /** The kept answers for Idempotency-Keys: their rows and the table's bytes with its indexes and TOAST. Not counted in roundTrips (stats asks it). */
  async answersSize(): Promise<{ records: number; bytes: number }> {
    try {
      const r = await this.pool.query<{ records: number; bytes: number }>(
        `SELECT (SELECT count(*) FROM ${this.s}.idempotency)::int AS records, pg_total_relation_size(to_regclass($1)) AS bytes`, [`${this.s}.idempotency`]);
      return r.rows[0] ?? { records: 0, bytes: 0 };
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    }
  }

  /** The replay log's bytes as last measured (and the kept answers'); measured again beside the caller once that is 30 s old (a scrape never waits for it, nor asks at each scrape). */
  private replayLogBytes(): number | undefined {
    const now = Date.now();
    if (!this.closed && this.measuring === null && now - this.logMeasuredAt >= 30_000) {
      this.logMeasuredAt = now;
      this.measuring = this.replayLogSize()
        .then((bytes) => { this.logBytes = bytes; return this.answersSize(); })
        .then((answers) => { this.answerSize = answers; }, (e: unknown) => { this.opts.log?.('postgres.measure_failed', { error: (e as Error).message }); })
        .finally(() => { this.measuring = null; });
    }
    return this.logBytes;
  }

  /** Keeps a copy of master data by its hash (once). */
  async saveMasterSnapshot(hash: string, files: unknown): Promise<void> {
    await this.query(`INSERT INTO ${this.s}.master_snapshots (hash, files) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`, [hash, JSON.stringify(files)]);
  }

  async readMasterSnapshot(hash: string): Promise<unknown> {
    const r = await this.query<{ files: unknown }>(`SELECT files FROM ${this.s}.master_snapshots WHERE hash = $1`, [hash]);
    return r.rows[0]?.files;
  }

  /** Whether PostgreSQL's autovacuum runs (SHOW autovacuum): when it does not, the server vacuums its own tables (vacuum). */
  async autovacuumOn(): Promise<boolean> {
    const r = await this.query<{ autovacuum: string }>('SHOW autovacuum');
    return r.rows[0]?.autovacuum === 'on';
  }

  /** VACUUM of the tables writes churn, by one process at a time (postgres-vacuum.ts): `ran` false when another process holds it. */
  async vacuum(): Promise<{ ran: boolean; ms: number }> {
    return vacuumTables(this.pool, this.s, (n) => { this.roundTrips += n; });
  }

  /** Drops idempotency records older than an instant (operators may run it from a timer). */
  async pruneIdempotency(olderThan: number): Promise<number> {
    const r = await this.query(`DELETE FROM ${this.s}.idempotency WHERE created_at < $1`, [olderThan]);
    return r.rowCount ?? 0;
  }

  async commit(commit: Commit): Promise<CommitResult> {
    const attempts = this.opts.retries ?? 5;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commitOnce(commit);
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code && RETRYABLE.has(code) && attempt < attempts) continue;
        if (e instanceof StorageError) throw e;
        throw new StorageError(`PostgreSQL commit failed: ${(e as Error).message}`, e);
      }
    }
  }

  /** One round trip: commit_v1 with the commit's parts as arrays. */
  private async commitOnce(commit: Commit): Promise<CommitResult> {
    // The states before, where this process holds the version written over: the log's hashes and the key changes start from them.
    const befores = commit.players.map((p) => {
      const c = this.cache.get(p.state.playerId);
      return c !== undefined && c.version === p.expectedVersion ? c : undefined;
    });
    const entry = commit.log && entryOf(commit.log, commit.players.map((p) => p.state), befores);
    const order = commit.players.map((p, i) => ({ p, before: befores[i] })).sort((a, b) => a.p.state.playerId - b.p.state.playerId);
    const keys = keyChanges(order.map(({ p, before }) => ({ state: p.state, before, isNew: p.expectedVersion === null })));
    const sessions = commit.sessions ?? [];
    const idem = commit.idempotency ?? [];
    const ttl = this.opts.idempotencyTtlMs ?? 86_400_000;
    const rows = order.map(({ p, before }) => this.rowOf(p.state, p.expectedVersion === null ? undefined : before));
    const values = [
      // The states as one json array: a text[] parameter would have node-postgres escape every quote of every state.
      order.map(({ p }) => p.state.playerId), order.map(({ p }) => p.expectedVersion), order.map(({ p }) => p.state.version),
      `[${rows.map((r) => r.json).join(',')}]`, rows.map((r) => r.delta),
      (commit.reads ?? []).map((r) => r.playerId), (commit.reads ?? []).map((r) => r.version),
      keys.replace, keys.delNames, keys.delKeys, keys.insNames, keys.insKeys, keys.insOwners,
      sessions.map((x) => x.key), sessions.map((x) => (x.session === null ? null : JSON.stringify(x.session))),
      idem.map((x) => x.key), `[${idem.map((x) => JSON.stringify(x.record)).join(',')}]`, idem.map((x) => x.record.createdAt),
      idem.length > 0 ? Math.min(...idem.map((x) => x.record.createdAt)) - ttl : 0,
      entry ? JSON.stringify(entry) : null, entry ? entry.playerIds : [], this.opts.answersPerScope ?? KEPT_PER_SCOPE,
    ];
    this.roundTrips++;
    try {
      await this.pool.query({ name: `${this.s}.commit`, text: this.sql.commit, values });
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code === VERSION_CONFLICT || code === UNIQUE_CONFLICT) {
        // What this process holds of the players involved may be stale: read them again on the retry.
        for (const p of commit.players) this.forget(p.state.playerId);
        for (const r of commit.reads ?? []) this.forget(r.playerId);
        return { ok: false, conflict: code === VERSION_CONFLICT ? 'version' : 'unique', detail: (e as Error).message };
      }
      throw e;
    }
    for (const p of commit.players) this.remember(p.state);
    order.forEach(({ p }, i) => this.chains.set(p.state, (rows[i] as { chain: Chain }).chain));
    const now = Date.now();
    for (const x of sessions) this.keepSession(x.key, x.session, now);
    for (const x of idem) this.released.add(x.key);
    return { ok: true };
  }

  /** What a commit writes of a state: a delta row, or the state whole (postgres-rows.ts encodeRow). */
  private rowOf(state: PlayerState, before: PlayerState | undefined): { json: string; delta: boolean; chain: Chain } {
    return encodeRow(state, before, before === undefined ? undefined : this.chains.get(before));
  }

  async findByName(name: string, limit: number): Promise<number[]> { return playersNamed(this.send, this.s, (id) => this.readRow(id), name, limit); }

  /** Each player's draw history, in pages by id (postgres-scans.ts): memory bounded by a page, whatever the players. */
  async drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number> { return eachDrawHistory(this.send, this.s, (id) => this.readRow(id), visit); }

  stats(): StorageStats {
    return {
      playersInMemory: this.cache.count,
      roundTrips: this.roundTrips,
      pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.opts.poolSize ?? 10 },
      ...((bytes) => (bytes === undefined ? {} : { replayLogBytes: bytes }))(this.replayLogBytes()),
      ...(this.answerSize === undefined ? {} : { answersStored: this.answerSize }),
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
    this.closed = true;
    await this.measuring;
    await this.pool.end();
  }

  /** Drops the schema and everything in it (tests). */
  static async dropSchema(connectionString: string, schema: string): Promise<void> {
    const c = new pg.Client({ connectionString });
    await c.connect();
    try { await c.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`); } finally { await c.end(); }
  }
}
