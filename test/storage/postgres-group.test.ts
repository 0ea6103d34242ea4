// PostgreSQL's group commit (postgres-commits.ts): commits that wait while a call is out go
// together in one call, one transaction. Each is answered as it would have been alone: a
// failure PostgreSQL answers (a conflict, a retryable failure, any other) rolled the call
// back, so each commit is sent again alone and only the one that fails fails; a call whose
// answer never came (it may have been stored) is each one's failure.
// With one call in flight, the first of several commits made at once goes alone and the
// rest wait for it, so they go together.
import test from 'ava';
import pg from 'pg';
import { answeredFailure } from '../../adapters/storage/postgres-query.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { StorageError, type StorageObserver } from '../../adapters/storage/storage.js';
import { freshPlayer } from '../_support/core.js';
import { openStore, sql, TEST_DATABASE_URL } from '../_support/pg.js';
import type { PlayerState } from '../../core/state.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });
const IDS = [1, 2, 3, 4, 5, 6];

/** A store with players 1..6 stored, one commit call at a time, the calls' sizes recorded. */
const storeWithPlayers = async (t: Parameters<typeof openStore>[0], opts = {}) => {
  const { storage, schema } = await openStore(t, { commitCallsInFlight: 1, ...opts });
  for (const id of IDS) t.true((await storage.commit({ players: [{ state: player(id), expectedVersion: null }] })).ok);
  const sizes: number[] = [];
  const observer: StorageObserver = { batch: (commits) => sizes.push(commits) };
  storage.observer = observer;
  const trips = storage.stats().roundTrips ?? 0;
  return { storage, schema, sizes, trips: () => (storage.stats().roundTrips ?? 0) - trips };
};

/** Each player's gold as the database holds it: read by a second store that keeps nothing in memory. */
const golds = async (schema: string) => {
  const reader = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, cacheSize: 0, poolSize: 1 });
  try {
    return await Promise.all(IDS.map(async (id) => (await reader.load(id))?.gold));
  } finally {
    await reader.close();
  }
};

test('commits made at once are stored in one call after the first: six commits, two round trips, each stored', async (t) => {
  const { storage, schema, sizes, trips } = await storeWithPlayers(t);
  const results = await Promise.all(
    IDS.map((id) => storage.commit({ players: [{ state: bump(player(id), id * 10), expectedVersion: 0 }] })),
  );
  t.deepEqual(
    results.map((r) => r.ok),
    [true, true, true, true, true, true],
  );
  t.deepEqual(sizes, [1, 5]);
  t.is(trips(), 2);
  t.deepEqual(await golds(schema), [10, 20, 30, 40, 50, 60]);
});

