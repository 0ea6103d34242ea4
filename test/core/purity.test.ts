// The core stays pure: no clock, no Math.random, no I/O, no HTTP, no adapters.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

const BANNED: ReadonlyArray<[RegExp, string]> = [
  [/Math\.random/, 'Math.random'],
  [/Date\.now/, 'Date.now'],
  [/new Date\(/, 'new Date('],
  [/performance\.now/, 'performance.now'],
  [/process\.(env|hrtime)/, 'process.env / process.hrtime'],
  [/from ['"](node:)?(fs|fs\/promises|net|http|https|child_process|worker_threads)['"]/, 'an I/O module'],
  [/from ['"](koa|@koa\/router|koa-bodyparser|pg)['"]/, 'koa or a driver'],
  [/from ['"][./]*\/?adapters\//, 'an adapter'],
  [/randomBytes|randomUUID|getRandomValues/, 'a random source'],
];

test('core/ reads no clock, calls no Math.random and imports no I/O, koa or adapter', (t) => {
  const files = walk(join(root, 'core'));
  t.true(files.length > 10);
  const hits: string[] = [];
  for (const f of files) {
    const lines = readFileSync(f, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^\s*(\/\/|\*)/.test(line)) return;
      for (const [re, what] of BANNED) if (re.test(line)) hits.push(`${relative(root, f)}:${i + 1} uses ${what}`);
    });
  }
  t.deepEqual(hits, []);
});

test('only core/rng.ts imports seedrandom', (t) => {
  const users = walk(join(root, 'core'))
    .filter((f) => /from ['"]seedrandom['"]/.test(readFileSync(f, 'utf8')))
    .map((f) => relative(root, f));
  t.deepEqual(users, ['core/rng.ts']);
});

test('the purity check itself catches a forbidden line', (t) => {
  const sample = 'const x = Date.now();';
  t.true(BANNED.some(([re]) => re.test(sample)));
});
