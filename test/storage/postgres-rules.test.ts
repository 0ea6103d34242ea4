// The PostgreSQL store's own rules, each at its edge (issue 23's mutation pass over
// adapters/storage/postgres.ts): a commit's retries and the failures it does not
// retry, the states before it writes over (its key changes start from them), the
// players it only read, its rows' order, the idempotency records' kept time; the
// state and session caches' bounds and the session cache's time; verify's round
// trips; the statements prepared, the statement timeout and the pool's bound; the
// migrations (logged, rolled back, locked per schema); the shared rate buckets' wait;
// the draw histories read in pages; master snapshots; the readiness check; close and
// dropSchema. Failures and probes are planted in a test's own schema (a trigger, a
// sequence moved on); each test drops its schema.
import test from 'ava';
import pg from 'pg';
import { MIGRATION_COUNT, PostgresStorage } from '../../adapters/storage/postgres.js';
import { StorageError, type IdempotencyRecord } from '../../adapters/storage/storage.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import { freshPlayer } from '../_support/core.js';
import { freshSchema, openStore, sql, TEST_DATABASE_URL } from '../_support/pg.js';
import type { PlayerState } from '../../core/state.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, patch: Partial<PlayerState>): PlayerState => ({ ...s, ...patch, version: s.version + 1 });

/**
 * A trigger on the schema's players that fails the first `n` writes with SQLSTATE `code`;
 * `attempts()` counts the writes tried (a sequence: it counts on through rollbacks).
 */
const plantFailures = async (schema: string, n: number, code: string) => {
  await sql(`
    CREATE SEQUENCE ${schema}.tries;
    CREATE FUNCTION ${schema}.fail_first() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('${schema}.tries') <= ${n} THEN RAISE EXCEPTION 'planted failure' USING ERRCODE = '${code}'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER fail_first BEFORE INSERT OR UPDATE ON ${schema}.players FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_first();`);
  return {
    attempts: async () =>
      Number(
        (await sql<{ n: string }>(`SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS n FROM ${schema}.tries`))[0]
          ?.n,
      ),
  };
};

test('a serialization failure is retried: with retries 3, two failures and the third attempt lands', async (t) => {
  const { storage, schema } = await openStore(t, { retries: 3 });
  const planted = await plantFailures(schema, 2, '40001');
  t.deepEqual(await storage.commit({ players: [{ state: player(1), expectedVersion: null }] }), { ok: true });
  t.is(await planted.attempts(), 3);
  t.is((await storage.load(1))?.version, 0);
});

test('a deadlock is retried too, but `retries` attempts in all: the last failure is a StorageError naming it, and nothing is kept', async (t) => {
  const { storage, schema } = await openStore(t, { retries: 3 });
  const planted = await plantFailures(schema, 3, '40P01');
  const e = await t.throwsAsync(storage.commit({ players: [{ state: player(1), expectedVersion: null }] }), {
    instanceOf: StorageError,
  });
  t.is(e?.message, 'PostgreSQL commit failed: planted failure');
  t.is((e?.cause as { code?: string } | undefined)?.code, '40P01', "the database's error is its cause");
  t.is(await planted.attempts(), 3, 'no fourth attempt (it would have landed)');
  t.deepEqual(await storage.playerIds(), []);
});

test('without `retries`, a commit is tried five times', async (t) => {
  const { storage, schema } = await openStore(t);
  const planted = await plantFailures(schema, 4, '40001');
  t.deepEqual(await storage.commit({ players: [{ state: player(1), expectedVersion: null }] }), { ok: true });
  t.is(await planted.attempts(), 5);
});

