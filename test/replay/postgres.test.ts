// The replay CLI over a PostgreSQL database: a session stored there (state, log
// and master snapshot) is rebuilt byte for byte.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import { openPostgres, TEST_DATABASE_URL } from '../_support/pg.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { master } from '../_support/core.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('npm run replay -- --database-url: a session stored in PostgreSQL replays byte-identical', async (t) => {
  const pg = await openPostgres();
  t.teardown(pg.cleanup);
  const src = masterSourceOf(master());
  if (src) await pg.storage.saveMasterSnapshot(src.hash, src.raw);
  const h = await startHarness({ storage: pg.storage });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  await receiveAllHttp(a);
  await grant(h, a.playerId, 'gem', 0, 3000);
  await receiveAllHttp(a);
  t.is((await a.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 })).body['resultCode'], 0);
  t.is((await a.post('/api/player/friend/propose', { playerId: b.playerId })).body['resultCode'], 0);
  t.is((await b.post('/api/player/friend/accept', { playerId: a.playerId })).body['resultCode'], 0);
  t.is((await a.post('/api/player/move/get', { password: 'secret-123' })).body['resultCode'], 0);
  const run = (player: number) =>
    spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        'scripts/replay.ts',
        '--player',
        String(player),
        '--database-url',
        TEST_DATABASE_URL,
        '--schema',
        pg.schema,
      ],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
  for (const id of [a.playerId, b.playerId]) {
    const r = run(id);
    t.is(r.status, 0, r.stdout + r.stderr);
    t.regex(r.stdout, new RegExp(`player ${id}: byte-identical to the stored state`));
  }
});
