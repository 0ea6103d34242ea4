// Profiles the service under one mix: npx tsx scripts/bench/profile.ts read|write|hot [seconds] [compiled-dir]
// Starts the server with --cpu-prof (from a tsc build in compiled-dir when given,
// for function names and lines), loads it, stops it and prints where the profile is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import { readMix, runLoad, writeMix } from './load.js';
import { activePlayer, BENCH_SALT, generateStore, logIn } from './players.js';
import { startServer } from './servers.js';

const [mix = 'write', secs = '10', compiled] = process.argv.slice(2);
const m = loadMaster();
const now = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'hoshi-profile-'));
const profDir = mkdtempSync(join(tmpdir(), 'hoshi-cpuprof-'));
try {
  const gen = await generateStore(m, dir, 1000, 1, now, [activePlayer(m, 1001, now, 2000)]);
  const svc = await startServer(compiled ? 'adapters/http/main.js' : 'adapters/http/main.ts', { DATA_DIR: dir, REQUEST_HASH_SALT: BENCH_SALT },
    { nodeArgs: [...(compiled ? [] : ['--import', 'tsx']), '--cpu-prof', `--cpu-prof-dir=${profDir}`], ...(compiled ? { cwd: compiled } : {}) });
  const loggedIn = await logIn(svc.url, [...gen.active, ...gen.extra]);
  const active = loggedIn.slice(0, gen.active.length);
  const hot = loggedIn.slice(gen.active.length);
  const requests = mix === 'read' ? readMix(active) : mix === 'hot' ? writeMix(hot) : writeMix(active);
  const r = await runLoad(svc.url, requests, { duration: Number(secs) });
  process.stdout.write(`${mix}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.failed} failed ${r.badSample}\n`);
  await svc.stop();
  process.stdout.write(`profile in ${profDir}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
