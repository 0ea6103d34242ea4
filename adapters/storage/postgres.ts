// PostgreSQL storage: each player a row (state as JSONB, version as a column), the
// indexes as tables with unique keys, and a commit of several players one
// transaction that locks their rows in id order and checks their versions. The
// replay log is written in the same transaction. Any number of server processes
// can share one database: the in-process cache is version-checked (a load asks the
// row's version and reuses the cached state only when it is current), so every
// load sees the latest commit of any process, and commits' version checks catch
// the races in between.
import pg from 'pg';
import { decodeState, indexKeysOf, INDEX_NAMES, type IndexName, type PlayerState } from '../../core/state.js';
import { entryOf, type StoredLogEntry } from './replay-log.js';
import { StorageError, type Commit, type CommitResult, type IdempotencyRecord, type Session, type Storage, type StorageObserver, type StorageStats } from './storage.js';

export interface PostgresOptions {
  readonly connectionString: string;
  /** The schema the tables live in (created if missing). */
  readonly schema?: string;
  readonly poolSize?: number;
  readonly statementTimeoutMs?: number;
  /** Attempts of a commit that meets a serialization failure or a deadlock. */
  readonly retries?: number;
  readonly log?: (event: string, data: Record<string, unknown>) => void;
  /** Player states kept in memory (each reuse is checked against the row's version); 0 turns the cache off. */
  readonly cacheSize?: number;
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

/** Versioned migrations: each runs once, in order, under an advisory lock (safe from many processes at once). */
const MIGRATIONS: ReadonlyArray<(s: string) => string> = [
  (s) => `
    CREATE TABLE ${s}.players (
      player_id bigint PRIMARY KEY,
      version bigint NOT NULL,
      state jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX players_updated_at ON ${s}.players (updated_at DESC);
    CREATE TABLE ${s}.player_keys (
      index_name text NOT NULL,
      key text NOT NULL,
      player_id bigint NOT NULL REFERENCES ${s}.players (player_id),
      PRIMARY KEY (index_name, key)
    );
    CREATE INDEX player_keys_player ON ${s}.player_keys (player_id);
    CREATE TABLE ${s}.sessions (
      key text PRIMARY KEY,
      session jsonb NOT NULL
    );
    -- json, not jsonb: a retried request gets its stored answer back byte for byte (jsonb reorders keys).
    CREATE TABLE ${s}.idempotency (
      key text PRIMARY KEY,
      record json NOT NULL,
      created_at bigint NOT NULL
    );
    CREATE TABLE ${s}.replay_log (
      seq bigserial PRIMARY KEY,
      entry jsonb NOT NULL
    );
    CREATE SEQUENCE ${s}.player_ids;
  `,
  // Master data by hash, so a replay runs each log entry with what it saw (json keeps the text as written).
  (s) => `
    CREATE TABLE ${s}.master_snapshots (
      hash text PRIMARY KEY,
      files json NOT NULL,
      saved_at timestamptz NOT NULL DEFAULT now()
    );
  `,
];

/** How many migrations the schema has when current. */
export const MIGRATION_COUNT = MIGRATIONS.length;

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const UNIQUE = '23505';
const ident = (s: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(s)) throw new StorageError(`not a plain schema name: ${s}`);
  return s;
};

export class PostgresStorage implements Storage {
  private readonly cache = new Map<number, PlayerState>();
  /** Where loads are reported, a hit when the cached state was current (GET /metrics). */
  observer: StorageObserver = {};
  private constructor(private readonly pool: pg.Pool, private readonly s: string, private readonly opts: PostgresOptions) {}

  private remember(s: PlayerState): void {
    const max = this.opts.cacheSize ?? 10_000;
    if (max <= 0) return;
    this.cache.delete(s.playerId);
    this.cache.set(s.playerId, s);
    if (this.cache.size > max) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }

  static async open(o: PostgresOptions): Promise<PostgresStorage> {
    const schema = ident(o.schema ?? 'hoshi');
    const pool = new pg.Pool({
      connectionString: o.connectionString, max: o.poolSize ?? 10, types,
      statement_timeout: o.statementTimeoutMs ?? 5000,
    });
    pool.on('error', (e) => o.log?.('postgres.idle_client_error', { error: e.message }));
    const store = new PostgresStorage(pool, schema, o);
    try {
      await store.migrate();
    } catch (e) {
      await pool.end();
      throw new StorageError(`cannot prepare PostgreSQL schema ${schema}: ${(e as Error).message}`, e);
    }
    return store;
  }

