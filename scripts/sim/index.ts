// npm run sim [-- --seed S --players P --days D] [--json] [--out DIR] [--config FILE] [--master DIR] (--help for the options)
// npm run sim -- --compare A B --seeds N [--seed S] [--players P] [--days D] [--json] [--out DIR] [--config FILE]
// Simulates a population of players day by day through the core's reducers
// (toolkit/sim/engine.ts) with the behaviour profiles of a config file (default
// toolkit/profiles.json). Prints a readable summary, or the whole result as
// JSON with --json (the same seed gives byte-identical JSON); writes SVG charts,
// one self-contained HTML report and a CSV export into --out. With --compare,
// runs two master-data directories on the same seeds (the same random draws) and
// reports every metric with its difference and 95% interval, marking only the
// differences that survive a Benjamini–Hochberg correction (toolkit/sim/compare.ts).
// Progress goes to stderr.
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import { cli, flag, int, str, UsageError, type Parsed } from '../args.js';
import { DEFAULT_CONFIG, loadConfig, type SimConfig } from '../../toolkit/sim/config.js';
import { simulateCompare, type CompareResult } from '../../toolkit/sim/compare.js';
import { previewLiveParallel } from '../../toolkit/sim/live.js';
import { candidateOf, openLiveSource, shortVersion } from './live-source.js';
import { simulate } from '../../toolkit/sim/engine.js';
import { compareCsv, compareReport, compareSummary, runCsv, runReport } from './html.js';
import { summary } from './report.js';
import { currencyChart, drawsChart } from './svg.js';

const SPEC = {
  command: 'npm run sim --',
  summary:
    "Simulates a population of players day by day through the core's reducers, with the behaviour profiles of a config file; prints a summary (or the whole result as JSON) and writes SVG charts, an HTML report and a CSV with --out. The same seed gives the same result. With --compare A B, runs two master-data directories on the same seeds and reports each metric's difference with its 95% interval and its Benjamini–Hochberg adjusted p-value (q), marking the differences that survive the correction at a 5% false discovery rate.",
  positionals: '',
  options: {
    seed: {
      type: 'string',
      value: 'S',
      defaultText: 'sim; compare for --compare, preview for --compare-live',
      description: "the seed every player's choices and draws derive from (with --compare, the first of --seeds seeds)",
    },
    players: {
      type: 'string',
      value: 'P',
      defaultText: '200; 1000 for --compare-live',
      kind: 'integer',
      min: 1,
      description: 'players simulated',
    },
    days: {
      type: 'string',
      value: 'D',
      defaultText: '30; 7 for --compare-live',
      kind: 'integer',
      min: 1,
      description: 'days simulated',
    },
    json: { type: 'boolean', description: 'print the whole result as JSON instead of the summary' },
    out: {
      type: 'string',
      value: 'DIR',
      description:
        'write report.html (self-contained, charts inline), metrics.csv and, for a single run, draws.svg and currency.svg into this directory',
    },
    config: {
      type: 'string',
      value: 'FILE',
      defaultText: 'toolkit/profiles.json',
      description: 'the behaviour profiles',
    },
    master: {
      type: 'string',
      value: 'DIR',
      defaultText: 'the bundled fixtures/',
      description: 'another master-data directory',
    },
    compare: {
      type: 'string',
      value: 'A B',
      description: 'compare two master-data directories A and B (B is the next argument) on the same seeds',
    },
    seeds: {
      type: 'string',
      value: 'N',
      defaultText: '5; 10 for --compare-live',
      kind: 'integer',
      min: 1,
      description: 'with --compare or --compare-live: the seeds each version runs on (2 or more give intervals)',
    },
    'compare-live': {
      type: 'string',
      value: 'VERSION',
      description:
        "preview a version (a hash the store keeps, or a master-data directory) on a sample of the stored players' real states against the version in force now, read-only (--players of them, 1000 by default, --days 7, --seeds 10)",
    },
    data: {
      type: 'string',
      value: 'DIR',
      default: './data',
      description: "with --compare-live: the JSON-file store's data directory (read as files, beside a running server)",
    },
    'database-url': {
      type: 'string',
      value: 'URL',
      description:
        'with --compare-live: read the players and versions from PostgreSQL instead (PG_SCHEMA: --pg-schema)',
    },
    threads: {
      type: 'string',
      value: 'N',
      defaultText: "the machine's cores",
      kind: 'integer',
      min: 1,
      description:
        'with --compare-live: worker threads the runs are split over (the result is the same for any number)',
    },
    'pg-schema': {
      type: 'string',
      value: 'NAME',
      default: 'hoshi',
      description: "with --database-url: the server's schema",
    },
  },
} as const;

const progressBar = (total: number, unit: string) => {
  const started = performance.now();
  const tty = process.stderr.isTTY === true;
  let shown = -1;
  return {
    started,
    tick: (done: number, rateOf: (secs: number) => string) => {
      const f = done / total;
      const secs = (performance.now() - started) / 1000;
      const bar = `[${'#'.repeat(Math.round(f * 30)).padEnd(30, '.')}] ${unit} ${done}/${total}, ${rateOf(secs)}`;
      if (tty) process.stderr.write(`\r${bar}`);
      else if (Math.floor(f * 10) > shown) {
        shown = Math.floor(f * 10);
        process.stderr.write(`${bar}\n`);
      }
    },
    end: () => {
      if (tty) process.stderr.write('\n');
      return (performance.now() - started) / 1000;
    },
  };
};

