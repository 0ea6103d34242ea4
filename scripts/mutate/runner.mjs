// A StrykerJS test runner that keeps the tests loaded: it loads the test files once
// into its own process (TypeScript through tsx, `ava` replaced by ava-shim.mjs, which
// runs the tests with ava's own assertions) and, for each mutant, switches the mutant
// on and runs only the tests that reached its code (per-test coverage from the dry
// run), stopping at the first that fails. The command runner it replaces started
// ava afresh for every mutant (10–20 s each); this takes milliseconds for a reducer's
// mutant. A mutant in code that runs while modules load (a table, a codec) needs the
// modules loaded anew (and again after it, without it): the runner imports the test
// files again under a new `?gen=N`, which hooks.mjs passes on to every project module
// they import, so the project's modules load afresh in the same process (packages
// once); Stryker restarts the process now and then (maxTestRunnerReuse), since old
// generations stay loaded. MUTATE_RELOAD=process leaves the reload to Stryker (a fresh
// process for each static mutant, ~5 s). Child processes a test starts get the mutant
// through the environment, as under the command runner.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';

const ENV = '__STRYKER_ACTIVE_MUTANT__';
/** The dry run's time for each test, in the sandbox (the working directory), for every runner of the pool. */
const TIMES = 'mutate-test-times.json';

/** The Stryker instrumenter's global (its activeMutant, currentTestId, coverage and hit count). */
const ns = () => (globalThis.__stryker__ ??= {});

class InProcessRunner {
  static inject = [commonTokens.options, commonTokens.logger];

  constructor(options, logger) {
    this.files = String(process.env.MUTATE_TESTS ?? '')
      .split(/\s+/)
      .filter((f) => f !== '');
    this.logger = logger;
    this.options = options;
    this.tests = undefined;
    /** Each test's time in the dry run: a mutant runs its tests quickest first, so a killed one is found soonest. */
    this.spent = new Map();
    /** The generation of the project's modules the tests were imported with (0: the first, no query). */
    this.gen = 0;
  }

  capabilities() {
    return { reloadEnvironment: process.env.MUTATE_RELOAD !== 'process' };
  }

  async init() {
    if (this.files.length === 0) throw new Error('MUTATE_TESTS names no test files');
    // Hooks run last-registered first: 'ava' is mapped before tsx sees it.
    const { register: registerTsx } = await import('tsx/esm/api');
    registerTsx();
    register('./hooks.mjs', import.meta.url);
  }

  /** Imports the test files (once a generation): each registers its tests with the shim. */
  async load() {
    if (this.tests !== undefined) return this.tests;
    const shim = await import('./ava-shim.mjs');
    shim.registry.tests = [];
    for (const file of this.files) {
      shim.registry.file = file;
      const url = pathToFileURL(resolve(process.cwd(), file)).href;
      await import(this.gen === 0 ? url : `${url}?gen=${this.gen}`);
    }
    this.shim = shim;
    this.tests = shim.registry.tests;
    return this.tests;
  }

  async dryRun(options) {
    const g = ns();
    const coverage = options.coverageAnalysis !== 'off';
    if (coverage) g.mutantCoverage = { static: {}, perTest: {} };
    try {
      const tests = await this.load();
      const results = [];
      for (const entry of tests) {
        if (coverage) g.currentTestId = entry.id;
        const started = Date.now();
        const r = await this.shim.runTest(entry);
        g.currentTestId = undefined;
        const timeSpentMs = Date.now() - started;
        this.spent.set(entry.id, timeSpentMs);
        results.push(
          r.ok
            ? { id: entry.id, name: entry.id, status: TestStatus.Success, timeSpentMs, fileName: entry.file }
            : {
                id: entry.id,
                name: entry.id,
                status: TestStatus.Failed,
                failureMessage: r.message,
                timeSpentMs,
                fileName: entry.file,
              },
        );
      }
      // The other runners of the pool had no dry run: they read the times from the sandbox.
      writeFileSync(TIMES, JSON.stringify([...this.spent]));
      return { status: DryRunStatus.Complete, tests: results, mutantCoverage: coverage ? g.mutantCoverage : undefined };
    } catch (error) {
      return { status: DryRunStatus.Error, errorMessage: String(error?.stack ?? error) };
    }
  }

  async mutantRun(options) {
    const g = ns();
    const id = options.activeMutant.id;
    // A run of static mutants alone (npm run mutate -- --only-static): the others are not run, and an error is outside the score.
    if (process.env.MUTATE_STATIC === 'only' && options.mutantActivation !== 'static') {
      return { status: MutantRunStatus.Error, errorMessage: 'not run: a runtime mutant (--only-static)' };
    }
    // A static mutant is on while the modules load; others only while tests run. The modules
    // are loaded anew for a static mutant and for the mutant after one (Stryker says when).
    if (options.mutantActivation === 'static') {
      g.activeMutant = id;
      process.env[ENV] = id;
    }
    if (options.reloadEnvironment) {
      this.gen++;
      this.tests = undefined;
    }
    let tests;
    try {
      tests = await this.load();
    } catch (error) {
      // A mutant that breaks loading a module is caught by every test.
      return {
        status: MutantRunStatus.Killed,
        killedBy: [],
        failureMessage: String(error?.message ?? error),
        nrOfTests: 0,
      };
    }
    g.activeMutant = id;
    process.env[ENV] = id;
    g.hitLimit = options.hitLimit;
    g.hitCount = options.hitLimit === undefined ? undefined : 0;
    if (this.spent.size === 0 && existsSync(TIMES)) this.spent = new Map(JSON.parse(readFileSync(TIMES, 'utf8')));
    const filter = options.testFilter === undefined ? undefined : new Set(options.testFilter);
    const chosen = (filter === undefined ? [...tests] : tests.filter((entry) => filter.has(entry.id))).sort(
      (a, b) => (this.spent.get(a.id) ?? 0) - (this.spent.get(b.id) ?? 0),
    );
    const killedBy = [];
    let failureMessage = '';
    let ran = 0;
    try {
      for (const entry of chosen) {
        ran++;
        const r = await this.shim.runTest(entry);
        if (g.hitLimit !== undefined && g.hitCount > g.hitLimit) {
          return { status: MutantRunStatus.Timeout, reason: `hit limit ${g.hitLimit} reached` };
        }
        if (!r.ok) {
          killedBy.push(entry.id);
          failureMessage ||= r.message;
          if (!options.disableBail) break;
        }
      }
    } finally {
      g.activeMutant = undefined;
      delete process.env[ENV];
      g.hitLimit = undefined;
    }
    return killedBy.length > 0
      ? { status: MutantRunStatus.Killed, killedBy, failureMessage, nrOfTests: ran }
      : { status: MutantRunStatus.Survived, nrOfTests: ran };
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'hoshi-in-process', InProcessRunner)];
