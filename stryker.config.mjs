// StrykerJS: mutation testing of one module at a time (docs/testing.md). Run it
// through `npm run mutate -- <path>`, which picks the test files that cover the
// module (scripts/mutate.ts) and passes them here in MUTATE_TESTS; the reports
// go to reports/mutation/<module>.html and .json. Not part of npm test or CI.
const tests = process.env.MUTATE_TESTS ?? 'test/core';
const name = process.env.MUTATE_REPORT ?? 'mutation';
const inProcess = process.env.MUTATE_RUNNER !== 'command';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  // scripts/mutate/runner.mjs keeps the tests loaded in its process and runs, for each
  // mutant, only the tests that reached it (per-test coverage). MUTATE_RUNNER=command
  // runs ava afresh for every mutant instead (slow: 10–20 s a mutant; exit code ≠ 0 kills).
  testRunner: inProcess ? 'hoshi-in-process' : 'command',
  commandRunner: { command: `npx ava --fail-fast ${tests}` },
  coverageAnalysis: inProcess ? 'perTest' : 'off',
  // A static mutant (in code that runs while modules load: the operations' tables, codecs)
  // needs the modules loaded anew and every test run (the runner re-imports them; 1–3 s
  // a mutant): a third of core/operations' mutants but most of its time. MUTATE_STATIC=ignore
  // leaves them out (reported as Ignored) for a quick run of the rules themselves;
  // MUTATE_STATIC=only runs them alone (the runner reports the others as not run).
  ignoreStatic: process.env.MUTATE_STATIC === 'ignore',
  // The in-process runner loads the project's modules anew for a static mutant, in the same
  // process; each generation stays loaded (ES modules cannot be unloaded): a fresh process
  // after this many runs bounds its memory.
  maxTestRunnerReuse:
    inProcess && process.env.MUTATE_STATIC !== 'ignore' && process.env.MUTATE_RELOAD !== 'process' ? 40 : 0,
  // A mutant that does not compile is left out. scripts/mutate/checker.mjs type-checks the
  // mutant's own file (a fraction of a second); MUTATE_TYPECHECK=project uses Stryker's
  // checker, which rebuilds the project for each mutant (~2 s) and so also sees a mutant
  // that breaks only another file; MUTATE_TYPECHECK=off checks nothing (a tree that does
  // not compile yet: mutants that would not compile then count as survivors).
  checkers: { off: [], project: ['typescript'] }[process.env.MUTATE_TYPECHECK ?? ''] ?? ['hoshi-file-types'],
  // core and adapters only: a mutant must still compile with its callers; the tests are not type-checked.
  // A run of core modules alone checks core alone (tsconfig.mutate-core.json: core imports nothing
  // outside it), which makes the checker, the slower half of a mutant, about twice as fast.
  tsconfigFile: process.env.MUTATE_TSCONFIG ?? 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // `--mutate <path>` names the module; this default is never meant to run whole.
  mutate: ['core/shared/pay.ts'],
  // Documentation strings (operation summaries, codec names) are not mutated, nor equivalent
  // mutants of a kind that recurs (a literal salt): stryker.plugins.mjs.
  plugins: [
    '@stryker-mutator/*',
    './stryker.plugins.mjs',
    './scripts/mutate/runner.mjs',
    './scripts/mutate/checker.mjs',
  ],
  ignorers: ['docs', 'equivalent', ...(process.env.MUTATE_STATIC === 'only' ? ['runtime-code'] : [])],
  // test/fixtures holds stored data directories (journal.log and all) that replay tests read.
  ignorePatterns: ['data', '.tmp', 'coverage', '*.log', '!test/fixtures/**'],
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  // The machine is shared (2 cores among several developers): one worker unless --concurrency says otherwise.
  concurrency: 1,
  timeoutMS: 20_000,
  dryRunTimeoutMinutes: 10,
  thresholds: { high: 90, low: 80, break: null },
  cleanTempDir: true,
};
