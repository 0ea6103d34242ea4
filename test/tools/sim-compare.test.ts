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
import { loadConfig } from '../../toolkit/sim/config.js';
import { compareRuns, metricsOf, pairedInterval, seedsOf, simulateCompare } from '../../toolkit/sim/compare.js';
import { simulate } from '../../toolkit/sim/engine.js';
import { compareCsv, compareReport, compareSummary, runCsv, runReport } from '../../scripts/sim/html.js';
import { benjaminiHochberg, pairedTest, t975, tCdf, tTwoSided } from '../../toolkit/sim/stats.js';
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
  cost: Record<string, number | null>;
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

test('the same master data twice on 20 seeds: every metric tested, none marked, and the report says so', (t) => {
  const c = simulateCompare({ name: 'A', master: master() }, { name: 'B', master: master() }, config, {
    seed: 's20',
    seeds: 20,
    players: 8,
    days: 2,
  });
  t.is(c.testing.tested, c.rows.length);
  t.true(c.rows.length >= 30);
  t.is(c.testing.marked, 0);
  t.is(c.testing.correction, 'Benjamini–Hochberg');
  t.is(c.testing.falseDiscoveryRate, 0.05);
  t.regex(c.testing.test, /paired t-test, two-sided, on the 20 seeds' differences .*19 degrees of freedom/);
  for (const r of c.rows) t.deepEqual([r.marked, r.p, r.q], [false, 1, 1], `${r.metric} ${r.profile}`);
  const s = compareSummary(c);
  t.regex(
    s,
    new RegExp(`^0 of ${c.rows.length} metrics marked \\(Benjamini–Hochberg, false discovery rate 5%\\)$`, 'm'),
  );
  t.false(/\*$/m.test(s), 'no row marked');
});

test('a gacha price doubled: fewer draws and ★5s marked, what the price cannot touch not', (t) => {
  const dearer = edited((g) => (g.gachaId === 3 ? { ...g, cost: { ...g.cost, singleGem: 300, tenGem: 3000 } } : g));
  const c = simulateCompare({ name: 'A', master: master() }, { name: 'B', master: dearer }, config, {
    seed: 'p2',
    seeds: 6,
    players: 30,
    days: 6,
  });
  const row = (metric: string, profile: string | null = null) =>
    c.rows.find((r) => r.metric === metric && r.profile === profile)!;
  for (const [metric, profile] of [
    ['draws per player', null],
    ['★5 owned per player', null],
    ['draws per player', 'daily'],
    ['pickups owned per player', 'casual'],
  ] as const) {
    const r = row(metric, profile);
    t.true(r.marked && r.diff < 0 && r.q! <= 0.05 && r.high! < 0, JSON.stringify(r));
  }
  for (const [metric, profile] of [
    ['stamina per player-day', null],
    ['level', 'daily'],
    ['gems earned per player', 'casual'],
  ] as const) {
    const r = row(metric, profile);
    t.deepEqual([r.diff, r.marked, r.q! > 0.05], [0, false, true], `${metric} ${profile}`);
  }
  t.is(c.testing.tested, c.rows.length);
  t.is(c.testing.marked, c.rows.filter((r) => r.marked).length);
  t.true(c.rows.every((r) => r.marked === r.q! <= 0.05));
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

test('a richer ★5 rate shows as a positive ★5 difference, marked; behaviour that does not depend on it does not move', (t) => {
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
    seeds: 5,
    players: 30,
  });
  const row = (metric: string, profile: string | null = null) =>
    c.rows.find((r) => r.metric === metric && r.profile === profile)!;
  const five = row('★5 share of draws');
  t.true(five.diff > 0.05 && five.low! > 0 && five.marked, JSON.stringify(five));
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
  t.is(ci.high!.toFixed(4), (1.5 + (3.182446 * 0.57735027) / 2).toFixed(4));
  t.deepEqual(pairedInterval([1], [3]), { diff: 2, low: null, high: null });
  // t = 1.5 / (0.57735 / 2) = 5.196 on 3 degrees of freedom
  t.is(pairedTest([1, 2, 3, 4], [2, 4, 4, 6]).p!.toFixed(5), '0.01385');
  t.is(pairedTest([1, 2], [1, 2]).p, 1, 'nothing moved');
  t.is(pairedTest([1, 2], [3, 4]).p, 0, 'every pair moved by the same amount');
  t.is(pairedTest([1], [3]).p, null);
});

test("Student's t: the CDF through the incomplete beta function gives the tables' quantiles and p-values", (t) => {
  // Two-sided 95% quantiles, as printed in the tables (3 decimals).
  const table: Array<[number, string]> = [
    [1, '12.706'],
    [2, '4.303'],
    [4, '2.776'],
    [9, '2.262'],
    [19, '2.093'],
    [30, '2.042'],
    [120, '1.980'],
    [1e6, '1.960'],
  ];
  for (const [df, q] of table) t.is(t975(df).toFixed(3), q, `df ${df}`);
  t.is(tCdf(1, 1), 0.75, 'Cauchy: P(T ≤ 1) = 3/4');
  t.is(tTwoSided(2, 10).toFixed(5), '0.07339');
  t.is(tTwoSided(0, 5), 1);
  t.true(tTwoSided(40, 19) < 1e-19 && tTwoSided(40, 19) > 0);
});

test('Benjamini–Hochberg: q = min over the larger p of p·m/rank, at most 1; untested (null) not counted', (t) => {
  t.deepEqual(benjaminiHochberg([0.01, 0.04, 0.03, null, 0.005]), [0.02, 0.04, 0.04, null, 0.02]);
  t.deepEqual(benjaminiHochberg([0.9, 0.5]), [0.9, 0.9]);
  t.deepEqual(benjaminiHochberg([]), []);
});

// A seeded normal draw (Box–Muller on a small LCG): reproducible noise with no dependency.
const normals = (seed: number) => {
  let s = seed >>> 0;
  const u = () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return (s + 0.5) / 2 ** 32;
  };
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
};