/** Prints a comparison (or its JSON) and writes its report with --out. */
const printCompare = (args: Parsed, c: CompareResult, outDir: string | undefined): void => {
  process.stdout.write(
    flag(args, 'json')
      ? `${JSON.stringify({ params: c.params, testing: c.testing, rows: c.rows }, null, 2)}\n`
      : compareSummary(c),
  );
  if (outDir) {
    writeFileSync(join(outDir, 'report.html'), compareReport(c));
    writeFileSync(join(outDir, 'metrics.csv'), compareCsv(c));
    process.stderr.write(`report: ${join(outDir, 'report.html')}, ${join(outDir, 'metrics.csv')}\n`);
  }
};

/** --compare-live: the version in force and a candidate on a sample of the stored players, from now on. */
const compareLive = async (
  args: Parsed,
  config: SimConfig,
  given: string,
  outDir: string | undefined,
): Promise<number> => {
  const players = int(args, 'players', 1000);
  const days = int(args, 'days', 7);
  const seeds = int(args, 'seeds', 10);
  const now = Date.now();
  const url = args.values['database-url'];
  const source = await openLiveSource(
    typeof url === 'string'
      ? { databaseUrl: url, schema: str(args, 'pg-schema') }
      : { dataDir: resolve(str(args, 'data')) },
    players,
    now,
  );
  try {
    if (source.states.length === 0) throw new UsageError('the store holds no players');
    const b = await candidateOf(source, given);
    const started = performance.now();
    const c = await previewLiveParallel(
      { name: `in force (${shortVersion(source.inForce.version)})`, master: source.inForce.master },
      b,
      config,
      source.states,
      {
        seed: str(args, 'seed', 'preview'),
        seeds,
        days,
        start: now,
      },
      int(args, 'threads', availableParallelism()),
    );
    const secs = (performance.now() - started) / 1000;
    process.stderr.write(
      `previewed ${source.states.length} stored players × ${days} days × 2 versions × ${seeds} seeds in ${secs.toFixed(1)} s\n`,
    );
    printCompare(args, c, outDir);
    return 0;
  } finally {
    await source.close();
  }
};

cli(SPEC, async (args) => {
  const config = loadConfig(resolve(str(args, 'config', DEFAULT_CONFIG)));
  const out = args.values['out'];
  const outDir = typeof out === 'string' ? resolve(out) : undefined;
  if (outDir) mkdirSync(outDir, { recursive: true });
  const compareA = args.values['compare'];
  const live = args.values['compare-live'];
  if (typeof live === 'string') return compareLive(args, config, live, outDir);

  if (typeof compareA === 'string') {
    if (args.positionals.length !== 1)
      throw new UsageError('--compare takes two master-data directories: --compare A B');
    if (args.values['master'] !== undefined)
      throw new UsageError('--master does not go with --compare (name both directories)');
    const dirB = args.positionals[0] as string;
    const seeds = int(args, 'seeds', 5);
    const players = int(args, 'players', 200);
    const days = int(args, 'days', 30);
    const a = { name: basename(resolve(compareA)), master: loadMaster(resolve(compareA)) };
    const b = { name: basename(resolve(dirB)), master: loadMaster(resolve(dirB)) };
    if (a.name === b.name) {
      a.name = resolve(compareA);
      b.name = resolve(dirB);
    }
    const bar = progressBar(2 * seeds, 'runs');
    const c = simulateCompare(a, b, config, { seed: str(args, 'seed', 'compare'), seeds, players, days }, (done) =>
      bar.tick(done, (s) => `${Math.round((done * players * days) / Math.max(s, 1e-9))} player-days/s`),
    );
    const secs = bar.end();
    process.stderr.write(`simulated ${2 * seeds} runs of ${players * days} player-days in ${secs.toFixed(1)} s\n`);
    printCompare(args, c, outDir);
    return 0;
  }

  if (args.positionals.length > 0)
    throw new UsageError(`unexpected argument ${args.positionals[0]} (only --compare takes two)`);
  if (args.values['seeds'] !== undefined) throw new UsageError('--seeds goes with --compare');
  // A plain `npm run sim` runs the same population as --compare's, in a few seconds.
  const seed = str(args, 'seed', 'sim');
  const players = int(args, 'players', 200);
  const days = int(args, 'days', 30);
  const masterDir = args.values['master'];
  const m = loadMaster(typeof masterDir === 'string' ? resolve(masterDir) : undefined);
  const bar = progressBar(days, 'day');
  const result = simulate(m, config, { seed, players, days }, (day) =>
    bar.tick(day, (s) => `${s > 0 ? Math.round((players * day) / s) : 0} player-days/s`),
  );
  const secs = bar.end();
  process.stderr.write(
    `simulated ${result.playerDays} player-days in ${secs.toFixed(1)} s: ${Math.round(result.playerDays / secs)} player-days/s\n`,
  );
  process.stdout.write(flag(args, 'json') ? `${JSON.stringify(result, null, 2)}\n` : summary(result));
  if (outDir) {
    writeFileSync(join(outDir, 'draws.svg'), drawsChart(result));
    writeFileSync(join(outDir, 'currency.svg'), currencyChart(result));
    writeFileSync(join(outDir, 'report.html'), runReport(result));
    writeFileSync(join(outDir, 'metrics.csv'), runCsv(result));
    process.stderr.write(
      `charts: ${join(outDir, 'draws.svg')}, ${join(outDir, 'currency.svg')}; report: ${join(outDir, 'report.html')}, ${join(outDir, 'metrics.csv')}\n`,
    );
  }
  return 0;
});
