// StrykerJS: mutation testing of one module at a time (docs/testing.md). Run it
// through `npm run mutate -- <path>`, which picks the test files that cover the
// module (scripts/mutate.ts) and passes them here in MUTATE_TESTS; the reports
// go to reports/mutation/<module>.html and .json. Not part of npm test or CI.
const tests = process.env.MUTATE_TESTS ?? 'test/core';
const name = process.env.MUTATE_REPORT ?? 'mutation';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'command',
  // The command runner runs the whole command for every mutant and reads its exit code;
  // --fail-fast stops at the first failing test (a killed mutant needs no more).
  commandRunner: { command: `npx ava --fail-fast ${tests}` },
  coverageAnalysis: 'off',
  // MUTATE_TYPECHECK=off skips the checker (a tree that does not compile yet): mutants that would not compile then count as survivors.
  checkers: process.env.MUTATE_TYPECHECK === 'off' ? [] : ['typescript'],
  // core and adapters only: a mutant must still compile with its callers; the tests are not type-checked.
  tsconfigFile: 'tsconfig.mutate.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  // `--mutate <path>` names the module; this default is never meant to run whole.
  mutate: ['core/shared/pay.ts'],
  // Documentation strings (operation summaries, codec names) are not mutated: stryker.plugins.mjs.
  plugins: ['@stryker-mutator/*', './stryker.plugins.mjs'],
  ignorers: ['docs'],
  ignorePatterns: ['data', '.tmp', 'coverage', '*.log'],
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
