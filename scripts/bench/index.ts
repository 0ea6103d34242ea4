// npm run bench [-- --json] [--duration=5] [--runs=3] [--players=1000] [--scale=100000] [--only=core,storage,http,compiled,postgres,scale] [--tsx]
// Every measurement side by side with its baseline in one invocation: the service
// (compiled, as npm start runs it) and a bare Koa echo server as child processes
// under autocannon (32 connections, loopback), the file store's commits, the core
// in-process, the compiled server's start-up and idle memory beside tsx's, and a
// 100,000-player store. Each figure is the median of the runs; targets are checked
// at the end. --help lists the options.
import { cpus, tmpdir, totalmem } from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import type { Master } from '../../core/master/index.js';
import { commitsPerSecond, drawsPerSecond, playerDaysPerSecond, simPlayerDaysPerSecond } from './core.js';
import { echoMix, presentsExhausted, readMix, runLoad, writeMix, CONNECTIONS, type Figures } from './load.js';
import { activePlayer, BENCH_SALT, fillStore, generateStore, logIn } from './players.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { ROOT, START_FLAGS, startServer, type Server } from './servers.js';
import { spawnSync } from 'node:child_process';
import { cliArgs, flag, num as numArg } from '../args.js';

const SECTIONS = ['core', 'storage', 'http', 'compiled', 'postgres', 'scale'];
const args = cliArgs({
  command: 'npm run bench --',
  summary: 'Every measurement beside its baseline in one invocation (the service and a bare Koa echo under autocannon, the file store\'s commits, the core in-process, the compiled server\'s start-up and idle memory, PostgreSQL, a 100,000-player store); each figure the median of the runs, the targets checked at the end.',
  options: {
    json: { type: 'boolean', description: 'print the rows, targets and extras as JSON instead of the table' },
    duration: { type: 'string', value: 'SECONDS', default: '5', description: 'length of each load run' },
    runs: { type: 'string', value: 'N', default: '3', description: 'runs per figure (at least 3; the median is reported)' },
    players: { type: 'string', value: 'N', default: '1000', description: 'players in use in the HTTP runs' },
    scale: { type: 'string', value: 'N', default: '100000', description: 'players stored in the scale run' },
    hot: { type: 'string', value: 'N', default: '800', description: 'requests of the hot-player run' },
    pad: { type: 'string', value: 'BYTES', default: '9000', description: 'bytes the padded baseline adds to its GET answers (about the read mix\'s mean answer)' },
    only: { type: 'string', value: 'LIST', defaultText: 'all', description: `the sections to run, comma-separated: ${SECTIONS.join(', ')}` },
    tsx: { type: 'boolean', description: 'run the service as TypeScript through tsx (npm run dev) rather than the compiled dist/ that npm start runs' },
  },
});
/** The service as npm start runs it (dist/, built first when stale), or through tsx with --tsx. */
const SERVICE = flag(args, 'tsx')
  ? { script: 'adapters/http/main.ts', opts: {} }
  : { script: 'dist/adapters/http/main.js', opts: { nodeArgs: START_FLAGS } };
const startService = (env: Record<string, string>) => startServer(SERVICE.script, env, SERVICE.opts);
const num = (k: string, d: number) => numArg(args, k, d);
const JSON_OUT = flag(args, 'json');
const DURATION = num('duration', 5);
const RUNS = Math.max(3, num('runs', 3));
const PLAYERS = num('players', 1000);
const SCALE = num('scale', 100_000);
const HOT_REQUESTS = num('hot', 800);
/** Bytes the padded baseline adds to its GET answers: about the read mix's mean answer. */
const PAD = num('pad', 9000);
const only = typeof args.values['only'] === 'string' ? new Set(args.values['only'].split(',')) : null;
for (const s of only ?? []) if (!SECTIONS.includes(s)) { process.stderr.write(`--only: no section ${s} (${SECTIONS.join(', ')})\n`); process.exit(2); }
const wants = (s: string) => only === null || only.has(s);

