// Profiles the service under one mix: npx tsx scripts/bench/profile.ts [--mix read|write|hot|draws-small|draws-large] [--seconds N] [--compiled] [--cold] [--keyed]
// Starts the server (the compiled one in dist/ with --compiled, as npm start runs it),
// warms it up as the bench does (every player loaded, the compiler warm), profiles the
// load alone and prints where the profile is. --cold profiles from the process's start
// instead (--cpu-prof): start-up and each player's first load are then in it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import { drawMix, readMix, runLoad, sendKeys, writeMix } from './load.js';
import { seasonedPlayer, smallPlayer } from './pg-size.js';
import { BENCH_SALT, fillStore, generateStore, hotPlayer, logIn, type BenchPlayer } from './players.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { START_FLAGS, startServer } from './servers.js';
import { cliArgs, flag, num, str } from '../args.js';

const args = cliArgs({
  command: 'npx tsx scripts/bench/profile.ts',
  summary: "Profiles the service under one of the bench's mixes with --cpu-prof and prints where the profile is.",
  options: {
    mix: {
      type: 'string',
      value: 'read|write|hot|draws-small|draws-large',
      default: 'write',
      description:
        "the load: the read mix, the write mix, one hot player, or the postgres size check's single draws (4 connections) on its ~25 kB or its ~768 kB player",
    },
    seconds: {
      type: 'string',
      value: 'N',
      default: '10',
      kind: 'number',
      min: 1,
      description: 'how long the load runs',
    },
    compiled: {
      type: 'boolean',
      description: 'profile the compiled server (dist/, npm run build first) rather than TypeScript through tsx',
    },
    keyed: {
      type: 'boolean',
      description: 'every POST carries an Idempotency-Key of its own, as the typed client sends',
    },
    cold: {
      type: 'boolean',
      description: "profile from the process's start, without the warm-up (start-up and first loads included)",
    },
    'database-url': {
      type: 'string',
      value: 'URL',
      description: 'serve from PostgreSQL (a fresh schema, dropped after) rather than JSON files',
    },
  },
});
const mix = str(args, 'mix');
const MIXES = ['read', 'write', 'hot', 'draws-small', 'draws-large'];
if (!MIXES.includes(mix)) {
  process.stderr.write(`--mix must be one of ${MIXES.join(', ')}\n`);
  process.exit(2);
}
const secs = num(args, 'seconds');
/** Requests on each hot player, as the bench's `--hot` default; at ~3,000 a second, four players a second. */
const HOT_REQUESTS = 800;
const hotPlayers = mix === 'hot' ? Math.max(1, Math.round(secs * 4)) : 0;
/**
 * The hot players one after another, HOT_REQUESTS each: the rate over their runs (each
 * timed to its last answer, as the bench's; autocannon's start between runs left out),
 * the worst p50 and p99. The server idles between players while the next run starts, so
 * read the hot profile's shares of its busy samples, not of all.
 */
