// npm run operator against a running server (a real child process on the JSON-file
// store): `add` makes an operator with a role and prints its password once (which
// signs in), or reads it from standard input; `list` shows it; `disable` stops it;
// a bad command is a usage error (exit 2), a refusal by the server exit 1.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild } from '../_support/child.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'operator-cli-test-admin-token';

const run = (args: string[], input?: string): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/operator.ts', ...args], {
      cwd: root,
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (input !== undefined) p.stdin?.end(input);
    let out = '';
    let err = '';
    p.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr?.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => resolve({ code, out, err }));
  });

test('add prints a password that signs in; --password-stdin takes one; list shows them; disable stops one; bad commands are refused', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'hoshi-operator-cli-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const server = await startChild({ DATA_DIR: join(tmp, 'data'), ADMIN_TOKEN: TOKEN, RATE_LIMITS: 'off' });
  t.teardown(async () => {
    await server.kill('SIGKILL');
  });
  const opts = ['--url', server.url, '--token', TOKEN];
  const added = await run(['add', 'aki', '--role', 'support', ...opts]);
  t.is(added.code, 0, added.err);
  const password = /password \(shown once\): (\S+)/.exec(added.out)?.[1] ?? '';
  t.true(password.length >= 12);
  const signIn = async (name: string, pw: string) =>
    (await (
      await fetch(`${server.url}/admin/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, password: pw }),
      })
    ).json()) as { resultCode: number; role?: string };
  t.like(await signIn('aki', password), { resultCode: 0, role: 'support' });
  const piped = await run(
    ['add', 'ren', '--role', 'designer', '--password-stdin', ...opts],
    'a password from a vault\n',
  );
  t.is(piped.code, 0, piped.err);
  t.false(piped.out.includes('password'), 'a given password is not printed');
  t.like(await signIn('ren', 'a password from a vault'), { resultCode: 0, role: 'designer' });
  const list = await run(['list', ...opts]);
  t.regex(list.out, /^aki {2}support {2}made .* by admin$/m);
  t.regex(list.out, /^ren {2}designer/m);
  t.is((await run(['disable', 'aki', ...opts])).code, 0);
  t.is((await signIn('aki', password)).resultCode, 203);
  t.is((await run(['add', 'aki', '--role', 'viewer', ...opts])).code, 1, 'a name taken: refused by the server');
  t.is((await run(['add', 'kai', ...opts])).code, 2, 'no --role');
  t.is((await run(['remove', 'kai', ...opts])).code, 2);
  const noToken = await run(['list', '--url', server.url]);
  t.is(noToken.code, 2);
});