  private async migrate(): Promise<void> {
    const c = await this.pool.connect();
    try {
      await c.query('BEGIN');
      // One process at a time creates and migrates; the others wait, then find it done.
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`hoshi-migrate:${this.s}`]);
      await c.query(`CREATE SCHEMA IF NOT EXISTS ${this.s}`);
      await c.query(`CREATE TABLE IF NOT EXISTS ${this.s}.schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = await c.query<{ version: number }>(`SELECT version FROM ${this.s}.schema_migrations`);
      const have = new Set(done.rows.map((r) => r.version));
      for (let v = 1; v <= MIGRATIONS.length; v++) {
        if (have.has(v)) continue;
        await c.query((MIGRATIONS[v - 1] as (s: string) => string)(this.s));
        await c.query(`INSERT INTO ${this.s}.schema_migrations (version) VALUES ($1)`, [v]);
        this.opts.log?.('postgres.migrated', { schema: this.s, version: v });
      }
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<pg.QueryResult<R>> {
    try {
      return await this.pool.query<R>(text, values);
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    }
  }

  async nextPlayerId(): Promise<number> {
    const r = await this.query<{ id: number }>(`SELECT nextval('${this.s}.player_ids') AS id`);
    return (r.rows[0] as { id: number }).id;
  }

  async load(playerId: number): Promise<PlayerState | undefined> {
    const cached = this.cache.get(playerId);
    if (cached) {
      // Another process may have written it: reuse the cached state only at the row's current version.
      const v = await this.query<{ version: number }>(`SELECT version FROM ${this.s}.players WHERE player_id = $1`, [playerId]);
      if (v.rows[0]?.version === cached.version) { this.observer.cache?.(true); return cached; }
      this.cache.delete(playerId);
    }
    this.observer.cache?.(false);
    const r = await this.query<{ state: unknown }>(`SELECT state FROM ${this.s}.players WHERE player_id = $1`, [playerId]);
    const row = r.rows[0];
    if (!row) return undefined;
    const d = decodeState(row.state);
    if (d._tag === 'Left') throw new StorageError(`player ${playerId}'s stored state does not decode`);
    this.remember(d.right);
    return d.right;
  }

