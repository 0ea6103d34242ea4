// Stands in for `ava` when the mutation runner (scripts/mutate/runner.mjs) loads test
// files into its own process: `test(...)` registers the test here instead of running
// it, and the runner runs the registered tests, one at a time, as often as it needs
// (once a mutant). The assertions are ava's own (its Assertions class), so a test
// passes or fails here as it does under ava.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
// Not among ava's package exports, so imported by its file.
const avaAssert = new URL('../lib/assert.js', pathToFileURL(require.resolve('ava'))).href;
const { Assertions } = await import(avaAssert);

/** Tests registered by the file being loaded: the runner sets `registry.file` before each import. */
export const registry = { file: '', tests: [] };

const add = (title, fn, args) => {
  if (typeof fn !== 'function') throw new TypeError(`test ${title}: macros are not supported by the mutation runner`);
  registry.tests.push({ id: `${registry.file} › ${title}`, title, file: registry.file, fn, args });
};

const test = (title, fn, ...args) => add(title, fn, args);
test.serial = test;
test.only = () => {
  throw new Error('test.only is not allowed');
};
test.skip = () => {};
test.todo = () => {};
test.failing = () => {
  throw new Error('test.failing is not supported by the mutation runner');
};
for (const hook of ['before', 'after', 'beforeEach', 'afterEach']) {
  test[hook] = () => {
    throw new Error(`test.${hook} is not supported by the mutation runner`);
  };
  test[hook].always = test[hook];
}
test.serial.skip = test.skip;
export default test;

/** Runs one registered test as ava would: its assertions, its pending async ones, its teardowns (last first); a test with no assertion fails. */
export const runTest = async (entry) => {
  let passed = 0;
  let failure;
  const pending = [];
  const teardowns = [];
  const assertions = new Assertions({
    pass: () => {
      passed++;
      return true;
    },
    // As ava: an async assertion counts when it starts; its failure comes through failPending.
    pending: (promise) => {
      passed++;
      pending.push(promise.catch(() => {}));
    },
    fail: (error) => {
      failure ??= error;
      return error;
    },
    failPending: (error) => {
      failure ??= error;
      return error;
    },
    skip: () => {
      passed++;
    },
  });
  const t = Object.assign(assertions, {
    title: entry.title,
    context: {},
    teardown: (fn) => {
      teardowns.push(fn);
    },
    log: () => {},
    plan: () => {},
    timeout: () => {},
  });
  try {
    await entry.fn(t, ...entry.args);
    await Promise.all(pending);
  } catch (error) {
    failure ??= error;
  }
  for (const fn of teardowns.reverse()) {
    try {
      await fn();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure === undefined && passed === 0) failure = new Error('Test finished without running any assertions');
  return failure === undefined ? { ok: true } : { ok: false, message: String(failure?.message ?? failure) };
};
