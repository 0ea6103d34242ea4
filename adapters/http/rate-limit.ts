// Token-bucket rate limits, per session and per address, with a stricter bucket
// for the account operations (sign-up, log-in, move). In memory for one process
// (RateLimiter), or held by a storage shared by several (SharedRateLimiter).
export interface Bucket {
  /** Tokens added per second. */
  readonly rate: number;
  /** Bucket size: the burst allowed after a quiet period. */
  readonly burst: number;
  /**
   * With a shared store: tokens a process takes at once and spends locally (default 1,
   * every token asked of the store). Larger saves round trips on busy buckets; tokens
   * leased and not spent are lost, so a lease only ever makes the limit stricter.
   */
  readonly lease?: number;
}

/** Takes and looks at tokens: 0 when allowed, else the seconds until a token is there. */
export interface Limiter {
  take(key: string, b: Bucket, now: number): number | Promise<number>;
  peek(key: string, b: Bucket, now: number): number | Promise<number>;
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
  session: { rate: 20, burst: 40, lease: 5 },
  address: { rate: 100, burst: 200, lease: 20 },
  account: { rate: 0.2, burst: 10 },
  failures: { rate: 1 / 60, burst: 10 },
};

interface State {
  tokens: number;
  at: number;
}

export class RateLimiter implements Limiter {
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

/** A storage's shared buckets (Storage.takeTokens). */
export type TokenStore = (
  key: string,
  b: Bucket,
  want: number,
  now: number,
) => Promise<{ granted: number; waitSeconds: number }>;

/** A lease not spent in this long is dropped (its tokens are lost, never returned). */
const LEASE_MS = 10_000;

/**
 * Buckets held by a storage shared by every server process, so a limit holds across
 * them all: each process takes tokens from the store in leases (Bucket.lease) and
 * spends them locally, so most requests make no round trip and no bucket is ever
 * overdrawn, whichever processes its caller's requests reach.
 */
export class SharedRateLimiter implements Limiter {
  private readonly leases = new Map<string, { tokens: number; until: number }>();
  private sweptAt = 0;
  constructor(private readonly store: TokenStore) {}

  async take(key: string, b: Bucket, now: number): Promise<number> {
    this.sweep(now);
    const l = this.leases.get(key);
    if (l && l.tokens >= 1 && now < l.until) {
      l.tokens--;
      return 0;
    }
    // A lease is at most a quarter of the burst, so a small burst is never held by one process whole.
    const r = await this.store(key, b, Math.max(1, Math.min(Math.floor(b.lease ?? 1), Math.floor(b.burst / 4))), now);
    if (r.granted < 1) {
      this.leases.delete(key);
      return r.waitSeconds;
    }
    if (r.granted > 1) this.leases.set(key, { tokens: r.granted - 1, until: now + LEASE_MS });
    else this.leases.delete(key);
    return 0;
  }

  async peek(key: string, b: Bucket, now: number): Promise<number> {
    const l = this.leases.get(key);
    if (l && l.tokens >= 1 && now < l.until) return 0;
    return (await this.store(key, b, 0, now)).waitSeconds;
  }

  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [k, l] of this.leases) if (now >= l.until) this.leases.delete(k);
  }
}
