// A game-data switch under load on two PostgreSQL processes (the small run of
// `npm run master:switch`): every answer before the scheduled instant charged the old
// price, every one from it the new price (by each request's time), no failure, no restart.
import test from 'ava';
import { runSwitch, type SwitchOptions } from '../../scripts/lib/master-switch.js';
import { startChild } from '../_support/child.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { freshSchema, TEST_DATABASE_URL } from '../_support/pg.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { master } from '../_support/core.js';

test('two processes switch to a scheduled price at the same instant, by each request time, with no failure', async (t) => {
  const schema = freshSchema();
  const adminToken = 'master-switch-test-admin';
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    PG_SCHEMA: schema,
    ADMIN_TOKEN: adminToken,
    RATE_LIMITS: 'off',
    PG_POOL_SIZE: '4',
    MASTER_POLL_SECONDS: '1',
  };
  const servers = await Promise.all([startChild(env), startChild(env)]);
  t.teardown(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  const r = await runSwitch({
    servers,
    adminToken,
    clients: 4,
    beforeSeconds: 4,
    afterSeconds: 2,
    offsetMinutes: master().game.timezoneOffsetMinutes,
    gachas: masterSourceOf(master())?.raw['gachas'] as SwitchOptions['gachas'],
  });
  t.log(JSON.stringify(r));
  t.is(r.failures, 0, r.firstFailure ?? '');
  t.true(r.before.draws > 0 && r.after.draws > 0, 'draws on both sides of the instant');
  t.is(r.before.wrongPrice, 0, `before ${r.at}: ${r.oldPrice} gems`);
  t.is(r.after.wrongPrice, 0, `from ${r.at}: ${r.newPrice} gems`);
  t.true(
    r.byServer.every((n) => n > 0),
    'both processes served',
  );
});
