// npm run check (and the first half of npm test): the type check, the lint and the format
// check, run at once. Each builds or reads the whole tree on one core (tsc 33 s, eslint
// 41 s, prettier 23 s here); one after another they kept a core of two idle for ~100 s
// before the first test ran. Each one's output is printed whole when it ends, so the
// three never interleave. Plain JavaScript: nothing to load through tsx.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plainArgs } from './lib/plain-args.mjs';

const USAGE = `usage: npm run check

Runs the type check (tsc --noEmit -p .), ESLint and Prettier's check at once; exits 1 if any fails.

options:
  --help   print this and exit`;

plainArgs({}, USAGE);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const CHECKS = [
  { name: 'type check', cmd: bin('tsc'), args: ['--noEmit', '-p', '.'] },
  { name: 'lint', cmd: bin('eslint'), args: ['.'] },
  { name: 'format check', cmd: bin('prettier'), args: ['--check', '.'] },
];

const run = ({ name, cmd, args: argv }) =>
  new Promise((resolve) => {
    const started = Date.now();
    const p = spawn(cmd, argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    p.stdout.on('data', (d) => {
      out += d;
    });
    p.stderr.on('data', (d) => {
      out += d;
    });
    p.once('error', (e) => resolve({ name, ok: false, out: `${out}${e.message}\n`, ms: Date.now() - started }));
    p.once('close', (code) => resolve({ name, ok: code === 0, out, ms: Date.now() - started }));
  });

const results = await Promise.all(
  CHECKS.map((c) =>
    run(c).then((r) => {
      process.stdout.write(
        `> ${[c.cmd.replace(`${root}/node_modules/.bin/`, ''), ...c.args].join(' ')}: ${r.ok ? 'passed' : 'FAILED'} in ${(r.ms / 1000).toFixed(1)} s\n${r.out}${r.out.endsWith('\n') || r.out === '' ? '' : '\n'}`,
      );
      return r;
    }),
  ),
);
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  process.stderr.write(`failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
