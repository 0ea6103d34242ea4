// npm run reliability: the crash harness at full length (20 SIGKILLs), printing its
// figures. The other reliability checks are tests: npx ava test/reliability test/http/{fuzz,authz,idempotency,rate-limit}.test.ts --verbose
import { cliArgs, int, str } from './args.js';
import { crashLoop } from './lib/crash-loop.js';

const args = cliArgs({
  command: 'npm run reliability --',
  summary:
    'The crash harness at full length: a real server under writes, killed with SIGKILL and restarted each round; every acknowledged write must survive (exit 1 otherwise). With DATABASE_URL set (and PG_SCHEMA), against PostgreSQL.',
  options: {
    rounds: {
      type: 'string',
      value: 'N',
      default: process.env['ROUNDS'] || '20',
      // No rounds would pass without checking anything.
      kind: 'integer',
      min: 1,
      description: 'crashes (ROUNDS in the environment sets the default)',
    },
    seed: {
      type: 'string',
      value: 'S',
      default: process.env['SEED'] || 'reliability',
      description: 'the seed of the writes and of when each kill lands (SEED sets the default)',
    },
  },
});
const rounds = int(args, 'rounds');
const t0 = Date.now();
// DATABASE_URL (and PG_SCHEMA) run it against PostgreSQL instead of JSON files.
const pgEnv: Record<string, string> = process.env['DATABASE_URL']
  ? {
      DATABASE_URL: process.env['DATABASE_URL'],
      PG_SCHEMA: process.env['PG_SCHEMA'] ?? `hoshi_reliability_${Date.now()}`,
    }
  : {};
const r = await crashLoop(
  rounds,
  str(args, 'seed'),
  (i, x) => {
    process.stderr.write(
      `\rcrash ${i + 1}/${rounds}: ${x.acknowledged} acknowledged writes, ${x.problems.length} problems   `,
    );
  },
  pgEnv,
);
process.stderr.write('\n');
process.stdout.write(`${JSON.stringify({ ...r, seconds: Math.round((Date.now() - t0) / 1000) }, null, 2)}\n`);
process.exit(r.problems.length === 0 && r.fiveXX === 0 ? 0 : 1);
