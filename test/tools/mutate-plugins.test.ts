// The mutation run's own plugins (docs/testing.md): the stand-in for ava that the
// in-process runner loads test files with, its resolve hook, the checker that
// type-checks a mutant's file, and what the `equivalent` ignorer leaves out.
import { Instrumenter } from '@stryker-mutator/instrumenter';
import type { Ignorer } from '@stryker-mutator/api/ignore';
import type { Logger } from '@stryker-mutator/api/logging';
import test from 'ava';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Entry {
  id: string;
  title: string;
  file: string;
  fn: (t: unknown) => unknown;
  args: unknown[];
}
interface Shim {
  default: (title: string, fn: (t: never) => unknown) => void;
  registry: { file: string; tests: Entry[] };
  runTest: (e: Entry) => Promise<{ ok: boolean; message?: string }>;
}
// @ts-expect-error: a plain ES module of the mutation tooling, without types.
const shim = (await import('../../scripts/mutate/ava-shim.mjs')) as Shim;

interface T {
  is: (a: unknown, b: unknown) => void;
  deepEqual: (a: unknown, b: unknown) => void;
  like: (a: unknown, b: unknown) => void;
  teardown: (f: () => void) => void;
  throws: (f: () => void) => unknown;
  throwsAsync: (f: () => Promise<never>) => Promise<unknown>;
  pass: () => void;
}

interface CheckResult {
  status: string;
  reason?: string;
}
interface Checker {
  init: () => Promise<void>;
  check: (ms: unknown[]) => Promise<Record<string, CheckResult>>;
}
// @ts-expect-error: a plain ES module of the mutation tooling, without types.
const { strykerPlugins } = (await import('../../scripts/mutate/checker.mjs')) as {
  strykerPlugins: Array<{ injectableClass: new (o: { tsconfigFile: string }) => Checker }>;
};

interface Resolved {
  url: string;
  shortCircuit?: boolean;
}
type Next = (specifier: string, context: { parentURL?: string }) => Promise<Resolved>;
// @ts-expect-error: a plain ES module of the mutation tooling, without types.
const hooks = (await import('../../scripts/mutate/hooks.mjs')) as {
  resolve: (s: string, c: { parentURL?: string }, next: Next) => Promise<Resolved>;
};

const register = (title: string, fn: (t: T) => unknown): Entry => {
  shim.registry.file = 'x.test.ts';
  shim.default(title, fn as (t: never) => unknown);
  return shim.registry.tests.at(-1) as Entry;
};

test("the ava stand-in registers a test under its file and title, and runs it with ava's assertions", async (t) => {
  const passing = register('passes', (x) => {
    x.is(1, 1);
    x.deepEqual({ a: [1] }, { a: [1] });
    x.like({ a: 1, b: 2 }, { a: 1 });
  });
  t.is(passing.id, 'x.test.ts › passes');
  t.deepEqual(await shim.runTest(passing), { ok: true });
  const failing = register('fails', (x) => {
    x.deepEqual({ a: [1] }, { a: [2] });
  });
  t.false((await shim.runTest(failing)).ok);
  const likeFails = register('like fails', (x) => {
    x.like({ a: 1, b: 2 }, { b: 3 });
  });
  t.false((await shim.runTest(likeFails)).ok);
});

test('the ava stand-in fails a test that asserts nothing, a thrown error, and a failed async assertion; it runs teardowns last first', async (t) => {
  t.regex((await shim.runTest(register('empty', () => {}))).message ?? '', /without running any assertions/);
  t.false(
    (
      await shim.runTest(
        register('throws', () => {
          throw new Error('boom');
        }),
      )
    ).ok,
  );
  t.false(
    (
      await shim.runTest(
        register('async', async (x) => {
          await x.throwsAsync(async () => 1 as never);
        }),
      )
    ).ok,
  );
  t.true(
    (
      await shim.runTest(
        register('throws caught', (x) => {
          x.throws(() => {
            throw new Error('e');
          });
        }),
      )
    ).ok,
  );
  const order: string[] = [];
  const r = await shim.runTest(
    register('teardowns', (x) => {
      x.teardown(() => {
        order.push('first');
      });
      x.teardown(() => {
        order.push('second');
      });
      x.pass();
    }),
  );
  t.true(r.ok);
  t.deepEqual(order, ['second', 'first']);
});