test('any other failure of a commit is neither retried nor a conflict: a StorageError after one attempt', async (t) => {
  const { storage, schema } = await openStore(t, { retries: 3 });
  const planted = await plantFailures(schema, 1, '22012');
  const e = await t.throwsAsync(storage.commit({ players: [{ state: player(1), expectedVersion: null }] }), {
    instanceOf: StorageError,
  });
  t.is(e?.message, 'PostgreSQL commit failed: planted failure');
  t.is(await planted.attempts(), 1);
  t.deepEqual(await storage.playerIds(), []);
  t.deepEqual(
    await storage.commit({ players: [{ state: player(1), expectedVersion: null }] }),
    { ok: true },
    'the store works on',
  );
});

test('an int8 beyond 2^53 is refused by name, not rounded: a log seq past it fails the commit with that StorageError itself', async (t) => {
  const { storage, schema } = await openStore(t);
  await sql(`SELECT setval('${schema}.replay_log_seq_seq', 9007199254740993)`);
  const run: LogRun = {
    kind: 'op',
    at: 0,
    masterHash: 'm',
    op: 'loginPlayer',
    playerId: 1,
    request: {},
    seed: '',
    others: [],
  };
  const e = await t.throwsAsync(storage.commit({ players: [{ state: player(1), expectedVersion: null }], log: run }), {
    instanceOf: StorageError,
  });
  t.is(e?.message, 'int8 9007199254740994 is beyond 2^53', 'not wrapped again');
});

test('a commit writes its players in id order whatever order it names them in (two commits never lock rows in opposite orders)', async (t) => {
  const { storage, schema } = await openStore(t);
  t.true(
    (await storage.commit({ players: [3, 1, 4, 2].map((id) => ({ state: player(id), expectedVersion: null })) })).ok,
  );
  const rows = await sql<{ player_id: string }>(`SELECT player_id FROM ${schema}.players ORDER BY ctid`);
  t.deepEqual(
    rows.map((r) => Number(r.player_id)),
    [1, 2, 3, 4],
    'inserted in id order',
  );
});

test("a state cached at another version than the one written over is not the state before: the player's keys are replaced whole", async (t) => {
  const schema = freshSchema();
  const { storage: x } = await openStore(t, {}, schema);
  const y = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
  t.teardown(() => y.close());
  const p = player(1);
  t.true((await x.commit({ players: [{ state: p, expectedVersion: null }] })).ok); // x holds version 0
  const v1 = bump((await y.load(1))!, { myCode: 'CODEFROMY1' });
  t.true((await y.commit({ players: [{ state: v1, expectedVersion: 0 }] })).ok);
  // x writes over version 1, which it never held: its version 0 must not be taken for the state before.
  t.true((await x.commit({ players: [{ state: bump(v1, { myCode: 'CODEFROMX2' }), expectedVersion: 1 }] })).ok);
  t.deepEqual(
    [
      await x.lookup('myCode', p.myCode),
      await x.lookup('myCode', 'CODEFROMY1'),
      await x.lookup('myCode', 'CODEFROMX2'),
      await x.lookup('uuid', p.account.uuid),
    ],
    [undefined, undefined, 1, 1],
  );
});

test("a store without a cache replaces a player's keys whole at each commit: the old key is freed, the new one indexed", async (t) => {
  const { storage } = await openStore(t, { cacheSize: 0 });
  const p = player(1);
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  t.true((await storage.commit({ players: [{ state: bump(p, { myCode: 'NEWCODE001' }), expectedVersion: 0 }] })).ok);
  t.deepEqual(
    [
      await storage.lookup('myCode', p.myCode),
      await storage.lookup('myCode', 'NEWCODE001'),
      await storage.lookup('uuid', p.account.uuid),
    ],
    [undefined, 1, 1],
  );
  t.is(storage.stats().playersInMemory, 0);
});

test('players only read, still at the versions read, let the commit land', async (t) => {
  const { storage } = await openStore(t);
  t.true(
    (
      await storage.commit({
        players: [
          { state: player(1), expectedVersion: null },
          { state: player(2), expectedVersion: null },
        ],
      })
    ).ok,
  );
  const r = await storage.commit({
    players: [{ state: bump(player(1), { gold: 7 }), expectedVersion: 0 }],
    reads: [{ playerId: 2, version: 0 }],
  });
  t.deepEqual(r, { ok: true });
  t.is((await storage.load(1))?.gold, 7);
});

