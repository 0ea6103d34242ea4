// One self-contained HTML report (the SVG charts inline, no script, no external
// file) and CSV exports, for a single run and for a comparison of two master-data
// versions; and the comparison's readable headline table.
import { bandsChart, diffChart, PALETTE, rangesChart, ratesChart, type BandSeries, type RateSet } from './charts.js';
import { meanBand, metricsOf, type CompareResult, type CompareRow } from '../../toolkit/sim/compare.js';
import type { SimResult } from '../../toolkit/sim/engine.js';
import { esc } from './svg.js';
import { currencyChart, drawsChart } from './svg.js';

const QUANTITIES = [
  { key: 'gems', title: 'Gems held (free + paid)', unit: 'gems' },
  { key: 'coins', title: 'Coins held', unit: 'coins' },
  { key: 'pickups', title: 'Pickup characters owned', unit: 'pickups' },
] as const;

const num = (x: number): string =>
  Number.isInteger(x)
    ? x.toLocaleString('en-US')
    : Math.abs(x) >= 100
      ? x.toLocaleString('en-US', { maximumFractionDigits: 1 })
      : x.toLocaleString('en-US', { maximumSignificantDigits: 4 });
const signed = (x: number): string => `${x > 0 ? '+' : ''}${num(x)}`;

const page = (title: string, body: string[]): string =>
  [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${esc(title)}</title>`,
    '<style>body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f4f4}td:first-child,td:nth-child(2),th:first-child{text-align:left}.sig{color:#c0392b;font-weight:bold}figure{margin:1.5em 0}figcaption{color:#555;font-size:90%}</style>',
    '</head><body>',
    `<h1>${esc(title)}</h1>`,
    ...body,
    '</body></html>',
    '',
  ].join('\n');

const table = (
  head: ReadonlyArray<string>,
  rows: ReadonlyArray<ReadonlyArray<string>>,
  classes: ReadonlyArray<string> = [],
): string =>
  [
    '<table>',
    `<tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`,
    ...rows.map(
      (r, i) => `<tr${classes[i] ? ` class="${classes[i]}"` : ''}>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`,
    ),
    '</table>',
  ].join('\n');

const figure = (svg: string, caption: string) => `<figure>${svg}<figcaption>${esc(caption)}</figcaption></figure>`;

const rateSet = (name: string, runs: ReadonlyArray<SimResult>): RateSet => {
  // Pooled over the runs: observed share and published rate weighted by each run's draws.
  const total = runs.reduce((s, r) => s + r.draws.total, 0) || 1;
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r.draws.publishedRate)))];
  const pooled = (get: (r: SimResult) => Record<string, number>) =>
    Object.fromEntries(keys.map((k) => [k, runs.reduce((s, r) => s + (get(r)[k] ?? 0) * r.draws.total, 0) / total]));
  const published = pooled((r) => r.draws.publishedRate);
  return {
    name,
    observed: pooled((r) => r.draws.observedRate),
    published,
    band: Object.fromEntries(
      keys.map((k) => [k, 3.2905 * Math.sqrt(((published[k] ?? 0) * (1 - (published[k] ?? 0))) / total)]),
    ),
  };
};

const dailyBands = (
  r: SimResult,
  q: 'gems' | 'coins' | 'pickups',
  suffix = '',
  dashed = false,
  offset = 0,
): BandSeries[] =>
  r.profiles.map((p, i) => ({
    name: `${p.name}${suffix}`,
    color: PALETTE[(i + offset) % PALETTE.length] as string,
    dashed,
    p10: r.daily.map((d) => d.bands[p.name]?.[q].p10 ?? 0),
    p50: r.daily.map((d) => d.bands[p.name]?.[q].p50 ?? 0),
    p90: r.daily.map((d) => d.bands[p.name]?.[q].p90 ?? 0),
  }));

/** The report of one run. */
export const runReport = (r: SimResult): string => {
  const days = r.daily.map((d) => d.day);
  const metrics = metricsOf(r);
  return page(`hoshi simulation: seed ${r.params.seed}, ${r.params.players} players × ${r.params.days} days`, [
    `<p>From ${esc(r.params.start)}; ${r.playerDays.toLocaleString('en-US')} player-days; profiles ${esc(r.params.profiles.join(', '))}.</p>`,
    '<h2>Figures</h2>',
    table(
      ['metric', 'profile', 'value'],
      metrics.map((m) => [m.metric, m.profile ?? 'all', num(m.value)]),
    ),
    '<h2>Published against observed</h2>',
    figure(
      ratesChart('Rates: published (box/get) against observed', [rateSet('run', [r])]),
      "Each rarity on its own scale. The published rate weighs box/get's single rate by the single pulls made and its tenDraw rate by the ten-draw pulls.",
    ),
    '<h2>Per profile, by day</h2>',
    ...QUANTITIES.map((q) =>
      figure(
        bandsChart(`${q.title}, per player`, q.unit, days, dailyBands(r, q.key)),
        `${q.title}: median and 10th–90th percentile of each profile's players at each day's end.`,
      ),
    ),
    '<h2>Draws and gems</h2>',
    figure(drawsChart(r), 'Draws by rarity, and players by draws needed to own the pickup.'),
    figure(currencyChart(r), 'Gems earned and spent by the population so far, and held, by day.'),
  ]);
};

const ci = (x: CompareRow) => (x.low === null || x.high === null ? '—' : `${num(x.low)} … ${num(x.high)}`);
const qText = (x: CompareRow) => (x.q === null ? '—' : x.q < 0.0001 ? '<0.0001' : String(Number(x.q.toPrecision(3))));

/** What was tested and what a mark means, in words (the summary's and the report's footnote). */
export const testingNote = (c: CompareResult): string => {
  const t = c.testing;
  if (t.tested === 0) return 'Nothing tested: one seed gives no interval and no test (use --seeds 2 or more).';
  const pct = `${t.falseDiscoveryRate * 100}%`;
  return [
    `${t.tested} metrics tested, each by a ${t.test}, corrected for testing them all with ${t.correction} at a ${pct} false discovery rate.`,
    `q is a metric's adjusted p-value; * marks the ${t.marked} with q ≤ ${t.falseDiscoveryRate}, the differences that survive the correction.`,
    `The interval is the metric's own 95% interval: among ${t.tested} metrics some exclude 0 by chance alone, so one that does without a * is no finding.`,
  ].join(' ');
};

