// npm run mutate -- <module.ts>[:<from>-<to>[,<from>-<to>…]] | <folder> [--tests a.test.ts,b.test.ts] [--concurrency N] [--report NAME] [--ignore-static | --only-static] [--list]
// Mutation testing with StrykerJS (stryker.config.mjs): a module (or every module of a
// folder) is mutated, and each mutant is run against the tests that reach it, among
// the test files that cover the module (below): the in-process runner
// (scripts/mutate/runner.mjs) keeps them loaded, so a mutant takes about a second. Reports go to
// reports/mutation/<module>.html and .json (ignored by git; --report names them). --list prints the
// tests it would run and stops. Not part of npm test or CI: run it on the modules
// you change, and record the score in docs/testing.md.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { cli, flag, UsageError, type Parsed } from './args.js';

const SPEC = {
  command: 'npm run mutate --',
  summary:
    'Mutation testing with StrykerJS of one module, or of every module in a folder: each mutant is run against the tests that reach it, among the test files that cover the module (the script knows them for most modules and folders; --tests names them). Reports go to reports/mutation/.',
  positionals: '<module.ts>[:<from>-<to>[,<from>-<to>…]] | <folder> …',
  options: {
    tests: {
      type: 'string',
      value: 'a.test.ts,b.test.ts',
      defaultText: 'the tests known to cover the module',
      description: 'the test files to run against each mutant',
    },
    concurrency: {
      type: 'string',
      value: 'N',
      defaultText: '1 (stryker.config.mjs)',
      kind: 'integer',
      min: 1,
      description: 'test runners at once',
    },
    report: {
      type: 'string',
      value: 'NAME',
      defaultText: "the module's path with dots",
      description: "the reports' name under reports/mutation/",
    },
    list: { type: 'boolean', description: 'print the tests it would run and stop' },
    'ignore-static': {
      type: 'boolean',
      description:
        'leave out static mutants (code that runs while modules load: tables, codecs; each needs the modules loaded anew and every test)',
    },
    'only-static': {
      type: 'boolean',
      description:
        'score static mutants alone: the others are not run and are reported as errors ("not run: a runtime mutant"), outside the score',
    },
  },
} as const;

/** The operations' declarations (method, path, request fields, result codes, answer codecs) are checked whole by these (a few seconds). */
const DECLARATIONS = ['test/surface.test.ts', 'test/contract/codecs.test.ts'];

/**
 * The tests that cover a module, where the rule below would pick too few or too
 * many (a shared module used by every operation: the tests that exercise it at its edges).
 */
const COVERING: Readonly<Record<string, ReadonlyArray<string>>> = {
  'core/shared/pay.ts': [
    'test/core/shared/pay.test.ts',
    'test/core/gacha/draw.test.ts',
    'test/core/gacha/points.test.ts',
    'test/core/item/sale.test.ts',
    'test/core/item/trade.test.ts',
    'test/core/character/upgrade.test.ts',
    'test/core/weapon/upgrade.test.ts',
    'test/core/training/orders.test.ts',
    'test/core/town/layout.test.ts',
  ],
  'core/shared/grant.ts': [
    'test/core/shared/grant.test.ts',
    'test/core/present/box.test.ts',
    'test/core/present/receive.test.ts',
    'test/core/gacha/draw.test.ts',
    'test/core/item/sale.test.ts',
    'test/core/item/trade.test.ts',
    'test/core/town/layout.test.ts',
    'test/core/chest/draw.test.ts',
    'test/core/achievement/unlock.test.ts',
  ],
  'core/account.ts': [
    'test/core/player/signup.test.ts',
    'test/core/player/login.test.ts',
    'test/core/player/move.test.ts',
    'test/core/tutorial/progress.test.ts',
  ],
  'adapters/service/service.ts': [
    'test/http/survivors.test.ts',
    'test/http/idempotency.test.ts',
    'test/http/session.test.ts',
    'test/http/social.test.ts',
    'test/http/authz.test.ts',
    'test/http/one-path.test.ts',
    'test/reliability/concurrency.test.ts',
  ],
};

/** Tests that read the source text, which Stryker rewrites (its instrumented code reads a global): they fail on every run. */
const READS_SOURCE = new Set(['test/core/purity.test.ts']);

/** A folder's test files, its subfolders' included (test/core has one per operation group). */
const testsIn = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.test.ts'))
        .sort()
        .map((f) => join(dir, f))
        .filter((f) => !READS_SOURCE.has(f))
    : [];

/** Tests outside test/storage that check the stores: the replay log, damaged files, conflicts met by the service. */
const STORAGE_ELSEWHERE = [
  ...testsIn('test/replay'),
  'test/reliability/damaged-files.test.ts',
  'test/http/survivors.test.ts',
];

