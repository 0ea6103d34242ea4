// Several processes on one PostgreSQL database (issue 17), each a service of its own
// (its own pool, caches, in-flight keys and rate limiter) in this process: what one
// writes, the other's answers see; a write is one round trip; the limits and the
// in-flight Idempotency-Key check hold across them.
import test from 'ava';
import pg from 'pg';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import type { Commit, Storage } from '../../adapters/storage/storage.js';
import { freshPlayer } from '../_support/core.js';
import { freshSchema, TEST_DATABASE_URL } from '../_support/pg.js';
import { ADMIN, grant, newUuid, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import type { PlayerState } from '../../core/state.js';
import type { RateLimits } from '../../adapters/http/rate-limit.js';

const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });

const open = (schema: string, extra: Partial<Parameters<typeof PostgresStorage.open>[0]> = {}) =>
  PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 4, sessionCacheMs: 600_000, ...extra });

/** Two services on one schema; `wrap` may stand between the first and its storage. */
const twoServices = async (
  t: import('ava').ExecutionContext,
  opts: { rateLimits?: RateLimits; wrap?: (s: Storage) => Storage } = {},
) => {
  const schema = freshSchema();
  const [sa, sb] = [await open(schema), await open(schema)];
  const cfg = opts.rateLimits ? { cfg: { rateLimits: opts.rateLimits } } : {};
  const a = await startHarness({ storage: opts.wrap ? opts.wrap(sa) : sa, ...cfg });
  const b = await startHarness({ storage: sb, ...cfg });
  t.teardown(async () => {
    await a.close();
    await b.close();
    await sa.close();
    await sb.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  return { a, b, sa, sb, schema };
};

const trips = (s: PostgresStorage) => s.stats().roundTrips ?? 0;
const gemsOf = async (c: { get: (p: string) => Promise<{ body: Record<string, unknown> }> }) =>
  ((await c.get('/api/player/get_all')).body['player'] as { gem: number }).gem;

test('a write is one round trip, a read from memory one, a keyed write two; unchanged index keys are not rewritten', async (t) => {
  const { a, sa, schema } = await twoServices(t);
  const c = await signupLogin(a);
  await grant(a, c.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(c);
  const keysBefore = await xminOfKeys(schema, c.playerId);
  let n = trips(sa);
  t.is((await c.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).body['resultCode'], 0);
  t.is(trips(sa) - n, 1, 'the draw: its commit alone');
  n = trips(sa);
  t.is((await c.get('/api/player/get_all')).body['resultCode'], 0);
  t.is(trips(sa) - n, 1, 'a read: the version check of the cached state');
  n = trips(sa);
  const keyed = await a.call(
    'POST',
    '/api/player/gacha/draw',
    { gachaId: 2, drawType: 1 },
    { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'k-one' },
  );
  t.is(keyed.body['resultCode'], 0);
  t.is(trips(sa) - n, 2, 'the claim with its kept answer, then the commit (which releases the claim)');
  t.deepEqual(await xminOfKeys(schema, c.playerId), keysBefore, "the player's key rows were never rewritten");
});

const xminOfKeys = async (schema: string, playerId: number): Promise<string[]> => {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    const r = await c.query<{ x: string }>(
      `SELECT index_name || ':' || xmin::text AS x FROM ${schema}.player_keys WHERE player_id = $1 ORDER BY index_name, key`,
      [playerId],
    );
    return r.rows.map((row) => row.x);
  } finally {
    await c.end();
  }
};

test("what one process writes, the other's next answer shows, and its writes build on it", async (t) => {
  const { a, b } = await twoServices(t);
  const c = await signupLogin(a);
  const onB = { get: (p: string) => b.call('GET', p, undefined, { 'X-STAR-SESSION-ID': c.sessionId }) };
  await receiveAllHttp(c);
  const before = await gemsOf(c); // cached in A
  await grant(b, c.playerId, 'gem', 0, 3_000);
  const box = (await onB.get('/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>;
  await onB.get(`/api/player/present/get?managedPresentId=${box.map((x) => x.managedPresentId).join(',')}`);
  t.is(await gemsOf(c), before + 3_000, "A's cached state was stale: the read checked it and read again");
  // A draw on A that only B's gems pay for.
  t.is((await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 })).body['resultCode'], 0);
  t.is(await gemsOf(onB), before + 3_000 - 1_500);
});

test('a storage: a stale cached state fails verify and conflicts as a read; the retry reads it fresh', async (t) => {
  const schema = freshSchema();
  const [x, y] = [await open(schema), await open(schema)];
  t.teardown(async () => {
    await x.close();
    await y.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const p = freshPlayer({ playerId: 3 });
  const q = freshPlayer({ playerId: 4, seed: 'q' });
  t.true(
    (
      await x.commit({
        players: [
          { state: p, expectedVersion: null },
          { state: q, expectedVersion: null },
        ],
      })
    ).ok,
  );
  const seen = (await x.load(3))!;
  t.true(await x.verify([seen]));
  t.true((await y.commit({ players: [{ state: bump(p, 5), expectedVersion: 0 }] })).ok);
  t.is((await x.load(3))?.version, 0, 'served from memory: no round trip');
  t.false(await x.verify([seen]));
  t.is((await x.load(3))?.gold, 5, 'forgotten by the failed verify, read again');
  const stale = (await y.load(4))!;
  t.true((await x.commit({ players: [{ state: bump(q, 1), expectedVersion: 0 }] })).ok);
  const r = await y.commit({
    players: [{ state: bump(p, 9), expectedVersion: 1 }],
    reads: [{ playerId: 4, version: stale.version }],
  });
  t.like(r, { ok: false, conflict: 'version' });
  t.is((await x.load(3))?.gold, 5, 'the refused commit kept nothing');
});

test('an Idempotency-Key in flight in one process is 110 in the other; once answered, both give the kept answer', async (t) => {
  let entered: () => void = () => {};
  const inCommit = new Promise<void>((r) => {
    entered = r;
  });
  let open_: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open_ = r;
  });
  let hold = false;
  const { a, b } = await twoServices(t, {
    wrap: (s) =>
      new Proxy(s, {
        get: (target, prop, receiver) => {
          const v = Reflect.get(target, prop, receiver) as unknown;
          if (prop !== 'commit') return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
          return async (c: Commit) => {
            if (hold && c.idempotency?.length) {
              entered();
              await gate;
            }
            return target.commit(c);
          };
        },
      }),
  });
  const c = await signupLogin(a);
  await grant(a, c.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(c);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'one-draw' };
  const body = { gachaId: 3, drawType: 3 };
  hold = true;
  const first = a.call('POST', '/api/player/gacha/draw', body, headers);
  await inCommit;
  const second = await b.call('POST', '/api/player/gacha/draw', body, headers);
  t.is(second.body['resultCode'], 110, 'the other process sees the key in flight');
  t.is(second.status, 409);
  open_();
  const done = await first;
  t.is(done.body['resultCode'], 0);
  const again = await b.call('POST', '/api/player/gacha/draw', body, headers);
  t.deepEqual(again.body['gachaResults'], done.body['gachaResults'], 'the kept answer, not a second draw');
  // The whole answer as kept (its record's JSON written around the payload's), but its time.
  const { serverTime: _replayedAt, ...replayed } = again.body;
  const { serverTime: _answeredAt, ...answered } = done.body;
  t.deepEqual(replayed, answered, 'the replay is the first answer, member for member');
});

test('a claim left by a process that died is taken over once it is a minute old', async (t) => {
  const schema = freshSchema();
  const [x, y] = [await open(schema), await open(schema)];
  t.teardown(async () => {
    await x.close();
    await y.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const now = 1_000_000_000_000;
  t.true((await x.claimIdempotency('k', now)).claimed);
  t.false((await y.claimIdempotency('k', now + 59_000)).claimed);
  t.true((await y.claimIdempotency('k', now + 61_000)).claimed);
  await y.releaseIdempotency('k');
  t.true((await x.claimIdempotency('k', now + 62_000)).claimed, 'released: free again');
});

test('sign-up and log-in limits hold across processes: 13 sign-ups alternating between two get 10 answers and 3 × 429', async (t) => {
  const limits: RateLimits = {
    session: { rate: 20, burst: 40, lease: 5 },
    address: { rate: 100, burst: 200, lease: 20 },
    account: { rate: 0.2, burst: 10 },
  };
  const { a, b } = await twoServices(t, { rateLimits: limits });
  const statuses: number[] = [];
  for (let i = 0; i < 13; i++)
    statuses.push((await (i % 2 ? b : a).call('POST', '/api/player/signup', { uuid: newUuid(), platform: 1 })).status);
  t.deepEqual(statuses, [...Array(10).fill(200), 429, 429, 429]);
});

test("a session's limit holds across processes: leases are taken from one bucket, never more than its burst at one instant", async (t) => {
  const limits: RateLimits = {
    session: { rate: 1, burst: 12, lease: 4 },
    address: { rate: 1000, burst: 1000, lease: 50 },
    account: { rate: 100, burst: 100 },
  };
  const { a, b } = await twoServices(t, { rateLimits: limits });
  const c = await signupLogin(a);
  const sid = { 'X-STAR-SESSION-ID': c.sessionId };
  // The clock stands still: no token returns during the run.
  let ok = 0;
  for (let i = 0; i < 30; i++)
    if ((await (i % 2 ? b : a).call('GET', '/api/player/get_all', undefined, sid)).status === 200) ok++;
  t.true(ok <= 12, `${ok} answered`);
  t.true(ok >= 12 - 4, `${ok} answered: at most one lease's tokens idle in a process`);
});

test('prune drops answers past their time, buckets idle an hour and claims an hour old, and keeps the rest', async (t) => {
  const schema = freshSchema();
  const x = await open(schema);
  t.teardown(async () => {
    await x.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const now = 1_000_000_000_000;
  const hour = 3_600_000;
  const record = (createdAt: number) => ({ requestHash: 'h', answer: { ok: {} }, createdAt });
  t.true(
    (
      await x.commit({
        players: [],
        idempotency: [
          { key: 'old', record: record(now - 2 * hour) },
          { key: 'new', record: record(now - 1000) },
        ],
      })
    ).ok,
  );
  await x.claimIdempotency('dead', now - 2 * hour);
  await x.claimIdempotency('live', now - 1000);
  await x.takeTokens('idle', { rate: 1, burst: 5 }, 1, now - 2 * hour);
  await x.takeTokens('busy', { rate: 1, burst: 5 }, 5, now - 1000);
  await x.prune(now, hour);
  t.is(await x.getIdempotency('old'), undefined);
  t.truthy(await x.getIdempotency('new'));
  t.true((await x.claimIdempotency('dead', now)).claimed, 'the dead claim is gone');
  t.false((await x.claimIdempotency('live', now)).claimed, 'the live claim stays');
  t.is((await x.takeTokens('busy', { rate: 1, burst: 5 }, 0, now - 1000)).granted, 0);
  t.is(
    (await x.takeTokens('busy', { rate: 1, burst: 5 }, 0, now - 1000)).waitSeconds,
    1,
    'the busy bucket kept its count',
  );
  t.is((await x.takeTokens('idle', { rate: 0.0001, burst: 5 }, 5, now)).granted, 5, 'the idle bucket starts full');
});

test('the operator API reads a player as stored now, whichever process wrote last', async (t) => {
  const { a, b } = await twoServices(t);
  const c = await signupLogin(a);
  const auth = { Authorization: `Bearer ${ADMIN}` };
  const gemsAt = async (h: typeof a) =>
    ((await h.call('GET', `/admin/players/${c.playerId}`, undefined, auth)).body['state'] as { gem: number }).gem;
  const before = await gemsAt(a); // cached in A
  await grant(b, c.playerId, 'gem', 0, 700);
  const onB = { get: (p: string) => b.call('GET', p, undefined, { 'X-STAR-SESSION-ID': c.sessionId }) };
  const box = (await onB.get('/api/player/present/get_all')).body['presents'] as Array<{
    managedPresentId: number;
    title?: string;
  }>;
  await onB.get(`/api/player/present/get?managedPresentId=${box.map((x) => x.managedPresentId).join(',')}`);
  t.true((await gemsAt(a)) >= before + 700);
});

test('a key answered longer ago than the kept time is answered anew: its old record is replaced, a live one is a conflict', async (t) => {
  const schema = freshSchema();
  const x = await open(schema, { idempotencyTtlMs: 1000 });
  t.teardown(async () => {
    await x.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const record = (createdAt: number, gold: number) => ({ requestHash: 'h', answer: { ok: { gold } }, createdAt });
  t.true((await x.commit({ players: [], idempotency: [{ key: 'k', record: record(10_000, 1) }] })).ok);
  t.like(await x.commit({ players: [], idempotency: [{ key: 'k', record: record(10_500, 2) }] }), {
    ok: false,
    conflict: 'unique',
  });
  t.false((await x.claimIdempotency('k', 10_500)).claimed, 'a live answer: nothing to claim');
  t.true((await x.claimIdempotency('k', 11_500)).claimed, 'past its time: claimed anew');
  t.true((await x.commit({ players: [], idempotency: [{ key: 'k', record: record(11_500, 3) }] })).ok);
  t.deepEqual(await x.getIdempotency('k'), record(11_500, 3));
});
