// SIGTERM: the server stops accepting, finishes the requests in flight, flushes
// every change to its snapshots and exits 0; a restart finds all of it.
import test from 'ava';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from '../_support/child.js';

test('SIGTERM finishes in-flight requests, flushes and exits 0; nothing acknowledged is lost', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-term-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATA_DIR: dir, RATE_LIMITS: 'off' };
  const server = await startChild(env);
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const uuid = 'e1000000-0000-4000-8000-000000000001';
  const su = (await (await post('/api/player/signup', { uuid, platform: 1 })).json()) as Record<string, string>;
  const li = (await (await post('/api/player/login', { uuid, accessToken: su['accessToken'] })).json()) as Record<
    string,
    string
  >;
  const sid = { 'X-STAR-SESSION-ID': li['sessionId'] as string };
  // A burst of writes in flight, then the signal.
  const inFlight = Array.from({ length: 40 }, (_, i) =>
    post('/api/player/tutorial/tip/add', { tipId: i + 1 }, sid)
      .then(async (r) => ({ status: r.status, code: ((await r.json()) as { resultCode: number }).resultCode }))
      .catch(() => null),
  );
  await new Promise((r) => setTimeout(r, 5));
  const exited = server.kill('SIGTERM');
  const answers = await Promise.all(inFlight);
  t.is(await exited, 0, 'a clean exit');
  const acked = answers.filter((a) => a !== null && a.code === 0).length;
  t.true(
    answers.every((a) => a === null || a.status === 200),
    'every request that was answered succeeded',
  );
  t.true(acked > 0, `acknowledged before the stop: ${acked}`);
  await t.throwsAsync(fetch(`${server.url}/api/player/get_all`), undefined, 'no longer accepting');
  t.is(statSync(join(dir, 'journal.log')).size, 0, 'flushed: the journal is empty after the checkpoint');
  t.true(existsSync(join(dir, 'checkpoint.json')));
  const again = await startChild(env);
  t.teardown(() => again.kill('SIGKILL'));
  const li2 = (await (
    await fetch(`${again.url}/api/player/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ uuid, accessToken: su['accessToken'] }),
    })
  ).json()) as Record<string, string>;
  const all = (await (
    await fetch(`${again.url}/api/player/get_all`, { headers: { 'X-STAR-SESSION-ID': li2['sessionId'] as string } })
  ).json()) as { player: { tutorialTips: number[] } };
  t.true(
    all.player.tutorialTips.length >= acked,
    `${all.player.tutorialTips.length} tips stored, ${acked} acknowledged`,
  );
  t.true(readFileSync(join(dir, 'checkpoint.json'), 'utf8').length > 0);
});

test('SIGTERM with the data directory gone: the failed flush is a logged error and exit 1, not a crash', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-term-gone-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const lines: string[] = [];
  const server = await startChild({ DATA_DIR: dir, RATE_LIMITS: 'off' }, { onLine: (l) => lines.push(l) });
  let stderr = '';
  server.proc.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  // A player written, so the stop has a checkpoint to make.
  const r = await fetch(`${server.url}/api/player/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ uuid: 'e1000000-0000-4000-8000-000000000002', platform: 1 }),
  });
  t.is(r.status, 200);
  // An operator's mistake: the directory deleted under the live server.
  rmSync(dir, { recursive: true, force: true });
  t.is(await server.kill('SIGTERM'), 1, 'exits 1: its changes were not all flushed');
  const events = lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as { level: string; event: string; error?: string }];
    } catch {
      return [];
    }
  });
  const failed = events.find((e) => e.event === 'stop.failed');
  t.is(failed?.level, 'error', `logged: ${lines.join('\n')}`);
  t.regex(failed?.error ?? '', /ENOENT/);
  t.false(
    events.some((e) => e.event === 'stopped'),
    'not reported as stopped',
  );
  t.notRegex(stderr, /\n\s+at /, 'no stack trace on stderr');
});
