// The command line of the plain-JavaScript scripts (build.mjs runs before anything is built,
// checks.mjs without tsx): strict options, --help printing the usage and exiting 0, and a bad
// option exiting 2 with its message and the usage, as scripts/args.ts does for the others.
import { parseArgs } from 'node:util';

/** The options' values, `help` added; exits on --help or a bad option. */
export const plainArgs = (options, usage) => {
  let values;
  try {
    values = parseArgs({
      options: { ...options, help: { type: 'boolean', default: false } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${usage}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return values;
};
