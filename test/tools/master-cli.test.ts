// npm run master against a running server (a real child process on the JSON-file
// store): `publish DIR --now` keeps the directory's files as a version, prints what
// it changes in words and schedules it; `list` shows it in force; the files stay
// under DATA_DIR/master/ for the replay.
import test from 'ava';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from '../_support/child.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'master-cli-test-admin-token';

const run = (args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/master.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => resolve({ code, out, err }));
  });

test('publish DIR --now keeps a version, says what it changes and puts it in force; list shows it', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'hoshi-master-cli-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const data = join(tmp, 'data');
  const server = await startChild({ DATA_DIR: data, ADMIN_TOKEN: TOKEN, RATE_LIMITS: 'off' });
  t.teardown(async () => {
    await server.kill('SIGKILL');
  });
  const dir = join(tmp, 'fixtures');
  cpSync(join(root, 'fixtures'), dir, { recursive: true });
  type Gacha = { gachaId: number; cost: { singleGem: number } };
  const gachas = JSON.parse(readFileSync(join(dir, 'gachas.json'), 'utf8')) as Gacha[];
  writeFileSync(
    join(dir, 'gachas.json'),
    JSON.stringify(gachas.map((g) => (g.gachaId === 3 ? { ...g, cost: { ...g.cost, singleGem: 200 } } : g))),
  );
  const opts = ['--url', server.url, '--token', TOKEN];
  const published = await run(['publish', dir, '--now', '--note', 'pickup dearer', ...opts]);
  t.is(published.code, 0, published.err);
  const version = /^version ([0-9a-f]{64})$/m.exec(published.out)?.[1];
  t.truthy(version, published.out);
  t.regex(published.out, /^gachas\.json\n {2}gacha 3: cost\.singleGem 150 → 200$/m);
  t.regex(published.out, /scheduled \(entry 1\): takes effect at /);
  const list = await run(['list', ...opts]);
  t.is(list.code, 0, list.err);
  t.regex(list.out, new RegExp(`^in force: ${version ?? 'none'}$`, 'm'));
  t.true(existsSync(join(data, 'master', `${version ?? ''}.json`)), 'the files kept for the replay');
  const bad = await run(['cancel', '1', ...opts]);
  t.is(bad.code, 1, 'one in force is not cancelled');
  t.regex(bad.err, /107/);
});
