// Replay-log retention on PostgreSQL (issue 36): prune deletes the entries of
// replay_log older than REPLAY_LOG_RETENTION_DAYS, and their rows of
// replay_log_players, in bounded batches, stopping at the first entry at or after the
// cutoff; the kept log's start and size are read for the replay CLI and /metrics.
// Each test has its own schema, dropped at its end.
import test, { type ExecutionContext } from 'ava';
import pg from 'pg';
import { PostgresStorage, type PostgresOptions } from '../../adapters/storage/postgres.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import { StorageError } from '../../adapters/storage/storage.js';
import type { PlayerState } from '../../core/state.js';
import { freshPlayer } from '../_support/core.js';
import { freshSchema, TEST_DATABASE_URL } from '../_support/pg.js';

const DAY = 86_400_000;
const T0 = 1_800_000_000_000;

const sql = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> => {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
};

const openStore = async (t: ExecutionContext, opts: Partial<PostgresOptions> = {}) => {
  const schema = freshSchema();
  const events: Array<[string, Record<string, unknown>]> = [];
  const storage = await PostgresStorage.open({
    connectionString: TEST_DATABASE_URL,
    schema,
    poolSize: 2,
    log: (e, d) => events.push([e, d]),
    ...opts,
  });
  t.teardown(async () => {
    await storage.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  return { storage, schema, named: (name: string) => events.filter(([e]) => e === name).map(([, d]) => d) };
};

/**
 * Commits an entry at each day of `days`: players 1 and 2 created, then player 1
 * changed, every third time with player 2 (replay_log_players holds two rows for those).
 */
const fill = async (storage: PostgresStorage, days: number[]): Promise<void> => {
  let one: PlayerState = freshPlayer({ playerId: 1, seed: 'p1' });
  let two: PlayerState = freshPlayer({ playerId: 2, seed: 'p2' });
  const run = (p: PlayerState, at: number, others: number[]): LogRun => ({
    kind: 'op',
    at,
    masterHash: 'm',
    op: 'loginPlayer',
    playerId: p.playerId,
    request: {},
    seed: '',
    others,
  });
  const first = await storage.commit({
    players: [
      { state: one, expectedVersion: null },
      { state: two, expectedVersion: null },
    ],
    log: run(one, T0 + (days[0] ?? 0) * DAY, [2]),
  });
  if (!first.ok) throw new Error(first.detail);
  for (const [i, d] of days.slice(1).entries()) {
    const withTwo = i % 3 === 0;
    const next = { ...one, gold: one.gold + 1, version: one.version + 1 };
    const nextTwo = { ...two, gold: two.gold + 1, version: two.version + 1 };
    const players = withTwo
      ? [
          { state: next, expectedVersion: one.version },
          { state: nextTwo, expectedVersion: two.version },
        ]
      : [{ state: next, expectedVersion: one.version }];
    const r = await storage.commit({ players, log: run(next, T0 + d * DAY, withTwo ? [2] : []) });
    if (!r.ok) throw new Error(r.detail);
    one = next;
    if (withTwo) two = nextTwo;
  }
};

const keptSeqs = async (schema: string) =>
  (await sql<{ seq: string }>(`SELECT seq FROM ${schema}.replay_log ORDER BY seq`)).map((r) => Number(r.seq));
const indexed = async (schema: string) =>
  (
    await sql<{ player_id: string; seq: string }>(
      `SELECT player_id, seq FROM ${schema}.replay_log_players ORDER BY seq, player_id`,
    )
  ).map((r) => `${r.player_id}@${r.seq}`);

test('prune deletes the entries older than the retention and their rows of replay_log_players, and nothing newer', async (t) => {
  const { storage, schema, named } = await openStore(t, { replayLogRetentionMs: 90 * DAY });
  // Entries 1–10 at days 1–10.
  await fill(storage, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  const before = await indexed(schema);
  // Now day 95 and a millisecond: the cutoff is day 5 + 1 ms; entries of days 1–5 go.
  await storage.prune(T0 + 95 * DAY + 1, 86_400_000);
  t.deepEqual(await keptSeqs(schema), [6, 7, 8, 9, 10]);
  t.deepEqual(
    await indexed(schema),
    before.filter((x) => Number(x.split('@')[1]) >= 6),
    'their player rows gone, the others kept',
  );
  t.deepEqual(
    (await storage.readLog()).map((e) => e.seq),
    [6, 7, 8, 9, 10],
  );
  t.deepEqual(
    (await storage.readLog({ players: [2] })).map((e) => e.seq),
    [8],
  );
  t.is(await storage.replayLogStart(), 6);
  t.deepEqual(named('replay_log.pruned'), [{ deleted: 5, olderThan: T0 + 5 * DAY + 1, below: 6 }]);
  // Exactly at the cutoff is kept.
  t.is(await storage.pruneReplayLog(T0 + 6 * DAY), 0);
  t.deepEqual(await keptSeqs(schema), [6, 7, 8, 9, 10]);
  t.is(named('replay_log.pruned').length, 1, 'nothing deleted: nothing logged');
});

test('without a retention (0 or none), prune keeps the whole replay log', async (t) => {
  for (const opts of [{}, { replayLogRetentionMs: 0 }]) {
    const { storage, schema } = await openStore(t, opts);
    await fill(storage, [1, 2, 3]);
    await storage.prune(T0 + 1000 * DAY, 86_400_000);
    t.deepEqual(await keptSeqs(schema), [1, 2, 3]);
  }
});

test('the delete stops at the first entry at or after the cutoff: an older entry after it (a process whose clock is behind) is kept, so the kept log is one run of seqs', async (t) => {
  const { storage, schema } = await openStore(t);
  await fill(storage, [1, 2, 9, 3, 4, 10]);
  t.is(await storage.pruneReplayLog(T0 + 5 * DAY), 2);
  t.deepEqual(await keptSeqs(schema), [3, 4, 5, 6]);
});

test('in bounded batches: each statement touches at most `batch` entries, at most `maxBatches` a call; the next call goes on', async (t) => {
  const { storage, schema } = await openStore(t);
  await fill(storage, [1, 1, 1, 1, 1, 1, 1, 2]);
  const trips = () => storage.stats().roundTrips ?? 0;
  const n = trips();
  t.is(await storage.pruneReplayLog(T0 + 2 * DAY, { batch: 3, maxBatches: 2 }), 6);
  t.is(trips() - n, 4, 'two batches of a look and a delete');
  t.deepEqual(await keptSeqs(schema), [7, 8]);
  t.is(await storage.pruneReplayLog(T0 + 2 * DAY, { batch: 3, maxBatches: 2 }), 1, 'the one left before the cutoff');
  t.deepEqual(await keptSeqs(schema), [8]);
  // An empty log: one look, nothing deleted.
  t.is(await storage.pruneReplayLog(T0 + 100 * DAY), 1);
  const m = trips();
  t.is(await storage.pruneReplayLog(T0 + 100 * DAY), 0);
  t.is(trips() - m, 1);
  t.is(await storage.replayLogStart(), undefined);
});

test('a prune that fails (the table gone) is a StorageError naming PostgreSQL', async (t) => {
  const { storage, schema } = await openStore(t, { replayLogRetentionMs: DAY });
  await sql(`DROP TABLE ${schema}.replay_log CASCADE`);
  await t.throwsAsync(storage.prune(T0, DAY), { instanceOf: StorageError, message: /^PostgreSQL: .*replay_log/ });
});

test.serial(
  "the replay log's size: replay_log with replay_log_players, measured beside stats() at most every 30 s, never waited for",
  async (t) => {
    const realNow = Date.now;
    let now = 1_000_000;
    Date.now = () => now;
    t.teardown(() => {
      Date.now = realNow;
    });
    const { storage, schema } = await openStore(t);
    await fill(storage, [1, 2, 3]);
    const expected = Number(
      (
        await sql<{ n: string }>(
          `SELECT pg_total_relation_size('${schema}.replay_log') + pg_total_relation_size('${schema}.replay_log_players') AS n`,
        )
      )[0]?.n,
    );
    t.is(await storage.replayLogSize(), expected);
    let calls = 0;
    const size = storage.replayLogSize.bind(storage);
    storage.replayLogSize = async () => {
      calls++;
      return size();
    };
    t.is(storage.stats().replayLogBytes, undefined, 'not measured yet: the scrape does not wait');
    t.is(storage.stats().replayLogBytes, undefined);
    t.is(calls, 1, 'one measurement in flight');
    // Until the measurement lands (no clock involved: each turn gives it a chance).
    while (storage.stats().answersStored === undefined) await new Promise((r) => setImmediate(r));
    t.is(storage.stats().replayLogBytes, expected);
    t.deepEqual(storage.stats().answersStored, await storage.answersSize(), 'the kept answers measured with it');
    t.true((storage.stats().answersStored?.bytes ?? 0) > 0);
    now += 29_999;
    storage.stats();
    t.is(calls, 1, '30 s not yet passed');
    now += 1;
    storage.stats();
    t.is(calls, 2);
  },
);

test.serial('a measurement that fails is logged, not thrown; the figure stays absent until one succeeds', async (t) => {
  const realNow = Date.now;
  let now = 1_000_000;
  Date.now = () => now;
  t.teardown(() => {
    Date.now = realNow;
  });
  const { storage, named } = await openStore(t);
  storage.replayLogSize = async () => {
    throw new StorageError('PostgreSQL: no');
  };
  t.is(storage.stats().replayLogBytes, undefined);
  while (named('postgres.measure_failed').length === 0) await new Promise((r) => setImmediate(r));
  t.deepEqual(named('postgres.measure_failed'), [{ error: 'PostgreSQL: no' }]);
  t.is(storage.stats().replayLogBytes, undefined);
});
