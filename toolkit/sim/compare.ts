// Two versions of the master data on the same random draws: the same seeds, the
// same population and the same behaviour, each operation's rng seeded by the sim
// seed, the player and the state's version; draws pick by stable ids, so where the
// two versions agree the players draw the same. Each reported metric is averaged
// over the seeds for A and for B, with the difference B − A and its 95% confidence
// interval from the seeds' paired differences (Student's t, seeds − 1 degrees of
// freedom): common random numbers make the interval much narrower than two
// independent runs would. Every metric is one paired t-test, and a difference is
// marked only when it survives Benjamini–Hochberg over all of them (a 5% false
// discovery rate): ~38 tests at 95% each would mark about two by chance alone.
import type { Master } from '../../core/master/index.js';
import type { SimConfig } from './config.js';
import { CURRENCIES, simulate, type Band, type SimResult } from './engine.js';
import type { Currency } from './ledger.js';
import { benjaminiHochberg, pairedTest } from './stats.js';

export interface Metric {
  /** What it measures, with its unit (per player, a share). */
  readonly metric: string;
  /** The profile it is of, or null for the whole population. */
  readonly profile: string | null;
  readonly value: number;
}

const CURRENCY_NAMES: Record<Currency, string> = {
  gold: 'coins',
  gem: 'free gems',
  paidGem: 'paid gems',
  kirara: 'kirara points',
};

/** The figures a comparison reports, from one run. */
export const metricsOf = (r: SimResult): Metric[] => {
  const out: Metric[] = [];
  const add = (metric: string, profile: string | null, value: number) => out.push({ metric, profile, value });
  const pop = r.params.players || 1;
  add('draws per player', null, r.draws.total / pop);
  for (const k of Object.keys(r.draws.observedRate).sort().reverse())
    add(`★${k} share of draws`, null, r.draws.observedRate[k] ?? 0);
  add('★5 owned per player', null, r.fiveStarsOwned.mean);
  add(
    'players owning the pickup (share)',
    null,
    r.drawsToPickup.players === 0 ? 0 : (r.drawsToPickup.byDraw + r.drawsToPickup.byPoints) / r.drawsToPickup.players,
  );
  add('median draws to the pickup', null, r.drawsToPickup.draws.median);
  add('gems held per player', null, r.currency.gem.heldPerPlayer + r.currency.paidGem.heldPerPlayer);
  add('coins held per player', null, r.currency.gold.heldPerPlayer);
  add('stamina per player-day', null, r.stamina.perPlayerDay);
  // What the economy moved: each currency earned (rewards, presents, sales …) and spent (draws, upgrades …).
  for (const c of CURRENCIES) {
    const { sources, sinks } = r.currency[c];
    const total = (x: Record<string, number>) => Object.values(x).reduce((s, v) => s + v, 0);
    add(`${CURRENCY_NAMES[c]} earned per player`, null, total(sources) / pop);
    add(`${CURRENCY_NAMES[c]} spent per player`, null, total(sinks) / pop);
  }
  for (const p of r.profiles) {
    add('draws per player', p.name, p.drawsPerPlayer);
    add('gems earned per player', p.name, p.gemsEarnedPerPlayer);
    add('gems saved per player', p.name, p.gemsSavedPerPlayer);
    add('★5 owned per player', p.name, p.fiveStarsPerPlayer);
    add('pickups owned per player', p.name, p.pickupsPerPlayer);
    add('coins held per player', p.name, p.coinsHeldPerPlayer);
    add('level', p.name, p.playerLevel);
  }
  return out;
};

/** Mean of paired differences and its 95% interval; null bounds with fewer than two pairs. */
export const pairedInterval = (
  a: ReadonlyArray<number>,
  b: ReadonlyArray<number>,
): { diff: number; low: number | null; high: number | null } => {
  const { diff, low, high } = pairedTest(a, b);
  return { diff, low, high };
};

/** The false discovery rate the comparison's marks keep to. */
export const FDR = 0.05;

export interface CompareRow {
  readonly metric: string;
  readonly profile: string | null;
  /** Means over the seeds. */
  readonly a: number;
  readonly b: number;
  /** B − A, and its own 95% interval (null with one seed). */
  readonly diff: number;
  readonly low: number | null;
  readonly high: number | null;
  /** The paired t-test's two-sided p-value, uncorrected (null with one seed). */
  readonly p: number | null;
  /** The Benjamini–Hochberg adjusted p-value over every metric tested (null with one seed). */
  readonly q: number | null;
  /** q ≤ the false discovery rate: the difference survives the correction. */
  readonly marked: boolean;
}

/** How the rows were tested, for the report to say. */
export interface CompareTesting {
  readonly test: string;
  readonly correction: string;
  readonly falseDiscoveryRate: number;
  /** Metrics tested (every row, with two seeds or more; none with one). */
  readonly tested: number;
  readonly marked: number;
}

