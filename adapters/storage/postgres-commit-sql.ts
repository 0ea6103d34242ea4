// Migration 9 (issue 34): commit_v5, the commit as one flat function. commit_v4 called v3,
// which called v2, which called v1: four plpgsql calls a commit, each passing the 26
// arguments on, v2 running its per-scope query and v1 its checks even for parts the commit
// does not have. commit_v5 does the same work in one body (the same arguments, the same
// conflicts and the same rows written) and runs a part's statements only when the commit
// has that part: a draw runs the player's UPDATE, its delta's INSERT and the log's two
// INSERTs, nothing else. commit_v1..v4 stay for processes not yet upgraded.
export const COMMIT_V5 = (s: string): string => `
    CREATE FUNCTION ${s}.commit_v5(
      w_ids bigint[], w_expected bigint[], w_versions bigint[], w_states json, w_delta boolean[],
      r_ids bigint[], r_versions bigint[],
      k_replace bigint[], kd_names text[], kd_keys text[], ki_names text[], ki_keys text[], ki_owners bigint[],
      s_keys text[], s_values text[],
      i_keys text[], i_records json, i_created bigint[], i_stale_before bigint,
      l_entry text, l_players bigint[], i_per_scope integer,
      e_id bigint, e_at bigint, e_drop text[], e_scrub text[]
    ) RETURNS bigint LANGUAGE plpgsql AS $fn$
    DECLARE
      n bigint;
      log_seq bigint := 0;
      sc text;
      writes integer := coalesce(array_length(w_ids, 1), 0);
      st json[];
    BEGIN
      IF writes = 1 THEN
        st := ARRAY[w_states -> 0];
      ELSIF writes > 1 THEN
        -- Split once: w_states -> i would scan the array's text from its start for each state.
        st := ARRAY(SELECT json_array_elements(w_states));
      END IF;
      -- Rows in the order given (the caller sorts by id), so two commits never deadlock.
      FOR i IN 1 .. writes LOOP
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
        -- Each written scope keeps its newest i_per_scope answers (issue 36).
        FOR sc IN SELECT DISTINCT split_part(k, ':', 1) FROM unnest(i_keys) AS k LOOP
          DELETE FROM ${s}.idempotency WHERE key IN (
            SELECT key FROM ${s}.idempotency WHERE split_part(key, ':', 1) = sc ORDER BY created_at DESC, key DESC OFFSET i_per_scope);
        END LOOP;
      END IF;
      IF l_entry IS NOT NULL THEN
        INSERT INTO ${s}.replay_log (entry) VALUES (l_entry::json) RETURNING seq INTO log_seq;
        IF array_length(l_players, 1) = 1 THEN
          INSERT INTO ${s}.replay_log_players (player_id, seq) VALUES (l_players[1], log_seq);
        ELSE
          INSERT INTO ${s}.replay_log_players (player_id, seq) SELECT DISTINCT p, log_seq FROM unnest(l_players) AS p;
        END IF;
      END IF;
      IF e_id IS NOT NULL THEN
        INSERT INTO ${s}.erasures (player_id, erased_at, scrub) VALUES (e_id, e_at, e_scrub)
          ON CONFLICT (player_id) DO UPDATE SET erased_at = EXCLUDED.erased_at, scrub = EXCLUDED.scrub, purged_at = NULL;
        DELETE FROM ${s}.idempotency WHERE split_part(key, ':', 1) = ANY (e_drop);
        DELETE FROM ${s}.idempotency_claims WHERE split_part(key, ':', 1) = ANY (e_drop);
      END IF;
      RETURN log_seq;
    END
    $fn$;
  `;
