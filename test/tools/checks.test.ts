// scripts/checks.mjs (npm run check, the first half of npm test): the type check, the lint
// and the format check run at once, each one's output printed whole, and the run fails
// when any of them fails. Checked on a copy of the script beside stand-ins for the three
// tools (node_modules/.bin/tsc, eslint, prettier: shell scripts), so the test needs no tree to check.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const scripts = fileURLToPath(new URL('../../scripts/', import.meta.url));

/** A tree with the script and the three tools, each printing its arguments and exiting with the code given. */
const tree = (codes: Readonly<Record<'tsc' | 'eslint' | 'prettier', number>>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-checks-'));
  mkdirSync(join(dir, 'scripts', 'lib'), { recursive: true });
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  for (const f of ['checks.mjs', 'lib/plain-args.mjs']) copyFileSync(join(scripts, f), join(dir, 'scripts', f));
  for (const [tool, code] of Object.entries(codes)) {
    const path = join(dir, 'node_modules', '.bin', tool);
    // Each marks its start and waits (up to 30 s) for the other two's marks, then says how many it saw.
    writeFileSync(
      path,
      `#!/bin/sh\ntouch "${dir}/started-${tool}"\nfor i in $(seq 1 600); do [ "$(ls "${dir}" | grep -c '^started-')" = 3 ] && break; sleep 0.05; done\necho "${tool} ran with $* and saw $(ls "${dir}" | grep -c '^started-') started"\nexit ${code}\n`,
    );
    chmodSync(path, 0o755);
  }
  return dir;
};

const runIn = (dir: string) => spawnSync(process.execPath, [join(dir, 'scripts', 'checks.mjs')], { encoding: 'utf8' });

test('the three checks run at once, each output printed whole; all passing exits 0', (t) => {
  const dir = tree({ tsc: 0, eslint: 0, prettier: 0 });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = runIn(dir);
  t.is(r.status, 0, r.stderr);
  // Run one after another, the first would have seen only its own mark.
  t.regex(r.stdout, /> tsc --noEmit -p \.: passed in [\d.]+ s\ntsc ran with --noEmit -p \. and saw 3 started\n/);
  t.regex(r.stdout, /> eslint \.: passed in [\d.]+ s\neslint ran with \. and saw 3 started\n/);
  t.regex(r.stdout, /> prettier --check \.: passed in [\d.]+ s\nprettier ran with --check \. and saw 3 started\n/);
});

test('any one failing fails the run, naming it, after all three have ended', (t) => {
  for (const failing of ['tsc', 'eslint', 'prettier'] as const) {
    const dir = tree({ tsc: 0, eslint: 0, prettier: 0, [failing]: 1 });
    t.teardown(() => rmSync(dir, { recursive: true, force: true }));
    const r = runIn(dir);
    t.is(r.status, 1, failing);
    t.regex(r.stdout, new RegExp(`> ${failing}[^\\n]*: FAILED in`), failing);
    t.is(r.stdout.match(/: passed in/g)?.length, 2, `${failing}: the other two still ran to their end`);
    t.regex(r.stderr, /^failed: (type check|lint|format check)\n$/, failing);
  }
});
