// npm run soak -- [--minutes 40] [--rate 300] [--store file|pg] [--root DIR] [--out FILE] …
// Issue 36's soak: the real server under a steady open-loop load for a long time,
// a row a minute, then a crash (SIGKILL), a restart and a check of every
// acknowledged write. Not part of npm test (test/tools/soak.test.ts runs it for
// seconds). --help lists the options.
import { cli } from './args.js';
import { SPEC, toOptions } from './soak/options.js';
import { runSoak } from './soak/run.js';

const stamp = () => new Date().toISOString().slice(11, 19);

cli(SPEC, async (args) => {
  const r = await runSoak(
    toOptions(args),
    (text) => process.stdout.write(text),
    (text) => process.stderr.write(`[soak ${stamp()}] ${text}\n`),
  );
  return r.exitCode;
});
