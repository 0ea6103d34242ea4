// What the soak counts, in 5-second slots of the run (a minute's row and the
// verdict's windows are unions of slots): requests sent, answers, errors and
// expected refusals, latency as a mergeable log-bucket histogram (2% resolution,
// bounded memory however long the run), and the server's samples (RSS, heap,
// event-loop lag) scraped during the slot.

/** Bucket i holds latencies up to MIN_MS·GROWTH^i: 2% resolution from 10 µs up. */
const GROWTH = 1.02;
const MIN_MS = 0.01;
const LN_GROWTH = Math.log(GROWTH);

export class Histogram {
  private readonly counts = new Map<number, number>();
  /** Answers counted. */
  count = 0;
  max = 0;
  /** Requests that never got an answer (dropped, or still open at the end): slower than any answer. */
  over = 0;

  add(ms: number): void {
    const v = Math.max(0, ms);
    const i = v <= MIN_MS ? 0 : Math.ceil(Math.log(v / MIN_MS) / LN_GROWTH);
    this.counts.set(i, (this.counts.get(i) ?? 0) + 1);
    this.count++;
    if (v > this.max) this.max = v;
  }

  merge(h: Histogram): this {
    for (const [i, n] of h.counts) this.counts.set(i, (this.counts.get(i) ?? 0) + n);
    this.count += h.count;
    this.over += h.over;
    this.max = Math.max(this.max, h.max);
    return this;
  }

  /**
   * The q-quantile (0..1), as its bucket's upper bound (never above the max seen); Infinity when it
   * falls among the requests never answered (they are not left out: that would flatter a stalled
   * server); null when empty.
   */
  quantile(q: number): number | null {
    const total = this.count + this.over;
    if (total === 0) return null;
    const want = Math.max(1, Math.ceil(q * total));
    let seen = 0;
    for (const i of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(i) ?? 0;
      if (seen >= want) return Math.min(this.max, MIN_MS * GROWTH ** i);
    }
    return Infinity;
  }
}

/** One scrape of the server. */
export interface Sample {
  /** Seconds since the load began. */
  readonly t: number;
  readonly rssMb: number | null;
  readonly heapMb: number | null;
  readonly lagP99Ms: number | null;
  readonly lagMaxMs: number | null;
  /** hoshi_event_loop_delay_seconds as scraped: cumulative `[le, count]` buckets since the server started (null: not served). */
  readonly lagBuckets: ReadonlyArray<readonly [number, number]> | null;
}

export interface Slot {
  sent: number;
  answered: number;
  errors: number;
  refusals: number;
  readonly latency: Histogram;
  readonly samples: Sample[];
}

export const SLOT_SECONDS = 5;

const newSlot = (): Slot => ({ sent: 0, answered: 0, errors: 0, refusals: 0, latency: new Histogram(), samples: [] });

/** An outcome as the soak counts it. */
export type Verdict = 'ok' | 'refusal' | 'error';

export class Tally {
  private readonly slots: Slot[] = [];
  /** Error and refusal kinds (`operation: why`) with their counts, and the first message of each. */
  readonly errorKinds = new Map<string, { count: number; example: string }>();
  readonly refusalKinds = new Map<string, number>();
  /** Answers by operation. */
  readonly byOperation = new Map<string, number>();

  /** `lastSlot` bounds where late answers go: those after the run count in its last slot. */
  constructor(private readonly lastSlot: number) {}

  slotAt(seconds: number): Slot {
    const i = Math.max(0, Math.min(this.lastSlot, Math.floor(seconds / SLOT_SECONDS)));
    while (this.slots.length <= i) this.slots.push(newSlot());
    return this.slots[i] as Slot;
  }

  sent(seconds: number): void {
    this.slotAt(seconds).sent++;
  }

  answer(seconds: number, operation: string, latencyMs: number, verdict: Verdict, why = '', example = ''): void {
    const s = this.slotAt(seconds);
    s.answered++;
    s.latency.add(latencyMs);
    this.byOperation.set(operation, (this.byOperation.get(operation) ?? 0) + 1);
    if (verdict === 'refusal') {
      s.refusals++;
      const k = `${operation}: ${why}`;
      this.refusalKinds.set(k, (this.refusalKinds.get(k) ?? 0) + 1);
    } else if (verdict === 'error') {
      this.error(seconds, `${operation}: ${why}`, example);
    }
  }

  /** A request that never got an answer: an error, and slower than any answer in the latency figures. */
  unanswered(seconds: number, kind: string): void {
    this.slotAt(seconds).latency.over++;
    this.error(seconds, kind);
  }

  /** An error outside any answer (a scrape that failed). */
  error(seconds: number, kind: string, example = ''): void {
    this.slotAt(seconds).errors++;
    const e = this.errorKinds.get(kind);
    if (e) e.count++;
    else this.errorKinds.set(kind, { count: 1, example: example.slice(0, 300) });
  }

  sample(s: Sample): void {
    this.slotAt(s.t).samples.push(s);
  }

  /** The slots whose span lies within [from, to) seconds (a slot counts when its start is in it). */
  between(from: number, to: number): Slot[] {
    return this.slots.filter((_s, i) => i * SLOT_SECONDS >= from - 1e-9 && i * SLOT_SECONDS < to - 1e-9);
  }

  get totals(): { sent: number; answered: number; errors: number; refusals: number } {
    return this.slots.reduce(
      (a, s) => ({
        sent: a.sent + s.sent,
        answered: a.answered + s.answered,
        errors: a.errors + s.errors,
        refusals: a.refusals + s.refusals,
      }),
      { sent: 0, answered: 0, errors: 0, refusals: 0 },
    );
  }
}

export const merged = (slots: ReadonlyArray<Slot>): Histogram =>
  slots.reduce((h, s) => h.merge(s.latency), new Histogram());
export const samplesOf = (slots: ReadonlyArray<Slot>): Sample[] => slots.flatMap((s) => s.samples);

export const median = (xs: ReadonlyArray<number>): number | null => quantileOf(xs, 0.5);

/** The q-quantile of a list (nearest rank); null when empty. */
export const quantileOf = (xs: ReadonlyArray<number>, q: number): number | null => {
  if (xs.length === 0) return null;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] as number;
};

export const maxOf = (xs: ReadonlyArray<number | null>): number | null => {
  const v = xs.filter((x): x is number => x !== null && !Number.isNaN(x));
  return v.length === 0 ? null : Math.max(...v);
};
