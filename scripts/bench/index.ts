// npm run bench [-- --json] [--duration=5] [--runs=3] [--players=1000] [--scale=100000] [--only=core,storage,http,compiled,postgres,scale] [--tsx]
// Every measurement side by side with its baseline in one invocation: the service
// (compiled, as npm start runs it) and a bare Koa echo server as child processes
// under autocannon (32 connections, loopback), the file store's commits, the core
// in-process, the compiled server's start-up and idle memory beside tsx's, and a
// 100,000-player store. Each figure is the median of the runs; targets are checked
// at the end. --help lists the options.
import { cpus, tmpdir, totalmem } from 'node:os';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Storage } from '../../adapters/storage/storage.js';
import { join, resolve as resolvePath } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import type { Master } from '../../core/master/index.js';
import { commitsPerSecond, drawsPerSecond, playerDaysPerSecond, simPlayerDaysPerSecond } from './core.js';
import {
  drawMix,
  echoMix,
  presentsExhausted,
  readMix,
  runLoad,
  sendKeys,
  writeMix,
  CONNECTIONS,
  type Figures,
} from './load.js';
import { activePlayer, BENCH_SALT, fillStore, generateStore, hotPlayer, logIn } from './players.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { fileSizeCpu } from './file-size.js';
import { ROOT, START_FLAGS, startServer, type Server } from './servers.js';
import { backendsNow, backendsSince, cpuNow, cpuSince, namedUrl, pgFloor, type FloorFigures } from './pg-floor.js';
import { seasonedPlayer, sizeRatios, smallPlayer } from './pg-size.js';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import type { PlayerState } from '../../core/state.js';
import { spawnSync } from 'node:child_process';
import { cliArgs, flag, num as numArg } from '../args.js';

const SECTIONS = ['core', 'storage', 'http', 'compiled', 'postgres', 'scale'];
const args = cliArgs({
  command: 'npm run bench --',
  summary:
    "Every measurement beside its baseline in one invocation (the service and a bare Koa echo under autocannon, the file store's commits, the core in-process, the compiled server's start-up and idle memory, PostgreSQL, a 100,000-player store); each figure the median of the runs, the targets checked at the end.",
  options: {
    json: { type: 'boolean', description: 'print the rows, targets and extras as JSON instead of the table' },
    duration: {
      type: 'string',
      value: 'SECONDS',
      default: '5',
      kind: 'number',
      min: 1,
      description: 'length of each load run',
    },
    runs: {
      type: 'string',
      value: 'N',
      default: '3',
      kind: 'integer',
      min: 3,
      description: 'runs per figure (at least 3; the median is reported)',
    },
    players: {
      type: 'string',
      value: 'N',
      default: '1000',
      kind: 'integer',
      min: 1,
      description: 'players in use in the HTTP runs',
    },
    scale: {
      type: 'string',
      value: 'N',
      default: '100000',
      kind: 'integer',
      min: 1,
      description: 'players stored in the scale run',
    },
    seasoned: {
      type: 'string',
      value: 'N',
      default: '20000',
      kind: 'integer',
      min: 1,
      description: "ten-draws made by the postgres size check's large player (20,000: the bounds test's ~768 kB)",
    },
    'size-draws': {
      type: 'string',
      value: 'N',
      default: '1200',
      kind: 'integer',
      min: 1,
      description:
        "single draws a run on each of the postgres size check's players (4 connections; 400, ~0.4 s, swung with where a major GC fell)",
    },
    hot: {
      type: 'string',
      value: 'N',
      default: '800',
      kind: 'integer',
      min: 1,
      description: 'requests of the hot-player run',
    },
    pad: {
      type: 'string',
      value: 'BYTES',
      default: '9000',
      kind: 'integer',
      description: "bytes the padded baseline adds to its GET answers (about the read mix's mean answer)",
    },
    only: {
      type: 'string',
      value: 'LIST',
      defaultText: 'all',
      description: `the sections to run, comma-separated: ${SECTIONS.join(', ')}`,
    },
    keyed: {
      type: 'boolean',
      description:
        "every POST of the mixes carries an Idempotency-Key of its own, as the typed client's writes do (default: none)",
    },
    tsx: {
      type: 'boolean',
      description:
        'run the service as TypeScript through tsx (npm run dev) rather than the compiled dist/ that npm start runs',
    },
    before: {
      type: 'string',
      value: 'DIR',
      description:
        'with the http and postgres sections: also run the read and write mixes on the compiled server of another checkout (DIR/dist, built), on its own JSON files or schema filled by its own storage code, interleaved run by run with this one (a before and after in one run)',
    },
  },
});
/** The service as npm start runs it (dist/, built first when stale), or through tsx with --tsx. */
const SERVICE = flag(args, 'tsx')
  ? { script: 'adapters/http/main.ts', opts: {} }
  : { script: 'dist/adapters/http/main.js', opts: { nodeArgs: START_FLAGS } };
const startService = (env: Record<string, string>) => startServer(SERVICE.script, env, SERVICE.opts);
const num = (k: string, d: number) => numArg(args, k, d);
const JSON_OUT = flag(args, 'json');
sendKeys(flag(args, 'keyed'));
const DURATION = num('duration', 5);
const RUNS = num('runs', 3);
const PLAYERS = num('players', 1000);
const SCALE = num('scale', 100_000);
const HOT_REQUESTS = num('hot', 800);
const SEASONED = num('seasoned', 20_000);
const SIZE_DRAWS = num('size-draws', 1200);
/**
 * Presents each of the postgres section's players holds: a present for each receive its runs
 * make (on a 2-core EPYC ~21 a run for the half that also carries the half-load run), so that
 * no receive is answered without a write (the 40 of the other sections ran out there).
 */
const PG_PRESENTS = 16 + 24 * RUNS;
/** Bytes the padded baseline adds to its GET answers: about the read mix's mean answer. */
const PAD = num('pad', 9000);
const only = typeof args.values['only'] === 'string' ? new Set(args.values['only'].split(',')) : null;
for (const s of only ?? [])
  if (!SECTIONS.includes(s)) {
    process.stderr.write(`--only: no section ${s} (${SECTIONS.join(', ')})\n`);
    process.exit(2);
  }
const wants = (s: string) => only === null || only.has(s);

