// A damaged snapshot repaired (issue 33: it used to leave its player answering 503/105 for
// good, storage:check pointing back to itself and the replay refusing the player).
// storage:check names the repair; `npm run storage:repair` rebuilds the player from the
// replay log and the journal (or takes an export), checked against the log's last entry,
// and the player answers with its state again. The repair and `storage:check --truncate-at`
// refuse a directory a running process holds (DATA_DIR/server.pid), changing nothing.
import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { snapshotPath } from '../../adapters/storage/checkpoint.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { ADMIN, receiveAllHttp, signupLogin, reopenFiles, startHarness, type Harness } from '../_support/http.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const admin = { Authorization: `Bearer ${ADMIN}` };

/** A script run as an operator runs it: its exit status and what it printed (stdout and stderr). */
const run = (script: string, args: ReadonlyArray<string>): Promise<{ code: number | null; out: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => resolve({ code, out }));
  });
const repair = (args: ReadonlyArray<string>) => run('scripts/storage-repair.ts', args);

const dirFor = (t: ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-repair-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const stateOf = async (h: Harness, id: number) => (await h.call('GET', `/admin/players/${id}`, undefined, admin)).body;

/**
 * Two players who sign up, draw, add tips and become friends (entries reading each other),
 * then the store closed (a checkpoint: every state in a snapshot, the journal empty). Returns
 * a's stored state and export at the end, and an export taken before its last change.
 */
const played = async (t: ExecutionContext, dir: string) => {
  const storage = await FileStorage.open({ dir });
  const h = await startHarness({ storage });
  t.teardown(async () => {
    await h.close();
    await storage.close();
  });
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const ok = async (c: typeof a, path: string, body: unknown) => {
    const r = await c.post(path, body);
    if (r.body['resultCode'] !== 0) throw new Error(`${path}: ${JSON.stringify(r.body)}`);
  };
  await receiveAllHttp(a); // the starting presents: gems to draw with
  await ok(a, '/api/player/gacha/draw', { gachaId: 2, drawType: 1 });
  await ok(b, '/api/player/friend/propose', { playerId: a.playerId });
  await ok(a, '/api/player/friend/accept', { playerId: b.playerId });
  const stale = (await h.call('GET', `/admin/players/${a.playerId}/export`, undefined, admin)).body;
  await ok(a, '/api/player/tutorial/tip/add', { tipId: 3 });
  const state = (await stateOf(h, a.playerId))['state'];
  const exported = (await h.call('GET', `/admin/players/${a.playerId}/export`, undefined, admin)).body;
  await h.close();
  await storage.close();
  return { a, b, state, exported, stale };
};

/** One digit of the snapshot's gold changed (its CRC no longer matches). */
const damage = (dir: string, id: number): Buffer => {
  const path = snapshotPath(dir, id);
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf('"gold":') + 7;
  writeFileSync(path, `${text.slice(0, at)}9${text.slice(at)}`);
  return readFileSync(path);
};

test('a damaged snapshot: 503/105; storage:check names storage:repair, which rebuilds it from the log; the player answers its state', async (t) => {
  const dir = dirFor(t);
  const { a, b, state } = await played(t, dir);
  const damaged = damage(dir, a.playerId);
  const broken = await FileStorage.open({ dir });
  const hb = await startHarness({ storage: broken });
  const before = await hb.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': a.sessionId });
  t.is(before.status, 503);
  t.is(before.body['resultCode'], 105);
  await hb.close();
  await broken.close();

  const check = await run('scripts/storage-check.ts', [dir]);
  t.is(check.code, 1);
  t.true(check.out.includes(`npm run storage:repair -- --data ${dir} --player ${a.playerId}`), check.out);

  const r = await repair(['--data', dir, '--player', String(a.playerId)]);
  t.is(r.code, 0, r.out);
  t.regex(r.out, /rebuilt from \d+ replay-log entries .* its state hash the log's last entry's/);
  t.deepEqual(readFileSync(`${snapshotPath(dir, a.playerId)}.damaged`), damaged, 'the damaged file is kept as it was');
  t.is((await run('scripts/storage-check.ts', [dir])).code, 0, 'storage:check finds nothing damaged now');
  // A second run: nothing to repair, nothing changed.
  const again = await repair(['--data', dir, '--player', String(a.playerId)]);
  t.is(again.code, 1);
  t.regex(again.out, /reads whole .* nothing changed/);

  const h = await reopenFiles(t, dir);
  const after = await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': a.sessionId });
  t.is(after.status, 200);
  t.is(after.body['resultCode'], 0);
  t.deepEqual((await stateOf(h, a.playerId))['state'], state, 'the state it had before the damage');
  t.is((await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': b.sessionId })).status, 200);
});

test("--from an export restores the player; an export older than the log's last entry is refused, nothing changed", async (t) => {
  const dir = dirFor(t);
  const { a, state, exported, stale } = await played(t, dir);
  const damaged = damage(dir, a.playerId);
  const scratch = dirFor(t);
  const [good, old] = [join(scratch, 'a.json'), join(scratch, 'old.json')];
  writeFileSync(good, JSON.stringify(exported));
  writeFileSync(old, JSON.stringify(stale));

  const refused = await repair(['--data', dir, '--player', String(a.playerId), '--from', old]);
  t.is(refused.code, 1);
  t.regex(
    refused.out,
    /is not the player's last in the log: it is at version \d+, the log's last entry made \d+; nothing changed/,
  );
  t.deepEqual(readFileSync(snapshotPath(dir, a.playerId)), damaged);
  t.false(existsSync(`${snapshotPath(dir, a.playerId)}.damaged`));

  const r = await repair(['--data', dir, '--player', String(a.playerId), '--from', good]);
  t.is(r.code, 0, r.out);
  const h = await reopenFiles(t, dir);
  t.deepEqual((await stateOf(h, a.playerId))['state'], state);
});

test('storage:check --truncate-at and storage:repair refuse a directory a running process holds, and change nothing; once it is closed, they run', async (t) => {
  const dir = dirFor(t);
  const { a } = await played(t, dir);
  damage(dir, a.playerId);
  const storage = await FileStorage.open({ dir }); // this test's process holds it now
  t.teardown(() => storage.close());
  const files = () =>
    Object.fromEntries(
      [dir, join(dir, 'players', String(a.playerId % 256))].flatMap((d) =>
        readdirSync(d)
          .filter((f) => statSync(join(d, f)).isFile())
          .map((f) => [join(d, f), readFileSync(join(d, f)).toString('hex')]),
      ),
    );
  const held = `${dir} is held by a running process (${process.pid}`;
  const before = files();
  const cut = await run('scripts/storage-check.ts', [dir, '--truncate-at', '0']);
  t.is(cut.code, 2);
  t.true(cut.out.includes(held), cut.out);
  const fixed = await repair(['--data', dir, '--player', String(a.playerId)]);
  t.is(fixed.code, 2);
  t.true(fixed.out.includes(held), fixed.out);
  t.deepEqual(files(), before, 'nothing changed');

  await storage.close();
  t.false(existsSync(join(dir, 'server.pid')), 'the close lets the directory go');
  t.is((await repair(['--data', dir, '--player', String(a.playerId)])).code, 0);
});

test('a store that cannot mark its directory (server.pid unwritable) still opens and serves; the failure is logged', async (t) => {
  const dir = dirFor(t);
  mkdirSync(join(dir, 'server.pid')); // a directory: the mark's rename over it fails
  const logged: Array<{ event: string; data: Record<string, unknown> }> = [];
  const storage = await FileStorage.open({ dir, log: (event, data) => logged.push({ event, data }) });
  const h = await startHarness({ storage });
  t.teardown(async () => {
    await h.close();
    await storage.close();
  });
  const c = await signupLogin(h);
  t.is((await c.get('/api/player/get_all')).body['resultCode'], 0);
  t.deepEqual(
    logged.filter((l) => l.event === 'storage.hold_failed').map((l) => l.data['dir']),
    [dir],
  );
});
