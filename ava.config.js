// ava's settings (a file, not package.json: sortTestFiles is a function).
//
// Two test files take minutes where the others take seconds: the clone-and-Docker build
// (two installs, two builds) and the CLI of every npm script (a tsx start-up each). ava runs
// files two at a time on this machine, in the order given here; started last, either would
// run on alone after the rest had finished. Longest first: the others fill the other slot
// meanwhile (measured per file: docs/testing.md, "How long the suite takes").
const LONGEST_FIRST = ['test/ops/build-steps.test.ts', 'test/tools/scripts-cli.test.ts'];

const rank = (file) => {
  const i = LONGEST_FIRST.findIndex((f) => file.endsWith(f));
  return i === -1 ? LONGEST_FIRST.length : i;
};

export default {
  extensions: { ts: 'module' },
  nodeArguments: ['--import=tsx'],
  files: ['test/**/*.test.ts'],
  timeout: '120s',
  workerThreads: false,
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b, [], { numeric: true }),
};