const log = (s: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const medianFigures = (runs: Figures[]): Figures => ({
  rps: median(runs.map((r) => r.rps)),
  p50: median(runs.map((r) => r.p50)),
  p99: median(runs.map((r) => r.p99)),
  failed: runs.reduce((a, r) => a + r.failed, 0),
  requests: runs.reduce((a, r) => a + r.requests, 0),
});

interface Row {
  readonly name: string;
  readonly unit: string;
  readonly rate: number | null;
  readonly p50: number | null;
  readonly p99: number | null;
  /** Ratio to this row's baseline, and what the baseline is. */
  readonly ratio: number | null;
  readonly vs: string;
  readonly failed?: number;
  readonly runs: ReadonlyArray<number>;
}
interface Target {
  readonly target: string;
  readonly value: string;
  readonly met: boolean;
}
const rows: Row[] = [];
const targets: Target[] = [];
const extras: Record<string, number> = {};

const load = async (
  url: string,
  mix: Parameters<typeof runLoad>[1],
  label: string,
  opts: { duration?: number; amount?: number; connections?: number },
): Promise<Figures> => {
  const r = await runLoad(url, mix, opts);
  log(
    `${label}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.failed ? `, ${r.failed} FAILED (${r.badSample})` : ''}`,
  );
  return r;
};

const httpRow = (name: string, runs: Figures[], base: Figures | null, vs: string): Figures => {
  const f = medianFigures(runs);
  rows.push({
    name,
    unit: 'req/s',
    rate: f.rps,
    p50: f.p50,
    p99: f.p99,
    ratio: base ? f.rps / base.rps : null,
    vs,
    failed: f.failed,
    runs: runs.map((r) => Math.round(r.rps)),
  });
  return f;
};

interface Cpu {
  readonly node: number;
  /** The backends of the service's connections where `db` names them (else as postgresAll). */
  readonly postgres: number;
  /** Every PostgreSQL process on the machine: the WAL writer, checkpointer and autovacuum too, and whatever else uses the server. */
  readonly postgresAll: number;
  readonly bench: number;
}
/**
 * A load with the CPU each side spent on it, per request (µs): the service processes,
 * PostgreSQL, the load generator. `db`: the service's connections are named `app`
 * (namedUrl), so PostgreSQL's CPU is their backends' alone, whatever else the machine runs.
 */
const measured = async (
  pids: number[],
  f: () => Promise<Figures>,
  db?: { readonly url: string; readonly app: string },
): Promise<Figures & { cpu: Cpu }> => {
  const b0 = db && (await backendsNow(db.url, db.app));
  const c0 = cpuNow(pids);
  const r = await f();
  const c = cpuSince(c0, cpuNow(pids));
  const backends = b0 && db ? backendsSince(b0, await backendsNow(db.url, db.app)) : c.postgres;
  const per = (x: number) => (x / Math.max(1, r.requests)) * 1e6;
  return {
    ...r,
    cpu: { node: per(c.node), postgres: per(backends), postgresAll: per(c.postgres), bench: per(c.bench) },
  };
};
/** The fill commits a thousand players a statement: on a loaded machine that takes more than the store's 5 s default. */
const FILL_TIMEOUT_MS = 300_000;
/** The application_name of this checkout's service connections, and of the --before checkout's. */
const APP_NOW = `hoshi-bench-now-${process.pid}`;
const APP_BEFORE = `hoshi-bench-before-${process.pid}`;

/**
 * The compiled server of another checkout (`--before`) on a schema of its own, filled by that
 * checkout's own storage code (so its tables are as it made them), its players logged in and warmed.
 */
const startBefore = async (
  dir: string,
  url: string,
  m: Master,
  now: number,
  extra: ReadonlyArray<{ state: PlayerState }>,
) => {
  const root = resolvePath(dir);
  const main = join(root, 'dist/adapters/http/main.js');
  if (!existsSync(main)) throw new Error(`--before: ${main} is missing (run npm run build there)`);
  const mod = (await import(pathToFileURL(join(root, 'dist/adapters/storage/postgres.js')).href)) as {
    PostgresStorage: {
      open(o: { connectionString: string; schema: string; statementTimeoutMs: number }): Promise<Storage>;
    };
  };
  const schema = `hoshi_bench_before_${Date.now()}`;
  log(`postgres before: generating ${PLAYERS} players in schema ${schema} with ${root}'s storage`);
  const gen = await fillStore(
    await mod.PostgresStorage.open({ connectionString: url, schema, statementTimeoutMs: FILL_TIMEOUT_MS }),
    m,
    PLAYERS,
    1,
    now,
    extra,
    PG_PRESENTS,
  );
  // Before issue 17 the id sequence did not move past players committed with ids of their own: moved here.
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`SELECT setval('${schema}.player_ids', (SELECT max(player_id) FROM ${schema}.players))`);
  } finally {
    await c.end();
  }
  const server = await startServer(
    main,
    {
      DATABASE_URL: namedUrl(url, APP_BEFORE),
      PG_SCHEMA: schema,
      ADMIN_TOKEN: 'bench-admin-token',
      REQUEST_HASH_SALT: BENCH_SALT,
      PG_POOL_SIZE: String(CONNECTIONS),
    },
    { nodeArgs: [], cwd: root },
  );
  const active = await logIn(server.url, gen.active);
  await load(server.url, readMix(active), 'warm-up postgres read, before', { amount: active.length * 6 });
  await load(server.url, writeMix(active), 'warm-up postgres write, before', { amount: active.length * 4 });
  const sized = await logIn(server.url, gen.extra);
  for (const p of sized) await load(server.url, drawMix([p]), 'warm-up postgres draws, before', { amount: 50 });
  const head = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  return { server, active, sized, schema, label: head || root };
};

/**
 * The compiled server of another checkout (`--before`) on JSON files of its own, written by
 * that checkout's own FileStorage, its players logged in and warmed: the http section's
 * read and write mixes run on it interleaved with this checkout's.
 */
const startFileBefore = async (dir: string, m: Master, now: number, data: string) => {
  const root = resolvePath(dir);
  const main = join(root, 'dist/adapters/http/main.js');
  if (!existsSync(main)) throw new Error(`--before: ${main} is missing (run npm run build there)`);
  const mod = (await import(pathToFileURL(join(root, 'dist/adapters/storage/file.js')).href)) as {
    FileStorage: { open(o: { dir: string; cacheSize: number }): Promise<Storage> };
  };
  log(`http before: generating ${PLAYERS} players in ${data} with ${root}'s storage`);
  const gen = await fillStore(await mod.FileStorage.open({ dir: data, cacheSize: 100 }), m, PLAYERS, 1, now);
  const server = await startServer(main, serviceEnv(data), { nodeArgs: START_FLAGS, cwd: root });
  const active = await logIn(server.url, gen.active);
  await load(server.url, readMix(active), 'warm-up read, before', { amount: active.length * 6 });
  await load(server.url, writeMix(active), 'warm-up write, before', { amount: active.length * 4 });
  const head = spawnSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  return { server, active, label: head || root };
};

