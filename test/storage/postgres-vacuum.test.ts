// Where PostgreSQL's autovacuum is off, the server vacuums the tables its writes churn
// itself (main.ts, every PG_VACUUM_SECONDS): one process at a time, under an advisory lock.
import test from 'ava';
import pg from 'pg';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { freshPlayer } from '../_support/core.js';
import { freshSchema, sql, TEST_DATABASE_URL } from '../_support/pg.js';

const vacuums = async (schema: string): Promise<Record<string, number>> => {
  const rows = await sql<{ relname: string; n: number }>(
    `SELECT relname, vacuum_count::int AS n FROM pg_stat_user_tables WHERE schemaname = $1`,
    [schema],
  );
  return Object.fromEntries(rows.map((r) => [r.relname, r.n]));
};

test('autovacuumOn says what the database runs', async (t) => {
  const schema = freshSchema();
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
  t.teardown(async () => {
    await storage.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const [setting] = await sql<{ autovacuum: string }>('SHOW autovacuum');
  t.is(await storage.autovacuumOn(), setting?.autovacuum === 'on');
});

test('vacuum runs VACUUM on every table writes churn, and not while another process holds the lock', async (t) => {
  const schema = freshSchema();
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
  t.teardown(async () => {
    await storage.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  let s = freshPlayer({ playerId: 1, seed: 'v' });
  t.true((await storage.commit({ players: [{ state: s, expectedVersion: null }] })).ok);
  for (let i = 0; i < 20; i++) {
    const next = { ...s, gold: s.gold + 1, version: s.version + 1 };
    t.true((await storage.commit({ players: [{ state: next, expectedVersion: s.version }] })).ok);
    s = next;
  }
  const before = await vacuums(schema);
  const r = await storage.vacuum();
  t.true(r.ran);
  const after = await vacuums(schema);
  for (const table of [
    'players',
    'player_deltas',
    'idempotency',
    'idempotency_claims',
    'sessions',
    'rate_buckets',
    'player_keys',
    'replay_log',
    'replay_log_players',
  ]) {
    t.is(after[table], (before[table] ?? 0) + 1, table);
  }
  t.is(after['master_snapshots'], before['master_snapshots'], 'not the tables writes only add to once');
  // Another process vacuuming: this one leaves it be.
  const other = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await other.connect();
  t.teardown(() => other.end());
  await other.query('SELECT pg_advisory_lock(hashtext($1))', [`hoshi-vacuum:${schema}`]);
  t.deepEqual((await storage.vacuum()).ran, false);
  t.deepEqual(await vacuums(schema), after);
  await other.query('SELECT pg_advisory_unlock(hashtext($1))', [`hoshi-vacuum:${schema}`]);
  t.true((await storage.vacuum()).ran, 'the lock is free again');
});
