// The soak's rows (a minute each), its verdict against issue 36's targets, and the
// report as markdown or JSON.
import { bucketQuantile } from './http.js';
import { maxOf, median, merged, quantileOf, samplesOf, type Tally } from './stats.js';

export interface Row {
  /** The minute the row ends at (the last may be a fraction: 0.25). */
  readonly minute: number;
  readonly sent: number;
  readonly answered: number;
  readonly errors: number;
  readonly refusals: number;
  /** Requests never answered (dropped while too many were open, or open at the end): counted as slower than any answer. */
  readonly unanswered: number;
  /** Latency quantiles: Infinity (null in JSON) when they fall among the unanswered. */
  readonly p50Ms: number | null;
  readonly p99Ms: number | null;
  readonly maxMs: number | null;
  /** The highest of the minute's samples. */
  readonly rssMb: number | null;
  readonly heapMb: number | null;
  /** The p99 of the minute's scraped p99s, and the highest scraped max. */
  readonly lagP99Ms: number | null;
  readonly lagMaxMs: number | null;
  /** Sizes at the minute's end (MB), by part. */
  readonly disk: Readonly<Record<string, number>>;
}

export const rowOf = (tally: Tally, from: number, to: number, minute: number, disk: Record<string, number>): Row => {
  const slots = tally.between(from, to);
  const h = merged(slots);
  const samples = samplesOf(slots);
  const lagP99s = samples.map((s) => s.lagP99Ms).filter((x): x is number => x !== null);
  return {
    minute,
    sent: slots.reduce((a, s) => a + s.sent, 0),
    answered: slots.reduce((a, s) => a + s.answered, 0),
    errors: slots.reduce((a, s) => a + s.errors, 0),
    refusals: slots.reduce((a, s) => a + s.refusals, 0),
    unanswered: h.over,
    p50Ms: h.quantile(0.5),
    p99Ms: h.quantile(0.99),
    maxMs: h.over > 0 ? Infinity : h.count > 0 ? h.max : null,
    rssMb: maxOf(samples.map((s) => s.rssMb)),
    heapMb: maxOf(samples.map((s) => s.heapMb)),
    lagP99Ms: quantileOf(lagP99s, 0.99),
    lagMaxMs: maxOf(samples.map((s) => s.lagMaxMs)),
    disk,
  };
};

export interface Target {
  readonly name: string;
  readonly target: string;
  readonly value: string;
  /** null: not measurable in this run (too short, no samples). */
  readonly met: boolean | null;
}

export interface Windows {
  /** Whether the run was shorter than 12 minutes and the windows were scaled to it. */
  readonly scaled: boolean;
  readonly early: readonly [number, number];
  readonly late: readonly [number, number];
  readonly warmUp: number;
}

/** Issue 36's windows: p99 of minutes 3–8 against the last 5, after two minutes' warm-up; scaled (×D/12 min) below 12 minutes. */
export const windowsOf = (seconds: number): Windows => {
  const f = seconds < 720 ? seconds / 720 : 1;
  return { scaled: seconds < 720, early: [120 * f, 480 * f], late: [seconds - 300 * f, seconds], warmUp: 120 * f };
};

const fmt = (x: number | null, digits = 1): string => (x === null ? '–' : x === Infinity ? '∞' : x.toFixed(digits));
const range = (w: readonly [number, number]): string => `${fmt(w[0] / 60, 2)}–${fmt(w[1] / 60, 2)} min`;