test("records committed together are judged by the earliest one's time: a record live then is a conflict, even if stale for a later one", async (t) => {
  const { storage } = await openStore(t, { idempotencyTtlMs: 1000 });
  const record = (createdAt: number): IdempotencyRecord => ({
    requestHash: 'h',
    answer: { ok: { createdAt } },
    createdAt,
  });
  t.true((await storage.commit({ players: [], idempotency: [{ key: 'k', record: record(10_000) }] })).ok);
  // 10,000 is within the kept time of 10,500 (the earliest), though not of 12,000.
  t.like(
    await storage.commit({
      players: [],
      idempotency: [
        { key: 'k', record: record(10_500) },
        { key: 'j', record: record(12_000) },
      ],
    }),
    { ok: false, conflict: 'unique' },
  );
  t.deepEqual([await storage.getIdempotency('k'), await storage.getIdempotency('j')], [record(10_000), undefined]);
});

test('a shared bucket says how long until a token: none while it grants or holds one, else the seconds to refill one, rounded up', async (t) => {
  const { storage } = await openStore(t);
  const slow = { rate: 0.25, burst: 2 };
  t.deepEqual(
    await storage.takeTokens('b', slow, 2, 1_000_000),
    { granted: 2, waitSeconds: 0 },
    'granted: no wait, though none is left',
  );
  // 0.8 s later: 0.2 tokens; 0.8 more take 3.2 s at 0.25 a second.
  t.deepEqual(await storage.takeTokens('b', slow, 1, 1_000_800), { granted: 0, waitSeconds: 4 });
  t.deepEqual(
    await storage.takeTokens('one', { rate: 0.25, burst: 1 }, 0, 1_000_000),
    { granted: 0, waitSeconds: 0 },
    'exactly one token held: no wait',
  );
  t.deepEqual(await storage.takeTokens('fast', { rate: 10, burst: 1 }, 1, 1_000_000), { granted: 1, waitSeconds: 0 });
  t.deepEqual(
    await storage.takeTokens('fast', { rate: 10, burst: 1 }, 1, 1_000_000),
    { granted: 0, waitSeconds: 1 },
    'a wait under a second is one second',
  );
});

test('a master snapshot is kept once by its hash and read back as saved; an unknown hash reads as nothing', async (t) => {
  const { storage } = await openStore(t);
  const files = { 'gacha.json': [{ id: 1, name: 'a "quoted" name' }], 'quest.json': {} };
  await storage.saveMasterSnapshot('h1', files);
  await storage.saveMasterSnapshot('h1', { other: true });
  t.deepEqual(await storage.readMasterSnapshot('h1'), files, 'the first kept');
  t.is(await storage.readMasterSnapshot('h2'), undefined);
});

test('prune drops the claims an hour old from the table (a claim past a minute is taken over anyway) and keeps younger ones', async (t) => {
  const { storage, schema } = await openStore(t);
  const now = 1_000_000_000_000;
  await storage.claimIdempotency('dead', now - 3_600_001);
  await storage.claimIdempotency('old', now - 3_600_000);
  await storage.claimIdempotency('live', now - 1000);
  await storage.prune(now, 3_600_000);
  const left = await sql<{ key: string }>(`SELECT key FROM ${schema}.idempotency_claims ORDER BY key`);
  t.deepEqual(
    left.map((r) => r.key),
    ['live', 'old'],
  );
});

