// Damaged files are never served (issue 18): a snapshot that does not match its
// checksum (one digit changed, or cut in half) makes its player's requests answer
// 503/105 while the others are served; a damaged index log or checkpoint stops the
// start naming that file; a damaged journal stops the real server's start naming
// the file and offset, and leaves the file as it was.
import test from 'ava';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotPath } from '../../adapters/storage/checkpoint.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { FileDamaged } from '../../adapters/storage/sealed.js';
import { ADMIN, signupLogin, reopenFiles, startHarness } from '../_support/http.js';
import { startChild } from '../_support/child.js';

const dirFor = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-damaged-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** Two players signed up and changed over HTTP, then the store closed (a checkpoint: snapshots, index log). */
const twoPlayers = async (dir: string) => {
  const storage = await FileStorage.open({ dir });
  const h = await startHarness({ storage });
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  for (const c of [a, b]) await c.post('/api/player/tutorial/tip/add', { tipId: 3 });
  await h.close();
  await storage.close();
  return { a, b };
};

test('one changed digit in a snapshot: that player gets 503/105 (never the data), the others are served', async (t) => {
  const dir = dirFor(t);
  const { a, b } = await twoPlayers(dir);
  const path = snapshotPath(dir, a.playerId);
  const text = readFileSync(path, 'utf8');
  const at = text.indexOf('"gold":') + 7;
  writeFileSync(path, `${text.slice(0, at)}9${text.slice(at)}`); // 60600 → 960600, as in the issue
  const h = await reopenFiles(t, dir);
  const session = (c: typeof a) => ({ 'X-STAR-SESSION-ID': c.sessionId });
  for (const [method, p] of [
    ['GET', '/api/player/get_all'],
    ['POST', '/api/player/tutorial/tip/add'],
  ] as const) {
    const r = await h.call(method, p, method === 'POST' ? { tipId: 4 } : undefined, session(a));
    t.is(r.status, 503, p);
    t.is(r.body['resultCode'], 105, p);
    t.false(JSON.stringify(r.body).includes('960'), 'no part of the damaged state is served');
  }
  const other = await h.call('GET', '/api/player/get_all', undefined, session(b));
  t.is(other.status, 200);
  // The operator API refuses it too.
  const admin = await h.call('GET', `/admin/players/${a.playerId}`, undefined, { Authorization: `Bearer ${ADMIN}` });
  t.is(admin.status, 503);
  t.is(admin.body['resultCode'], 105);
  t.is(readFileSync(path, 'utf8').length, text.length + 1, 'the file is kept as it was');
});

test('a snapshot cut in half: 503/105 on every request of that player, never a 500', async (t) => {
  const dir = dirFor(t);
  const { a, b } = await twoPlayers(dir);
  const path = snapshotPath(dir, a.playerId);
  const bytes = readFileSync(path);
  writeFileSync(path, bytes.subarray(0, Math.floor(bytes.length / 2)));
  const h = await reopenFiles(t, dir);
  for (const p of ['/api/player/get_all', '/api/player/present/get_all']) {
    const r = await h.call('GET', p, undefined, { 'X-STAR-SESSION-ID': a.sessionId });
    t.is(r.status, 503, p);
    t.is(r.body['resultCode'], 105, p);
  }
  // Log-in reads the player by uuid: the same answer.
  const li = await h.call('POST', '/api/player/login', {
    uuid: a.uuid,
    accessToken: a.accessToken,
    platform: 1,
    appVersion: '1.0.0',
  });
  t.is(li.status, 503);
  t.is((await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': b.sessionId })).status, 200);
});

test('an index log (the player keys) with one changed character, or that is not JSON, stops the open naming it; a damaged checkpoint.json names checkpoint.json', async (t) => {
  const dir = dirFor(t);
  await twoPlayers(dir);
  const logFile = readdirSync(dir).find((f) => /^index\.\d+\.log$/.test(f)) as string;
  const logPath = join(dir, logFile);
  const good = readFileSync(logPath, 'utf8');
  const uuidAt = good.indexOf('"uuid"') + 12;
  const cases: Array<[string, string, string]> = [
    [
      logPath,
      `${good.slice(0, uuidAt)}${good[uuidAt] === 'a' ? 'b' : 'a'}${good.slice(uuidAt + 1)}`,
      'CRC does not match',
    ],
    [logPath, `this is not JSON${' '.repeat(good.length - 17)}\n`, 'does not start with a CRC'],
    [logPath, `${good.slice(0, 9)}{"uuid": [[${' '.repeat(good.length - 21)}\n`, 'CRC does not match'],
  ];
  const cp = readFileSync(join(dir, 'checkpoint.json'), 'utf8');
  cases.push([join(dir, 'checkpoint.json'), cp.replace('"seq":', '"seq": '), 'CRC does not match']);
  for (const [path, text, reason] of cases) {
    const before = readFileSync(path, 'utf8');
    writeFileSync(path, text);
    const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: FileDamaged });
    t.is(err.file, path);
    t.true(err.message.startsWith(`${path} is damaged`), err.message);
    t.true(err.message.includes(reason), err.message);
    writeFileSync(path, before);
  }
  const s = await FileStorage.open({ dir });
  t.is((await s.playerIds()).length, 2);
  await s.close();
});

test('the real server refuses to start on a damaged journal or index log, naming the file (and the offset), and changes nothing', async (t) => {
  const dir = dirFor(t);
  const env = { DATA_DIR: dir, RATE_LIMITS: 'off', CHECKPOINT_INTERVAL_SECONDS: '0' };
  const server = await startChild(env);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    (await (
      await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;
  const uuid = 'e1800000-0000-4000-8000-000000000001';
  const su = await post('/api/player/signup', { uuid, platform: 1 });
  const li = await post('/api/player/login', { uuid, accessToken: su['accessToken'] });
  for (let i = 1; i <= 30; i++)
    t.is(
      (await post('/api/player/tutorial/tip/add', { tipId: i }, { 'X-STAR-SESSION-ID': li['sessionId'] as string }))[
        'resultCode'
      ],
      0,
    );
  await server.kill('SIGKILL');
  const path = join(dir, 'journal.log');
  const buf = readFileSync(path);
  const mid = Math.floor(buf.length / 2);
  const start = buf.lastIndexOf(0x0a, mid) + 1;
  const damaged = Buffer.concat([buf.subarray(0, mid), buf.subarray(mid + 200)]);
  writeFileSync(path, damaged);
  const err = await t.throwsAsync(startChild(env));
  t.true(err.message.includes(`${path} at byte ${start}`), err.message);
  t.regex(err.message, /server exited \(2\)/);
  t.deepEqual(readFileSync(path), damaged, 'the journal is kept as it was');
  // Put back, started and stopped cleanly (a checkpoint writes the index log); then the index log damaged.
  writeFileSync(path, buf);
  const again = await startChild(env);
  await again.kill('SIGTERM');
  const logFile = readdirSync(dir).find((f) => /^index\.\d+\.log$/.test(f)) as string;
  const logBytes = readFileSync(join(dir, logFile));
  writeFileSync(join(dir, logFile), Buffer.concat([Buffer.from('not JSON at all '), logBytes.subarray(16)]));
  const err2 = await t.throwsAsync(startChild(env));
  t.true(err2.message.includes(`${join(dir, logFile)} is damaged`), err2.message);
  t.false(err2.message.includes('cannot read'), 'the index log is named, not checkpoint.json');
});
