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
import pg from 'pg';
import * as t from 'io-ts';
import { decodeState, DrawRecord, indexKeysOf, INDEX_NAMES, type IndexName, type PlayerState } from '../../core/state.js';
import { entryOf, type StoredLogEntry } from './replay-log.js';
import { applyDelta, deltaJson, journaled } from './journal.js';
import { KEPT_PER_SCOPE } from './kept-answers.js';
import { PlayerCache } from './player-cache.js';
import { decodeStored, IdempotencyRecordCodec, SessionCodec, StorageError, type Commit, type CommitResult, type IdempotencyClaim, type IdempotencyRecord, type LogFilter, type Session, type Storage, type StorageObserver, type StorageStats } from './storage.js';

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

/** The tables whose rows writes replace or delete (VACUUM reclaims their dead versions). */
const CHURNING = ['players', 'player_deltas', 'idempotency', 'idempotency_claims', 'sessions', 'rate_buckets', 'player_keys', 'replay_log', 'replay_log_players'];

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
  // Issue 17: one round trip a commit (commit_v1), json state, the replay log by player,
  // Idempotency-Key claims and rate-limit buckets shared by every process.
  (s) => `
    ALTER TABLE ${s}.players ALTER COLUMN state TYPE json USING state::json;
    -- lz4 compresses a state's TOAST for about two thirds of pglz's CPU (the bench's floor rows);
    -- a server built without lz4 (or before PostgreSQL 14) keeps its default.
    DO $do$ BEGIN
      EXECUTE 'ALTER TABLE ${s}.players ALTER COLUMN state SET COMPRESSION lz4';
    EXCEPTION WHEN OTHERS THEN NULL;
    END $do$;
    ALTER TABLE ${s}.replay_log ALTER COLUMN entry TYPE json USING entry::json;
    CREATE TABLE ${s}.replay_log_players (
      player_id bigint NOT NULL,
      seq bigint NOT NULL,
      PRIMARY KEY (player_id, seq)
    );
    INSERT INTO ${s}.replay_log_players (player_id, seq)
      SELECT DISTINCT (p.id)::bigint, l.seq FROM ${s}.replay_log l, json_array_elements_text(l.entry->'playerIds') AS p(id);
    CREATE TABLE ${s}.idempotency_claims (
      key text PRIMARY KEY,
      claimed_at bigint NOT NULL
    );
    CREATE TABLE ${s}.rate_buckets (
      key text PRIMARY KEY,
      tokens double precision NOT NULL,
      at bigint NOT NULL
    );
    CREATE INDEX rate_buckets_at ON ${s}.rate_buckets (at);

    -- A commit: every change or none. Conflicts raise SQLSTATE HK001 (a version) or HK002
    -- (a unique key), which roll the statement back; the caller retries on fresh states.
    CREATE FUNCTION ${s}.commit_v1(
      w_ids bigint[], w_expected bigint[], w_versions bigint[], w_states json,
      r_ids bigint[], r_versions bigint[],
      k_replace bigint[], kd_names text[], kd_keys text[], ki_names text[], ki_keys text[], ki_owners bigint[],
      s_keys text[], s_values text[],
      i_keys text[], i_records json, i_created bigint[], i_stale_before bigint,
      l_entry text, l_players bigint[]
    ) RETURNS bigint LANGUAGE plpgsql AS $fn$
    DECLARE
      n bigint;
      log_seq bigint := 0;
      -- Split once: w_states -> i would scan the array's text from its start for each state.
      st json[] := CASE WHEN w_states IS NULL THEN '{}'::json[] ELSE ARRAY(SELECT json_array_elements(w_states)) END;
    BEGIN
      -- Rows in the order given (the caller sorts by id), so two commits never deadlock.
      FOR i IN 1 .. coalesce(array_length(w_ids, 1), 0) LOOP
        IF w_expected[i] IS NULL THEN
          INSERT INTO ${s}.players (player_id, version, state) VALUES (w_ids[i], w_versions[i], st[i])
            ON CONFLICT (player_id) DO NOTHING;
          GET DIAGNOSTICS n = ROW_COUNT;
          IF n = 0 THEN RAISE EXCEPTION 'player % already exists', w_ids[i] USING ERRCODE = 'HK001'; END IF;
        ELSE
          UPDATE ${s}.players SET version = w_versions[i], state = st[i], updated_at = now()
            WHERE player_id = w_ids[i] AND version = w_expected[i];
          GET DIAGNOSTICS n = ROW_COUNT;
          IF n = 0 THEN RAISE EXCEPTION 'player % is no longer at version %', w_ids[i], w_expected[i] USING ERRCODE = 'HK001'; END IF;
        END IF;
      END LOOP;
      IF coalesce(array_length(r_ids, 1), 0) > 0 THEN
        SELECT count(*) INTO n FROM unnest(r_ids, r_versions) AS r(id, v) JOIN ${s}.players p ON p.player_id = r.id AND p.version = r.v;
        IF n <> array_length(r_ids, 1) THEN RAISE EXCEPTION 'a player read is no longer at the version read' USING ERRCODE = 'HK001'; END IF;
      END IF;
      IF coalesce(array_length(k_replace, 1), 0) > 0 THEN
        DELETE FROM ${s}.player_keys WHERE player_id = ANY (k_replace);
      END IF;
      IF coalesce(array_length(kd_names, 1), 0) > 0 THEN
        DELETE FROM ${s}.player_keys k USING unnest(kd_names, kd_keys) AS d(name, key) WHERE k.index_name = d.name AND k.key = d.key;
      END IF;
      IF coalesce(array_length(ki_names, 1), 0) > 0 THEN
        INSERT INTO ${s}.player_keys (index_name, key, player_id) SELECT * FROM unnest(ki_names, ki_keys, ki_owners) ON CONFLICT DO NOTHING;
        GET DIAGNOSTICS n = ROW_COUNT;
        IF n <> array_length(ki_names, 1) THEN RAISE EXCEPTION 'a key belongs to another player' USING ERRCODE = 'HK002'; END IF;
      END IF;
      IF coalesce(array_length(s_keys, 1), 0) > 0 THEN
        DELETE FROM ${s}.sessions x USING unnest(s_keys, s_values) AS d(key, value) WHERE d.value IS NULL AND x.key = d.key;
        INSERT INTO ${s}.sessions (key, session) SELECT d.key, d.value::jsonb FROM unnest(s_keys, s_values) AS d(key, value) WHERE d.value IS NOT NULL
          ON CONFLICT (key) DO UPDATE SET session = EXCLUDED.session;
      END IF;
      IF coalesce(array_length(i_keys, 1), 0) > 0 THEN
        -- A record kept past its time is replaced; a live one means another process answered the key first.
        INSERT INTO ${s}.idempotency AS x (key, record, created_at) SELECT d.key, i_records -> (d.ord::int - 1), d.created FROM unnest(i_keys, i_created) WITH ORDINALITY AS d(key, created, ord)
          ON CONFLICT (key) DO UPDATE SET record = EXCLUDED.record, created_at = EXCLUDED.created_at WHERE x.created_at < i_stale_before;
        GET DIAGNOSTICS n = ROW_COUNT;
        IF n <> array_length(i_keys, 1) THEN RAISE EXCEPTION 'the idempotency key is already answered' USING ERRCODE = 'HK002'; END IF;
        DELETE FROM ${s}.idempotency_claims WHERE key = ANY (i_keys);
      END IF;
      IF l_entry IS NOT NULL THEN
        INSERT INTO ${s}.replay_log (entry) VALUES (l_entry::json) RETURNING seq INTO log_seq;
        INSERT INTO ${s}.replay_log_players (player_id, seq) SELECT DISTINCT p, log_seq FROM unnest(l_players) AS p;
      END IF;
      RETURN log_seq;
    END
    $fn$;

    -- A token bucket shared by every process: takes up to want tokens, returns what it got and the tokens left.
    CREATE FUNCTION ${s}.take_tokens(b_key text, b_rate double precision, b_burst double precision, want integer, at_ms bigint, OUT granted integer, OUT left_tokens double precision)
    LANGUAGE plpgsql AS $fn$
    DECLARE
      have double precision;
    BEGIN
      INSERT INTO ${s}.rate_buckets AS b (key, tokens, at) VALUES (b_key, b_burst, at_ms) ON CONFLICT (key) DO NOTHING;
      SELECT least(b_burst, b.tokens + greatest(0, at_ms - b.at) / 1000.0 * b_rate) INTO have FROM ${s}.rate_buckets b WHERE b.key = b_key FOR UPDATE;
      granted := least(want, floor(have))::integer;
      left_tokens := have - granted;
      IF want > 0 THEN
        UPDATE ${s}.rate_buckets SET tokens = left_tokens, at = greatest(at, at_ms) WHERE key = b_key;
      END IF;
    END
    $fn$;
  `,
  // A player's sessions, for the operator's console (sessionsOf).
  (s) => `CREATE INDEX sessions_player ON ${s}.sessions (((session->>'playerId')::bigint));`,
  // Issue 36: the answers kept per caller (the scope, the key's part before ':') are bounded:
  // commit_v2 is commit_v1 followed by dropping each written scope's answers past its newest
  // i_per_scope (an index walk of that many rows a scope), so the table follows the callers
  // in use, not every key sent in a day. commit_v1 stays for processes not yet upgraded.
  (s) => `
    CREATE INDEX idempotency_scope ON ${s}.idempotency ((split_part(key, ':', 1)), created_at DESC, key DESC);
    CREATE FUNCTION ${s}.commit_v2(
      w_ids bigint[], w_expected bigint[], w_versions bigint[], w_states json,
      r_ids bigint[], r_versions bigint[],
      k_replace bigint[], kd_names text[], kd_keys text[], ki_names text[], ki_keys text[], ki_owners bigint[],
      s_keys text[], s_values text[],
      i_keys text[], i_records json, i_created bigint[], i_stale_before bigint,
      l_entry text, l_players bigint[], i_per_scope integer
    ) RETURNS bigint LANGUAGE plpgsql AS $fn$
    DECLARE
      log_seq bigint;
      sc text;
    BEGIN
      log_seq := ${s}.commit_v1(w_ids, w_expected, w_versions, w_states, r_ids, r_versions, k_replace, kd_names, kd_keys, ki_names, ki_keys, ki_owners,
        s_keys, s_values, i_keys, i_records, i_created, i_stale_before, l_entry, l_players);
      FOR sc IN SELECT DISTINCT split_part(k, ':', 1) FROM unnest(i_keys) AS k LOOP
        DELETE FROM ${s}.idempotency WHERE key IN (
          SELECT key FROM ${s}.idempotency WHERE split_part(key, ':', 1) = sc ORDER BY created_at DESC, key DESC OFFSET i_per_scope);
      END LOOP;
      RETURN log_seq;
    END
    $fn$;
  `,
  // Issue 36 (and 34): a write stores what it changed. A player's row keeps a base state and,
  // while base_version is not null, the deltas since it (the journal's delta records: changed
  // fields, lists as edits) in player_deltas; a load applies them in order. commit_v3 writes,
  // player by player in id order, a delta row (the row's version moves on, its state stays) or
  // a whole state (a new player, or a fold: base_version cleared, the deltas deleted), then
  // commit_v2 with no players does the rest. A process before this migration reads the base
  // alone: every process is to be upgraded together (docs/scaling.md); a whole state one
  // writes meanwhile leaves older deltas behind, which a load skips by their version.
  (s) => `
    ALTER TABLE ${s}.players ADD COLUMN base_version bigint;
    CREATE TABLE ${s}.player_deltas (
      player_id bigint NOT NULL,
      version bigint NOT NULL,
      delta json NOT NULL,
      PRIMARY KEY (player_id, version)
    );
    DO $do$ BEGIN
      EXECUTE 'ALTER TABLE ${s}.player_deltas ALTER COLUMN delta SET COMPRESSION lz4';
    EXCEPTION WHEN OTHERS THEN NULL;
    END $do$;
    CREATE FUNCTION ${s}.commit_v3(
      w_ids bigint[], w_expected bigint[], w_versions bigint[], w_states json, w_delta boolean[],
      r_ids bigint[], r_versions bigint[],
      k_replace bigint[], kd_names text[], kd_keys text[], ki_names text[], ki_keys text[], ki_owners bigint[],
      s_keys text[], s_values text[],
      i_keys text[], i_records json, i_created bigint[], i_stale_before bigint,
      l_entry text, l_players bigint[], i_per_scope integer
    ) RETURNS bigint LANGUAGE plpgsql AS $fn$
    DECLARE
      n bigint;
      st json[] := CASE WHEN w_states IS NULL THEN '{}'::json[] ELSE ARRAY(SELECT json_array_elements(w_states)) END;
    BEGIN
      -- Rows in the order given (the caller sorts by id), so two commits never deadlock.
      FOR i IN 1 .. coalesce(array_length(w_ids, 1), 0) LOOP
        IF w_expected[i] IS NULL THEN
          INSERT INTO ${s}.players (player_id, version, state) VALUES (w_ids[i], w_versions[i], st[i])
            ON CONFLICT (player_id) DO NOTHING;
          GET DIAGNOSTICS n = ROW_COUNT;
          IF n = 0 THEN RAISE EXCEPTION 'player % already exists', w_ids[i] USING ERRCODE = 'HK001'; END IF;
        ELSIF w_delta[i] THEN
          UPDATE ${s}.players SET version = w_versions[i], base_version = coalesce(base_version, w_expected[i]), updated_at = now()
            WHERE player_id = w_ids[i] AND version = w_expected[i];
          GET DIAGNOSTICS n = ROW_COUNT;
          IF n = 0 THEN RAISE EXCEPTION 'player % is no longer at version %', w_ids[i], w_expected[i] USING ERRCODE = 'HK001'; END IF;
          INSERT INTO ${s}.player_deltas (player_id, version, delta) VALUES (w_ids[i], w_versions[i], st[i]);
        ELSE
          UPDATE ${s}.players SET version = w_versions[i], state = st[i], base_version = NULL, updated_at = now()
            WHERE player_id = w_ids[i] AND version = w_expected[i];
          GET DIAGNOSTICS n = ROW_COUNT;
          IF n = 0 THEN RAISE EXCEPTION 'player % is no longer at version %', w_ids[i], w_expected[i] USING ERRCODE = 'HK001'; END IF;
          DELETE FROM ${s}.player_deltas WHERE player_id = w_ids[i];
        END IF;
      END LOOP;
      RETURN ${s}.commit_v2('{}', '{}', '{}', NULL, r_ids, r_versions, k_replace, kd_names, kd_keys, ki_names, ki_keys, ki_owners,
        s_keys, s_values, i_keys, i_records, i_created, i_stale_before, l_entry, l_players, i_per_scope);
    END
    $fn$;
  `,
];

