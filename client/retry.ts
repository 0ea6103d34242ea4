// When a call is tried again, and after how long. Only answers that say nothing was
// done (or that the same Idempotency-Key is still running) are retried; every other
// answer is the call's answer. A POST's retries reuse its Idempotency-Key, so the
// server applies it once whatever the number of attempts.

/** Why an attempt is repeated. */
export type RetryReason =
  /** The request failed before an answer came (connection refused or dropped, timeout). */
  | 'network'
  /** 503 / 105: the store could not complete it; nothing was changed. */
  | 'unavailable'
  /** 409 / 110: the first request with this Idempotency-Key still runs. */
  | 'in-progress'
  /** 429 / 111: over a rate limit; `Retry-After` says when to come back. */
  | 'rate-limited';

export interface RetryPolicy {
  /** Attempts after the first (0: never retry). */
  readonly retries: number;
  /** The first back-off; each next one doubles, up to maxDelayMs. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest `Retry-After` honoured; a longer one ends the retries (the 429 is the answer). */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 3, baseDelayMs: 100, maxDelayMs: 2000, maxRetryAfterMs: 60_000 };

const DB_ERROR = 105;
const REQUEST_IN_PROGRESS = 110;
const RATE_LIMITED = 111;

/**
 * Whether an answer is worth another attempt. Decided by the result code (the server
 * may answer every error with HTTP 200), and by the HTTP status alone when the answer
 * is not the service's envelope (a proxy's 503 or 429 in front of it).
 */
export const retryReasonOf = (status: number, resultCode: number | undefined): RetryReason | null => {
  if (resultCode === DB_ERROR) return 'unavailable';
  if (resultCode === REQUEST_IN_PROGRESS) return 'in-progress';
  if (resultCode === RATE_LIMITED) return 'rate-limited';
  if (resultCode === undefined && status === 503) return 'unavailable';
  if (resultCode === undefined && status === 429) return 'rate-limited';
  return null;
};

/** `Retry-After` in ms: delta-seconds or an HTTP date; null when absent or unreadable. */
export const retryAfterMs = (header: string | null, now: number): number | null => {
  if (header === null || header.trim() === '') return null;
  if (/^\s*\d+\s*$/.test(header)) return Number(header) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
};

/** Exponential back-off with half jitter: attempt 1 waits base/2…base, attempt 2 base…2·base, capped. */
export const backoffMs = (attempt: number, policy: RetryPolicy, random: () => number): number => {
  const full = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full / 2 + (full / 2) * random());
};