test('on pure noise, 38 metrics over 5 seeds: uncorrected 95% tests mark about two a comparison, Benjamini–Hochberg any in about 5%', (t) => {
  const z = normals(31);
  const comparisons = 400;
  let uncorrected = 0;
  let uncorrectedAny = 0;
  let withAny = 0;
  for (let c = 0; c < comparisons; c++) {
    const ps = Array.from({ length: 38 }, () => {
      const a = Array.from({ length: 5 }, z);
      return pairedTest(
        a,
        a.map((x) => x + z()),
      ).p;
    });
    uncorrected += ps.filter((p) => p! < 0.05).length;
    if (ps.some((p) => p! < 0.05)) uncorrectedAny++;
    if (benjaminiHochberg(ps).some((q) => q! <= 0.05)) withAny++;
  }
  // 38 × 5% = 1.9 a comparison; with no true difference BH marks any at all in at most 5% of comparisons.
  t.true(uncorrected / comparisons > 1.5 && uncorrected / comparisons < 2.3, `${uncorrected / comparisons}`);
  t.true(uncorrectedAny / comparisons > 0.75, 'uncorrected, most comparisons of nothing mark something');
  t.true(withAny / comparisons <= 0.08, `${withAny} of ${comparisons}`);
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
  t.is(cc[0], 'kind,metric,profile,a,b,diff,ci95_low,ci95_high,p,q_bh,marked');
  t.is(c.testing.tested, 0, 'one seed: nothing tested');
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

test('npm run sim -- --compare A B --seeds N prints the table, what was tested and marked (text and --json) and writes report.html and metrics.csv; misuse exits 2', async (t) => {
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
  t.regex(r.out, /^0 of \d+ metrics marked \(Benjamini–Hochberg, false discovery rate 5%\)$/m);
  t.regex(r.out, /\d+ metrics tested, each by a paired t-test/);
  const json = await cliRun([
    '--compare',
    DEFAULT_FIXTURES,
    DEFAULT_FIXTURES,
    '--seeds',
    '20',
    '--players',
    '4',
    '--days',
    '1',
    '--json',
  ]);
  t.is(json.code, 0, json.err);
  const report = JSON.parse(json.out) as {
    testing: { correction: string; falseDiscoveryRate: number; tested: number; marked: number };
    rows: Array<{ diff: number; low: number; high: number; q: number; marked: boolean }>;
  };
  t.like(report.testing, { correction: 'Benjamini–Hochberg', falseDiscoveryRate: 0.05, marked: 0 });
  t.is(report.testing.tested, report.rows.length);
  for (const x of report.rows) t.deepEqual([x.diff, x.low, x.high, x.q, x.marked], [0, 0, 0, 1, false]);
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
