// The simulation's comparison of two master-data versions on the same random draws,
// its per-profile percentile bands, the published-against-observed rates, and the
// self-contained HTML report and CSV export (small runs: the suite stays fast).
import test from 'ava';
import fc from 'fast-check';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FIXTURES, masterFromFiles, masterSourceOf } from '../../adapters/master/load.js';
import type { Master } from '../../core/master/index.js';
import { loadConfig } from '../../scripts/sim/config.js';
import { compareRuns, metricsOf, pairedInterval, seedsOf, simulateCompare, t975 } from '../../scripts/sim/compare.js';
import { simulate } from '../../scripts/sim/engine.js';
import { compareCsv, compareReport, compareSummary, runCsv, runReport } from '../../scripts/sim/html.js';
import { top } from '../../scripts/sim/svg.js';
import { master } from '../_support/core.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = loadConfig();
const small = { seed: 'c1', seeds: 3, players: 16, days: 4 };

type RawGacha = {
  gachaId: number;
  rates: Array<{ rarity: number; weight: number }>;
  pool: number[];
  pickups: unknown[];
};
const edited = (f: (g: RawGacha) => RawGacha): Master => {
  const raw = masterSourceOf(master())!.raw;
  return masterFromFiles({ ...raw, gachas: (raw['gachas'] as RawGacha[]).map(f) });
};

test('the same master data twice: every difference is 0, its interval [0, 0]', (t) => {
  const c = simulateCompare({ name: 'A', master: master() }, { name: 'B', master: master() }, config, small);
  t.is(c.runsA.length, 3);
  for (const r of c.rows) t.deepEqual([r.diff, r.low, r.high], [0, 0, 0], `${r.metric} ${r.profile}`);
  t.deepEqual(seedsOf('c1', 3), ['c1', 'c1-2', 'c1-3']);
});

test('reordered pools and rates (the same numbers) draw the same: the comparison sees no difference at all', (t) => {
  const reversed = edited((g) => ({
    ...g,
    pool: [...g.pool].reverse(),
    rates: [...g.rates].reverse(),
    pickups: [...g.pickups].reverse(),
  }));
  const c = simulateCompare({ name: 'A', master: master() }, { name: 'B', master: reversed }, config, {
    ...small,
    seeds: 2,
  });
  t.deepEqual(
    c.runsB.map((r) => JSON.stringify(r)),
    c.runsA.map((r) => JSON.stringify(r)),
  );
});

test('a richer ★5 rate shows as a positive ★5 difference whose interval excludes 0; behaviour that does not depend on it does not move', (t) => {
  const richer = edited((g) =>
    g.gachaId === 3
      ? {
          ...g,
          rates: g.rates.map((r) =>
            r.rarity === 5 ? { ...r, weight: 130 } : r.rarity === 3 ? { ...r, weight: 685 } : r,
          ),
        }
      : g,
  );
  const c = simulateCompare({ name: 'A', master: master() }, { name: 'B', master: richer }, config, {
    ...small,
    players: 30,
  });
  const row = (metric: string, profile: string | null = null) =>
    c.rows.find((r) => r.metric === metric && r.profile === profile)!;
  const five = row('★5 share of draws');
  t.true(five.diff > 0.05 && five.low! > 0, JSON.stringify(five));
  t.is(row('draws per player').diff, 0, 'the same players draw the same number of times');
  t.is(row('coins held per player').diff, 0);
  // Published rates follow each version's box/get.
  t.true(c.runsB[0]!.draws.publishedRate['5']! > c.runsA[0]!.draws.publishedRate['5']! + 0.05);
  t.regex(compareSummary(c), /★5 share of draws .* \*$/m);
});

test("pairedInterval: the mean difference with Student's t interval; one pair gives none", (t) => {
  const ci = pairedInterval([1, 2, 3, 4], [2, 4, 4, 6]);
  // differences 1, 2, 1, 2: mean 1.5, sd 0.57735, t(3) 3.182
  t.is(ci.diff, 1.5);
  t.is(ci.high!.toFixed(4), (1.5 + (3.182 * 0.57735027) / 2).toFixed(4));
  t.deepEqual(pairedInterval([1], [3]), { diff: 2, low: null, high: null });
  t.is(t975(1), 12.706);
  t.is(t975(35), 2.042);
  t.is(t975(500), 1.96);
});

test('axes are scaled to the data: the top of an axis leaves at most a quarter of it empty', (t) => {
  fc.assert(
    fc.property(fc.double({ min: 1e-3, max: 1e9, noNaN: true }), (max) => {
      const y = top(max);
      // Steps of at most 4/3 (6 → 8, say): the empty part, (top − max) / top, at most 1/4.
      return y >= max * (1 - 1e-9) && (y - max) / y <= 0.25 + 1e-9;
    }),
    { numRuns: 2000, seed: 20 },
  );
  t.is(top(462_000), 500_000);
  t.is(top(5100), 6000, 'not 10,000 (twice the data)');
});

