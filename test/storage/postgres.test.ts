// What the PostgreSQL adapter adds to the contract: exact 64-bit values, several
// processes (pools) on one schema, migrations that race safely, and loud failure.
import test from 'ava';
import pg from 'pg';
import { MIGRATION_COUNT, PostgresStorage } from '../../adapters/storage/postgres.js';
import { StorageError } from '../../adapters/storage/storage.js';
import { freshPlayer } from '../_support/core.js';
import { freshSchema, openPostgres, TEST_DATABASE_URL } from '../_support/pg.js';
import type { PlayerState } from '../../core/state.js';

const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });

test('64-bit ids and values read back exactly (int8 is decoded, not left a string)', async (t) => {
  const { storage, cleanup } = await openPostgres();
  t.teardown(cleanup);
  const id = 2 ** 40 + 5;
  const p = { ...freshPlayer({ playerId: id }), nextManagedId: 2 ** 52 + 3, gold: 2 ** 50 };
  t.true((await storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  const back = await storage.load(id);
  t.is(back?.playerId, id);
  t.is(back?.nextManagedId, 2 ** 52 + 3);
  t.is(typeof (await storage.lookup('myCode', p.myCode)), 'number');
  t.deepEqual(await storage.playerIds(), [id]);
  t.is(typeof (await storage.nextPlayerId()), 'number');
});

test("two processes on one schema: each sees the other's commits, and stale versions conflict", async (t) => {
  const schema = freshSchema();
  const a = await openPostgres(schema);
  const b = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2 });
  t.teardown(async () => {
    await b.close();
    await a.cleanup();
  });
  const p = freshPlayer({ playerId: 7 });
  t.true((await a.storage.commit({ players: [{ state: p, expectedVersion: null }] })).ok);
  t.is((await b.load(7))?.version, 0, "no cache hides another process's write");
  t.true((await b.commit({ players: [{ state: bump(p, 1), expectedVersion: 0 }] })).ok);
  t.like(await a.storage.commit({ players: [{ state: bump(p, 2), expectedVersion: 0 }] }), {
    ok: false,
    conflict: 'version',
  });
  t.is((await a.storage.load(7))?.gold, 1);
  // Racing commits from both, on two players locked in opposite orders: no deadlock, one winner per version.
  const q = freshPlayer({ playerId: 8, seed: 'another friend code' });
  t.true((await a.storage.commit({ players: [{ state: q, expectedVersion: null }] })).ok);
  const p1 = (await a.storage.load(7))!;
  const rs = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      (i % 2 ? a.storage : b).commit({
        players:
          i % 2
            ? [
                { state: bump(p1, 100 + i), expectedVersion: 1 },
                { state: bump(q, i), expectedVersion: 0 },
              ]
            : [
                { state: bump(q, i), expectedVersion: 0 },
                { state: bump(p1, 100 + i), expectedVersion: 1 },
              ],
      }),
    ),
  );
  t.is(rs.filter((r) => r.ok).length, 1);
});

