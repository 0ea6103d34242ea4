// Idempotency-Key claims grouped on PostgreSQL (postgres-idempotency.ts): claims asked while
// one is out go together, one round trip and one transaction, and each is answered as it
// would have been alone: claimed, refused while a live answer is kept (which it returns) or
// while another request's claim is fresh, a stale claim taken over. One key is never claimed
// twice in one call. A failure PostgreSQL answers for the call sends each claim again alone.
import test from 'ava';
import { StorageError } from '../../adapters/storage/storage.js';
import { openStore, sql } from '../_support/pg.js';

const NOW = 1_000_000_000_000;
const DAY = 86_400_000;
const record = (createdAt: number) => ({ requestHash: 'h', answer: { ok: { n: createdAt } }, createdAt });

/** A store with: a live kept answer, an expired one, a fresh claim, a stale claim; round trips counted from here. */
const storeWithKeys = async (t: Parameters<typeof openStore>[0]) => {
  const { storage, schema } = await openStore(t);
  await storage.commit({
    players: [],
    idempotency: [
      { key: 'p1:live', record: record(NOW - 1000) },
      { key: 'p1:expired', record: record(NOW - 2 * DAY) },
    ],
  });
  t.true((await storage.claimIdempotency('p1:fresh', NOW - 1000)).claimed);
  t.true((await storage.claimIdempotency('p1:stale', NOW - 120_000)).claimed);
  const from = storage.stats().roundTrips ?? 0;
  return { storage, schema, trips: () => (storage.stats().roundTrips ?? 0) - from };
};

const claimsHeld = async (schema: string) =>
  (await sql<{ key: string; claimed_at: string }>(`SELECT key, claimed_at FROM ${schema}.idempotency_claims`))
    .map((r) => `${r.key}@${NOW - Number(r.claimed_at)}`)
    .sort();

test('claims asked at once: the first alone, the rest in one round trip, each answered as alone; a key asked twice goes in the next call', async (t) => {
  const { storage, schema, trips } = await storeWithKeys(t);
  const keys = ['p1:first', 'p1:new', 'p1:live', 'p1:expired', 'p1:fresh', 'p1:stale', 'p1:new'];
  const got = await Promise.all(keys.map((k) => storage.claimIdempotency(k, NOW)));
  t.deepEqual(
    got.map((c) => c.claimed),
    [true, true, false, true, false, true, false],
    'new keys claimed; a live answer and a fresh claim refused; an expired answer and a stale claim taken; the repeat refused',
  );
  t.deepEqual(got[2]?.record, record(NOW - 1000), 'the live answer is handed back');
  t.deepEqual(got[3]?.record, record(NOW - 2 * DAY), 'an expired answer is handed back too, as alone');
  t.is(got[1]?.record, undefined);
  t.is(trips(), 3, 'the first alone, five together, the repeated key in a call of its own');
  t.deepEqual(await claimsHeld(schema), ['p1:expired@0', 'p1:first@0', 'p1:fresh@1000', 'p1:new@0', 'p1:stale@0']);
});

test('a failure PostgreSQL answers for a call of several claims: each is asked again alone, and only the one that fails fails', async (t) => {
  const { storage, schema, trips } = await storeWithKeys(t);
  await sql(`CREATE FUNCTION ${schema}.refuse() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.key = 'p1:bad' THEN RAISE EXCEPTION 'planted failure'; END IF; RETURN NEW; END $$`);
  await sql(
    `CREATE TRIGGER refuse BEFORE INSERT ON ${schema}.idempotency_claims FOR EACH ROW EXECUTE FUNCTION ${schema}.refuse()`,
  );
  const keys = ['p1:first', 'p1:a', 'p1:bad', 'p1:live', 'p1:b'];
  const got = await Promise.allSettled(keys.map((k) => storage.claimIdempotency(k, NOW)));
  t.deepEqual(
    got.map((r) => (r.status === 'fulfilled' ? r.value.claimed : 'failed')),
    [true, true, 'failed', false, true],
  );
  const reason = got[2]?.status === 'rejected' ? (got[2].reason as Error) : undefined;
  t.true(reason instanceof StorageError);
  t.regex(reason?.message ?? '', /planted failure/);
  t.is(trips(), 6, 'the first alone, four together, then each of the four alone');
  t.deepEqual(await claimsHeld(schema), ['p1:a@0', 'p1:b@0', 'p1:first@0', 'p1:fresh@1000', 'p1:stale@120000']);
});

test('a claim a commit released, then the same key claimed in a call of several: the kept answer refuses it', async (t) => {
  const { storage, trips } = await storeWithKeys(t);
  t.true((await storage.claimIdempotency('p1:done', NOW)).claimed);
  await storage.commit({ players: [], idempotency: [{ key: 'p1:done', record: record(NOW) }] });
  const from = trips();
  const got = await Promise.all(['p1:x', 'p1:done', 'p1:y'].map((k) => storage.claimIdempotency(k, NOW + 1)));
  t.deepEqual(
    got.map((c) => c.claimed),
    [true, false, true],
  );
  t.deepEqual(got[1]?.record, record(NOW));
  t.is(trips() - from, 2);
});

test('two stores on one schema (two processes) claim the same keys in opposite orders: each key claimed once, no deadlock, no call sent again alone', async (t) => {
  const { storage: a, schema } = await openStore(t);
  const { storage: b } = await openStore(t, {}, schema);
  // A kept answer both are refused by.
  await a.commit({ players: [], idempotency: [{ key: 'p2:kept', record: record(NOW - 1000) }] });
  // Each claim's insert takes a millisecond, so the two stores' calls overlap for tens of ms.
  await sql(`CREATE FUNCTION ${schema}.slow() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN PERFORM pg_sleep(0.001); RETURN NEW; END $$`);
  await sql(
    `CREATE TRIGGER slow BEFORE INSERT ON ${schema}.idempotency_claims FOR EACH ROW EXECUTE FUNCTION ${schema}.slow()`,
  );
  for (let round = 0; round < 4; round++) {
    const keys = [...Array.from({ length: 40 }, (_, i) => `p2:r${round}:${String(i).padStart(2, '0')}`), 'p2:kept'];
    const tripsA = a.stats().roundTrips ?? 0;
    const tripsB = b.stats().roundTrips ?? 0;
    // Each store's calls insert in key order: were they inserted as asked, A's ascending and
    // B's descending calls would each hold a key the other waits for.
    const [ga, gb] = await Promise.all([
      Promise.all(keys.map((k) => a.claimIdempotency(k, NOW))),
      Promise.all([...keys].reverse().map((k) => b.claimIdempotency(k, NOW))),
    ]);
    const byA = new Map(keys.map((k, i) => [k, ga[i]?.claimed]));
    const byB = new Map([...keys].reverse().map((k, i) => [k, gb[i]?.claimed]));
    t.deepEqual(
      keys.filter((k) => byA.get(k) === byB.get(k)),
      ['p2:kept'],
      `round ${round}: each key claimed by exactly one store; the kept answer's key by neither`,
    );
    // 41 claims a store: the first alone, then calls of at most 32 (a failed call would send each again alone).
    t.is((a.stats().roundTrips ?? 0) - tripsA, 3, `round ${round}: store A's round trips`);
    t.is((b.stats().roundTrips ?? 0) - tripsB, 3, `round ${round}: store B's round trips`);
  }
  const held = await sql<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.idempotency_claims`);
  t.is(Number(held[0]?.n), 4 * 40);
});