test('a version conflict in a call of several answers that commit alone; the others are stored, once each', async (t) => {
  const { storage, schema, sizes } = await storeWithPlayers(t);
  const results = await Promise.all(
    IDS.map((id) =>
      storage.commit({ players: [{ state: bump(player(id), id * 10), expectedVersion: id === 4 ? 7 : 0 }] }),
    ),
  );
  t.deepEqual(
    results.map((r) => r.ok),
    [true, true, true, false, true, true],
  );
  t.like(results[3], { ok: false, conflict: 'version' });
  t.deepEqual(sizes, [1, 5], 'the call of five was answered after its commits were sent again alone');
  t.deepEqual(await golds(schema), [10, 20, 30, player(4).gold, 50, 60]);
  const versions = await sql<{ player_id: string; version: string }>(
    `SELECT player_id, version FROM ${schema}.players ORDER BY player_id`,
  );
  t.deepEqual(
    versions.map((r) => Number(r.version)),
    [1, 1, 1, 0, 1, 1],
  );
  const logged = await sql<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.player_deltas`);
  t.is(Number(logged[0]?.n), 5, 'one delta row for each commit stored, none twice');
});

test('a unique-key conflict in a call of several answers that commit alone; the others are stored', async (t) => {
  const { storage, schema } = await storeWithPlayers(t);
  const taken = (await storage.load(2))?.myCode as string;
  const results = await Promise.all(
    IDS.map((id) => {
      const s = bump(player(id), id * 10);
      const state = id === 5 ? { ...s, myCode: taken } : s;
      return storage.commit({ players: [{ state, expectedVersion: 0 }] });
    }),
  );
  t.like(results[4], { ok: false, conflict: 'unique' });
  t.deepEqual(
    results.map((r) => r.ok),
    [true, true, true, true, false, true],
  );
  t.deepEqual(await storage.lookup('myCode', taken), 2);
  t.deepEqual(await golds(schema), [10, 20, 30, 40, player(5).gold, 60]);
});

test('a commit of several players goes in a call of its own; those of one player before and after it go together', async (t) => {
  const { storage, schema, sizes } = await storeWithPlayers(t);
  const one = (id: number) => storage.commit({ players: [{ state: bump(player(id), id * 10), expectedVersion: 0 }] });
  const results = await Promise.all([
    one(1),
    one(2),
    one(3),
    storage.commit({
      players: [4, 5].map((id) => ({ state: bump(player(id), id * 10), expectedVersion: 0 })),
    }),
    one(6),
  ]);
  t.true(results.every((r) => r.ok));
  t.deepEqual(sizes, [1, 2, 1, 1], 'player 1 alone (nothing was out), 2 and 3 together, 4 and 5 alone, then 6');
  t.deepEqual(await golds(schema), [10, 20, 30, 40, 50, 60]);
});

/** A trigger failing the first `n` writes of player 4 (a player of the call of five) with SQLSTATE `code`. */
const plantFailures = (schema: string, n: number, code: string) =>
  sql(`
    CREATE SEQUENCE ${schema}.tries;
    CREATE FUNCTION ${schema}.fail_first() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.player_id = 4 AND nextval('${schema}.tries') <= ${n} THEN RAISE EXCEPTION 'planted failure' USING ERRCODE = '${code}'; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER fail_first BEFORE UPDATE ON ${schema}.players FOR EACH ROW EXECUTE FUNCTION ${schema}.fail_first();`);

const commitAll = (storage: Awaited<ReturnType<typeof storeWithPlayers>>['storage']) =>
  Promise.allSettled(
    IDS.map((id) => storage.commit({ players: [{ state: bump(player(id), id * 10), expectedVersion: 0 }] })),
  );

test('a serialization failure in a call of several: each of its commits is retried alone, and all are stored', async (t) => {
  const { storage, schema, sizes, trips } = await storeWithPlayers(t);
  await plantFailures(schema, 1, '40001');
  const results = await commitAll(storage);
  t.true(results.every((r) => r.status === 'fulfilled' && r.value.ok));
  t.deepEqual(sizes, [1, 5]);
  t.is(trips(), 7, 'the first alone, the five together, then each of the five alone');
  t.deepEqual(await golds(schema), [10, 20, 30, 40, 50, 60]);
});

test('any other failure PostgreSQL answers for a call of several: each commit is sent again alone, and only the one that fails fails', async (t) => {
  const { storage, schema, trips } = await storeWithPlayers(t);
  await plantFailures(schema, 2, '23514');
  const results = await commitAll(storage);
  t.deepEqual(
    results.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
    "player 4's write failed in the call of five, and again alone",
  );
  const reason = results[3]?.status === 'rejected' ? (results[3].reason as Error) : undefined;
  t.true(reason instanceof StorageError);
  t.is(reason?.message, 'PostgreSQL commit failed: planted failure');
  t.is(trips(), 7, 'the first alone, the five together, then each of the five alone');
  t.deepEqual(await golds(schema), [10, 20, 30, player(4).gold, 50, 60]);
});

test('a failure PostgreSQL answered (the call rolled back) is tried again commit by commit; a call whose answer never came is not', (t) => {
  t.true(answeredFailure(new pg.DatabaseError('canceling statement due to statement timeout', 0, 'error')));
  t.false(answeredFailure(new Error('Connection terminated unexpectedly')), 'it may have been stored');
  t.false(answeredFailure(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })));
  // As the store's query throws them (queryOn): the cause decides.
  t.true(answeredFailure(new StorageError('PostgreSQL: x', new pg.DatabaseError('x', 0, 'error'))));
  t.false(answeredFailure(new StorageError('PostgreSQL: lost', new Error('Connection terminated unexpectedly'))));
});

test('with commitBatch 1 each commit is its own call', async (t) => {
  const { storage, sizes, trips } = await storeWithPlayers(t, { commitBatch: 1 });
  await Promise.all(
    IDS.map((id) => storage.commit({ players: [{ state: bump(player(id), id * 10), expectedVersion: 0 }] })),
  );
  t.deepEqual(sizes, [1, 1, 1, 1, 1, 1]);
  t.is(trips(), 6);
});

// Reads grouped the same way: two round trips out at once, the reads asked meanwhile in the next.

test('session reads asked at once: two go alone, the rest in one round trip, each its own session (none where there is none)', async (t) => {
  const { storage, trips } = await storeWithPlayers(t);
  const sessionOf = (id: number) => ({ playerId: id, epoch: 0, createdAt: id, lastSeenAt: id });
  await storage.commit({ players: [], sessions: IDS.map((id) => ({ key: `k${id}`, session: sessionOf(id) })) });
  const before = trips();
  const keys = [...IDS.map((id) => `k${id}`), 'gone', 'k3'];
  const read = await Promise.all(keys.map((k) => storage.getSession(k, true)));
  t.deepEqual(read, [...IDS.map(sessionOf), undefined, sessionOf(3)]);
  t.is(trips() - before, 3, 'k1 and k2 alone, the other six in one');
});

test('a session that does not decode fails its own read alone; the others of its round trip are answered', async (t) => {
  const { storage, schema } = await storeWithPlayers(t);
  const session = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 };
  await storage.commit({ players: [], sessions: ['a', 'b', 'c', 'd'].map((key) => ({ key, session })) });
  await sql(`UPDATE ${schema}.sessions SET session = '{"playerId":1}' WHERE key = 'd'`);
  const read = await Promise.allSettled(['a', 'b', 'c', 'd'].map((k) => storage.getSession(k, true)));
  t.deepEqual(
    read.map((r) => r.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'rejected'],
  );
  t.like(read[2], { status: 'fulfilled', value: session }, 'c and d went in one round trip');
  t.like(read[3], { status: 'rejected', reason: { message: 'session d does not decode as stored' } });
});

test('verifies asked at once: the players held still current are confirmed, one another process moved on is not, and is read again', async (t) => {
  const { storage, schema, trips } = await storeWithPlayers(t);
  // Loaded twice: held in memory and no longer just read, so verify asks the database.
  for (const id of IDS) await storage.load(id);
  const held = await Promise.all(IDS.map(async (id) => (await storage.load(id)) as PlayerState));
  await sql(`UPDATE ${schema}.players SET version = 3 WHERE player_id = 5`);
  const before = trips();
  const ok = await Promise.all(held.map((s) => storage.verify([s])));
  t.deepEqual(ok, [true, true, true, true, false, true]);
  t.is(trips() - before, 3, 'players 1 and 2 alone, the other four in one');
  t.true(await storage.verify([held[0] as PlayerState, held[1] as PlayerState]), 'several players in one verify');
  const two = await Promise.all([storage.verify([held[2] as PlayerState]), storage.verify(held.slice(3))]);
  t.deepEqual(two, [true, false], "a verify naming player 5 among others is refused, another's is not");
  const held5 = trips();
  await storage.load(5);
  t.is(trips() - held5, 1, 'player 5 was forgotten: its load reads it again');
  const held1 = trips();
  await storage.load(1);
  t.is(trips() - held1, 0, 'player 1 is still held');
});