/** A player's draw history as the state holds it (drawHistories reads it alone). */
const HISTORY = t.readonlyArray(DrawRecord);

/** Players read a query by drawHistories. */
const HISTORY_PAGE = 500;

/** A delta row as commit_v3 stores it (journal.ts deltaJson); applyDelta decodes each field with the state's codecs. */
const DeltaRow = t.intersection([
  t.type({ playerId: t.number, base: t.number, set: t.UnknownRecord }),
  t.partial({ edits: t.record(t.string, t.array(t.unknown)) }),
], 'DeltaRow');

/**
 * What a state's row holds beyond its base: the deltas written since (count and
 * bytes) and the base's bytes. A commit folds (writes the state whole) once the
 * deltas' bytes reach the base's, so a write costs at most about twice what it
 * changed, amortised, and a load reads at most about twice the state; or past
 * FOLD_AFTER deltas, which bounds the work of a load.
 */
interface Chain { readonly deltas: number; readonly bytes: number; readonly baseBytes: number }
const FOLD_AFTER = 1000;
const folds = (c: Chain): boolean => c.deltas + 1 >= FOLD_AFTER || c.bytes >= c.baseBytes;

/** How many migrations the schema has when current. */
export const MIGRATION_COUNT = MIGRATIONS.length;

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const VERSION_CONFLICT = 'HK001';
const UNIQUE_CONFLICT = 'HK002';
/** A claim older than this belongs to a request that died with its process: taken over. */
const CLAIM_STALE_MS = 60_000;
const ident = (s: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(s)) throw new StorageError(`not a plain schema name: ${s}`);
  return s;
};