export const verdictOf = (
  tally: Tally,
  seconds: number,
  errors: number,
  restartOk: boolean,
  restartNote: string,
): { windows: Windows; targets: Target[] } => {
  const w = windowsOf(seconds);
  const at = (a: number, b: number) => samplesOf(tally.between(a, b));
  const middle = at(seconds / 3, (2 * seconds) / 3)
    .map((s) => s.rssMb)
    .filter((x): x is number => x !== null);
  const last = at((2 * seconds) / 3, Infinity)
    .map((s) => s.rssMb)
    .filter((x): x is number => x !== null);
  const mid = median(middle);
  const lastMax = maxOf(last);
  const earlyH = merged(tally.between(w.early[0], w.early[1]));
  const lateH = merged(tally.between(w.late[0], Infinity));
  const early = earlyH.quantile(0.99);
  const late = lateH.quantile(0.99);
  const never = earlyH.over + lateH.over > 0 ? ` (never answered: ${earlyH.over} early, ${lateH.over} late)` : '';
  const lags = at(w.warmUp, Infinity)
    .map((s) => s.lagP99Ms)
    .filter((x): x is number => x !== null);
  const lagOfP99s = quantileOf(lags, 0.99);
  // The p99 of every delay sampled after the warm-up: the server's cumulative histogram at the
  // run's last scrape less that at the warm-up's last (hoshi_event_loop_delay_seconds).
  const withBuckets = samplesOf(tally.between(0, Infinity)).filter((s) => s.lagBuckets !== null);
  const base = withBuckets.filter((s) => s.t <= w.warmUp).at(-1)?.lagBuckets ?? undefined;
  const end = withBuckets.at(-1)?.lagBuckets ?? undefined;
  const lagSeconds = end === undefined ? null : bucketQuantile(end, base, 0.99);
  const lag = lagSeconds === null ? null : lagSeconds * 1000;
  return {
    windows: w,
    targets: [
      { name: 'errors', target: '0', value: String(errors), met: errors === 0 },
      {
        name: 'resident memory',
        target: "the last third's highest sample ≤ 1.15 × the middle third's median",
        value:
          mid === null || lastMax === null
            ? 'too few samples'
            : `${fmt(lastMax)} MB vs 1.15 × ${fmt(mid)} = ${fmt(1.15 * mid)} MB (×${(lastMax / mid).toFixed(3)})`,
        met: mid === null || lastMax === null ? null : lastMax <= 1.15 * mid,
      },
      {
        name: 'p99 latency',
        target: `the last 5 minutes' p99 ≤ 2 × that of minutes 3–8${w.scaled ? ` (scaled: ${range(w.late)} vs ${range(w.early)})` : ''}`,
        value:
          early === null || late === null
            ? 'no answers in a window'
            : `${fmt(late, 2)} ms vs 2 × ${fmt(early, 2)} = ${fmt(2 * early, 2)} ms${never}`,
        met: early === null || late === null ? null : late !== Infinity && late <= 2 * early,
      },
      {
        name: 'event-loop lag p99',
        target: `≤ 50 ms (the p99 of every delay sampled after ${fmt(w.warmUp / 60, 2)} min, from hoshi_event_loop_delay_seconds)`,
        value: `${lag === null ? 'no samples' : `${fmt(lag)} ms`}; the p99 of the ${lags.length} scraped 5-second p99s (prom-client's, stricter: near the run's 99.99th) ${fmt(lagOfP99s)} ms`,
        met: lag === null ? null : lag <= 50,
      },
      {
        name: 'acknowledged writes after a SIGKILL and restart',
        target: 'every one present, resent keys answered as kept',
        value: restartNote,
        met: restartOk,
      },
    ],
  };
};

export interface Report {
  readonly title: string;
  readonly setup: ReadonlyArray<string>;
  readonly columns: ReadonlyArray<string>;
  readonly rows: ReadonlyArray<Row>;
  readonly totals: {
    readonly sent: number;
    readonly answered: number;
    readonly errors: number;
    readonly refusals: number;
  };
  readonly refusals: Readonly<Record<string, number>>;
  readonly errors: Readonly<Record<string, { count: number; example: string }>>;
  readonly byOperation: Readonly<Record<string, number>>;
  readonly serverLog: {
    readonly checkpoints: number;
    readonly events: Readonly<Record<string, { count: number; example: string }>>;
  };
  readonly check: {
    readonly passed: boolean;
    readonly summary: ReadonlyArray<string>;
    readonly problems: ReadonlyArray<string>;
  };
  readonly verdict: { readonly windows: Windows; readonly targets: ReadonlyArray<Target> };
  readonly passed: boolean;
}