/** Every metric's row, the marked ones red. */
const metricTable = (rows: ReadonlyArray<CompareRow>): string =>
  table(
    ['metric', 'profile', 'A', 'B', 'B − A', '95% interval', 'q (adjusted p)', 'marked'],
    rows.map((x) => [
      x.metric,
      x.profile ?? 'all',
      num(x.a),
      num(x.b),
      signed(x.diff),
      ci(x),
      qText(x),
      x.marked ? '*' : '',
    ]),
    rows.map((x) => (x.marked ? 'sig' : '')),
  );

/** The report of a comparison. */
export const compareReport = (c: CompareResult): string => {
  const p = c.params;
  const profiles = c.runsA[0]?.profiles.map((x) => x.name) ?? [];
  const first = { a: c.runsA[0], b: c.runsB[0] };
  const days = first.a?.daily.map((d) => d.day) ?? [];
  return page(`hoshi simulation: ${p.a} (A) against ${p.b} (B)`, [
    `<p>${p.seeds} seed(s) from <code>${esc(p.seed)}</code>, ${p.players} players × ${p.days} days each; A and B on the same seeds, so on the same random draws wherever their data agree. Differences are B − A with the 95% interval over the seeds' paired differences${p.seeds < 2 ? ' (one seed: no interval)' : ''}; red where marked.</p>`,
    `<p>${esc(testingNote(c))}</p>`,
    '<h2>Every metric</h2>',
    metricTable(c.rows),
    figure(
      diffChart(
        'Differences, relative to A',
        c.rows
          .filter((x) => x.a !== 0)
          .map((x) => ({
            label: `${x.metric}${x.profile ? ` (${x.profile})` : ''}`,
            a: x.a,
            diff: x.diff,
            low: x.low,
            high: x.high,
            marked: x.marked,
          })),
      ),
      "Each metric's difference as a share of its A value, with its interval; red: marked.",
    ),
    '<h2>Published against observed</h2>',
    figure(
      ratesChart('Rates: published (box/get) against observed, A and B', [
        rateSet('A', c.runsA),
        rateSet('B', c.runsB),
      ]),
      'Pooled over the seeds; each rarity on its own scale.',
    ),
    '<h2>Per profile: 10th to 90th percentile at the end</h2>',
    ...QUANTITIES.map((q) =>
      figure(
        rangesChart(
          `${q.title}, per player at the end`,
          q.unit,
          profiles.map((name) => ({
            label: name,
            sets: [
              { name: 'A', ...meanBand(c.runsA, name, q.key) },
              { name: 'B', ...meanBand(c.runsB, name, q.key) },
            ],
          })),
        ),
        `${q.title}: each percentile averaged over the seeds; A in blue, B in orange.`,
      ),
    ),
    ...(first.a && first.b
      ? [
          `<h2>By day, seed ${esc(p.seed)}</h2>`,
          ...QUANTITIES.map((q) =>
            figure(
              bandsChart(`${q.title}, per player: A (solid) and B (dashed)`, q.unit, days, [
                ...dailyBands(first.a as SimResult, q.key, ' A'),
                ...dailyBands(first.b as SimResult, q.key, ' B', true),
              ]),
              `${q.title} by day on the first seed: median and 10th–90th percentile per profile.`,
            ),
          ),
        ]
      : []),
  ]);
};