const log = (s: string) => process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
const medianFigures = (runs: Figures[]): Figures => ({
  rps: median(runs.map((r) => r.rps)), p50: median(runs.map((r) => r.p50)), p99: median(runs.map((r) => r.p99)),
  failed: runs.reduce((a, r) => a + r.failed, 0), requests: runs.reduce((a, r) => a + r.requests, 0),
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
interface Target { readonly target: string; readonly value: string; readonly met: boolean }
const rows: Row[] = [];
const targets: Target[] = [];
const extras: Record<string, number> = {};

const load = async (url: string, mix: Parameters<typeof runLoad>[1], label: string, opts: { duration?: number; amount?: number }): Promise<Figures> => {
  const r = await runLoad(url, mix, opts);
  log(`${label}: ${Math.round(r.rps)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms${r.failed ? `, ${r.failed} FAILED (${r.badSample})` : ''}`);
  return r;
};

const httpRow = (name: string, runs: Figures[], base: Figures | null, vs: string): Figures => {
  const f = medianFigures(runs);
  rows.push({ name, unit: 'req/s', rate: f.rps, p50: f.p50, p99: f.p99, ratio: base ? f.rps / base.rps : null, vs, failed: f.failed, runs: runs.map((r) => Math.round(r.rps)) });
  return f;
};

const tmp = (label: string) => mkdtempSync(join(tmpdir(), `hoshi-bench-${label}-`));
const serviceEnv = (dir: string) => ({ DATA_DIR: dir, ADMIN_TOKEN: 'bench-admin-token', STORAGE: 'file', REQUEST_HASH_SALT: BENCH_SALT });

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
const startAndIdle = async (script: string, opts: { nodeArgs?: string[] }, dir: string): Promise<{ firstAnswerMs: number; idleRssMb: number }> => {
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
    const b = spawnSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
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
      rows.push({ name: 'core: single draws (seasoned player)', unit: 'draws/s', rate: median(draws), p50: null, p99: null, ratio: median(draws) / 100_000, vs: 'target 100,000/s', runs: draws.map(Math.round) });
      targets.push({ target: 'core ≥ 100,000 single draws/s', value: Math.round(median(draws)).toLocaleString('en-US'), met: median(draws) >= 100_000 });
      const days = Array.from({ length: RUNS }, () => playerDaysPerSecond(m, now, Math.min(DURATION, 3)));
      rows.push({ name: 'core: player-days, a typical day (bench loop)', unit: 'days/s', rate: median(days), p50: null, p99: null, ratio: null, vs: '', runs: days.map(Math.round) });
      try {
        const sim: number[] = [];
        for (let i = 0; i < RUNS; i++) sim.push(await simPlayerDaysPerSecond(m));
        rows.push({ name: 'core: player-days, npm run sim population', unit: 'days/s', rate: median(sim), p50: null, p99: null, ratio: null, vs: '', runs: sim.map(Math.round) });
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
        log(`commits: grouped ${Math.round(grouped.at(-1)!.rps)}/s, one fsync each ${Math.round(single.at(-1)!.rps)}/s`);
      }
      const g = { rps: median(grouped.map((x) => x.rps)), p50: median(grouped.map((x) => x.p50)), p99: median(grouped.map((x) => x.p99)) };
      const s = { rps: median(single.map((x) => x.rps)), p50: median(single.map((x) => x.p50)), p99: median(single.map((x) => x.p99)) };
      rows.push({ name: 'storage: commits, grouped fsync (32 writers)', unit: 'commits/s', rate: g.rps, p50: g.p50, p99: g.p99, ratio: g.rps / s.rps, vs: 'one fsync per commit', runs: grouped.map((x) => Math.round(x.rps)) });
      rows.push({ name: 'storage: commits, one fsync per commit', unit: 'commits/s', rate: s.rps, p50: s.p50, p99: s.p99, ratio: 1, vs: '', runs: single.map((x) => Math.round(x.rps)) });
    }

    let small: { read: Figures; write: Figures } | null = null;
    if (wants('http')) {
      log(`http: generating ${PLAYERS} players (+${RUNS} hot players)`);
      const dir = tmp('1k');
      cleanup.push(dir);
      // One hot player per run, each from the same state, holding a present for every receive of its run.
      const hotStates = Array.from({ length: RUNS }, (_, i) => activePlayer(m, PLAYERS + 1 + i, now, Math.ceil(HOT_REQUESTS / 4) + 8));
      const gen = await generateStore(m, dir, PLAYERS, 1, now, hotStates);
      const base = await startServer('scripts/bench/baseline.ts', {});
      servers.push(base);
      const svc = await startService(serviceEnv(dir));
      servers.push(svc);
      extras['startupMs1k'] = svc.startupMs;
      log(`service up in ${Math.round(svc.startupMs)} ms; logging ${gen.active.length + gen.extra.length} players in through the client`);
      const loggedIn = await logIn(svc.url, [...gen.active, ...gen.extra]);
      const players = loggedIn.slice(0, gen.active.length);
      const hot = loggedIn.slice(gen.active.length);
      log('warming up');
      // Warm-ups pass over every player once: each is loaded from its snapshot on first use.
      await load(base.url, echoMix(players), 'warm-up baseline', { duration: 2 });
      await load(svc.url, readMix(players), 'warm-up read', { amount: players.length * 6 });
      await load(svc.url, writeMix(players), 'warm-up write', { amount: players.length * 4 });
      const b: Figures[] = [], bp: Figures[] = [], r: Figures[] = [], w: Figures[] = [], h: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        b.push(await load(base.url, echoMix(players), `run ${i + 1} baseline`, { duration: DURATION }));
        bp.push(await load(base.url, echoMix(players, PAD), `run ${i + 1} baseline, padded`, { duration: DURATION }));
        r.push(await load(svc.url, readMix(players), `run ${i + 1} read mix`, { duration: DURATION }));
        w.push(await load(svc.url, writeMix(players), `run ${i + 1} write mix`, { duration: DURATION }));
        h.push(await load(svc.url, writeMix(hot.slice(i, i + 1)), `run ${i + 1} hot player`, { amount: HOT_REQUESTS }));
      }
      extras['rss1kMb'] = svc.rssMb();
      const bf = httpRow('baseline: bare Koa echo', b, null, '');
      httpRow(`baseline: Koa echo, GETs answer ~${Math.round(PAD / 1000)} kB`, bp, bf, 'baseline');
      const rf = httpRow(`read mix (${PLAYERS.toLocaleString('en-US')} players)`, r, bf, 'baseline');
      const wf = httpRow(`write mix (${PLAYERS.toLocaleString('en-US')} players, durable)`, w, bf, 'baseline');
      httpRow('hot player (write mix, one player)', h, bf, 'baseline');
      small = { read: rf, write: wf };
      targets.push({ target: 'write mix ≥ 50% of baseline req/s', value: `${(100 * wf.rps / bf.rps).toFixed(0)}%`, met: wf.rps >= 0.5 * bf.rps });
      targets.push({ target: 'read mix ≥ 70% of baseline req/s', value: `${(100 * rf.rps / bf.rps).toFixed(0)}%`, met: rf.rps >= 0.7 * bf.rps });
      targets.push({ target: 'write mix p99 ≤ 25 ms (32 connections)', value: `${wf.p99} ms`, met: wf.p99 <= 25 });
      targets.push({ target: 'read mix p99 ≤ 25 ms (32 connections)', value: `${rf.p99} ms`, met: rf.p99 <= 25 });
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
        log(`compiled: first answer ${Math.round(compiled.at(-1)!.firstAnswerMs)} ms, idle ${Math.round(compiled.at(-1)!.idleRssMb)} MB; tsx: ${Math.round(viaTsx.at(-1)!.firstAnswerMs)} ms, ${Math.round(viaTsx.at(-1)!.idleRssMb)} MB`);
      }
      const first = median(compiled.map((x) => x.firstAnswerMs));
      const idle = median(compiled.map((x) => x.idleRssMb));
      const firstTsx = median(viaTsx.map((x) => x.firstAnswerMs));
      const idleTsx = median(viaTsx.map((x) => x.idleRssMb));
      extras['compiledFirstAnswerMs'] = first;
      extras['compiledIdleRssMb'] = idle;
      rows.push({ name: `compiled server: start to first answer (${PLAYERS.toLocaleString('en-US')} players)`, unit: 'ms', rate: first, p50: null, p99: null, ratio: first / firstTsx, vs: `through tsx: ${Math.round(firstTsx)} ms`, runs: compiled.map((x) => Math.round(x.firstAnswerMs)) });
      rows.push({ name: 'compiled server: resident memory idle', unit: 'MB', rate: idle, p50: null, p99: null, ratio: idle / idleTsx, vs: `through tsx: ${Math.round(idleTsx)} MB`, runs: compiled.map((x) => Math.round(x.idleRssMb)) });
      targets.push({ target: `compiled server: start to first answer ≤ 0.8 s (${PLAYERS.toLocaleString('en-US')} players)`, value: `${Math.round(first)} ms`, met: first <= 800 });
      targets.push({ target: 'compiled server: idle resident memory ≤ 90 MB (one process, no loader)', value: `${Math.round(idle)} MB`, met: idle <= 90 });
    }

    if (wants('postgres')) {
      // The write mix on PostgreSQL with one process, then two processes on the same database
      // (each taking half the players and half the 32 connections), side by side.
      const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
      const schema = `hoshi_bench_${Date.now()}`;
      log(`postgres: generating ${PLAYERS} players in schema ${schema}`);
      const gen = await fillStore(await PostgresStorage.open({ connectionString: url, schema }), m, PLAYERS, 1, now);
      const pgEnv = { DATABASE_URL: url, PG_SCHEMA: schema, ADMIN_TOKEN: 'bench-admin-token', REQUEST_HASH_SALT: BENCH_SALT };
      try {
        const one = await startService(pgEnv);
        servers.push(one);
        const active = await logIn(one.url, gen.active);
        await load(one.url, writeMix(active), 'warm-up postgres', { amount: active.length * 4 });
        const single: Figures[] = [];
        for (let i = 0; i < RUNS; i++) single.push(await load(one.url, writeMix(active), `run ${i + 1} postgres, one process`, { duration: DURATION }));
        const two = await startService(pgEnv);
        servers.push(two);
        const halves = [active.filter((_, i) => i % 2 === 0), active.filter((_, i) => i % 2 === 1)];
        const pair: Figures[] = [];
        for (let i = 0; i < RUNS; i++) {
          const [a, b] = await Promise.all([
            runLoad(one.url, writeMix(halves[0] ?? []), { duration: DURATION, connections: CONNECTIONS / 2 }),
            runLoad(two.url, writeMix(halves[1] ?? []), { duration: DURATION, connections: CONNECTIONS / 2 }),
          ]);
          pair.push({ rps: a.rps + b.rps, p50: Math.max(a.p50, b.p50), p99: Math.max(a.p99, b.p99), failed: a.failed + b.failed, requests: a.requests + b.requests });
          log(`run ${i + 1} postgres, two processes: ${Math.round(a.rps + b.rps)} req/s`);
        }
        const sf = httpRow(`postgres: write mix, one process (${PLAYERS.toLocaleString('en-US')} players)`, single, null, '');
        httpRow('postgres: write mix, two processes', pair, sf, 'one process');
        if (small) rows.push({ name: 'postgres vs JSON files: write mix, one process', unit: 'ratio', rate: null, p50: null, p99: null, ratio: sf.rps / small.write.rps, vs: 'JSON-file write mix', runs: [] });
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
      const r: Figures[] = [], w: Figures[] = [];
      for (let i = 0; i < RUNS; i++) {
        r.push(await load(svc.url, readMix(active), `scale run ${i + 1} read mix`, { duration: DURATION }));
        w.push(await load(svc.url, writeMix(active), `scale run ${i + 1} write mix`, { duration: DURATION }));
      }
      const rss = svc.rssMb();
      const label = `${SCALE.toLocaleString('en-US')} stored`;
      const rf = medianFigures(r);
      const wf = medianFigures(w);
      rows.push({ name: `scale: read mix (${label})`, unit: 'req/s', rate: rf.rps, p50: rf.p50, p99: rf.p99, ratio: small ? rf.p50 / small.read.p50 : null, vs: small ? 'p50 vs 1,000-player run' : '', failed: rf.failed, runs: r.map((x) => Math.round(x.rps)) });
      rows.push({ name: `scale: write mix (${label})`, unit: 'req/s', rate: wf.rps, p50: wf.p50, p99: wf.p99, ratio: small ? wf.p50 / small.write.p50 : null, vs: small ? 'p50 vs 1,000-player run' : '', failed: wf.failed, runs: w.map((x) => Math.round(x.rps)) });
      rows.push({ name: `scale: start-up (${label})`, unit: 'ms', rate: startup, p50: null, p99: null, ratio: extras['startupMs1k'] ? startup / extras['startupMs1k'] : null, vs: extras['startupMs1k'] ? `1,000 players: ${Math.round(extras['startupMs1k'])} ms` : '', runs: [] });
      rows.push({ name: `scale: resident memory after the run (${label})`, unit: 'MB', rate: rss, p50: null, p99: null, ratio: null, vs: extras['rss1kMb'] ? `1,000 players: ${Math.round(extras['rss1kMb'])} MB` : '', runs: [] });
      if (small) {
        targets.push({ target: `${label}: read p50 ≤ 1.2× the 1,000-player p50`, value: `${rf.p50} vs ${small.read.p50} ms (${(rf.p50 / small.read.p50).toFixed(2)}×)`, met: rf.p50 <= 1.2 * small.read.p50 });
        targets.push({ target: `${label}: write p50 ≤ 1.2× the 1,000-player p50`, value: `${wf.p50} vs ${small.write.p50} ms (${(wf.p50 / small.write.p50).toFixed(2)}×)`, met: wf.p50 <= 1.2 * small.write.p50 });
      }
      targets.push({ target: `${label}: start-up ≤ 2 s`, value: `${Math.round(startup)} ms`, met: startup <= 2000 });
      targets.push({ target: `${label}: resident memory ≤ 250 MB`, value: `${Math.round(rss)} MB`, met: rss <= 250 });
      for (const s of servers.splice(0)) await s.stop();
    }
  } finally {
    for (const s of servers) await s.stop();
    for (const d of cleanup) rmSync(d, { recursive: true, force: true });
  }
  if (presentsExhausted > 0) log(`warning: ${presentsExhausted} present receives found no present left (answered without a write)`);

  const machine = { nproc: cpus().length, cpu: cpus()[0]?.model ?? '', ramGb: Math.round(totalmem() / 2 ** 30), node: process.version, connections: CONNECTIONS, durationSeconds: DURATION, runs: RUNS, service: SERVICE.script };
  if (JSON_OUT) {
    process.stdout.write(`${JSON.stringify({ machine, rows, targets, extras }, null, 2)}\n`);
    return;
  }
  const fmt = (x: number | null, d = 0) => (x === null ? '' : x.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }));
  const table = [
    ['measurement', 'rate', 'unit', 'p50 ms', 'p99 ms', 'ratio', 'baseline', 'runs'],
    ...rows.map((r) => [r.name, fmt(r.rate), r.unit, fmt(r.p50, 1), fmt(r.p99, 1), fmt(r.ratio, 2), r.vs, r.runs.join(' / ') + (r.failed ? ` (${r.failed} failed)` : '')]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((c, i) => (i === 0 || i >= 6 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  const out = [line(table[0]!), `|${widths.map((w, i) => (i === 0 || i >= 6 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...table.slice(1).map(line)];
  out.push('', `machine: ${machine.nproc} cores, ${machine.cpu}, ${machine.ramGb} GB, Node ${machine.node}; ${CONNECTIONS} connections, ${DURATION} s a run, median of ${RUNS}; the service: ${SERVICE.script}`, '');
  for (const t of targets) out.push(`${t.met ? 'met   ' : 'MISSED'}  ${t.target}: ${t.value}`);
  process.stdout.write(`${out.join('\n')}\n`);
};

main().catch((e) => { process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`); process.exit(1); });
