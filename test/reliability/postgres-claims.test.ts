// A keyed request whose PostgreSQL connection is killed (issue 33): the request fails
// (105) and its Idempotency-Key's claim must not outlive it. Its release goes to another
// connection when the first one dies; when every try fails it is logged, and the same
// key's retry in this process takes the claim over at once (not 409/110 for a minute).
// The kills are planted in the test's own schema: triggers that end their own backend
// (pg_terminate_backend(pg_backend_pid())) the first times they fire.
import test from 'ava';
import { openStore, sql } from '../_support/pg.js';
import { ADMIN, grant, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';

/** A trigger on `table` (`when`: its events) that kills its own connection the first `n` times it fires after being planted. */
const plantKill = async (schema: string, name: string, table: string, when: string, n: number) => {
  await sql(`
    CREATE SEQUENCE ${schema}.${name}_fired;
    CREATE FUNCTION ${schema}.${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF nextval('${schema}.${name}_fired') <= ${n} THEN PERFORM pg_terminate_backend(pg_backend_pid()); END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER ${name} AFTER ${when} ON ${schema}.${table} FOR EACH ROW EXECUTE FUNCTION ${schema}.${name}();`);
};

/** The draws the player's stored state records (read through the operator API). */
const drawsOf = async (h: Harness, playerId: number) =>
  (
    (await h.call('GET', `/admin/players/${playerId}`, undefined, { Authorization: `Bearer ${ADMIN}` })).body[
      'state'
    ] as { gachaHistory: unknown[] }
  ).gachaHistory.length;

test("a keyed draw whose commit's connection dies, then its claim's release's too: the retry at once is drawn, once", async (t) => {
  const logged: Array<{ event: string; data: Record<string, unknown> }> = [];
  const { storage, schema } = await openStore(t, { poolSize: 2, log: (event, data) => logged.push({ event, data }) });
  const h = await startHarness({ storage });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await grant(h, c.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(c);
  t.is((await c.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).body['resultCode'], 0);
  t.is(await drawsOf(h, c.playerId), 1);
  // The next write of a player dies with its connection; so does the next claim deleted (the release).
  await plantKill(schema, 'kill_write', 'players', 'UPDATE', 1);
  await plantKill(schema, 'kill_release', 'idempotency_claims', 'DELETE', 1);
  const keyed = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'draw-1' };
  const body = { gachaId: 2, drawType: 1 };
  const failed = await h.call('POST', '/api/player/gacha/draw', body, keyed);
  t.is(failed.body['resultCode'], 105, 'the killed commit: a storage error');
  t.is(await drawsOf(h, c.playerId), 1, 'nothing drawn');
  const retry = await h.call('POST', '/api/player/gacha/draw', body, keyed);
  t.is(retry.body['resultCode'], 0, 'the retry at once is run, not told 409/110');
  t.is(await drawsOf(h, c.playerId), 2, 'drawn once');
  const again = await h.call('POST', '/api/player/gacha/draw', body, keyed);
  t.deepEqual(again.body, retry.body, 'a third send is the kept answer');
  t.is(await drawsOf(h, c.playerId), 2, 'still drawn once');
  t.deepEqual(await sql(`SELECT key FROM ${schema}.idempotency_claims`), [], 'no claim left behind');
  t.deepEqual(
    logged.filter((l) => l.event === 'postgres.claim_release_failed'),
    [],
    'the release landed on its second connection: nothing to report',
  );
});

test("a release that fails on every connection is logged, and the same key's claim in this process takes it over at once; another process's waits", async (t) => {
  const logged: Array<{ event: string; data: Record<string, unknown> }> = [];
  const { storage, schema } = await openStore(t, { poolSize: 2, log: (event, data) => logged.push({ event, data }) });
  const { storage: other } = await openStore(t, { poolSize: 1 }, schema);
  const now = 1_700_000_000_000;
  t.true((await storage.claimIdempotency('p:k', now)).claimed);
  await plantKill(schema, 'kill_release', 'idempotency_claims', 'DELETE', 1_000);
  await storage.releaseIdempotency('p:k');
  t.deepEqual(
    logged.filter((l) => l.event === 'postgres.claim_release_failed').map((l) => l.data['key']),
    ['p:k'],
    'the failed release is logged once, with its key',
  );
  t.deepEqual(await sql(`SELECT key FROM ${schema}.idempotency_claims`), [{ key: 'p:k' }], 'the claim is still there');
  t.false((await other.claimIdempotency('p:k', now + 1)).claimed, "another process still waits for the claim's minute");
  t.true((await storage.claimIdempotency('p:k', now + 1)).claimed, 'this process knows its request failed: taken over');
  // Once taken over, the claim is a live one again: a second claim here is refused.
  t.false((await storage.claimIdempotency('p:k', now + 2)).claimed);
});