const csvCell = (v: string | number | null): string => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csv = (head: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string =>
  `${[head, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`;

/** A run's figures and its per-profile bands by day, as CSV. */
export const runCsv = (r: SimResult): string =>
  csv(
    ['kind', 'metric', 'profile', 'day', 'value', 'p10', 'p50', 'p90'],
    [
      ...metricsOf(r).map((m) => ['metric', m.metric, m.profile ?? 'all', null, m.value, null, null, null]),
      ...r.daily.flatMap((d) =>
        r.profiles.flatMap((p) =>
          QUANTITIES.map((q) => {
            const b = d.bands[p.name]?.[q.key];
            return ['band', q.key, p.name, d.day, null, b?.p10 ?? null, b?.p50 ?? null, b?.p90 ?? null];
          }),
        ),
      ),
    ],
  );

/** A comparison's rows and end-of-run bands, as CSV. */
export const compareCsv = (c: CompareResult): string => {
  const profiles = c.runsA[0]?.profiles.map((x) => x.name) ?? [];
  return csv(
    ['kind', 'metric', 'profile', 'a', 'b', 'diff', 'ci95_low', 'ci95_high', 'p', 'q_bh', 'marked'],
    [
      ...c.rows.map((x) => [
        'metric',
        x.metric,
        x.profile ?? 'all',
        x.a,
        x.b,
        x.diff,
        x.low,
        x.high,
        x.p,
        x.q,
        x.marked ? 1 : 0,
      ]),
      ...profiles.flatMap((name) =>
        QUANTITIES.flatMap((q) => {
          const a = meanBand(c.runsA, name, q.key);
          const b = meanBand(c.runsB, name, q.key);
          return (['p10', 'p50', 'p90'] as const).map((k) => [
            'band',
            `${q.key} ${k} at the end`,
            name,
            a[k],
            b[k],
            Math.round((b[k] - a[k]) * 1e6) / 1e6,
            null,
            null,
            null,
            null,
            null,
          ]);
        }),
      ),
    ],
  );
};

/** Words on lines of at most `width` characters. */
const wrap = (text: string, width: number): string =>
  text
    .split(' ')
    .reduce<string[]>((ls, word) => {
      const last = ls.at(-1);
      if (last !== undefined && last.length + 1 + word.length <= width) ls[ls.length - 1] = `${last} ${word}`;
      else ls.push(word);
      return ls;
    }, [])
    .join('\n');

/** The comparison's headline table (the readable output). */
export const compareSummary = (c: CompareResult, headlineOnly = false): string => {
  const p = c.params;
  const rows = headlineOnly ? c.rows.filter((x) => x.profile === null) : c.rows;
  const w = Math.max(...rows.map((x) => `${x.metric}${x.profile ? ` (${x.profile})` : ''}`.length), 6);
  const iw = Math.max(...rows.map((x) => ci(x).length), 12);
  const t = c.testing;
  const lines = [
    `hoshi simulation: A ${p.a} against B ${p.b}: ${p.seeds} seed(s) from ${p.seed}, ${p.players} players × ${p.days} days, the same random draws`,
    `${t.marked} of ${t.tested} metrics marked (${t.correction}, false discovery rate ${t.falseDiscoveryRate * 100}%)`,
    '',
    `${'metric'.padEnd(w)}  ${'A'.padStart(12)}  ${'B'.padStart(12)}  ${'B − A'.padStart(12)}  ${'95% interval'.padEnd(iw)}  ${'q'.padStart(7)}`,
    ...rows.map(
      (x) =>
        `${`${x.metric}${x.profile ? ` (${x.profile})` : ''}`.padEnd(w)}  ${num(x.a).padStart(12)}  ${num(x.b).padStart(12)}  ${signed(x.diff).padStart(12)}  ${ci(x).padEnd(iw)}  ${qText(x).padStart(7)}${x.marked ? '  *' : ''}`,
    ),
    '',
    wrap(testingNote(c), 100),
  ];
  return `${lines.join('\n')}\n`;
};
