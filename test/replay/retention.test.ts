// The replay CLI over a log kept in segments and cut by its retention (issue 36): a
// running server's directory whose log is sealed into segments replays byte for
// byte; once the oldest segment is archived, a player whose history begins in it is
// told so (exit 3: where the kept log starts, where the archive is) instead of a
// confusing difference, `--archive` replays it from the archive too, and a player
// whose entries are all kept replays as before. On PostgreSQL, the same after prune.
import test, { type ExecutionContext } from 'ava';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { masterSourceOf, writeMasterSnapshot } from '../../adapters/master/load.js';
import { bornBefore } from '../../adapters/service/replay.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { master, NOW } from '../_support/core.js';
import { receiveAllHttp, relogin, signupLogin, startHarness } from '../_support/http.js';
import { openPostgres, TEST_DATABASE_URL } from '../_support/pg.js';
import { runReplay } from '../_support/replay-cli.js';

const DAY = 86_400_000;
type Client = Awaited<ReturnType<typeof signupLogin>>;

const must = async (t: ExecutionContext, c: Client, path: string, body: unknown): Promise<void> => {
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], 0, `${path}: ${JSON.stringify(r.body).slice(0, 200)}`);
};

test('npm run replay across segments and after retention: byte-identical while kept; a history begun in the archive is said so (exit 3); --archive replays it; a player kept whole is unaffected', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-replay-retention-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  // Day 0: a and b sign up, a draws, they become friends. Sealed at the close (oplogSegmentBytes 1).
  const first = await FileStorage.open({ dir, oplogSegmentBytes: 1 });
  writeMasterSnapshot(dir, master());
  const h1 = await startHarness({ storage: first, tokenSeed: 'retention-1', now: NOW });
  let a = await signupLogin(h1);
  let b = await signupLogin(h1);
  for (const x of [a, b]) t.is((await receiveAllHttp(x)).body['resultCode'], 0);
  await must(t, a, '/api/player/gacha/draw', { gachaId: 3, drawType: 1, stepCode: 0, reDraw: false });
  await must(t, b, '/api/player/friend/propose', { playerId: a.playerId });
  await must(t, a, '/api/player/friend/accept', { playerId: b.playerId });
  await h1.close();
  await first.close();
  // Day 100: both log in again; c signs up and takes its presents. Sealed too.
  const second = await FileStorage.open({ dir, oplogSegmentBytes: 1 });
  const h2 = await startHarness({ storage: second, tokenSeed: 'retention-2', now: NOW + 100 * DAY });
  a = await relogin(h2, a);
  b = await relogin(h2, b);
  const c = await signupLogin(h2);
  t.is((await receiveAllHttp(c)).body['resultCode'], 0);
  await h2.close();
  await second.close();
  t.is(readdirSync(join(dir, 'oplog')).filter((f) => f.endsWith('.jsonl')).length, 2);
  // Day 101, the running server: a and b part (the live segment), 30 days kept.
  const storage = await FileStorage.open({ dir, replayLogRetentionMs: 30 * DAY, clock: () => NOW + 101 * DAY });
  const h = await startHarness({ storage, tokenSeed: 'retention-3', now: NOW + 101 * DAY });
  t.teardown(async () => {
    await h.close();
    await storage.close();
  });
  a = await relogin(h, a);
  await must(t, a, '/api/player/friend/terminate', { playerId: b.playerId });

  for (const p of [a, b, c]) {
    const r = await runReplay(['--player', String(p.playerId), '--data', dir]);
    t.is(r.code, 0, r.out);
    t.regex(r.out, new RegExp(`player ${p.playerId}: byte-identical to the stored state`));
  }

  // Day 0's segment is past 30 days: archived. The kept log starts at day 100's first entry.
  const moved = await storage.archiveLog();
  t.is(moved.length, 1);
  const keptFrom = (moved[0]?.last ?? 0) + 1;
  t.true(bornBefore(await storage.readLog()).includes(a.playerId));
  for (const p of [a, b]) {
    const r = await runReplay(['--player', String(p.playerId), '--data', dir]);
    t.is(r.code, 3, r.out);
    t.regex(
      r.out,
      new RegExp(
        `player ${p.playerId}: its history begins before the kept replay log, which starts at seq ${keptFrom}; created before it: players ${Math.min(a.playerId, b.playerId)}, ${Math.max(a.playerId, b.playerId)}; older entries were archived to ${join(dir, 'oplog-archive').replace(/[/.]/g, '\\$&')} \\(run again with --archive to read them too\\)`,
      ),
    );
    t.notRegex(r.out, /first difference/);
  }
  const kept = await runReplay(['--player', String(c.playerId), '--data', dir]);
  t.is(kept.code, 0, kept.out);
  t.regex(kept.out, /byte-identical/);
  for (const p of [a, b, c]) {
    const r = await runReplay(['--player', String(p.playerId), '--data', dir, '--archive']);
    t.is(r.code, 0, r.out);
    t.regex(r.out, new RegExp(`player ${p.playerId}: byte-identical to the stored state`));
  }
  // With the archive gone too (the operator deleted it), --archive says so.
  rmSync(join(dir, 'oplog-archive'), { recursive: true });
  const gone = await runReplay(['--player', String(a.playerId), '--data', dir, '--archive']);
  t.is(gone.code, 3, gone.out);
  t.regex(gone.out, /does not reach back further \(archives were removed\)/);
  const usage = await runReplay(['--player', String(a.playerId), '--database-url', TEST_DATABASE_URL, '--archive']);
  t.is(usage.code, 2, usage.out);
  t.regex(usage.out, /--archive reads a data directory's archive; on PostgreSQL the archive is the database's backups/);
});

