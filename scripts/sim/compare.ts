// Two versions of the master data on the same random draws: the same seeds, the
// same population and the same behaviour, each operation's rng seeded by the sim
// seed, the player and the state's version; draws pick by stable ids, so where the
// two versions agree the players draw the same. Each reported metric is averaged
// over the seeds for A and for B, with the difference B − A and its 95% confidence
// interval from the seeds' paired differences (Student's t, seeds − 1 degrees of
// freedom): common random numbers make the interval much narrower than two
// independent runs would.
import type { Master } from '../../core/master/index.js';
import type { SimConfig } from './config.js';
import { simulate, type Band, type SimResult } from './engine.js';

export interface Metric {
  /** What it measures, with its unit (per player, a share). */
  readonly metric: string;
  /** The profile it is of, or null for the whole population. */
  readonly profile: string | null;
  readonly value: number;
}

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

/** Two-sided 95% Student t quantiles by degrees of freedom (1…30), then 40, 60, 120, ∞. */
const T975: ReadonlyArray<readonly [number, number]> = [
  [1, 12.706],
  [2, 4.303],
  [3, 3.182],
  [4, 2.776],
  [5, 2.571],
  [6, 2.447],
  [7, 2.365],
  [8, 2.306],
  [9, 2.262],
  [10, 2.228],
  [11, 2.201],
  [12, 2.179],
  [13, 2.16],
  [14, 2.145],
  [15, 2.131],
  [16, 2.12],
  [17, 2.11],
  [18, 2.101],
  [19, 2.093],
  [20, 2.086],
  [21, 2.08],
  [22, 2.074],
  [23, 2.069],
  [24, 2.064],
  [25, 2.06],
  [26, 2.056],
  [27, 2.052],
  [28, 2.048],
  [29, 2.045],
  [30, 2.042],
  [40, 2.021],
  [60, 2.0],
  [120, 1.98],
];
/** The t quantile for df degrees of freedom (the table's entry at or below df; 1.96 past 120). */
export const t975 = (df: number): number => {
  let q = 1.96;
  if (df < 1) return NaN;
  for (const [d, v] of T975) if (d <= df) q = v;
  return df > 120 ? 1.96 : q;
};

/** Mean of paired differences and its 95% interval; null bounds with fewer than two pairs. */
export const pairedInterval = (
  a: ReadonlyArray<number>,
  b: ReadonlyArray<number>,
): { diff: number; low: number | null; high: number | null } => {
  const d = a.map((x, i) => (b[i] ?? NaN) - x);
  const n = d.length;
  const diff = n === 0 ? 0 : d.reduce((x, y) => x + y, 0) / n;
  if (n < 2) return { diff, low: null, high: null };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - diff) ** 2, 0) / (n - 1));
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  return { diff, low: diff - half, high: diff + half };
};

export interface CompareRow {
  readonly metric: string;
  readonly profile: string | null;
  /** Means over the seeds. */
  readonly a: number;
  readonly b: number;
  /** B − A, and its 95% interval (null with one seed). */
  readonly diff: number;
  readonly low: number | null;
  readonly high: number | null;
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
  readonly rows: ReadonlyArray<CompareRow>;
  /** The runs themselves, by seed, for the bands and rates. */
  readonly runsA: ReadonlyArray<SimResult>;
  readonly runsB: ReadonlyArray<SimResult>;
}

const mean = (xs: ReadonlyArray<number>) => (xs.length === 0 ? 0 : xs.reduce((x, y) => x + y, 0) / xs.length);
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

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
  const rows = order.map((m) => {
    const a = ma.map((ms) => valueOf(ms, key(m)));
    const b = mb.map((ms) => valueOf(ms, key(m)));
    const ci = pairedInterval(a, b);
    return {
      metric: m.metric,
      profile: m.profile,
      a: r6(mean(a)),
      b: r6(mean(b)),
      diff: r6(ci.diff),
      low: ci.low === null ? null : r6(ci.low),
      high: ci.high === null ? null : r6(ci.high),
    };
  });
  return { params, rows, runsA, runsB };
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