test('the checker finds a mutant that does not compile in its file, and passes one that does', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-checker-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types: [],
      },
      include: ['*.ts'],
    }),
  );
  const file = join(dir, 'm.ts');
  writeFileSync(
    file,
    'export const f = (a: number, b: number): number => (a < b ? a - b : b);\nexport const g = (s: string): string => s + "x";\n',
  );
  const Checker = strykerPlugins[0]?.injectableClass;
  if (Checker === undefined) {
    t.fail('no checker plugin');
    return;
  }
  const c = new Checker({ tsconfigFile: join(dir, 'tsconfig.json') });
  await c.init();
  // Columns and lines from 0, as Stryker gives them to checkers.
  const mutant = (id: string, line: number, from: number, to: number, replacement: string) => ({
    id,
    fileName: file,
    mutatorName: 'x',
    replacement,
    location: { start: { line, column: from }, end: { line, column: to } },
  });
  const line0 = 'export const f = (a: number, b: number): number => (a < b ? a - b : b);';
  const at = (s: string) => line0.indexOf(s);
  const r = await c.check([
    mutant('cmp', 0, at('a < b'), at('a < b') + 5, 'a >= b'),
    mutant('str', 0, at('a - b'), at('a - b') + 5, '""'),
    mutant('ok', 0, at('a - b'), at('a - b') + 5, 'a + b'),
    mutant(
      'minus',
      1,
      'export const g = (s: string): string => '.length,
      'export const g = (s: string): string => s + "x"'.length,
      's - "x"',
    ),
  ]);
  t.is(r['cmp']?.status, 'passed');
  t.is(r['str']?.status, 'compileError');
  t.regex(r['str']?.reason ?? '', /not assignable to type 'number'/);
  t.is(r['ok']?.status, 'passed');
  t.is(r['minus']?.status, 'compileError');
});

test("the runner's resolve hook maps ava to its stand-in, and passes a generation on to the project's modules only", async (t) => {
  const root = new URL(`file://${process.cwd()}/`).href;
  const next: Next = async (specifier) => ({
    url: specifier.startsWith('pkg:')
      ? `${root}node_modules/${specifier.slice(4)}/index.js`
      : new URL(specifier, root).href,
  });
  t.true((await hooks.resolve('ava', {}, next)).url.endsWith('/scripts/mutate/ava-shim.mjs'));
  const parent = `${root}test/core/x.test.ts?gen=7`;
  t.is(
    (await hooks.resolve('./core/a.js', { parentURL: parent }, next)).url,
    `${root}core/a.js?gen=7`,
    "a project module takes its importer's generation",
  );
  t.is(
    (await hooks.resolve('pkg:io-ts', { parentURL: parent }, next)).url,
    `${root}node_modules/io-ts/index.js`,
    'a package is loaded once',
  );
  t.is(
    (await hooks.resolve('./core/a.js', { parentURL: `${root}test/core/x.test.ts` }, next)).url,
    `${root}core/a.js`,
    'the first generation has no query',
  );
  t.is(
    (await hooks.resolve('./core/a.js?gen=3', { parentURL: parent }, next)).url,
    `${root}core/a.js?gen=3`,
    'a generation already given stays',
  );
  t.is(
    (await hooks.resolve('./core/a.js?raw', { parentURL: parent }, next)).url,
    `${root}core/a.js?raw&gen=7`,
    'another query keeps its place',
  );
});

test('the equivalent ignorer leaves out a literal salt (given to passwordHash, as its ?? fallback, or through a const used only there) and keeps every other string', async (t) => {
  const source = [
    'declare const passwordHash: (password: string, salt: string) => string;',
    'declare const mv: { salt: string } | undefined;',
    "const NO_SALT = 'through a const';",
    "const SHARED = 'a const used elsewhere too';",
    "export const a = passwordHash('a password', 'literal');",
    "export const b = passwordHash('a password', mv?.salt ?? 'fallback');",
    "export const c = passwordHash('a password', NO_SALT);",
    'export const d = passwordHash(SHARED, SHARED);',
    "export const e = mv?.salt ?? 'a fallback not given to passwordHash';",
    "export const f = String('another call');",
  ].join('\n');
  // @ts-expect-error: a plain ES module of the mutation tooling, without types.
  const ignorers = (await import('../../stryker.plugins.mjs')) as {
    strykerPlugins: Array<{ name: string; value: Ignorer }>;
  };
  const equivalent = ignorers.strykerPlugins.find((p) => p.name === 'equivalent')?.value;
  if (equivalent === undefined) {
    t.fail('no equivalent ignorer');
    return;
  }
  const quiet = { debug: () => {}, info: () => {}, warn: () => {}, isDebugEnabled: () => false } as unknown as Logger;
  const { mutants } = await new Instrumenter(quiet).instrument([{ name: 'salt.ts', content: source, mutate: true }], {
    plugins: null,
    excludedMutations: [],
    ignorers: [equivalent],
  });
  const lines = source.split('\n');
  const strings = mutants
    .filter((m) => m.mutatorName === 'StringLiteral')
    .map((m) => ({
      text: lines[m.location.start.line]?.slice(m.location.start.column + 1, m.location.end.column - 1),
      ignored: m.status === 'Ignored',
    }));
  t.deepEqual(
    strings
      .filter((x) => x.ignored)
      .map((x) => x.text)
      .sort(),
    ['fallback', 'literal', 'through a const'],
  );
  t.deepEqual(
    strings
      .filter((x) => !x.ignored)
      .map((x) => x.text)
      .sort(),
    [
      'a const used elsewhere too',
      'a fallback not given to passwordHash',
      'a password',
      'a password',
      'a password',
      'another call',
    ],
  );
});