const hotRuns = async (url: string, players: ReadonlyArray<BenchPlayer>) => {
  let requests = 0;
  let seconds = 0;
  let failed = 0;
  let p50 = 0;
  let p99 = 0;
  let badSample = '';
  for (const p of players) {
    const f = await runLoad(url, writeMix([p]), { amount: HOT_REQUESTS });
    requests += f.requests;
    seconds += f.requests / f.rps;
    failed += f.failed;
    p50 = Math.max(p50, f.p50);
    p99 = Math.max(p99, f.p99);
    badSample ||= f.badSample;
  }
  return { rps: requests / seconds, p50, p99, failed, badSample };
};
const compiled = flag(args, 'compiled');
const cold = flag(args, 'cold');
sendKeys(flag(args, 'keyed'));
const databaseUrl = str(args, 'database-url', '');
const schema = `hoshi_profile_${Date.now()}`;
const m = loadMaster();
const now = Date.now();
const dir = mkdtempSync(join(tmpdir(), 'hoshi-profile-'));
const profDir = mkdtempSync(join(tmpdir(), 'hoshi-cpuprof-'));
// Loaded into the server: the first SIGUSR2 starts the profiler, the second writes its profile.
const probe = join(dir, 'profile-probe.mjs');
writeFileSync(
  probe,
  `import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
let on = false;
process.on('SIGUSR2', async () => {
  if (!on) {
    on = true;
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
    process.stderr.write('profiler started\\n');
  } else {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE_OUT, JSON.stringify(profile));
    process.stderr.write('profile written\\n');
  }
});
`,
);
/** Sends SIGUSR2 and waits for the probe's line on the server's stderr. */
const signal = (proc: import('node:child_process').ChildProcess, line: string): Promise<void> =>
  new Promise((resolve) => {
    const on = (b: Buffer) => {
      if (b.toString().includes(line)) {
        proc.stderr?.off('data', on);
        resolve();
      }
    };
    proc.stderr?.on('data', on);
    proc.kill('SIGUSR2');
  });
try {
  // The hot players (as the bench's: a fresh one every HOT_REQUESTS requests, holding a
  // present for each receive; one player alone had its characters at their level cap within
  // seconds, and its upgrades refused), or the size check's player whose draws are profiled.
  const extra =
    mix === 'hot'
      ? Array.from({ length: hotPlayers }, (_, i) => hotPlayer(m, 1001 + i, now, HOT_REQUESTS))
      : mix === 'draws-large'
        ? [{ state: seasonedPlayer(m, 1001, now) }]
        : mix === 'draws-small'
          ? [{ state: smallPlayer(m, 1001, now) }]
          : [];
  const gen = databaseUrl
    ? await fillStore(await PostgresStorage.open({ connectionString: databaseUrl, schema }), m, 1000, 1, now, extra)
    : await generateStore(m, dir, 1000, 1, now, extra);
  const env: Record<string, string> = databaseUrl
    ? { DATABASE_URL: databaseUrl, PG_SCHEMA: schema, PG_POOL_SIZE: '32' }
    : { DATA_DIR: dir };
  const svc = await startServer(
    compiled ? 'dist/adapters/http/main.js' : 'adapters/http/main.ts',
    { ...env, REQUEST_HASH_SALT: BENCH_SALT, PROFILE_OUT: join(profDir, 'load.cpuprofile') },
    {
      nodeArgs: [
        ...(compiled ? START_FLAGS : ['--import', 'tsx']),
        ...(cold ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : ['--import', probe]),
      ],
    },
  );
  const loggedIn = await logIn(svc.url, [...gen.active, ...gen.extra]);
  const active = loggedIn.slice(0, gen.active.length);
  const hot = loggedIn.slice(gen.active.length);
  const draws = mix.startsWith('draws-');
  const requests = mix === 'read' ? readMix(active) : draws ? drawMix(hot) : writeMix(active);
  if (!cold) {
    // As the bench warms up: every player loaded from its snapshot, read and written.
    await runLoad(svc.url, readMix(loggedIn), { amount: loggedIn.length * 6 });
    await runLoad(svc.url, writeMix(loggedIn), { amount: loggedIn.length * 4 });
    if (draws) await runLoad(svc.url, drawMix(hot), { amount: 50, connections: 4 });
    await signal(svc.proc, 'profiler started');
  }
  const r =
    mix === 'hot'
      ? await hotRuns(svc.url, hot)
      : await runLoad(svc.url, requests, { duration: secs, ...(draws ? { connections: 4 } : {}) });
  if (!cold) await signal(svc.proc, 'profile written');
  process.stdout.write(
    `${mix}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.failed} failed ${r.badSample}\n`,
  );
  await svc.stop();
  process.stdout.write(`profile in ${profDir}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  if (databaseUrl) await PostgresStorage.dropSchema(databaseUrl, schema);
}