test("a run keeps per-profile p10 ≤ median ≤ p90 bands of gems, coins and pickups by day, and box/get's rates for the pulls made", (t) => {
  const r = simulate(master(), config, { seed: 'b1', players: 24, days: 5 });
  t.is(r.daily.length, 5);
  for (const d of r.daily) {
    t.deepEqual(
      Object.keys(d.bands),
      config.profiles.map((p) => p.name),
    );
    for (const b of Object.values(d.bands))
      for (const q of [b.gems, b.coins, b.pickups]) t.true(q.p10 <= q.p50 && q.p50 <= q.p90);
  }
  for (const p of r.profiles) t.deepEqual(p.bands, r.daily.at(-1)!.bands[p.name]);
  const pub = r.draws.publishedRate;
  t.true(Math.abs(Object.values(pub).reduce((a, b) => a + b, 0) - 1) < 1e-4);
  t.is(
    Object.values(r.draws.pulls).reduce((a, k) => a + k.single + k.ten, 0),
    r.draws.total,
  );
  t.true(r.draws.pulls['3']!.ten > r.draws.pulls['3']!.single, "the profiles' gacha: mostly ten-draws");
  // Mostly ten-draws: the published ★5 sits between the single 3% and the ten-draw 3.124%.
  t.true(pub['5']! > 0.03 && pub['5']! <= 0.03124);
  for (const k of Object.keys(pub))
    t.true(Math.abs((r.draws.observedRate[k] ?? 0) - pub[k]!) <= r.draws.band[k]! * 1.5, `★${k}`);
});

const selfContained = (t: import('ava').ExecutionContext, html: string, svgs: number) => {
  t.regex(html, /^<!DOCTYPE html>/);
  t.false(/<script|<link|<img|\bsrc=|url\(/i.test(html), 'nothing loaded from elsewhere');
  t.is((html.match(/<svg /g) ?? []).length, svgs);
  t.is((html.match(/<\/svg>/g) ?? []).length, svgs);
  t.false(html.includes('NaN') || html.includes('undefined') || html.includes('Infinity'));
};

test('the HTML reports are self-contained, with their charts inline; the CSV has a row per metric and band', (t) => {
  const r = simulate(master(), config, { seed: 'h1', players: 12, days: 3 });
  selfContained(t, runReport(r), 6);
  const rows = runCsv(r).trim().split('\n');
  t.is(rows[0], 'kind,metric,profile,day,value,p10,p50,p90');
  t.is(rows.length, 1 + metricsOf(r).length + 3 * config.profiles.length * 3);
  const c = compareRuns({ a: 'A', b: 'B', seed: 'h1', seeds: 1, players: 12, days: 3 }, [r], [r]);
  selfContained(t, compareReport(c), 8);
  t.regex(compareSummary(c), /one seed gives no interval/);
  const cc = compareCsv(c).trim().split('\n');
  t.is(cc[0], 'kind,metric,profile,a,b,diff,ci95_low,ci95_high');
  t.is(cc.length, 1 + c.rows.length + config.profiles.length * 3 * 3);
});

const cliRun = (args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/sim/index.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('close', (code) => resolve({ code, out, err }));
  });

test('npm run sim -- --compare A B --seeds N prints the table and writes report.html and metrics.csv; misuse exits 2', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-compare-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const b = join(dir, 'b');
  cpSync(DEFAULT_FIXTURES, b, { recursive: true });
  const gachas = JSON.parse(readFileSync(join(b, 'gachas.json'), 'utf8')) as RawGacha[];
  writeFileSync(join(b, 'gachas.json'), JSON.stringify(gachas.map((g) => ({ ...g, pool: [...g.pool].reverse() }))));
  const out = join(dir, 'out');
  const r = await cliRun([
    '--compare',
    DEFAULT_FIXTURES,
    b,
    '--seeds',
    '2',
    '--players',
    '6',
    '--days',
    '2',
    '--out',
    out,
  ]);
  t.is(r.code, 0, r.err);
  t.regex(r.out, /A fixtures against B b: 2 seed\(s\)/);
  t.regex(r.out, /★5 share of draws +[\d.]+ +[\d.]+ +0 +0 … 0/);
  t.true(existsSync(join(out, 'report.html')) && existsSync(join(out, 'metrics.csv')));
  const single = await cliRun(['--seed', 's', '--players', '3', '--days', '1', '--out', join(dir, 'one')]);
  t.is(single.code, 0, single.err);
  t.true(existsSync(join(dir, 'one', 'report.html')) && existsSync(join(dir, 'one', 'metrics.csv')));
  t.is((await cliRun(['--compare', DEFAULT_FIXTURES, '--seeds', '2'])).code, 2, 'B is missing');
  t.is(
    (await cliRun(['--seed', 's', '--players', '1', '--days', '1', '--seeds', '2'])).code,
    2,
    '--seeds without --compare',
  );
  t.is((await cliRun(['--seed', 's', '--players', '1', '--days', '1', 'extra'])).code, 2);
});