const tmp = (label: string) => mkdtempSync(join(tmpdir(), `hoshi-bench-${label}-`));
const serviceEnv = (dir: string) => ({
  DATA_DIR: dir,
  ADMIN_TOKEN: 'bench-admin-token',
  STORAGE: 'file',
  REQUEST_HASH_SALT: BENCH_SALT,
});

const startTimes = async (dir: string, n: number): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = await startService(serviceEnv(dir));
    times.push(s.startupMs);
    await s.stop();
  }
  return median(times);
};

/** Spawn to the first answer (GET /readyz 200), and the resident set once idle, of a server started on `dir`. */
const startAndIdle = async (
  script: string,
  opts: { nodeArgs?: string[] },
  dir: string,
): Promise<{ firstAnswerMs: number; idleRssMb: number }> => {
  const t0 = performance.now();
  const s = await startServer(script, serviceEnv(dir), opts);
  try {
    const r = await fetch(`${s.url}/readyz`);
    if (r.status !== 200) throw new Error(`${script}: /readyz answered ${r.status}`);
    const firstAnswerMs = performance.now() - t0;
    // Idle: what it holds once the start-up's garbage is collected and nothing runs.
    await new Promise((done) => setTimeout(done, 3000));
    return { firstAnswerMs, idleRssMb: s.rssMb() };
  } finally {
    await s.stop();
  }
};