/** The rule for modules not listed: an operation group's own tests (test/core/<group>/, gacha-draw.ts's in gacha/); a storage module's tests. */
const byRule = (module: string): string[] => {
  const name = basename(module, '.ts');
  if (module.startsWith('core/operations/')) {
    const own = testsIn(join('test/core', name.split('-')[0] ?? name));
    return own.length > 0 ? [...own, ...DECLARATIONS] : [];
  }
  // Another core module is used from many operations: all of core's tests (each mutant runs only those that reach it).
  if (module.startsWith('core/')) return [...testsIn('test/core'), ...DECLARATIONS];
  // PostgreSQL's tests too: npm test runs them against the machine's server (test/_support/pg.ts).
  if (module.startsWith('adapters/storage/')) return [...testsIn('test/storage'), ...STORAGE_ELSEWHERE];
  if (module.startsWith('adapters/')) return testsIn(join('test', basename(dirname(module))));
  return [];
};

/** A folder's test files: core's reducer tests with the declaration checks; storage's tests; else the folder's own under test/. */
const forFolder = (folder: string): string[] => {
  if (folder.startsWith('core')) return [...testsIn('test/core'), ...DECLARATIONS];
  if (folder.startsWith('adapters/storage')) return byRule('adapters/storage/x.ts');
  return testsIn(join('test', basename(folder)));
};

/** The TypeScript modules of a folder (not its subfolders). */
const modulesIn = (folder: string): string[] =>
  readdirSync(folder)
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .map((f) => join(folder, f));

interface Target {
  readonly path: string;
  readonly mutate: string[];
  readonly tests: string[];
}

/** One positional: a module, a module's line ranges (`gacha.ts:141-230`, `gacha.ts:54-78,146-207`) or a folder. */
const targetOf = (arg: string): Target => {
  const [file = '', lines] = arg.split(':');
  const folder = lines === undefined && existsSync(file) && statSync(file).isDirectory();
  if (!folder && (!file.endsWith('.ts') || !existsSync(file))) throw new UsageError(`no module or folder ${arg}`);
  if (lines !== undefined && !/^\d+-\d+(,\d+-\d+)*$/.test(lines))
    throw new UsageError(`line ranges are <from>-<to>[,<from>-<to>…], got ${lines}`);
  const path = file.replace(/^\.\//, '').replace(/\/$/, '');
  return {
    path,
    mutate: folder ? modulesIn(path) : lines === undefined ? [path] : lines.split(',').map((r) => `${path}:${r}`),
    tests: folder ? forFolder(path) : [...(COVERING[path] ?? byRule(path))],
  };
};

const main = (args: Parsed): number => {
  const opt = (name: string): string | undefined => {
    const v = args.values[name];
    return typeof v === 'string' ? v : undefined;
  };
  if (args.positionals.length === 0) throw new UsageError('name the module to mutate');
  const targets = args.positionals.map(targetOf);
  const tests = opt('tests')?.split(',') ?? [...new Set(targets.flatMap((x) => x.tests))];
  const missing = tests.filter((f) => !existsSync(f));
  if (tests.length === 0 || missing.length > 0) {
    throw new UsageError(
      tests.length === 0
        ? `no tests are known to cover ${args.positionals.join(' ')}: name them with --tests`
        : `missing test files: ${missing.join(', ')}`,
    );
  }
  process.stdout.write(`mutating ${args.positionals.join(' ')}\ntests: ${tests.join(' ')}\n`);
  if (flag(args, 'list')) return 0;
  const report =
    opt('report') ??
    args.positionals.map((p) => p.replace(/\.ts/, '').replace(/[/\\]/g, '.').replace(/\.$/, '')).join('+');
  const stryker = ['stryker', 'run', 'stryker.config.mjs', '--mutate', targets.flatMap((x) => x.mutate).join(',')];
  const concurrency = opt('concurrency');
  if (concurrency !== undefined) stryker.push('--concurrency', concurrency);
  // Core imports nothing outside core: its mutants are type-checked against core alone (faster).
  const tsconfig = targets.every((x) => x.path.startsWith('core'))
    ? { MUTATE_TSCONFIG: 'tsconfig.mutate-core.json' }
    : {};
  if (flag(args, 'ignore-static') && flag(args, 'only-static'))
    throw new UsageError('--ignore-static and --only-static leave nothing to run');
  const statics = flag(args, 'ignore-static')
    ? { MUTATE_STATIC: 'ignore' }
    : flag(args, 'only-static')
      ? { MUTATE_STATIC: 'only' }
      : {};
  const r = spawnSync('npx', stryker, {
    stdio: 'inherit',
    env: { ...process.env, ...tsconfig, ...statics, MUTATE_TESTS: tests.join(' '), MUTATE_REPORT: report },
  });
  process.stdout.write(`reports: reports/mutation/${report}.html, reports/mutation/${report}.json\n`);
  return r.status ?? 1;
};

cli(SPEC, main);