test('draw histories are read in pages of 500 players, each player once; a state without a history hands over none, one that does not decode is named', async (t) => {
  const { storage, schema } = await openStore(t);
  await sql(`INSERT INTO ${schema}.players (player_id, version, state) SELECT g, 0, json_build_object('gachaHistory', json_build_array(json_build_object(
      'gachaId', 1, 'drawnAt', g, 'drawType', 1, 'characterIds', json_build_array(g), 'payment', json_build_object('ticket', 0, 'gem', 150, 'paidGem', 0), 'granted', true)))
    FROM generate_series(1, 1000) g`);
  await sql(`INSERT INTO ${schema}.players (player_id, version, state) VALUES (1001, 0, '{}')`);
  const trips = () => storage.stats().roundTrips ?? 0;
  const before = trips();
  const seen: number[] = [];
  t.is(await storage.drawHistories((h) => seen.push(h[0]?.drawnAt ?? 0)), 1001);
  t.is(trips() - before, 3, '500, 500, then the last one: a short page ends it');
  t.deepEqual(
    seen,
    [...Array.from({ length: 1000 }, (_, i) => i + 1), 0],
    'each once, by id; the one without a history: none',
  );
  await sql(`UPDATE ${schema}.players SET state = '{"gachaHistory":[{"gachaId":"x"}]}' WHERE player_id = 7`);
  await t.throwsAsync(
    storage.drawHistories(() => undefined),
    { instanceOf: StorageError, message: "player 7's draw history does not decode as stored" },
  );
});

test('the readiness check: null while the database takes writes; once closed, the store refuses work and the check says why', async (t) => {
  const schema = freshSchema();
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
  t.teardown(() => PostgresStorage.dropSchema(TEST_DATABASE_URL, schema));
  t.is(await storage.check(), null);
  await storage.close();
  await t.throwsAsync(storage.load(1), { instanceOf: StorageError, message: /^PostgreSQL: \S/ });
  t.regex((await storage.check()) ?? '', /^PostgreSQL: \S/);
});