  async lookup(index: IndexName, key: string): Promise<number | undefined> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.player_keys WHERE index_name = $1 AND key = $2`, [index, key]);
    return r.rows[0]?.player_id;
  }

  async getSession(key: string): Promise<Session | undefined> {
    const r = await this.query<{ session: Session }>(`SELECT session FROM ${this.s}.sessions WHERE key = $1`, [key]);
    return r.rows[0]?.session;
  }

  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> {
    const r = await this.query<{ record: IdempotencyRecord }>(`SELECT record FROM ${this.s}.idempotency WHERE key = $1`, [key]);
    return r.rows[0]?.record;
  }

  async playerIds(): Promise<number[]> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.players ORDER BY player_id`);
    return r.rows.map((x) => x.player_id);
  }

  async recentlyActive(limit: number): Promise<number[]> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.players ORDER BY updated_at DESC, player_id DESC LIMIT $1`, [limit]);
    return r.rows.map((x) => x.player_id);
  }

  async readLog(filter?: Parameters<Storage['readLog']>[0]): Promise<StoredLogEntry[]> {
    const r = await this.query<{ seq: number; entry: StoredLogEntry }>(`SELECT seq, entry FROM ${this.s}.replay_log ORDER BY seq`);
    const entries = r.rows.map((x) => ({ ...x.entry, seq: x.seq }));
    // For now the filter is applied after the whole read (an indexed query replaces it).
    const players = filter?.players;
    return players === undefined ? entries : entries.filter((e) => e.playerIds.some((id) => players.includes(id)));
  }

  /** Keeps a copy of master data by its hash (once). */
  async saveMasterSnapshot(hash: string, files: unknown): Promise<void> {
    await this.query(`INSERT INTO ${this.s}.master_snapshots (hash, files) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`, [hash, JSON.stringify(files)]);
  }

  async readMasterSnapshot(hash: string): Promise<unknown> {
    const r = await this.query<{ files: unknown }>(`SELECT files FROM ${this.s}.master_snapshots WHERE hash = $1`, [hash]);
    return r.rows[0]?.files;
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

  private async commitOnce(commit: Commit): Promise<CommitResult> {
    // The log entry's hashes, of the states stored (the cached states they replaced are the hint).
    const entry = commit.log && entryOf(commit.log, commit.players.map((p) => p.state), commit.players.map((p) => this.cache.get(p.state.playerId)));
    const c = await this.pool.connect();
    const s = this.s;
    try {
      await c.query('BEGIN');
      const ids = [...new Set(commit.players.map((p) => p.state.playerId))].sort((a, b) => a - b);
      // Lock the rows in id order, so two commits over the same players never deadlock.
      const locked = ids.length === 0 ? [] : (await c.query<{ player_id: number; version: number }>(
        `SELECT player_id, version FROM ${s}.players WHERE player_id = ANY($1::bigint[]) ORDER BY player_id FOR UPDATE`, [ids])).rows;
      const have = new Map(locked.map((r) => [r.player_id, r.version]));
      for (const p of commit.players) {
        const v = have.get(p.state.playerId) ?? null;
        if (v !== p.expectedVersion) {
          await c.query('ROLLBACK');
          return { ok: false, conflict: 'version', detail: `player ${p.state.playerId} is at version ${v}, not ${p.expectedVersion}` };
        }
      }
      for (const p of commit.players) {
        if (p.expectedVersion === null) {
          const ins = await c.query(`INSERT INTO ${s}.players (player_id, version, state) VALUES ($1, $2, $3) ON CONFLICT (player_id) DO NOTHING`, [p.state.playerId, p.state.version, p.state]);
          if (ins.rowCount !== 1) {
            await c.query('ROLLBACK');
            return { ok: false, conflict: 'version', detail: `player ${p.state.playerId} already exists` };
          }
        } else {
          await c.query(`UPDATE ${s}.players SET version = $2, state = $3, updated_at = now() WHERE player_id = $1`, [p.state.playerId, p.state.version, p.state]);
        }
      }
      if (ids.length > 0) {
        await c.query(`DELETE FROM ${s}.player_keys WHERE player_id = ANY($1::bigint[])`, [ids]);
        const names: string[] = [];
        const keys: string[] = [];
        const owners: number[] = [];
        for (const p of commit.players) {
          const k = indexKeysOf(p.state);
          for (const n of INDEX_NAMES) for (const key of k[n]) { names.push(n); keys.push(key); owners.push(p.state.playerId); }
        }
        await c.query('SAVEPOINT keys');
        try {
          await c.query(`INSERT INTO ${s}.player_keys (index_name, key, player_id) SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[])`, [names, keys, owners]);
        } catch (e) {
          if ((e as { code?: string }).code === UNIQUE) {
            await c.query('ROLLBACK');
            return { ok: false, conflict: 'unique', detail: (e as Error).message };
          }
          throw e;
        }
      }
      for (const x of commit.sessions ?? []) {
        if (x.session === null) await c.query(`DELETE FROM ${s}.sessions WHERE key = $1`, [x.key]);
        else await c.query(`INSERT INTO ${s}.sessions (key, session) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET session = EXCLUDED.session`, [x.key, x.session]);
      }
      for (const x of commit.idempotency ?? []) {
        // Another process answered this key first: this commit loses, and the retry finds that answer.
        const r = await c.query(`INSERT INTO ${s}.idempotency (key, record, created_at) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING`, [x.key, JSON.stringify(x.record), x.record.createdAt]);
        if (r.rowCount !== 1) {
          await c.query('ROLLBACK');
          return { ok: false, conflict: 'unique', detail: `idempotency key ${x.key} is already answered` };
        }
      }
      if (entry) await c.query(`INSERT INTO ${s}.replay_log (entry) VALUES ($1)`, [entry]);
      await c.query('COMMIT');
      for (const p of commit.players) this.remember(p.state);
      return { ok: true };
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
  }

  async findByName(name: string, limit: number): Promise<number[]> {
    const r = await this.query<{ player_id: number }>(`SELECT player_id FROM ${this.s}.players WHERE state->>'name' = $1 ORDER BY player_id LIMIT $2`, [name, limit]);
    return r.rows.map((row) => Number(row.player_id));
  }

  stats(): StorageStats {
    return {
      playersInMemory: this.cache.size,
      pool: { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount, max: this.opts.poolSize ?? 10 },
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
    await this.pool.end();
  }

  /** Drops the schema and everything in it (tests). */
  static async dropSchema(connectionString: string, schema: string): Promise<void> {
    const c = new pg.Client({ connectionString });
    await c.connect();
    try { await c.query(`DROP SCHEMA IF EXISTS ${ident(schema)} CASCADE`); } finally { await c.end(); }
  }
}