test('bornBefore: the players whose first entry in a log is not the one that created them, sorted; none in a whole log', (t) => {
  const op = (
    seq: number,
    name: string,
    playerId: number,
    others: Array<number | null> = [],
    playerIds = [playerId],
  ) => ({
    kind: 'op' as const,
    at: 0,
    masterHash: 'm',
    op: name,
    playerId,
    request: {},
    seed: '',
    others,
    playerIds,
    results: [],
    seq,
  });
  const whole = [
    op(1, 'signupPlayer', 1),
    op(2, 'signupPlayer', 2),
    op(3, 'loginPlayer', 1),
    op(4, 'proposePlayerFriend', 2, [1], [2, 1]),
  ];
  t.deepEqual(bornBefore(whole), []);
  t.deepEqual(bornBefore(whole.slice(2)), [1, 2], 'both begin before it');
  t.deepEqual(
    bornBefore([op(5, 'signupPlayer', 3), op(6, 'proposePlayerFriend', 3, [7, null], [3, 7])]),
    [7],
    'a player only named, never created here; a null other is none',
  );
  // An old kind: signup creates.
  t.deepEqual(
    bornBefore([
      {
        kind: 'signup',
        at: 0,
        masterHash: 'm',
        playerIds: [4],
        results: [],
        playerId: 4,
        uuid: 'u',
        platform: 1,
        name: 'n',
        stepCode: 0,
        tokenHash: 'h',
        seed: 's',
        seq: 1,
      },
    ]),
    [],
  );
});

test('npm run replay -- --database-url after prune: a history begun before the kept rows is said so (exit 3), naming the backups', async (t) => {
  const pg = await openPostgres();
  t.teardown(pg.cleanup);
  const src = masterSourceOf(master());
  if (src) await pg.storage.saveMasterSnapshot(src.hash, src.raw);
  const h = await startHarness({ storage: pg.storage, now: NOW });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  await receiveAllHttp(a);
  h.clock.now = NOW + 100 * DAY;
  const b = await signupLogin(h);
  await relogin(h, a);
  t.true((await pg.storage.pruneReplayLog(NOW + DAY)) > 0);
  const start = await pg.storage.replayLogStart();
  const root = fileURLToPath(new URL('../../', import.meta.url));
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
  const ra = run(a.playerId);
  t.is(ra.status, 3, ra.stdout + ra.stderr);
  t.regex(
    ra.stdout,
    new RegExp(
      `player ${a.playerId}: its history begins before the kept replay log, which starts at seq ${start}; created before it: player ${a.playerId}; older rows were deleted by the retention \\(REPLAY_LOG_RETENTION_DAYS\\); the database's backups hold them`,
    ),
  );
  const rb = run(b.playerId);
  t.is(rb.status, 0, rb.stdout + rb.stderr);
});
