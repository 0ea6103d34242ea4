// Token-bucket rate limits, per session and per address, with a stricter bucket
// for the account operations (sign-up, log-in, move). In memory, per process.
export interface Bucket {
  /** Tokens added per second. */
  readonly rate: number;
  /** Bucket size: the burst allowed after a quiet period. */
  readonly burst: number;
}

export interface RateLimits {
  readonly session: Bucket;
  readonly address: Bucket;
  readonly account: Bucket;
  /**
   * Failures per address: wrong move codes or passwords, wrong admin tokens. Each
   * failure takes a token; with none left, that address's move/set and /admin
   * requests answer 429 (whatever code or token they carry). Default: DEFAULT_LIMITS.failures.
   */
  readonly failures?: Bucket;
}

/** Defaults: a playing client makes a few requests a second; account operations are rare. */
export const DEFAULT_LIMITS: RateLimits = {
  session: { rate: 20, burst: 40 },
  address: { rate: 100, burst: 200 },
  account: { rate: 0.2, burst: 10 },
  failures: { rate: 1 / 60, burst: 10 },
};

interface State { tokens: number; at: number }

export class RateLimiter {
  private readonly buckets = new Map<string, State>();
  private sweptAt = 0;

  constructor(private readonly clock: () => number) {}

  /** Takes one token; returns 0 when allowed, else the seconds until one is there. `now`: the request's, read once at the edge. */
  take(key: string, b: Bucket, now: number = this.clock()): number {
    this.sweep(now);
    const s = this.buckets.get(key) ?? { tokens: b.burst, at: now };
    const tokens = Math.min(b.burst, s.tokens + ((now - s.at) / 1000) * b.rate);
    if (tokens >= 1) {
      this.buckets.set(key, { tokens: tokens - 1, at: now });
      return 0;
    }
    this.buckets.set(key, { tokens, at: now });
    return Math.max(1, Math.ceil((1 - tokens) / b.rate));
  }

  /** The seconds until `key` has a token, taking none (0: it has one). */
  peek(key: string, b: Bucket, now: number = this.clock()): number {
    const s = this.buckets.get(key);
    if (!s) return 0;
    const tokens = Math.min(b.burst, s.tokens + ((now - s.at) / 1000) * b.rate);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / b.rate));
  }

  /** Forgets buckets idle long enough to be full again, so memory stays bounded by active callers. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [k, s] of this.buckets) if (now - s.at > 600_000) this.buckets.delete(k);
  }
}
