// A deleted player purged from PostgreSQL with two processes on one schema (docs/privacy.md):
// the player on one, its friends on the other; a relation that ended before the deletion
// left in another player's delta rows. After the deletion and the other process's compaction
// (prune: the erasures not yet purged), no row of any table of the schema holds its name,
// either uuid, its friend code or its token's hash; both processes answer as if it never
// was (log-in 202, the operator's read 404), a stale cache included. JSON files: erasure.test.ts.
import test from 'ava';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { ADMIN, startHarness } from '../_support/http.js';
import { NOW } from '../_support/core.js';
import { freshSchema, sql, TEST_DATABASE_URL } from '../_support/pg.js';
import { deleted, historyOf, searchSchema, signedUp } from '../_support/erasure.js';

const NAME = 'Zelda Quixo';
const admin = { Authorization: `Bearer ${ADMIN}` };
const summary = (r: Awaited<ReturnType<typeof searchSchema>>): string =>
  `${r.tables} tables, ${r.rows} rows searched; ${Object.keys(r.hits).length} rows hold it: ${JSON.stringify(r.hits)}`;

test('PostgreSQL, two processes: after the compaction no row holds the deleted player’s name, uuids, friend code or token hash', async (t) => {
  t.timeout(120_000);
  const schema = freshSchema();
  const open = () => PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 4 });
  const sa = await open();
  const sb = await open();
  const ha = await startHarness({ storage: sa, now: NOW });
  // Tokens of their own: the same seed would hand process B's players the tokens process A handed out.
  const hb = await startHarness({ storage: sb, now: NOW, tokenSeed: 'tokens-b' });
  t.teardown(async () => {
    await ha.close();
    await hb.close();
    await sa.close();
    await sb.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  // The player on process A; its friends on process B.
  const { a, b, needles } = await historyOf(ha, NAME, hb);
  // A relation that ended before the deletion: its name stays in D's delta rows until they fold.
  const d = await signedUp(hb, 'Di');
  t.is((await d.post('/api/player/friend/propose', { playerId: a.playerId })).body['resultCode'], 0);
  t.is((await d.post('/api/player/friend/cancel', { playerId: a.playerId })).body['resultCode'], 0);
  // B's state cached on process A too (a friend list read there), to go stale there.
  t.is((await ha.call('GET', `/admin/players/${b.playerId}`, undefined, admin)).body['resultCode'], 0);

  const before = await searchSchema(schema, needles);
  t.log(`before: ${summary(before)}`);
  for (const table of ['players ', 'player_deltas ', 'player_keys ', 'replay_log ', 'idempotency '])
    t.true(
      Object.keys(before.hits).some((k) => k.startsWith(table)),
      `before the deletion, ${table.trim()} holds it (the search finds what is there)`,
    );

  await deleted(a);
  // Process B's compaction (its prune, every ten minutes in a server) purges what A's did not yet.
  await sb.prune(hb.clock.now, 86_400_000);
  const after = await searchSchema(schema, needles);
  t.log(`after the compaction: ${summary(after)}`);
  t.deepEqual(after.hits, {});
  const erasures = await sql<{ player_id: string; purged_at: string | null; scrub: string[] }>(
    `SELECT player_id, purged_at, scrub FROM ${schema}.erasures`,
  );
  t.deepEqual(
    erasures.map((e) => [Number(e.player_id), e.purged_at !== null, e.scrub]),
    [[a.playerId, true, []]],
    'the erasure is marked purged; what it kept of whom to scrub is gone',
  );
  const tombstone = await sql<{ deltas: string }>(
    `SELECT count(*)::text AS deltas FROM ${schema}.player_deltas WHERE player_id = $1`,
    [a.playerId],
  );
  t.is(tombstone[0]?.deltas, '0', 'the deleted row holds its tombstone whole, no delta');

  // Both processes: no log-in, no operator's read, a friend list without it (process A's cache of B was stale).
  for (const h of [ha, hb]) {
    const login = await h.call('POST', '/api/player/login', { uuid: a.uuid, accessToken: a.accessToken, platform: 1 });
    t.is(login.body['resultCode'], 202);
    t.is((await h.call('GET', `/admin/players/${a.playerId}`, undefined, admin)).status, 404);
    t.deepEqual(
      (await h.call('GET', `/admin/players?name=${encodeURIComponent(NAME)}`, undefined, admin)).body['players'],
      [],
    );
  }
  const bOnA = (await ha.call('GET', `/admin/players/${b.playerId}`, undefined, admin)).body['state'] as {
    friends: unknown[];
  };
  t.deepEqual(bOnA.friends, [], "process A reads B's state as it is now");
  t.false((await sa.playerIds()).includes(a.playerId));
  t.is(await sb.purgeErased(), 0, 'nothing left to purge');
});