test('dropSchema drops the schema with its tables and closes its connection', async (t) => {
  const schema = freshSchema();
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
  t.true((await storage.commit({ players: [{ state: player(1), expectedVersion: null }] })).ok);
  await storage.close();
  const app = `drop_${schema}`;
  const url = new URL(TEST_DATABASE_URL);
  url.searchParams.set('application_name', app);
  await PostgresStorage.dropSchema(url.toString(), schema);
  t.deepEqual(await sql(`SELECT 1 FROM pg_namespace WHERE nspname = $1`, [schema]), []);
  t.deepEqual(
    await sql(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1`, [app]),
    [],
    'its connection is closed',
  );
  await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema); // none left: not an error
});

test('the readiness check says so when the database takes no writes; a pooled connection lost while idle is logged, not thrown', async (t) => {
  // A role of this test's own whose sessions become read-only: the store's next connection is one.
  const schema = freshSchema();
  const role = `${schema}_ro`;
  await sql(`CREATE ROLE ${role} LOGIN SUPERUSER`);
  let storage: PostgresStorage | undefined;
  // The role owns the schema: dropping what it owns drops the schema too, whatever state the store is in.
  t.teardown(async () => {
    await storage?.close().catch(() => undefined);
    await sql(`DROP OWNED BY ${role}; DROP ROLE ${role}`);
  });
  const url = new URL(TEST_DATABASE_URL);
  url.username = role;
  const logged: Array<{ event: string; data: Record<string, unknown> }> = [];
  let lost: () => void = () => {};
  const idleLost = new Promise<void>((r) => {
    lost = r;
  });
  storage = await PostgresStorage.open({
    connectionString: url.toString(),
    schema,
    poolSize: 1,
    log: (event, data) => {
      logged.push({ event, data });
      if (event === 'postgres.idle_client_error') lost();
    },
  });
  t.is(await storage.check(), null);
  await sql(`ALTER ROLE ${role} SET default_transaction_read_only = on`);
  await sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
  await idleLost;
  t.like(logged.at(-1), {
    event: 'postgres.idle_client_error',
    data: { error: 'terminating connection due to administrator command' },
  });
  t.is(await storage.check(), 'the database is read-only');
});

/** A trigger on the schema's players that records `expr`, evaluated in the store's own session, at each write; `seen()` reads the last. */
const plantProbe = async (schema: string, expr: string) => {
  await sql(`
    CREATE TABLE ${schema}.probe (n serial PRIMARY KEY, v text);
    CREATE FUNCTION ${schema}.probe() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO ${schema}.probe (v) SELECT (${expr})::text;
      RETURN NEW;
    END $$;
    CREATE TRIGGER probe AFTER INSERT OR UPDATE ON ${schema}.players FOR EACH ROW EXECUTE FUNCTION ${schema}.probe();`);
  return {
    seen: async () => (await sql<{ v: string }>(`SELECT v FROM ${schema}.probe ORDER BY n DESC LIMIT 1`))[0]?.v,
  };
};

test('the statements a store sends often are prepared on its connection once, each under its own name', async (t) => {
  const { storage, schema } = await openStore(t, { poolSize: 1, cacheSize: 0 });
  t.true((await storage.commit({ players: [{ state: player(1), expectedVersion: null }] })).ok);
  const probe = await plantProbe(schema, `(SELECT string_agg(name, ' ' ORDER BY name) FROM pg_prepared_statements)`);
  await storage.load(1);
  await storage.verify([player(1)]);
  await storage.lookup('myCode', 'x');
  await storage.getSession('s', true);
  await storage.getIdempotency('k');
  await storage.claimIdempotency('k', 1);
  await storage.releaseIdempotency('k');
  await storage.takeTokens('b', { rate: 1, burst: 1 }, 0, 1);
  await storage.recentlyActive(1);
  t.true((await storage.commit({ players: [{ state: bump(player(1), { gold: 1 }), expectedVersion: 0 }] })).ok);
  const names = ['claim', 'commit', 'idempotency', 'load', 'lookup', 'recent', 'release', 'session', 'take', 'verify'];
  t.is(await probe.seen(), names.map((n) => `${schema}.${n}`).join(' '));
});

test('every connection has the statement timeout asked for, 5 s when none is', async (t) => {
  for (const [opts, expected] of [
    [{}, '5s'],
    [{ statementTimeoutMs: 1234 }, '1234ms'],
  ] as const) {
    const { storage, schema } = await openStore(t, opts);
    const probe = await plantProbe(schema, `current_setting('statement_timeout')`);
    t.true((await storage.commit({ players: [{ state: player(1), expectedVersion: null }] })).ok);
    t.is(await probe.seen(), expected);
  }
});

test('the pool opens at most poolSize connections, however many statements are waiting', async (t) => {
  const { storage } = await openStore(t, { poolSize: 2 });
  await Promise.all([1, 2, 3, 4].map((id) => storage.load(id)));
  t.like(storage.stats().pool, { total: 2, max: 2 });
});

test('the state cache keeps the cacheSize players used last, and tells the observer each hit and miss', async (t) => {
  const { storage } = await openStore(t, { cacheSize: 2 });
  for (const id of [1, 2, 3])
    t.true((await storage.commit({ players: [{ state: player(id), expectedVersion: null }] })).ok);
  t.is(storage.stats().playersInMemory, 2);
  const hits: boolean[] = [];
  storage.observer = {
    cache: (hit) => {
      hits.push(hit);
    },
  };
  t.is((await storage.load(3))?.playerId, 3);
  t.is((await storage.load(2))?.playerId, 2);
  t.is((await storage.load(1))?.playerId, 1, 'the oldest was dropped: read again');
  t.deepEqual(hits, [true, true, false]);
  t.is(storage.stats().playersInMemory, 2);
});

test('the session cache keeps the cacheSize sessions used last: those are answered without a round trip, the one dropped is read again', async (t) => {
  const { storage } = await openStore(t, { cacheSize: 2, sessionCacheMs: 600_000 });
  const session = (createdAt: number) => ({ playerId: 1, epoch: 0, createdAt, lastSeenAt: createdAt });
  t.true(
    (
      await storage.commit({
        players: [],
        sessions: [
          { key: 's1', session: session(1) },
          { key: 's2', session: session(2) },
          { key: 's3', session: session(3) },
        ],
      })
    ).ok,
  );
  const trips = () => storage.stats().roundTrips ?? 0;
  const n = trips();
  t.deepEqual([await storage.getSession('s3'), await storage.getSession('s2')], [session(3), session(2)]);
  t.is(trips() - n, 0, 'the two kept');
  t.deepEqual(await storage.getSession('s1'), session(1));
  t.is(trips() - n, 1, 'the first, dropped when the third came');
});

test.serial(
  'a session read is reused for sessionCacheMs, and read again from exactly then: another process may have ended it',
  async (t) => {
    // The clock stands still but for the steps taken here (a serial test: no other test runs meanwhile).
    const realNow = Date.now;
    let now = 1_000_000;
    Date.now = () => now;
    try {
      const schema = freshSchema();
      const { storage: x } = await openStore(t, { sessionCacheMs: 1000 }, schema);
      const y = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
      t.teardown(() => y.close());
      const session = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 };
      t.true((await y.commit({ players: [], sessions: [{ key: 's', session }] })).ok);
      t.deepEqual(await x.getSession('s'), session);
      t.true((await y.commit({ players: [], sessions: [{ key: 's', session: null }] })).ok);
      now += 999;
      t.deepEqual(await x.getSession('s'), session, 'reused: read 999 ms ago');
      t.is(await x.getSession('s', true), undefined, 'fresh: read now');
      t.true((await y.commit({ players: [], sessions: [{ key: 's', session }] })).ok);
      t.deepEqual(await x.getSession('s'), session);
      t.true((await y.commit({ players: [], sessions: [{ key: 's', session: null }] })).ok);
      now += 1000;
      t.is(await x.getSession('s'), undefined, 'read again: read 1,000 ms ago');
    } finally {
      Date.now = realNow;
    }
  },
);

test('verify asks the database only about states it did not just read from it', async (t) => {
  const schema = freshSchema();
  const { storage: x } = await openStore(t, {}, schema);
  t.true((await x.commit({ players: [{ state: player(1), expectedVersion: null }] })).ok);
  const y = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
  t.teardown(() => y.close());
  const trips = () => y.stats().roundTrips ?? 0;
  const read = (await y.load(1))!;
  const n = trips();
  t.true(await y.verify([read]), 'read from the database just now');
  t.true(await y.verify([]));
  t.is(trips() - n, 0);
  t.true(await y.verify([player(1)]), 'a state it did not read: checked');
  t.is(trips() - n, 1);
});

test('a stored state that does not decode is refused by name', async (t) => {
  const { storage, schema } = await openStore(t);
  await sql(`INSERT INTO ${schema}.players (player_id, version, state) VALUES (5, 0, '{"playerId":5}')`);
  await t.throwsAsync(storage.load(5), {
    instanceOf: StorageError,
    message: "player 5's stored state does not decode",
  });
});

test('open applies each migration once, logging it, and a schema that is no plain name is refused before any SQL', async (t) => {
  const schema = freshSchema();
  const logged: Array<{ event: string; data: Record<string, unknown> }> = [];
  const log = (event: string, data: Record<string, unknown>) => {
    logged.push({ event, data });
  };
  await openStore(t, { log }, schema);
  t.deepEqual(
    logged,
    Array.from({ length: MIGRATION_COUNT }, (_, i) => ({
      event: 'postgres.migrated',
      data: { schema, version: i + 1 },
    })),
  );
  await openStore(t, { log }, schema); // a second process: nothing left to do
  t.is(logged.length, MIGRATION_COUNT);
  for (const bad of ['1abc', 'ab-c', 'x; drop table y', 'Hoshi']) {
    await t.throwsAsync(PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema: bad }), {
      instanceOf: StorageError,
      message: `not a plain schema name: ${bad}`,
    });
  }
});

test('without a schema named, the store uses schema hoshi (an unreachable database tried: no schema touched)', async (t) => {
  await t.throwsAsync(PostgresStorage.open({ connectionString: 'postgres://postgres@127.0.0.1:1/none' }), {
    instanceOf: StorageError,
    message: /^cannot prepare PostgreSQL schema hoshi: /,
  });
});

test('a migration that fails leaves nothing behind and says why', async (t) => {
  const schema = freshSchema();
  t.teardown(() => PostgresStorage.dropSchema(TEST_DATABASE_URL, schema));
  await sql(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.players (x int)`);
  await t.throwsAsync(PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema }), {
    instanceOf: StorageError,
    message: `cannot prepare PostgreSQL schema ${schema}: relation "players" already exists`,
  });
  t.deepEqual(
    await sql(`SELECT 1 FROM pg_tables WHERE schemaname = $1 AND tablename = 'schema_migrations'`, [schema]),
    [],
    'rolled back',
  );
});

