// npm run reliability: the crash harness at full length (20 SIGKILLs), printing its
// figures. The other reliability checks are tests: npx ava test/reliability test/http/{fuzz,authz,idempotency,rate-limit}.test.ts --verbose
import { crashLoop } from './lib/crash-loop.js';

const rounds = Number(process.env['ROUNDS'] ?? 20);
const t0 = Date.now();
// DATABASE_URL (and PG_SCHEMA) run it against PostgreSQL instead of JSON files.
const pgEnv: Record<string, string> = process.env['DATABASE_URL'] ? { DATABASE_URL: process.env['DATABASE_URL'], PG_SCHEMA: process.env['PG_SCHEMA'] ?? `hoshi_reliability_${Date.now()}` } : {};
const r = await crashLoop(rounds, process.env['SEED'] ?? 'reliability', (i, x) => {
  process.stderr.write(`\rcrash ${i + 1}/${rounds}: ${x.acknowledged} acknowledged writes, ${x.problems.length} problems   `);
}, pgEnv);
process.stderr.write('\n');
process.stdout.write(`${JSON.stringify({ ...r, seconds: Math.round((Date.now() - t0) / 1000) }, null, 2)}\n`);
process.exit(r.problems.length === 0 && r.fiveXX === 0 ? 0 : 1);
