// npm run sim -- --seed S --players P --days D [--json] [--out DIR] [--config FILE]
// Simulates a population of players day by day through the core's reducers
// (scripts/sim/engine.ts) with the behaviour profiles of a config file (default
// scripts/sim/profiles.json). Prints a readable summary, or the whole result as
// JSON with --json (the same seed gives byte-identical JSON); writes SVG charts
// of the draw outcomes and the gem flow into --out. Progress goes to stderr.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import { cli, int, parseArgs, str } from '../args.js';
import { DEFAULT_CONFIG, loadConfig } from './config.js';
import { simulate } from './engine.js';
import { summary } from './report.js';
import { currencyChart, drawsChart } from './svg.js';

const USAGE = 'usage: npm run sim -- --seed S --players P --days D [--json] [--out DIR] [--config FILE] [--master DIR]';

cli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), ['json']);
  const seed = str(args, 'seed');
  const players = int(args, 'players');
  const days = int(args, 'days');
  if (players < 1 || days < 1) throw new Error('--players and --days must be at least 1');
  const config = loadConfig(resolve(str(args, 'config', DEFAULT_CONFIG)));
  const masterDir = args.get('master');
  const m = loadMaster(typeof masterDir === 'string' ? resolve(masterDir) : undefined);
  const started = performance.now();
  const tty = process.stderr.isTTY === true;
  let shown = -1;
  const progress = (day: number) => {
    const done = day / days;
    const secs = (performance.now() - started) / 1000;
    const rate = secs > 0 ? Math.round((players * day) / secs) : 0;
    const bar = `[${'#'.repeat(Math.round(done * 30)).padEnd(30, '.')}] day ${day}/${days}, ${rate} player-days/s`;
    if (tty) process.stderr.write(`\r${bar}`);
    else if (Math.floor(done * 10) > shown) { shown = Math.floor(done * 10); process.stderr.write(`${bar}\n`); }
  };
  const result = simulate(m, config, { seed, players, days }, progress);
  const secs = (performance.now() - started) / 1000;
  if (tty) process.stderr.write('\n');
  process.stderr.write(`simulated ${result.playerDays} player-days in ${secs.toFixed(1)} s: ${Math.round(result.playerDays / secs)} player-days/s\n`);
  process.stdout.write(args.get('json') === true ? `${JSON.stringify(result, null, 2)}\n` : summary(result));
  const out = args.get('out');
  if (typeof out === 'string') {
    const dir = resolve(out);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'draws.svg'), drawsChart(result));
    writeFileSync(join(dir, 'currency.svg'), currencyChart(result));
    process.stderr.write(`charts: ${join(dir, 'draws.svg')}, ${join(dir, 'currency.svg')}\n`);
  }
  return 0;
});