test("a schema's migrations wait for that schema's lock alone", async (t) => {
  const [a, b] = [freshSchema(), freshSchema()];
  const holder = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await holder.connect();
  t.teardown(async () => {
    await holder.end();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, a);
  });
  await holder.query('BEGIN');
  await holder.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`hoshi-migrate:${a}`]);
  await t.throwsAsync(
    PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema: a, statementTimeoutMs: 200 }),
    { message: /statement timeout/ },
    'A waits for its lock',
  );
  await openStore(t, {}, b); // B does not
  await holder.query('COMMIT');
  const { storage } = await openStore(t, {}, a);
  t.deepEqual(await storage.playerIds(), [], 'A migrated once its lock was free');
});

test("a player's sessions are found through an index on their player id", async (t) => {
  const { schema } = await openStore(t);
  const rows = await sql<{ indexdef: string }>(
    `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'sessions_player'`,
    [schema],
  );
  t.regex(rows[0]?.indexdef ?? '', /\(\(\(session ->> 'playerId'::text\)\)::bigint\)/);
});

test("a stored session or kept answer that does not decode is the storage's failure, named (not taken as it is)", async (t) => {
  const { storage, schema } = await openStore(t);
  const good = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 2 };
  await sql(`INSERT INTO ${schema}.sessions (key, session) VALUES ('good', $1), ('bad', $2)`, [
    good,
    { playerId: 1, epoch: 0, createdAt: 1 },
  ]);
  t.deepEqual(await storage.getSession('good', true), good);
  const session = await t.throwsAsync(storage.getSession('bad', true), { instanceOf: StorageError });
  t.is(session?.message, 'session bad does not decode as stored');
  t.is(
    (await t.throwsAsync(storage.sessionsOf(1), { instanceOf: StorageError }))?.message,
    'session bad does not decode as stored',
  );
  const kept = { requestHash: 'h', answer: { ok: { gold: 1 } }, createdAt: 1, withheld: ['accessToken'] };
  const damaged: Record<string, unknown> = {
    'no requestHash': { answer: { ok: {} }, createdAt: 1 },
    'ok that is not a record': { requestHash: 'h', answer: { ok: 5 }, createdAt: 1 },
    'error that is not a record': { requestHash: 'h', answer: { error: 5 }, createdAt: 1 },
    'withheld that is not a list of names': { requestHash: 'h', answer: { ok: {} }, createdAt: 1, withheld: [5] },
  };
  await sql(`INSERT INTO ${schema}.idempotency (key, record, created_at) VALUES ('kept', $1, 1)`, [
    JSON.stringify(kept),
  ]);
  t.deepEqual(await storage.getIdempotency('kept'), kept);
  for (const [key, record] of Object.entries(damaged)) {
    await sql(`INSERT INTO ${schema}.idempotency (key, record, created_at) VALUES ($1, $2, 1)`, [
      key,
      JSON.stringify(record),
    ]);
    const e = await t.throwsAsync(storage.getIdempotency(key), { instanceOf: StorageError }, key);
    t.is(e?.message, `the answer kept for ${key} does not decode as stored`);
  }
});