export interface CompareResult {
  readonly params: {
    readonly a: string;
    readonly b: string;
    readonly seed: string;
    readonly seeds: number;
    readonly players: number;
    readonly days: number;
  };
  readonly testing: CompareTesting;
  readonly rows: ReadonlyArray<CompareRow>;
  /** The runs themselves, by seed, for the bands and rates. */
  readonly runsA: ReadonlyArray<SimResult>;
  readonly runsB: ReadonlyArray<SimResult>;
}

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((x, y) => x + y, 0) / xs.length);
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** p-values span many orders of magnitude: six significant digits, not six decimals. */
const sig6 = (x: number | null) => (x === null ? null : Number(x.toPrecision(6)));

/** Compares the runs of A and B seed by seed (the i-th of each on the same seed). */
export const compareRuns = (
  params: CompareResult['params'],
  runsA: ReadonlyArray<SimResult>,
  runsB: ReadonlyArray<SimResult>,
): CompareResult => {
  const ma = runsA.map(metricsOf);
  const mb = runsB.map(metricsOf);
  const key = (m: Metric) => `${m.profile ?? ''}\u0000${m.metric}`;
  const order = [...new Map([...(ma[0] ?? []), ...(mb[0] ?? [])].map((m) => [key(m), m])).values()];
  const valueOf = (ms: ReadonlyArray<Metric>, k: string) => ms.find((m) => key(m) === k)?.value ?? 0;
  const tests = order.map((m) => {
    const a = ma.map((ms) => valueOf(ms, key(m)));
    const b = mb.map((ms) => valueOf(ms, key(m)));
    return { m, a, b, test: pairedTest(a, b) };
  });
  const qs = benjaminiHochberg(tests.map((x) => x.test.p));
  const rows = tests.map(({ m, a, b, test }, i): CompareRow => {
    const q = qs[i] ?? null;
    return {
      metric: m.metric,
      profile: m.profile,
      a: r6(mean(a)),
      b: r6(mean(b)),
      diff: r6(test.diff),
      low: test.low === null ? null : r6(test.low),
      high: test.high === null ? null : r6(test.high),
      p: sig6(test.p),
      q: sig6(q),
      marked: q !== null && q <= FDR,
    };
  });
  const n = Math.min(runsA.length, runsB.length);
  const testing: CompareTesting = {
    test:
      n < 2
        ? 'none (one seed: no spread to test a difference against)'
        : `paired t-test, two-sided, on the ${n} seeds' differences B − A (Student's t, ${n - 1} degrees of freedom)`,
    correction: 'Benjamini–Hochberg',
    falseDiscoveryRate: FDR,
    tested: tests.filter((x) => x.test.p !== null).length,
    marked: rows.filter((x) => x.marked).length,
  };
  return { params, testing, rows, runsA, runsB };
};

/** The seeds of a comparison: the base seed, then base-2, base-3, … */
export const seedsOf = (seed: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => (i === 0 ? seed : `${seed}-${i + 1}`));

/** Runs both master-data versions on every seed and compares them. */
export const simulateCompare = (
  a: { readonly name: string; readonly master: Master },
  b: { readonly name: string; readonly master: Master },
  config: SimConfig,
  p: { readonly seed: string; readonly seeds: number; readonly players: number; readonly days: number },
  onRun?: (done: number, total: number) => void,
): CompareResult => {
  const seeds = seedsOf(p.seed, p.seeds);
  const runsA: SimResult[] = [];
  const runsB: SimResult[] = [];
  seeds.forEach((seed, i) => {
    runsA.push(simulate(a.master, config, { seed, players: p.players, days: p.days }));
    onRun?.(2 * i + 1, 2 * seeds.length);
    runsB.push(simulate(b.master, config, { seed, players: p.players, days: p.days }));
    onRun?.(2 * i + 2, 2 * seeds.length);
  });
  return compareRuns(
    { a: a.name, b: b.name, seed: p.seed, seeds: p.seeds, players: p.players, days: p.days },
    runsA,
    runsB,
  );
};

/** The mean over runs of a profile's end-of-run band of a quantity. */
export const meanBand = (runs: ReadonlyArray<SimResult>, profile: string, q: 'gems' | 'coins' | 'pickups'): Band => {
  const bs = runs.map((r) => r.profiles.find((p) => p.name === profile)?.bands[q] ?? { p10: 0, p50: 0, p90: 0 });
  return {
    p10: r6(mean(bs.map((x) => x.p10))),
    p50: r6(mean(bs.map((x) => x.p50))),
    p90: r6(mean(bs.map((x) => x.p90))),
  };
};
