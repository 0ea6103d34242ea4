// A full disk, for real: the data directory on a small tmpfs that the test fills.
// Writes answer 105 with nothing half-written; reads go on; when space returns the
// server writes again, and a restart finds every acknowledged write.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from '../_support/child.js';

const fill = (path: string): number => {
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024);
  let written = 0;
  try {
    for (;;) written += writeSync(fd, chunk);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
  } finally {
    closeSync(fd);
  }
  // Top off the last partial block too.
  const fd2 = openSync(path, 'a');
  try {
    for (;;) written += writeSync(fd2, Buffer.alloc(512));
  } catch {
    /* full */
  } finally {
    closeSync(fd2);
  }
  return written;
};

test('ENOSPC: writes answer 105 and change nothing, reads go on, and the server recovers when space returns', async (t) => {
  const mnt = mkdtempSync(join(tmpdir(), 'hoshi-full-'));
  // Needs root (the CI and development machines run as root); a failure here fails the test loudly.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mnt]);
  t.teardown(() => {
    try {
      execFileSync('umount', ['-l', mnt]);
    } catch {
      /* already gone */
    }
    rmSync(mnt, { recursive: true, force: true });
  });
  const env = { DATA_DIR: join(mnt, 'data'), ADMIN_TOKEN: 'disk-full-admin-token', RATE_LIMITS: 'off' };
  let server = await startChild(env);
  t.teardown(() => server.kill('SIGKILL'));
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  const uuid = 'd1000000-0000-4000-8000-000000000001';
  const su = await call('POST', '/api/player/signup', { uuid, platform: 1 });
  const li = await call('POST', '/api/player/login', { uuid, accessToken: su.body['accessToken'] });
  const sid = { 'X-STAR-SESSION-ID': li.body['sessionId'] as string };
  for (let tip = 1; tip <= 3; tip++)
    t.is((await call('POST', '/api/player/tutorial/tip/add', { tipId: tip }, sid)).body['resultCode'], 0);

  const filler = join(mnt, 'filler');
  t.true(fill(filler) > 0);
  // A journal record is a small delta: the first few may still fit in the journal's last page.
  const fitted: number[] = [];
  let tip = 100;
  for (; tip < 200; tip++) {
    const r = await call('POST', '/api/player/tutorial/tip/add', { tipId: tip }, sid);
    if (r.status === 503) break;
    t.is(r.body['resultCode'], 0, `tip ${tip} fitted`);
    fitted.push(tip);
  }
  t.true(tip < 200, 'the disk filled up');
  const before = (await call('GET', '/api/player/get_all', undefined, sid)).body;
  for (let i = 0; i < 5; i++) {
    const r = await call('POST', '/api/player/tutorial/tip/add', { tipId: 10 + i }, sid);
    t.deepEqual([r.status, r.body['resultCode']], [503, 105], `tip ${10 + i} on a full disk`);
    t.regex(r.body['resultMessage'] as string, /nothing was changed/);
  }
  const signup = await call('POST', '/api/player/signup', {
    uuid: 'd1000000-0000-4000-8000-000000000002',
    platform: 1,
  });
  t.is(signup.body['resultCode'], 105, 'a sign-up on a full disk is refused too');
  const during = (await call('GET', '/api/player/get_all', undefined, sid)).body;
  t.is(during['resultCode'], 0, 'reads are served');
  t.deepEqual({ ...during, serverTime: 0 }, { ...before, serverTime: 0 }, 'nothing was applied');

  unlinkSync(filler);
  const ok = await call('POST', '/api/player/tutorial/tip/add', { tipId: 20 }, sid);
  t.is(ok.body['resultCode'], 0, 'space is back: writes go on');
  t.is(await server.kill('SIGTERM'), 0);
  server = await startChild(env);
  const after = await call('POST', '/api/player/login', { uuid, accessToken: su.body['accessToken'] });
  const tips = (
    (await call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': after.body['sessionId'] as string }))
      .body['player'] as { tutorialTips: number[] }
  ).tutorialTips;
  t.deepEqual(tips, [1, 2, 3, 20, ...fitted], 'after a restart: every acknowledged write, none of the refused ones');
});