test('migrations started by several processes at once all succeed, once', async (t) => {
  const schema = freshSchema();
  const opened = await Promise.all(
    Array.from({ length: 4 }, () => PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 })),
  );
  t.teardown(async () => {
    await Promise.all(opened.map((s) => s.close()));
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  const r = await c.query(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`);
  await c.end();
  t.deepEqual(
    r.rows.map((x: { version: number }) => x.version),
    Array.from({ length: MIGRATION_COUNT }, (_, i) => i + 1),
    'each migration applied once',
  );
});

test('a commit is one call of commit_v5 (migration 9): with commit_v1..v4 dropped, every part of a commit still commits and conflicts as before', async (t) => {
  const { storage, schema, cleanup } = await openPostgres();
  t.teardown(cleanup);
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  t.teardown(() => c.end());
  const fns = async () =>
    (
      await c.query<{ proname: string }>(
        `SELECT proname FROM pg_proc WHERE pronamespace = $1::regnamespace AND proname LIKE 'commit_v%' ORDER BY proname`,
        [schema],
      )
    ).rows.map((r) => r.proname);
  t.deepEqual(
    await fns(),
    ['commit_v1', 'commit_v2', 'commit_v3', 'commit_v4', 'commit_v5'],
    'the older ones stay for processes not yet upgraded',
  );
  // commit_v4 calls v3, v3 calls v2, v2 calls v1: a store still calling any of them fails from here on.
  await c.query(`DROP FUNCTION ${schema}.commit_v4, ${schema}.commit_v3, ${schema}.commit_v2, ${schema}.commit_v1`);
  t.deepEqual(await fns(), ['commit_v5']);
  const p = freshPlayer({ playerId: 1, seed: 'one' });
  const q = freshPlayer({ playerId: 2, seed: 'two' });
  const run = { kind: 'op', at: 1, masterHash: 'm', op: 'x', playerId: 1, request: {}, seed: 's', others: [] } as const;
  t.true(
    (
      await storage.commit({
        players: [
          { state: p, expectedVersion: null },
          { state: q, expectedVersion: null },
        ],
        log: run,
      })
    ).ok,
  );
  const session = { playerId: 1, epoch: 0, createdAt: 5, lastSeenAt: 5 };
  const record = { requestHash: 'h', answer: { ok: { gold: 7 } }, createdAt: 10 };
  const p1 = bump(p, 7);
  t.true(
    (
      await storage.commit({
        players: [{ state: p1, expectedVersion: 0 }],
        reads: [{ playerId: 2, version: 0 }],
        sessions: [{ key: 'sess', session }],
        idempotency: [{ key: '1:k', record }],
        log: run,
      })
    ).ok,
  );
  t.like(await storage.commit({ players: [{ state: bump(p, 8), expectedVersion: 0 }] }), {
    ok: false,
    conflict: 'version',
  });
  t.like(await storage.commit({ players: [{ state: { ...bump(p1, 9), myCode: q.myCode }, expectedVersion: 1 }] }), {
    ok: false,
    conflict: 'unique',
  });
  const y = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 1 });
  t.teardown(() => y.close());
  t.deepEqual(await y.load(1), p1, 'the delta applied, the refused commits left nothing');
  t.deepEqual(await y.getSession('sess'), session);
  t.deepEqual(await y.getIdempotency('1:k'), record);
  t.deepEqual(
    (await y.readLog({})).map((e) => [e.seq, e.playerIds]),
    [
      [1, [1, 2]],
      [2, [1]],
    ],
  );
  t.deepEqual(
    (await y.readLog({ players: [2] })).map((e) => e.seq),
    [1],
    'each player of an entry indexed',
  );
});

test('an unreachable database fails loudly, naming the problem', async (t) => {
  const e = await t.throwsAsync(
    PostgresStorage.open({ connectionString: 'postgres://postgres@127.0.0.1:1/none', schema: freshSchema() }),
  );
  t.true(e instanceof StorageError);
  t.regex(e?.message ?? '', /cannot prepare PostgreSQL schema/);
});

test('ids committed directly (an import) are never handed out again: the sequence moves past them', async (t) => {
  const { storage, cleanup } = await openPostgres();
  t.teardown(cleanup);
  const ps = [1, 2, 3, 7].map((id) => freshPlayer({ playerId: id, seed: `import${id}` }));
  t.true((await storage.commit({ players: ps.map((state) => ({ state, expectedVersion: null })) })).ok);
  const got = [await storage.nextPlayerId(), await storage.nextPlayerId()];
  t.deepEqual(got, [8, 9]);
});

test('states and kept answers are stored as json compressed with lz4 (what the bench measured cheapest to write)', async (t) => {
  const { schema, cleanup } = await openPostgres();
  t.teardown(cleanup);
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    const column = async (table: string, name: string) =>
      (
        await c.query<{ type: string; compression: string }>(
          `SELECT format_type(atttypid, atttypmod) AS type, attcompression AS compression FROM pg_attribute WHERE attrelid = $1::regclass AND attname = $2`,
          [`${schema}.${table}`, name],
        )
      ).rows[0];
    t.deepEqual(await column('players', 'state'), { type: 'json', compression: 'l' });
    t.deepEqual(await column('idempotency', 'record'), { type: 'json', compression: 'l' });
  } finally {
    await c.end();
  }
});

test('a stored session or kept answer that does not decode is refused by name, never handed on', async (t) => {
  const { storage, schema, cleanup } = await openPostgres();
  t.teardown(cleanup);
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    await c.query(`INSERT INTO ${schema}.sessions (key, session) VALUES ('s', '{"playerId":1,"epoch":"zero"}')`);
    await c.query(`INSERT INTO ${schema}.idempotency (key, record, created_at) VALUES ('k', '{"answer":{}}', 1)`);
  } finally {
    await c.end();
  }
  await t.throwsAsync(storage.getSession('s', true), {
    instanceOf: StorageError,
    message: /session s does not decode/,
  });
  await t.throwsAsync(storage.getIdempotency('k'), {
    instanceOf: StorageError,
    message: /the answer kept for k does not decode/,
  });
  await t.throwsAsync(storage.claimIdempotency('k', 2), {
    instanceOf: StorageError,
    message: /the answer kept for k does not decode/,
  });
  await t.throwsAsync(storage.sessionsOf(1), { instanceOf: StorageError, message: /session s does not decode/ });
});
