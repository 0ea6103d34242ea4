// The PostgreSQL schema: the versioned migrations (tables, indexes, and the SQL
// functions commit_v1..v5 and take_tokens), and how a store runs them at open.
import type pg from 'pg';
import { StorageError } from './storage.js';
import { COMMIT_V5 } from './postgres-commit-sql.js';

/** A schema name as written into SQL: a plain identifier, never quoted or escaped. */
export const ident = (s: string): string => {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(s)) throw new StorageError(`not a plain schema name: ${s}`);
  return s;
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
  // 6: the game data's versions (their files are master_snapshots') and the schedule of which
  // takes effect when; every process reads the schedule every MASTER_POLL_SECONDS.
  (s) => `
    CREATE TABLE ${s}.master_versions (
      hash text PRIMARY KEY,
      published_at bigint NOT NULL,
      by_whom text NOT NULL,
      note text NOT NULL
    );
    CREATE TABLE ${s}.master_schedule (
      id bigserial PRIMARY KEY,
      version text NOT NULL,
      at bigint NOT NULL,
      by_whom text NOT NULL,
      note text NOT NULL,
      created_at bigint NOT NULL,
      cancelled_at bigint
    );
  `,
  // 7: the operator's records (maintenance, notices, present sends …) by kind and id, and the
  // next id of each kind; every process reads them every MASTER_POLL_SECONDS.
  (s) => `
    CREATE TABLE ${s}.liveops_records (
      kind text NOT NULL,
      id bigint NOT NULL,
      body jsonb NOT NULL,
      PRIMARY KEY (kind, id)
    );
    CREATE TABLE ${s}.liveops_ids (
      kind text PRIMARY KEY,
      n bigint NOT NULL
    );
  `,
  // 8 (issue 32): a player's deletion. commit_v4 is commit_v3 followed by the deletion's
  // part: the deleted player's own kept answers (and any claim) dropped with the commit,
  // and its erasure noted for the purge (postgres-erase.ts: the replay log, the answers
  // that showed it, other rows that still name it), which the process that committed it
  // starts at once and every process's prune runs again while one is not done.
  (s) => `
    CREATE TABLE ${s}.erasures (
      player_id bigint PRIMARY KEY,
      erased_at bigint NOT NULL,
      scrub text[] NOT NULL,
      purged_at bigint
    );
    CREATE INDEX erasures_pending ON ${s}.erasures (player_id) WHERE purged_at IS NULL;
    CREATE FUNCTION ${s}.commit_v4(
      w_ids bigint[], w_expected bigint[], w_versions bigint[], w_states json, w_delta boolean[],
      r_ids bigint[], r_versions bigint[],
      k_replace bigint[], kd_names text[], kd_keys text[], ki_names text[], ki_keys text[], ki_owners bigint[],
      s_keys text[], s_values text[],
      i_keys text[], i_records json, i_created bigint[], i_stale_before bigint,
      l_entry text, l_players bigint[], i_per_scope integer,
      e_id bigint, e_at bigint, e_drop text[], e_scrub text[]
    ) RETURNS bigint LANGUAGE plpgsql AS $fn$
    DECLARE
      log_seq bigint;
    BEGIN
      log_seq := ${s}.commit_v3(w_ids, w_expected, w_versions, w_states, w_delta, r_ids, r_versions, k_replace, kd_names, kd_keys,
        ki_names, ki_keys, ki_owners, s_keys, s_values, i_keys, i_records, i_created, i_stale_before, l_entry, l_players, i_per_scope);
      IF e_id IS NOT NULL THEN
        INSERT INTO ${s}.erasures (player_id, erased_at, scrub) VALUES (e_id, e_at, e_scrub)
          ON CONFLICT (player_id) DO UPDATE SET erased_at = EXCLUDED.erased_at, scrub = EXCLUDED.scrub, purged_at = NULL;
        DELETE FROM ${s}.idempotency WHERE split_part(key, ':', 1) = ANY (e_drop);
        DELETE FROM ${s}.idempotency_claims WHERE split_part(key, ':', 1) = ANY (e_drop);
      END IF;
      RETURN log_seq;
    END
    $fn$;
  `,
  // 9 (issue 34): commit_v5, commit_v4's work in one flat function (postgres-commit-sql.ts).
  COMMIT_V5,
  // 10 (issue 34): a kept answer (a draw's is ~12 kB, past the TOAST threshold) compressed
  // with lz4 as the states are: pglz cost the floor's rows 1.7× lz4's CPU. Rows written
  // before keep theirs; each is read back whichever it has.
  (s) => `
    DO $do$ BEGIN
      EXECUTE 'ALTER TABLE ${s}.idempotency ALTER COLUMN record SET COMPRESSION lz4';
    EXCEPTION WHEN OTHERS THEN NULL;
    END $do$;
  `,
];

/** How many migrations the schema has when current. */
export const MIGRATION_COUNT = MIGRATIONS.length;

/** Creates the schema and runs the migrations it has not had, in one transaction (`s` is ident's). */
export const migrate = async (
  pool: pg.Pool,
  s: string,
  log?: (event: string, data: Record<string, unknown>) => void,
): Promise<void> => {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    // One process at a time creates and migrates; the others wait, then find it done.
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`hoshi-migrate:${s}`]);
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await c.query(
      `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const done = await c.query<{ version: number }>(`SELECT version FROM ${s}.schema_migrations`);
    const have = new Set(done.rows.map((r) => r.version));
    for (let v = 1; v <= MIGRATIONS.length; v++) {
      if (have.has(v)) continue;
      await c.query((MIGRATIONS[v - 1] as (s: string) => string)(s));
      await c.query(`INSERT INTO ${s}.schema_migrations (version) VALUES ($1)`, [v]);
      log?.('postgres.migrated', { schema: s, version: v });
    }
    await c.query('COMMIT');
  } catch (e) {
    // Stryker disable next-line StringLiteral: equivalent (open, migrate's one caller, ends the pool right after, which ends the failed transaction with its connection)
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
};