export const HEADER = [
  'min',
  'sent',
  'answered',
  'errors',
  'no answer',
  'refusals',
  'p50 ms',
  'p99 ms',
  'max ms',
  'RSS MB',
  'heap MB',
  'lag p99 ms',
  'lag max ms',
];

export const tableHeader = (columns: ReadonlyArray<string>): string => {
  const cells = [...HEADER, ...columns.map((c) => `${c} MB`)];
  return `| ${cells.join(' | ')} |\n|${cells.map(() => '---:').join('|')}|`;
};

export const tableRow = (r: Row, columns: ReadonlyArray<string>): string => {
  const cells = [
    fmt(r.minute, Number.isInteger(r.minute) ? 0 : 2),
    String(r.sent),
    String(r.answered),
    String(r.errors),
    String(r.unanswered),
    String(r.refusals),
    fmt(r.p50Ms, 2),
    fmt(r.p99Ms, 2),
    fmt(r.maxMs, 1),
    fmt(r.rssMb),
    fmt(r.heapMb),
    fmt(r.lagP99Ms),
    fmt(r.lagMaxMs),
    ...columns.map((c) => fmt(r.disk[c] ?? null, 2)),
  ];
  return `| ${cells.join(' | ')} |`;
};

const mark = (met: boolean | null): string => (met === null ? 'n/a' : met ? 'met' : 'MISSED');

export const verdictLines = (targets: ReadonlyArray<Target>): string[] =>
  targets.map((t) => `- ${mark(t.met)}: ${t.name}: ${t.value} (target: ${t.target})`);

/** The title, the set-up and the table. */
export const head = (r: Pick<Report, 'title' | 'setup' | 'columns'>): string[] => [
  `# ${r.title}`,
  '',
  ...r.setup.map((s) => `- ${s}`),
  '',
  tableHeader(r.columns),
];

export const markdown = (r: Report): string =>
  [...head(r), ...r.rows.map((row) => tableRow(row, r.columns)), '', summary(r)].join('\n');

/** What follows the table: totals, refusals and errors, the server's log, the check and the verdict. */
export const summary = (r: Report): string => {
  const counts = (o: Readonly<Record<string, number>>) =>
    Object.entries(o)
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `- ${k}: ${n}`);
  return [
    `Totals: ${r.totals.sent} sent, ${r.totals.answered} answered, ${r.totals.errors} errors, ${r.totals.refusals} expected refusals.`,
    '',
    'Answers by operation:',
    ...counts(r.byOperation),
    '',
    'Expected refusals (game answers, not errors):',
    ...(Object.keys(r.refusals).length ? counts(r.refusals) : ['- none']),
    '',
    'Errors:',
    ...(Object.keys(r.errors).length
      ? Object.entries(r.errors).map(([k, e]) => `- ${k}: ${e.count} (e.g. ${e.example})`)
      : ['- none']),
    '',
    `Server log: ${r.serverLog.checkpoints} checkpoints; warnings and errors: ${Object.keys(r.serverLog.events).length ? '' : 'none.'}`,
    ...Object.entries(r.serverLog.events).map(
      ([k, e]) => `- ${k} ×${e.count}, the first: \`${e.example.replace(/`/g, "'")}\``,
    ),
    '',
    `## After a SIGKILL and a restart: ${r.check.passed ? 'passed' : 'FAILED'}`,
    '',
    ...r.check.summary.map((s) => `- ${s}`),
    ...(r.check.problems.length
      ? [
          '',
          'Problems:',
          ...r.check.problems.slice(0, 50).map((p) => `- ${p}`),
          ...(r.check.problems.length > 50 ? [`- … and ${r.check.problems.length - 50} more`] : []),
        ]
      : []),
    '',
    `## Verdict${r.verdict.windows.scaled ? ' (a run under 12 minutes: the windows are scaled to its length)' : ''}`,
    '',
    ...verdictLines(r.verdict.targets),
    '',
  ].join('\n');
};