/** The index keys one commit deletes and inserts (only those that changed, where the state before is known). */
interface KeyChanges {
  readonly replace: number[];
  readonly delNames: string[]; readonly delKeys: string[];
  readonly insNames: string[]; readonly insKeys: string[]; readonly insOwners: number[];
}

const keyChanges = (players: ReadonlyArray<{ state: PlayerState; before: PlayerState | undefined; isNew: boolean }>): KeyChanges => {
  const c: KeyChanges = { replace: [], delNames: [], delKeys: [], insNames: [], insKeys: [], insOwners: [] };
  for (const { state, before, isNew } of players) {
    const now = indexKeysOf(state);
    const was = before ? indexKeysOf(before) : undefined;
    // A player whose state before is not known here: its keys are replaced whole.
    if (before === undefined && !isNew) c.replace.push(state.playerId);
    for (const n of INDEX_NAMES) {
      // Stryker disable next-line ArrayDeclaration: equivalent (a list of one made-up key only deletes that key where the state before is unknown, and no key has Stryker's text: uuids are UUIDs, my and move codes are generated)
      const had = new Set(was?.[n] ?? []);
      const has = new Set(now[n]);
      for (const k of had) if (!has.has(k)) { c.delNames.push(n); c.delKeys.push(k); }
      for (const k of has) if (!had.has(k)) { c.insNames.push(n); c.insKeys.push(k); c.insOwners.push(state.playerId); }
    }
  }
  return c;
};

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
  private readonly sql: Record<'commit' | 'load' | 'verify' | 'session' | 'claim' | 'take', string>;
  private constructor(private readonly pool: pg.Pool, private readonly s: string, private readonly opts: PostgresOptions) {
    this.cache = new PlayerCache(opts.cacheSize ?? 10_000, opts.cacheIdleMs ?? 0, Date.now);
    this.sql = {
      commit: `SELECT ${s}.commit_v3($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22) AS seq`,
      // The base as text (its length is the fold's measure) and the deltas since it, in order.
      load: `SELECT p.state::text AS state, CASE WHEN p.base_version IS NULL THEN NULL ELSE
        (SELECT json_agg(d.delta ORDER BY d.version)::text FROM ${s}.player_deltas d WHERE d.player_id = p.player_id) END AS deltas
        FROM ${s}.players p WHERE p.player_id = $1`,
      verify: `SELECT count(*)::int AS n FROM unnest($1::bigint[], $2::bigint[]) AS r(id, v) JOIN ${s}.players p ON p.player_id = r.id AND p.version = r.v`,
      session: `SELECT session FROM ${s}.sessions WHERE key = $1`,
      // The kept answer and the claim in one step: no claim while a live answer is kept, nor while
      // another request's claim is fresh.
      claim: `WITH prior AS (SELECT record, created_at FROM ${s}.idempotency WHERE key = $1),
        claim AS (
          INSERT INTO ${s}.idempotency_claims AS c (key, claimed_at) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM prior WHERE created_at >= $4)
          ON CONFLICT (key) DO UPDATE SET claimed_at = EXCLUDED.claimed_at WHERE c.claimed_at < $3
          RETURNING 1)
        SELECT (SELECT record FROM prior) AS record, EXISTS (SELECT 1 FROM claim) AS claimed`,
      take: `SELECT granted, left_tokens FROM ${s}.take_tokens($1, $2, $3, $4, $5)`,
    };
  }

  private remember(s: PlayerState): void { this.cache.set(s.playerId, s); }

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
      // Stryker disable next-line StringLiteral: equivalent (open, migrate's one caller, ends the pool right after, which ends the failed transaction with its connection)
      await c.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      c.release();
    }
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
    let base: unknown;
    try { base = JSON.parse(row.state); } catch { throw new StorageError(`player ${playerId}'s stored state does not decode`); }
    const d = decodeState(base);
    if (d._tag === 'Left') throw new StorageError(`player ${playerId}'s stored state does not decode`);
    let state = d.right;
    let deltas = 0;
    if (row.deltas !== null) {
      let parsed: unknown;
      try { parsed = JSON.parse(row.deltas); } catch { throw new StorageError(`player ${playerId}'s deltas do not decode`); }
      const list = decodeStored(t.array(DeltaRow), parsed, `player ${playerId}'s deltas`);
      for (const x of list) {
        // A whole state written by a process before migration 5 leaves older deltas behind.
        if (x.base < state.version) continue;
        if (x.base !== state.version || x.playerId !== playerId) throw new StorageError(`player ${playerId}'s delta is from version ${x.base}, the state is at ${state.version}`);
        state = applyDelta(state, x, `player ${playerId}'s delta row`);
        deltas++;
      }
    }
    this.chains.set(state, { deltas, bytes: row.deltas === null ? 0 : row.deltas.length, baseBytes: row.state.length });
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

  async readLog(filter: LogFilter = {}): Promise<StoredLogEntry[]> {
    const r = filter.players === undefined
      ? await this.query<{ seq: number; entry: StoredLogEntry }>(`SELECT seq, entry FROM ${this.s}.replay_log ORDER BY seq`)
      // Through the per-player index: only the entries that changed one of these players.
      : await this.query<{ seq: number; entry: StoredLogEntry }>(
        `SELECT l.seq, l.entry FROM ${this.s}.replay_log l WHERE l.seq IN (SELECT seq FROM ${this.s}.replay_log_players WHERE player_id = ANY ($1::bigint[])) ORDER BY l.seq`,
        [[...filter.players]]);
    return r.rows.map((x) => ({ ...x.entry, seq: x.seq }));
  }

  /**
   * Deletes the replay log's entries older than `olderThan` (their `at`), and their
   * rows of replay_log_players: those before the first entry at or after it, so the
   * kept log stays one run of seqs. In batches of `batch` entries, one statement to
   * find where to stop among the oldest and one to delete, each bounded, never one
   * statement over millions of rows; at most `maxBatches` a call (the server's prune
   * comes every ten minutes: a backlog goes in several). Logs replay_log.pruned.
   * Returns the entries deleted. The archive on PostgreSQL is the operator's backups.
   */
  async pruneReplayLog(olderThan: number, { batch = 10_000, maxBatches = 100 }: { readonly batch?: number; readonly maxBatches?: number } = {}): Promise<number> {
    let deleted = 0;
    let below = 0;
    for (let i = 0; i < maxBatches; i++) {
      const head = (await this.query<{ bound: number | null; last: number | null }>(
        `SELECT min(seq) FILTER (WHERE at >= $1) AS bound, max(seq) AS last
           FROM (SELECT seq, (entry->>'at')::float8 AS at FROM ${this.s}.replay_log ORDER BY seq LIMIT $2) h`, [olderThan, batch])).rows[0];
      // No entry left; or the first entry at or after the cutoff is the batch's first: nothing more to delete.
      if (head === undefined || head.last === null) break;
      const upTo = head.bound ?? head.last + 1;
      const r = await this.query<{ n: number }>(
        `WITH gone AS (DELETE FROM ${this.s}.replay_log WHERE seq < $1 RETURNING seq, entry),
           players AS (DELETE FROM ${this.s}.replay_log_players p
             USING (SELECT g.seq, (x.id)::bigint AS player_id FROM gone g, json_array_elements_text(g.entry->'playerIds') AS x(id)) d
             WHERE p.player_id = d.player_id AND p.seq = d.seq)
         SELECT count(*)::int AS n FROM gone`, [upTo]);
      deleted += r.rows[0]?.n ?? 0;
      below = upTo;
      if (head.bound !== null) break;
    }
    // `below`: every entry before this seq is gone.
    if (deleted > 0) this.opts.log?.('replay_log.pruned', { deleted, olderThan, below });
    return deleted;
  }

  /** The first seq the replay log keeps (undefined: it keeps none). */
  async replayLogStart(): Promise<number | undefined> {
    const r = await this.query<{ seq: number | null }>(`SELECT min(seq) AS seq FROM ${this.s}.replay_log`);
    return r.rows[0]?.seq ?? undefined;
  }

  /** The replay log's bytes on disk: replay_log and replay_log_players, with their indexes and TOAST. Not counted in roundTrips (stats asks it). */
  async replayLogSize(): Promise<number> {
    try {
      const r = await this.pool.query<{ bytes: number }>(
        'SELECT pg_total_relation_size(to_regclass($1)) + pg_total_relation_size(to_regclass($2)) AS bytes', [`${this.s}.replay_log`, `${this.s}.replay_log_players`]);
      return r.rows[0]?.bytes ?? 0;
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    }
  }

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

  /**
   * VACUUM of the tables writes churn (CHURNING), by one process at a time (an advisory
   * lock; another process holding it: none run, `ran` false). What autovacuum would do:
   * without it, every answer kept and trimmed, every delta folded and every row version
   * replaced stays on disk, and the tables and their indexes grow without bound.
   */
  async vacuum(): Promise<{ ran: boolean; ms: number }> {
    const started = Date.now();
    const c = await this.pool.connect();
    try {
      this.roundTrips++;
      const lock = await c.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [`hoshi-vacuum:${this.s}`]);
      if (lock.rows[0]?.got !== true) return { ran: false, ms: Date.now() - started };
      try {
        // VACUUM takes as long as the tables need: not the pool's statement timeout.
        await c.query('SET statement_timeout = 0');
        await c.query(`VACUUM ${CHURNING.map((t) => `${this.s}.${t}`).join(', ')}`);
      } finally {
        await c.query('RESET statement_timeout');
        await c.query('SELECT pg_advisory_unlock(hashtext($1))', [`hoshi-vacuum:${this.s}`]);
      }
      this.roundTrips += 4;
      return { ran: true, ms: Date.now() - started };
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    } finally {
      c.release();
    }
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

  /**
   * What a commit writes of a state: the fields it changed since `before` (a delta row)
   * when this process knows the state's row holds `before` and the deltas do not yet
   * call for a fold; otherwise the state whole.
   */
  private rowOf(state: PlayerState, before: PlayerState | undefined): { json: string; delta: boolean; chain: Chain } {
    const chain = before === undefined ? undefined : this.chains.get(before);
    if (before !== undefined && chain !== undefined && !folds(chain)) {
      const j = journaled(state, before);
      if (j.kind === 'delta') {
        const json = deltaJson(state, before, j.fields);
        return { json, delta: true, chain: { deltas: chain.deltas + 1, bytes: chain.bytes + json.length, baseBytes: chain.baseBytes } };
      }
    }
    const json = JSON.stringify(state);
    return { json, delta: false, chain: { deltas: 0, bytes: 0, baseBytes: json.length } };
  }

  async findByName(name: string, limit: number): Promise<number[]> {
    // A name changed since a row's base is in one of its deltas: those rows are candidates too,
    // and every row with deltas is read whole to see the name it has now.
    const r = await this.query<{ player_id: number; has_deltas: boolean }>(
      `SELECT p.player_id, p.base_version IS NOT NULL AS has_deltas FROM ${this.s}.players p
        WHERE p.state->>'name' = $1 OR (p.base_version IS NOT NULL AND EXISTS (SELECT 1 FROM ${this.s}.player_deltas d WHERE d.player_id = p.player_id AND d.delta->'set'->>'name' = $1))
        ORDER BY p.player_id`, [name]);
    const out: number[] = [];
    for (const row of r.rows) {
      if (out.length >= limit) break;
      if (!row.has_deltas || (await this.readRow(Number(row.player_id)))?.name === name) out.push(Number(row.player_id));
    }
    return out;
  }

  /** In pages of players by id, the history alone selected (a row with deltas read whole): memory bounded by a page, whatever the players. */
  async drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number> {
    let after = 0;
    let players = 0;
    for (;;) {
      const r = await this.query<{ player_id: number; h: unknown; has_deltas: boolean }>(
        `SELECT player_id, CASE WHEN base_version IS NULL THEN state->'gachaHistory' END AS h, base_version IS NOT NULL AS has_deltas
          FROM ${this.s}.players WHERE player_id > $1 ORDER BY player_id LIMIT ${HISTORY_PAGE}`, [after]);
      for (const row of r.rows) {
        if (row.has_deltas) visit((await this.readRow(Number(row.player_id)))?.gachaHistory ?? []);
        else visit(row.h === null ? [] : decodeStored(HISTORY, row.h, `player ${row.player_id}'s draw history`));
      }
      players += r.rows.length;
      const last = r.rows[r.rows.length - 1];
      if (!last || r.rows.length < HISTORY_PAGE) return players;
      after = last.player_id;
    }
  }

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
