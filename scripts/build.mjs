// npm run build: compiles the server (core, adapters, client, the simulator and the operator
// scripts) to dist/ with tsconfig.build.json, and copies the operator's console
// (adapters/http/console/: static files tsc does not carry) beside its module, so
// that `npm start` runs it with plain node. With --if-stale (npm start's prestart) it builds only when dist/ is
// missing or older than a source file, so `npm install && npm start` works on a
// fresh clone and after a pull. Plain JavaScript: it runs before anything is built.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { plainArgs } from './lib/plain-args.mjs';

const USAGE = `usage: npm run build [-- --if-stale] [--quiet]

Compiles the server to dist/ (tsc -p tsconfig.build.json); npm start runs dist/adapters/http/main.js.

options:
  --if-stale   build only when dist/ is missing or a source file is newer than it (default: always build)
  --quiet      print nothing when nothing is built (default: off)
  --help       print this and exit`;

const args = plainArgs(
  {
    'if-stale': { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
  },
  USAGE,
);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stamp = join(dist, '.build-stamp');
/** The console's static files, served by the compiled server from dist/adapters/http/console/. */
const CONSOLE = join(root, 'adapters', 'http', 'console');
/** What the build reads: a change to any of them makes dist/ stale. */
const SOURCES = [
  'core',
  'adapters',
  'client',
  'toolkit',
  'scripts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
];

const newest = (path) => {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return /\.(ts|json)$/.test(path) || path.startsWith(CONSOLE) ? st.mtimeMs : 0;
  let m = 0;
  for (const e of readdirSync(path)) m = Math.max(m, newest(join(path, e)));
  return m;
};

if (args['if-stale'] && existsSync(stamp)) {
  const built = statSync(stamp).mtimeMs;
  const source = Math.max(...SOURCES.map((s) => newest(join(root, s))));
  if (source <= built) {
    if (!args.quiet) process.stderr.write('dist/ is up to date\n');
    process.exit(0);
  }
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  // An install without the dev dependencies (npm ci --omit=dev) cannot build: run what is there.
  if (existsSync(stamp)) {
    process.stderr.write(
      'dist/ may be stale, and typescript is not installed (a production install): running dist/ as it is\n',
    );
    process.exit(0);
  }
  process.stderr.write(
    'dist/ is missing and typescript is not installed: run npm install (with the dev dependencies), then npm run build\n',
  );
  process.exit(1);
}
process.stderr.write('building dist/ (tsc -p tsconfig.build.json)\n');
const t0 = Date.now();
rmSync(dist, { recursive: true, force: true });
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: 'inherit' });
if (r.status !== 0) {
  process.stderr.write('the build failed\n');
  process.exit(r.status ?? 1);
}
cpSync(CONSOLE, join(dist, 'adapters', 'http', 'console'), { recursive: true });
// The simulator's default behaviour profiles, read by the game-data preview.
cpSync(join(root, 'toolkit', 'profiles.json'), join(dist, 'toolkit', 'profiles.json'));
writeFileSync(stamp, `${new Date().toISOString()}\n`);
process.stderr.write(`built dist/ in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