const main = async () => {
  if (!flag(args, 'tsx') && (wants('http') || wants('compiled') || wants('postgres') || wants('scale'))) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (b.status !== 0) throw new Error('npm run build failed');
  }
  const m: Master = loadMaster();
  const now = Date.now();
  const cleanup: string[] = [];
  const servers: Server[] = [];
  // Interrupted: stop the child servers and remove the generated stores (up to ~1 GB) before leaving.
  process.once('SIGINT', () => {
    for (const s of servers) s.proc.kill('SIGKILL');
    for (const d of cleanup) rmSync(d, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    if (wants('core')) {
      log('core: single draws and player-days in-process');
      const draws = Array.from({ length: RUNS }, () => drawsPerSecond(m, now, Math.min(DURATION, 3)));
      rows.push({
        name: 'core: single draws (seasoned player)',
        unit: 'draws/s',
        rate: median(draws),
        p50: null,
        p99: null,
        ratio: median(draws) / 100_000,
        vs: 'target 100,000/s',
        runs: draws.map(Math.round),
      });
      targets.push({
        target: 'core ≥ 100,000 single draws/s',
        value: Math.round(median(draws)).toLocaleString('en-US'),
        met: median(draws) >= 100_000,
      });
      const days = Array.from({ length: RUNS }, () => playerDaysPerSecond(m, now, Math.min(DURATION, 3)));
      rows.push({
        name: 'core: player-days, a typical day (bench loop)',
        unit: 'days/s',
        rate: median(days),
        p50: null,
        p99: null,
        ratio: null,
        vs: '',
        runs: days.map(Math.round),
      });
      try {
        const sim: number[] = [];
        for (let i = 0; i < RUNS; i++) sim.push(await simPlayerDaysPerSecond(m));
        rows.push({
          name: 'core: player-days, npm run sim population',
          unit: 'days/s',
          rate: median(sim),
          p50: null,
          p99: null,
          ratio: null,
          vs: '',
          runs: sim.map(Math.round),
        });
      } catch (e) {
        log(`the simulator (scripts/sim) did not run: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (wants('storage')) {
      log('storage: durable commits, grouped fsync against one fsync per commit');
      const grouped: Array<Awaited<ReturnType<typeof commitsPerSecond>>> = [];
      const single: typeof grouped = [];
      for (let i = 0; i < RUNS; i++) {
        grouped.push(await commitsPerSecond(m, now, true, Math.min(DURATION, 3)));
        single.push(await commitsPerSecond(m, now, false, Math.min(DURATION, 3)));
        log(
          `commits: grouped ${Math.round(grouped.at(-1)!.rps)}/s, one fsync each ${Math.round(single.at(-1)!.rps)}/s`,
        );
      }
      const g = {
        rps: median(grouped.map((x) => x.rps)),
        p50: median(grouped.map((x) => x.p50)),
        p99: median(grouped.map((x) => x.p99)),
      };
      const s = {
        rps: median(single.map((x) => x.rps)),
        p50: median(single.map((x) => x.p50)),
        p99: median(single.map((x) => x.p99)),
      };
      rows.push({
        name: 'storage: commits, grouped fsync (32 writers)',
        unit: 'commits/s',
        rate: g.rps,
        p50: g.p50,
        p99: g.p99,
        ratio: g.rps / s.rps,
        vs: 'one fsync per commit',
        runs: grouped.map((x) => Math.round(x.rps)),
      });
      rows.push({
        name: 'storage: commits, one fsync per commit',
        unit: 'commits/s',
        rate: s.rps,
        p50: s.p50,
        p99: s.p99,
        ratio: 1,
        vs: '',
        runs: single.map((x) => Math.round(x.rps)),
      });
      // The size check on the file store (issue 34): a write's CPU on the bounds test's player over the write mix's.
      log(
        'storage: single draws through the service on a ~25 kB and a ~768 kB player (the reducer makes the large one)',
      );
      const size = await fileSizeCpu(m, now, 400, RUNS);
      rows.push({
        name: `storage: CPU per single draw, ${size.kB[1]} kB ÷ ${size.kB[0]} kB player (file store)`,
        unit: 'µs/draw',
        rate: size.cpu[1],
        p50: null,
        p99: null,
        ratio: size.ratio,
        vs: `${Math.round(size.cpu[0])} µs/draw on the ${size.kB[0]} kB player, in process`,
        runs: size.runs.map((r) => Math.round(r[1])),
      });
      extras['fileSizeRatio'] = size.ratio;
      targets.push({
        target: `file store CPU per single draw, ${size.kB[1]} kB player ≤ 1.5× the ${size.kB[0]} kB player's`,
        value: `${size.ratio.toFixed(2)}×`,
        met: size.ratio <= 1.5,
      });
    }

    let small: { read: Figures; write: Figures } | null = null;
    if (wants('http')) {
      log(`http: generating ${PLAYERS} players (+${RUNS} hot players)`);
      const dir = tmp('1k');
      cleanup.push(dir);
      // One hot player per run, each from the same state, holding a present for every receive of its run.
      const hotStates = Array.from({ length: RUNS }, (_, i) => hotPlayer(m, PLAYERS + 1 + i, now, HOT_REQUESTS));
      const gen = await generateStore(m, dir, PLAYERS, 1, now, hotStates);
      const base = await startServer('scripts/bench/baseline.ts', {});
      servers.push(base);
      const svc = await startService(serviceEnv(dir));
      servers.push(svc);
      extras['startupMs1k'] = svc.startupMs;
      log(
        `service up in ${Math.round(svc.startupMs)} ms; logging ${gen.active.length + gen.extra.length} players in through the client`,
      );
      const loggedIn = await logIn(svc.url, [...gen.active, ...gen.extra]);
      const players = loggedIn.slice(0, gen.active.length);
      const hot = loggedIn.slice(gen.active.length);
      log('warming up');
      // Warm-ups pass over every player once: each is loaded from its snapshot on first use.
      await load(base.url, echoMix(players), 'warm-up baseline', { duration: 2 });
      await load(svc.url, readMix(players), 'warm-up read', { amount: players.length * 6 });
      await load(svc.url, writeMix(players), 'warm-up write', { amount: players.length * 4 });
      // The hot players are loaded too, by reads (a write would spend a present of its run).
      await load(svc.url, readMix(hot), 'warm-up hot players, reads', { amount: 64, connections: 4 });
      const b: Figures[] = [],
        bp: Figures[] = [],
        r: Figures[] = [],
        w: Figures[] = [],
        h: Figures[] = [];
      const fileWriteCpu: number[] = [];
      const fileReadCpu: number[] = [];
      // With --before: another checkout's server on its own files, its mixes beside this one's in each run.
      const beforeDir = typeof args.values['before'] === 'string' ? args.values['before'] : undefined;
      const oldData = beforeDir ? tmp('1k-before') : undefined;
      if (oldData) cleanup.push(oldData);
      const old = beforeDir && oldData ? await startFileBefore(beforeDir, m, now, oldData) : undefined;
      if (old) servers.push(old.server);
      const oldReads: Array<Awaited<ReturnType<typeof measured>>> = [];
      const oldWrites: typeof oldReads = [];
      const onOld = async (i: number, kind: 'read' | 'write') => {
        if (!old) return;
        const mix = kind === 'read' ? readMix(old.active) : writeMix(old.active);
        const f = await measured([old.server.proc.pid as number], () =>
          load(old.server.url, mix, `run ${i + 1} ${kind} mix, before (${old.label})`, { duration: DURATION }),
        );
        (kind === 'read' ? oldReads : oldWrites).push(f);
      };
      for (let i = 0; i < RUNS; i++) {
        b.push(await load(base.url, echoMix(players), `run ${i + 1} baseline`, { duration: DURATION }));
        bp.push(await load(base.url, echoMix(players, PAD), `run ${i + 1} baseline, padded`, { duration: DURATION }));
        // Before and now take turns at going first, so that neither always follows the same run.
        if (i % 2 === 0) await onOld(i, 'read');
        const rm = await measured([svc.proc.pid as number], () =>
          load(svc.url, readMix(players), `run ${i + 1} read mix`, { duration: DURATION }),
        );
        r.push(rm);
        fileReadCpu.push(rm.cpu.node);
        if (i % 2 === 1) await onOld(i, 'read');
        if (i % 2 === 0) await onOld(i, 'write');
        const wm = await measured([svc.proc.pid as number], () =>
          load(svc.url, writeMix(players), `run ${i + 1} write mix`, { duration: DURATION }),
        );
        w.push(wm);
        fileWriteCpu.push(wm.cpu.node);
        if (i % 2 === 1) await onOld(i, 'write');
        h.push(await load(svc.url, writeMix(hot.slice(i, i + 1)), `run ${i + 1} hot player`, { amount: HOT_REQUESTS }));
      }
      extras['rss1kMb'] = svc.rssMb();
      const bf = httpRow('baseline: bare Koa echo', b, null, '');
      const bpf = httpRow(`baseline: Koa echo, GETs answer ~${Math.round(PAD / 1000)} kB`, bp, bf, 'baseline');
      const rf = httpRow(
        `read mix (${PLAYERS.toLocaleString('en-US')} players)`,
        r,
        bf,
        `baseline; node CPU ${Math.round(median(fileReadCpu))} µs/req`,
      );
      const wf = httpRow(
        `write mix (${PLAYERS.toLocaleString('en-US')} players, durable)`,
        w,
        bf,
        `baseline; node CPU ${Math.round(median(fileWriteCpu))} µs/req`,
      );
      const hf = httpRow('hot player (write mix, one player)', h, bf, 'baseline');
      small = { read: rf, write: wf };
      // Issue 34's figures: each mix against the echo padded to the read mix's bytes.
      const ratioRow = (name: string, ratio: number, vs: string) =>
        rows.push({ name, unit: 'ratio', rate: null, p50: null, p99: null, ratio, vs, runs: [] });
      ratioRow('read mix ÷ padded echo', rf.rps / bpf.rps, 'padded echo');
      ratioRow('write mix ÷ padded echo', wf.rps / bpf.rps, 'padded echo');
      if (old) {
        const cpuOf = (fs: typeof oldReads) => `node CPU ${Math.round(median(fs.map((f) => f.cpu.node)))} µs/req`;
        const orf = httpRow(`before (${old.label}): read mix`, oldReads, bf, `baseline; ${cpuOf(oldReads)}`);
        const owf = httpRow(`before (${old.label}): write mix`, oldWrites, bf, `baseline; ${cpuOf(oldWrites)}`);
        ratioRow(`before (${old.label}): read mix ÷ padded echo`, orf.rps / bpf.rps, 'padded echo');
        ratioRow(`before (${old.label}): write mix ÷ padded echo`, owf.rps / bpf.rps, 'padded echo');
        ratioRow('now ÷ before: read mix', rf.rps / orf.rps, `before: ${old.label}`);
        ratioRow('now ÷ before: write mix', wf.rps / owf.rps, `before: ${old.label}`);
      }
      targets.push({
        target: 'write mix ≥ 50% of baseline req/s',
        value: `${((100 * wf.rps) / bf.rps).toFixed(0)}%`,
        met: wf.rps >= 0.5 * bf.rps,
      });
      targets.push({
        target: 'read mix ≥ 70% of baseline req/s',
        value: `${((100 * rf.rps) / bf.rps).toFixed(0)}%`,
        met: rf.rps >= 0.7 * bf.rps,
      });
      targets.push({ target: 'write mix p99 ≤ 25 ms (32 connections)', value: `${wf.p99} ms`, met: wf.p99 <= 25 });
      targets.push({ target: 'read mix p99 ≤ 25 ms (32 connections)', value: `${rf.p99} ms`, met: rf.p99 <= 25 });
      // Issue 34's: the write mix on one player, its commits pipelined.
      targets.push({
        target: 'hot player ≥ 3,000 req/s (write mix, one player)',
        value: `${Math.round(hf.rps)} req/s`,
        met: hf.rps >= 3000,
      });
      for (const s of servers.splice(0)) await s.stop();
    }

    if (wants('compiled')) {
      // What an operator runs: the compiled server with plain node (npm start), one process; beside it the
      // same server through tsx (npm run dev, and what npm start ran before dist/). Each from spawn to its
      // first answer on a 1,000-player store, and its resident set idle after that.
      log(`compiled: start-up and idle memory, ${PLAYERS} players`);
      const dir = tmp('compiled');
      cleanup.push(dir);
      await generateStore(m, dir, PLAYERS, 1, now);
      const compiled: Array<{ firstAnswerMs: number; idleRssMb: number }> = [];
      const viaTsx: typeof compiled = [];
      for (let i = 0; i < RUNS; i++) {
        compiled.push(await startAndIdle('dist/adapters/http/main.js', { nodeArgs: START_FLAGS }, dir));
        viaTsx.push(await startAndIdle('adapters/http/main.ts', {}, dir));
        log(
          `compiled: first answer ${Math.round(compiled.at(-1)!.firstAnswerMs)} ms, idle ${Math.round(compiled.at(-1)!.idleRssMb)} MB; tsx: ${Math.round(viaTsx.at(-1)!.firstAnswerMs)} ms, ${Math.round(viaTsx.at(-1)!.idleRssMb)} MB`,
        );
      }
      const first = median(compiled.map((x) => x.firstAnswerMs));
      const idle = median(compiled.map((x) => x.idleRssMb));
      const firstTsx = median(viaTsx.map((x) => x.firstAnswerMs));
      const idleTsx = median(viaTsx.map((x) => x.idleRssMb));
      extras['compiledFirstAnswerMs'] = first;
      extras['compiledIdleRssMb'] = idle;
      rows.push({
        name: `compiled server: start to first answer (${PLAYERS.toLocaleString('en-US')} players)`,
        unit: 'ms',
        rate: first,
        p50: null,
        p99: null,
        ratio: first / firstTsx,
        vs: `through tsx: ${Math.round(firstTsx)} ms`,
        runs: compiled.map((x) => Math.round(x.firstAnswerMs)),
      });
      rows.push({
        name: 'compiled server: resident memory idle',
        unit: 'MB',
        rate: idle,
        p50: null,
        p99: null,
        ratio: idle / idleTsx,
        vs: `through tsx: ${Math.round(idleTsx)} MB`,
        runs: compiled.map((x) => Math.round(x.idleRssMb)),
      });
      targets.push({
        target: `compiled server: start to first answer ≤ 0.8 s (${PLAYERS.toLocaleString('en-US')} players)`,
        value: `${Math.round(first)} ms`,
        met: first <= 800,
      });
      targets.push({
        target: 'compiled server: idle resident memory ≤ 90 MB (one process, no loader)',
        value: `${Math.round(idle)} MB`,
        met: idle <= 90,
      });
    }

    if (wants('postgres')) {
      // PostgreSQL side by side (issue 17): the floor (the least a write needs of this machine's
      // PostgreSQL), the read and write mixes on one process, the write mix on two processes
      // sharing the database (each half the players and half the connections), and the CPU each
      // side spends per request, read from /proc, with the capacity model's projection.
      const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
      const schema = `hoshi_bench_${Date.now()}`;
      const stateJson = JSON.stringify(activePlayer(m, 1, now).state);
      log(`postgres: the floor, ${CONNECTIONS} clients updating a ${Math.round(stateJson.length / 1000)} kB row each`);
      // The floor is the cheapest form measured (json, lz4: what hoshi stores); beside it json with
      // PostgreSQL's default compression, and jsonb (what hoshi stored before issue 17).
      const VARIANTS = [
        { label: 'json, lz4', column: 'json', compression: 'lz4' },
        { label: 'json, pglz', column: 'json', compression: 'pglz' },
        { label: 'jsonb, pglz', column: 'jsonb', compression: 'pglz' },
      ] as const;
      const floorRuns: FloorFigures[][] = VARIANTS.map(() => []);
      for (let i = 0; i < RUNS; i++) {
        for (const [k, v] of VARIANTS.entries())
          floorRuns[k]!.push(
            await pgFloor(url, schema, stateJson, {
              clients: CONNECTIONS,
              seconds: DURATION,
              column: v.column,
              compression: v.compression,
            }),
          );
        log(
          `run ${i + 1} floor: ${VARIANTS.map((v, k) => `${v.label} ${Math.round(floorRuns[k]!.at(-1)!.tps)} tx/s`).join(', ')}`,
        );
      }
      const floor = median(floorRuns[0]!.map((f) => f.tps));
      VARIANTS.forEach((v, k) => {
        const fs = floorRuns[k]!;
        const tps = median(fs.map((f) => f.tps));
        rows.push({
          name: `postgres: floor, one-row update, ${v.label}${k === 0 ? ' (32 clients)' : ''}`,
          unit: 'tx/s',
          rate: tps,
          p50: median(fs.map((f) => f.p50)),
          p99: median(fs.map((f) => f.p99)),
          ratio: tps / floor,
          vs: `${k === 0 ? '' : 'the floor; '}PostgreSQL CPU ${Math.round(median(fs.map((f) => f.pgCpuUs)))} µs/tx (all its processes ${Math.round(median(fs.map((f) => f.pgAllCpuUs)))})`,
          runs: fs.map((f) => Math.round(f.tps)),
        });
      });
      log(`postgres: a player of ${SEASONED} ten-draws for the size check (the reducer runs each)`);
      // The size check (issue 34): single draws on a player of the write mix's size and on the bounds test's.
      const sizes = [smallPlayer(m, PLAYERS + 1, now), seasonedPlayer(m, PLAYERS + 2, now, SEASONED)].map((state) => ({
        state,
        kB: Math.round(canonicalJson(state).length / 1000),
      }));
      log(
        `postgres: generating ${PLAYERS} players in schema ${schema}, and the size check's ${sizes.map((x) => `${x.kB} kB`).join(' and ')}`,
      );
      const gen = await fillStore(
        await PostgresStorage.open({ connectionString: url, schema, statementTimeoutMs: FILL_TIMEOUT_MS }),
        m,
        PLAYERS,
        1,
        now,
        sizes,
        PG_PRESENTS,
      );
      const pgEnv = {
        DATABASE_URL: namedUrl(url, APP_NOW),
        PG_SCHEMA: schema,
        ADMIN_TOKEN: 'bench-admin-token',
        REQUEST_HASH_SALT: BENCH_SALT,
        PG_POOL_SIZE: String(CONNECTIONS),
      };
      try {
        const one = await startService(pgEnv);
        servers.push(one);
        const pid1 = one.proc.pid as number;
        const active = await logIn(one.url, gen.active);
        await load(one.url, readMix(active), 'warm-up postgres read', { amount: active.length * 6 });
        await load(one.url, writeMix(active), 'warm-up postgres write', { amount: active.length * 4 });
        const sized = await logIn(one.url, gen.extra);
        for (const p of sized) await load(one.url, drawMix([p]), 'warm-up postgres draws', { amount: 50 });
        const reads: Array<Awaited<ReturnType<typeof measured>>> = [];
        const single: typeof reads = [];
        /** The write mix on half the players at half the connections: each of two processes' share. */
        const share: typeof reads = [];
        const halves = [active.filter((_, i) => i % 2 === 0), active.filter((_, i) => i % 2 === 1)];
        const old =
          typeof args.values['before'] === 'string'
            ? await startBefore(args.values['before'], url, m, now, sizes)
            : undefined;
        if (old) servers.push(old.server);
        const oldReads: typeof reads = [];
        const oldWrites: typeof reads = [];
        /** Single draws on each size's player, by size (small, large), per run: this process's, and the before's. */
        const draws: Array<typeof reads> = sizes.map(() => []);
        const oldDraws: Array<typeof reads> = sizes.map(() => []);
        const drawRuns = async (
          url1: string,
          pid: number,
          players: typeof sized,
          into: Array<typeof reads>,
          label: string,
          app: string,
          run: number,
        ): Promise<void> => {
          // The two sizes take turns at going first, so neither always follows the write
          // mix's garbage (a major GC in a window of under a second moved the ratio 1.0–1.75×).
          const order = [...players.entries()];
          if (run % 2 === 1) order.reverse();
          for (const [k, p] of order)
            into[k]!.push(
              await measured(
                [pid],
                () =>
                  load(url1, drawMix([p]), `${label}, single draws, ${sizes[k]!.kB} kB player`, {
                    amount: SIZE_DRAWS,
                    connections: 4,
                  }),
                { url, app },
              ),
            );
        };
        for (let i = 0; i < RUNS; i++) {
          if (old) {
            const pid = old.server.proc.pid as number;
            oldReads.push(
              await measured(
                [pid],
                () =>
                  load(old.server.url, readMix(old.active), `run ${i + 1} postgres read mix, before (${old.label})`, {
                    duration: DURATION,
                  }),
                { url, app: APP_BEFORE },
              ),
            );
            oldWrites.push(
              await measured(
                [pid],
                () =>
                  load(old.server.url, writeMix(old.active), `run ${i + 1} postgres write mix, before (${old.label})`, {
                    duration: DURATION,
                  }),
                { url, app: APP_BEFORE },
              ),
            );
            await drawRuns(
              old.server.url,
              pid,
              old.sized,
              oldDraws,
              `run ${i + 1} postgres, before (${old.label})`,
              APP_BEFORE,
              i,
            );
          }
          reads.push(
            await measured(
              [pid1],
              () =>
                load(one.url, readMix(active), `run ${i + 1} postgres read mix, one process`, { duration: DURATION }),
              { url, app: APP_NOW },
            ),
          );
          single.push(
            await measured(
              [pid1],
              () =>
                load(one.url, writeMix(active), `run ${i + 1} postgres write mix, one process`, { duration: DURATION }),
              { url, app: APP_NOW },
            ),
          );
          await drawRuns(one.url, pid1, sized, draws, `run ${i + 1} postgres`, APP_NOW, i);
          // The load each of two processes carries, on one: the capacity model projects two
          // processes from it (docs/scaling.md: a commit's PostgreSQL CPU falls with the
          // commits a call gathers, so it is measured at each process's own connections).
          share.push(
            await measured(
              [pid1],
              () =>
                load(
                  one.url,
                  writeMix(halves[0] ?? []),
                  `run ${i + 1} postgres write mix, one process, half the load`,
                  {
                    duration: DURATION,
                    connections: CONNECTIONS / 2,
                  },
                ),
              { url, app: APP_NOW },
            ),
          );
          log(
            `  CPU per request: write: node ${Math.round(single.at(-1)!.cpu.node)} µs, postgres ${Math.round(single.at(-1)!.cpu.postgres)} µs, load generator ${Math.round(single.at(-1)!.cpu.bench)} µs`,
          );
        }
        if (old) {
          await old.server.stop();
          servers.splice(servers.indexOf(old.server), 1);
          await PostgresStorage.dropSchema(url, old.schema);
        }
        const two = await startService(pgEnv);
        servers.push(two);
        const pid2 = two.proc.pid as number;
        // The second process reads its half of the players once before the runs, as the first did in its warm-up.
        await load(two.url, writeMix(halves[1] ?? []), 'warm-up postgres, second process', {
          amount: (halves[1] ?? []).length * 4,
        });
        const pair: typeof reads = [];
        for (let i = 0; i < RUNS; i++) {
          pair.push(
            await measured(
              [pid1, pid2],
              async () => {
                const [a, b] = await Promise.all([
                  runLoad(one.url, writeMix(halves[0] ?? []), { duration: DURATION, connections: CONNECTIONS / 2 }),
                  runLoad(two.url, writeMix(halves[1] ?? []), { duration: DURATION, connections: CONNECTIONS / 2 }),
                ]);
                log(
                  `run ${i + 1} postgres, two processes: ${Math.round(a.rps + b.rps)} req/s (${Math.round(a.rps)} + ${Math.round(b.rps)})`,
                );
                return {
                  rps: a.rps + b.rps,
                  p50: Math.max(a.p50, b.p50),
                  p99: Math.max(a.p99, b.p99),
                  failed: a.failed + b.failed,
                  requests: a.requests + b.requests,
                };
              },
              { url, app: APP_NOW },
            ),
          );
        }
        const cpuMedian = (xs: typeof reads): Cpu => ({
          node: median(xs.map((x) => x.cpu.node)),
          postgres: median(xs.map((x) => x.cpu.postgres)),
          postgresAll: median(xs.map((x) => x.cpu.postgresAll)),
          bench: median(xs.map((x) => x.cpu.bench)),
        });
        const rc = cpuMedian(reads),
          wc = cpuMedian(single),
          hc = cpuMedian(share),
          pc = cpuMedian(pair);
        const cpuText = (c: Cpu) =>
          `CPU/req: node ${Math.round(c.node)} µs, postgres ${Math.round(c.postgres)} µs (all its processes ${Math.round(c.postgresAll)}), load ${Math.round(c.bench)} µs`;
        const rf = httpRow(
          `postgres: read mix, one process (${PLAYERS.toLocaleString('en-US')} players)`,
          reads,
          small?.read ?? null,
          small ? `JSON-file read mix; ${cpuText(rc)}` : cpuText(rc),
        );
        const sf = medianFigures(single);
        rows.push({
          name: `postgres: write mix, one process (${PLAYERS.toLocaleString('en-US')} players)`,
          unit: 'req/s',
          rate: sf.rps,
          p50: sf.p50,
          p99: sf.p99,
          ratio: sf.rps / floor,
          vs: `floor; ${cpuText(wc)}`,
          failed: sf.failed,
          runs: single.map((r) => Math.round(r.rps)),
        });
        httpRow(
          `postgres: write mix, one process, half the load (${halves[0]?.length ?? 0} players, ${CONNECTIONS / 2} connections)`,
          share,
          null,
          cpuText(hc),
        );
        const pf = httpRow('postgres: write mix, two processes', pair, sf, `one process; ${cpuText(pc)}`);
        // The size check: CPU per draw of the large player over the small one's, each side (issue 34).
        const sizeRows = (runsBySize: Array<typeof reads>, label: string) => {
          const cpu = runsBySize.map((xs) => cpuMedian(xs));
          runsBySize.forEach((xs, k) =>
            httpRow(`postgres${label}: single draws, ${sizes[k]!.kB} kB player`, xs, null, cpuText(cpu[k]!)),
          );
          const r = sizeRatios(cpu[0]!, cpu[1]!);
          rows.push({
            name: `postgres${label}: CPU per draw, ${sizes[1]!.kB} kB ÷ ${sizes[0]!.kB} kB player`,
            unit: 'ratio',
            rate: null,
            p50: null,
            p99: null,
            ratio: r.both,
            vs: `node ${r.node.toFixed(2)}×, postgres ${r.postgres.toFixed(2)}×`,
            runs: [],
          });
          return r;
        };
        const size = sizeRows(draws, '');
        if (old) sizeRows(oldDraws, ` before (${old.label})`);
        if (old) {
          const orf = httpRow(
            `postgres before (${old.label}): read mix, one process`,
            oldReads,
            null,
            cpuText(cpuMedian(oldReads)),
          );
          const owf = httpRow(
            `postgres before (${old.label}): write mix, one process`,
            oldWrites,
            null,
            cpuText(cpuMedian(oldWrites)),
          );
          rows.push({
            name: 'postgres now ÷ before: read mix',
            unit: 'ratio',
            rate: null,
            p50: null,
            p99: null,
            ratio: rf.rps / orf.rps,
            vs: `before: ${old.label}`,
            runs: [],
          });
          rows.push({
            name: 'postgres now ÷ before: write mix',
            unit: 'ratio',
            rate: null,
            p50: null,
            p99: null,
            ratio: sf.rps / owf.rps,
            vs: `before: ${old.label}`,
            runs: [],
          });
        }
        if (small)
          rows.push({
            name: 'postgres vs JSON files: write mix, one process',
            unit: 'ratio',
            rate: null,
            p50: null,
            p99: null,
            ratio: sf.rps / small.write.rps,
            vs: 'JSON-file write mix',
            runs: [],
          });
        // The capacity model (docs/scaling.md): each side's CPU per request bounds the rate; on this
        // machine every side shares the cores, and one Node process uses at most one.
        const cores = cpus().length;
        const project = (procs: number, c: { node: number; postgres: number; bench: number }) =>
          Math.min((procs * 1e6) / c.node, (cores * 1e6) / (c.node + c.postgres + c.bench));
        const projectedOne = project(1, wc);
        // Two processes from the figures of one process carrying one's share (half the load);
        // from the full load's figures too, which overstate them (more commits a call).
        const projectedTwo = project(2, hc);
        const projectedTwoFull = project(2, wc);
        rows.push({
          name: 'postgres: capacity model, one process (projected)',
          unit: 'req/s',
          rate: projectedOne,
          p50: null,
          p99: null,
          ratio: sf.rps / projectedOne,
          vs: 'measured ÷ projected',
          runs: [],
        });
        rows.push({
          name: 'postgres: capacity model, two processes (projected)',
          unit: 'req/s',
          rate: projectedTwo,
          p50: null,
          p99: null,
          ratio: pf.rps / projectedTwo,
          vs: `measured ÷ projected from one process at half the load (from the full load's figures: ${Math.round(projectedTwoFull)}, ${(pf.rps / projectedTwoFull).toFixed(2)})`,
          runs: [],
        });
        extras['pgFloorTps'] = floor;
        extras['pgNodeCpuUsPerWrite'] = wc.node;
        extras['pgPostgresCpuUsPerWrite'] = wc.postgres;
        extras['pgLoadCpuUsPerWrite'] = wc.bench;
        targets.push({
          target: 'postgres write mix, one process ≥ 50% of the floor',
          value: `${((100 * sf.rps) / floor).toFixed(0)}% (${Math.round(sf.rps)} of ${Math.round(floor)} tx/s)`,
          met: sf.rps >= 0.5 * floor,
        });
        extras['pgSizeRatioNode'] = size.node;
        extras['pgSizeRatioPostgres'] = size.postgres;
        targets.push({
          target: 'postgres CPU per write (write mix, one process): Node ≤ 350 µs',
          value: `${Math.round(wc.node)} µs`,
          met: wc.node <= 350,
        });
        targets.push({
          target: 'postgres CPU per write (write mix, one process): PostgreSQL ≤ 300 µs',
          value: `${Math.round(wc.postgres)} µs`,
          met: wc.postgres <= 300,
        });
        targets.push({
          target: `postgres CPU per single draw, ${sizes[1]!.kB} kB player ≤ 1.5× the ${sizes[0]!.kB} kB player's (each side)`,
          value: `node ${size.node.toFixed(2)}×, postgres ${size.postgres.toFixed(2)}×`,
          met: size.node <= 1.5 && size.postgres <= 1.5,
        });
        targets.push({
          target: 'postgres write mix p99 ≤ 50 ms (32 connections)',
          value: `${sf.p99} ms`,
          met: sf.p99 <= 50,
        });
        targets.push({
          target: 'postgres, two processes ≥ 1.0× one process',
          value: `${(pf.rps / sf.rps).toFixed(2)}×`,
          met: pf.rps >= sf.rps,
        });
        targets.push({
          target: 'capacity model: two processes projected within 25% of measured',
          value: `${Math.round(projectedTwo)} projected, ${Math.round(pf.rps)} measured (${(pf.rps / projectedTwo).toFixed(2)})`,
          met: Math.abs(pf.rps / projectedTwo - 1) <= 0.25,
        });
        if (small)
          targets.push({
            target: 'postgres read mix ≥ 50% of the JSON-file read mix',
            value: `${((100 * rf.rps) / small.read.rps).toFixed(0)}%`,
            met: rf.rps >= 0.5 * small.read.rps,
          });
        for (const sv of servers.splice(0)) await sv.stop();
      } finally {
        await PostgresStorage.dropSchema(url, schema);
      }
    }

    if (wants('scale')) {
      const every = Math.max(1, Math.floor(SCALE / PLAYERS));
      log(`scale: generating ${SCALE.toLocaleString('en-US')} players (every ${every}th active)`);
      const dir = tmp('scale');
      cleanup.push(dir);
      const t0 = performance.now();
      const gen = await generateStore(m, dir, SCALE, every, now);
      extras['generateSeconds'] = (performance.now() - t0) / 1000;
      log(`generated in ${extras['generateSeconds'].toFixed(1)} s`);
      const startup = await startTimes(dir, RUNS);
      const svc = await startService(serviceEnv(dir));
      servers.push(svc);
      const active = await logIn(svc.url, gen.active);
      await load(svc.url, readMix(active), 'warm-up read', { amount: active.length * 6 });
      await load(svc.url, writeMix(active), 'warm-up write', { amount: active.length * 4 });
      const r: Figures[] = [],
        w: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        r.push(await load(svc.url, readMix(active), `scale run ${i + 1} read mix`, { duration: DURATION }));
        w.push(await load(svc.url, writeMix(active), `scale run ${i + 1} write mix`, { duration: DURATION }));
      }
      const rss = svc.rssMb();
      const label = `${SCALE.toLocaleString('en-US')} stored`;
      const rf = medianFigures(r);
      const wf = medianFigures(w);
      rows.push({
        name: `scale: read mix (${label})`,
        unit: 'req/s',
        rate: rf.rps,
        p50: rf.p50,
        p99: rf.p99,
        ratio: small ? rf.p50 / small.read.p50 : null,
        vs: small ? 'p50 vs 1,000-player run' : '',
        failed: rf.failed,
        runs: r.map((x) => Math.round(x.rps)),
      });
      rows.push({
        name: `scale: write mix (${label})`,
        unit: 'req/s',
        rate: wf.rps,
        p50: wf.p50,
        p99: wf.p99,
        ratio: small ? wf.p50 / small.write.p50 : null,
        vs: small ? 'p50 vs 1,000-player run' : '',
        failed: wf.failed,
        runs: w.map((x) => Math.round(x.rps)),
      });
      rows.push({
        name: `scale: start-up (${label})`,
        unit: 'ms',
        rate: startup,
        p50: null,
        p99: null,
        ratio: extras['startupMs1k'] ? startup / extras['startupMs1k'] : null,
        vs: extras['startupMs1k'] ? `1,000 players: ${Math.round(extras['startupMs1k'])} ms` : '',
        runs: [],
      });
      rows.push({
        name: `scale: resident memory after the run (${label})`,
        unit: 'MB',
        rate: rss,
        p50: null,
        p99: null,
        ratio: null,
        vs: extras['rss1kMb'] ? `1,000 players: ${Math.round(extras['rss1kMb'])} MB` : '',
        runs: [],
      });
      if (small) {
        targets.push({
          target: `${label}: read p50 ≤ 1.2× the 1,000-player p50`,
          value: `${rf.p50} vs ${small.read.p50} ms (${(rf.p50 / small.read.p50).toFixed(2)}×)`,
          met: rf.p50 <= 1.2 * small.read.p50,
        });
        targets.push({
          target: `${label}: write p50 ≤ 1.2× the 1,000-player p50`,
          value: `${wf.p50} vs ${small.write.p50} ms (${(wf.p50 / small.write.p50).toFixed(2)}×)`,
          met: wf.p50 <= 1.2 * small.write.p50,
        });
      }
      targets.push({ target: `${label}: start-up ≤ 2 s`, value: `${Math.round(startup)} ms`, met: startup <= 2000 });
      targets.push({ target: `${label}: resident memory ≤ 250 MB`, value: `${Math.round(rss)} MB`, met: rss <= 250 });
      for (const s of servers.splice(0)) await s.stop();
    }
  } finally {
    for (const s of servers) await s.stop();
    for (const d of cleanup) rmSync(d, { recursive: true, force: true });
  }
  if (presentsExhausted > 0)
    log(`warning: ${presentsExhausted} present receives found no present left (answered without a write)`);

  const machine = {
    nproc: cpus().length,
    cpu: cpus()[0]?.model ?? '',
    ramGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    connections: CONNECTIONS,
    durationSeconds: DURATION,
    runs: RUNS,
    service: SERVICE.script,
  };
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ machine, rows, targets, extras }, null, 2)}\n`);
    return;
  }
  const fmt = (x: number | null, d = 0) =>
    x === null ? '' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const table = [
    ['measurement', 'rate', 'unit', 'p50 ms', 'p99 ms', 'ratio', 'baseline', 'runs'],
    ...rows.map((r) => [
      r.name,
      fmt(r.rate),
      r.unit,
      fmt(r.p50, 1),
      fmt(r.p99, 1),
      fmt(r.ratio, 2),
      r.vs,
      r.runs.join(' / ') + (r.failed ? ` (${r.failed} failed)` : ''),
    ]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) =>
    `| ${row.map((c, i) => (i === 0 || i >= 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const out = [
    line(table[0]!),
    `|${widths.map((w, i) => (i === 0 || i >= 6 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...table.slice(1).map(line),
  ];
  out.push(
    '',
    `machine: ${machine.nproc} cores, ${machine.cpu}, ${machine.ramGb} GB, Node ${machine.node}; ${CONNECTIONS} connections, ${DURATION} s a run, median of ${RUNS}; the service: ${SERVICE.script}`,
    '',
  );
  for (const t of targets) out.push(`${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);
  process.stdout.write(`${out.join('\n')}\n`);
};

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
