// The answers kept for Idempotency-Keys, bounded by who sent them (issue 36: every
// answer ever sent was held in memory and rewritten at every checkpoint, and the
// server fell over within minutes of a live game's traffic).
//
// A key is scoped by its caller (the service's `scope:key`: `p12`, `login12`,
// `signup/<uuid>`, `move/<uuid>`), and each scope keeps its newest `perScope`
// answers younger than `ttlMs`, in order: a ring. A client retries its last
// requests, not one from dozens of requests ago, so the bound costs a retry
// nothing and caps what one busy player can make the store keep.
//
// Rings live in memory while they change (dirty: until a checkpoint writes them)
// and a while after (clean, bounded by `cacheRecords`, least recently used first
// out); the JSON-file store keeps the rest on disk, a file a scope
// (answer-files.ts), and loads a ring before it reads or changes it. The memory
// store has no disk: a ring it does not hold is empty.
import type { IdempotencyRecord } from './storage.js';

/** Answers kept per scope by default (IDEMPOTENCY_KEYS_PER_SCOPE). */
export const KEPT_PER_SCOPE = 32;

export type Ring = ReadonlyArray<readonly [string, IdempotencyRecord]>;

/** The scope of a scoped key: its part before the first ':' (a key without one is its own scope). */
export const scopeOf = (key: string): string => {
  const i = key.indexOf(':');
  return i < 0 ? key : key.slice(0, i);
};

export interface KeptAnswersOptions {
  /** Answers kept per scope, newest first out last (IDEMPOTENCY_KEYS_PER_SCOPE). */
  readonly perScope: number;
  /** How long an answer is kept (IDEMPOTENCY_TTL_SECONDS, in ms). */
  readonly ttlMs: number;
  /** Records of unchanged rings kept in memory; past it the least recently used ring is let go. */
  readonly cacheRecords: number;
}

/** A ring with `record` under `key` (replacing the key's older one), past answers beyond the bounds dropped. */
export const withAnswer = (
  ring: Ring,
  key: string,
  record: IdempotencyRecord,
  o: Pick<KeptAnswersOptions, 'perScope' | 'ttlMs'>,
): Ring => {
  const kept = ring.filter(([k, r]) => k !== key && record.createdAt - r.createdAt < o.ttlMs);
  kept.push([key, record]);
  return kept.length > o.perScope ? kept.slice(kept.length - o.perScope) : kept;
};

export class KeptAnswers {
  /** Rings changed since the last checkpoint took them (take), by scope. */
  private readonly dirty = new Map<string, Ring>();
  /** Unchanged rings, least recently used first. */
  private readonly clean = new Map<string, Ring>();
  private cleanRecords = 0;

  constructor(private readonly o: KeptAnswersOptions) {}

  /** The scope's ring when memory holds it; undefined when it must be read (the disk's). */
  held(scope: string): Ring | undefined {
    const d = this.dirty.get(scope);
    if (d) return d;
    const c = this.clean.get(scope);
    if (c) {
      this.clean.delete(scope);
      this.clean.set(scope, c);
    }
    return c;
  }

  /** Keeps a ring read from disk, unless a newer one came meanwhile (a commit or checkpoint while it was read). */
  adopt(scope: string, ring: Ring): Ring {
    const now = this.held(scope);
    if (now) return now;
    this.keepClean(scope, ring);
    return ring;
  }

  /** The answer for a key whose scope memory holds (undefined: none kept). */
  get(key: string): IdempotencyRecord | undefined {
    const ring = this.held(scopeOf(key));
    return ring?.find(([k]) => k === key)?.[1];
  }

  /**
   * Adds an answer to its ring: the one held, else `base` (the ring the caller read
   * from disk: the cache may have let it go since), else an empty one. Returns how to
   * take it back (a journal write that failed).
   */
  put(key: string, record: IdempotencyRecord, base: Ring = []): () => void {
    const scope = scopeOf(key);
    const wasDirty = this.dirty.get(scope);
    const wasClean = this.clean.get(scope);
    const before = wasDirty ?? wasClean ?? base;
    if (wasClean) this.dropClean(scope, wasClean);
    this.dirty.set(scope, withAnswer(before, key, record, this.o));
    return () => {
      if (wasDirty) {
        this.dirty.set(scope, wasDirty);
        return;
      }
      this.dirty.delete(scope);
      if (wasClean) this.keepClean(scope, wasClean);
    };
  }

  /**
   * Replaces a scope's ring (a deleted player's: emptied, or scrubbed of it); an empty one
   * removes its file at the next checkpoint. Returns how to take it back (a failed write).
   */
  replace(scope: string, ring: Ring): () => void {
    const wasDirty = this.dirty.get(scope);
    const wasClean = this.clean.get(scope);
    if (wasClean) this.dropClean(scope, wasClean);
    this.dirty.set(scope, ring);
    return () => {
      if (wasDirty) this.dirty.set(scope, wasDirty);
      else this.dirty.delete(scope);
      if (wasClean) this.keepClean(scope, wasClean);
    };
  }

  /** Whether a ring changed since a checkpoint last wrote it. */
  changed(): boolean {
    return this.dirty.size > 0;
  }

  /**
   * The rings changed since the last take, for a checkpoint to write (they stay
   * readable until written), each without its answers from before `olderThan`.
   */
  take(olderThan = -Infinity): Array<readonly [string, Ring]> {
    for (const [scope, ring] of this.dirty) {
      if (ring.every(([, r]) => r.createdAt >= olderThan)) continue;
      this.dirty.set(
        scope,
        ring.filter(([, r]) => r.createdAt >= olderThan),
      );
    }
    return [...this.dirty];
  }

  /** Counts written(): a ring read from disk across one may be older than what memory let go, and is read again. */
  generation = 0;

  /** A checkpoint wrote these rings: each unchanged since becomes clean (memory may let it go). */
  written(rings: ReadonlyArray<readonly [string, Ring]>): void {
    this.generation++;
    for (const [scope, ring] of rings) {
      if (this.dirty.get(scope) !== ring) continue;
      this.dirty.delete(scope);
      this.keepClean(scope, ring);
    }
  }

  /** Answers held in memory: changed ones and the cache's. */
  records(): { dirty: number; clean: number; scopes: number } {
    let dirty = 0;
    for (const r of this.dirty.values()) dirty += r.length;
    return { dirty, clean: this.cleanRecords, scopes: this.dirty.size + this.clean.size };
  }

  private keepClean(scope: string, ring: Ring): void {
    const had = this.clean.get(scope);
    if (had) this.dropClean(scope, had);
    this.clean.set(scope, ring);
    this.cleanRecords += ring.length;
    for (const [oldest, r] of this.clean) {
      if (this.cleanRecords <= this.o.cacheRecords) break;
      this.dropClean(oldest, r);
    }
  }

  private dropClean(scope: string, ring: Ring): void {
    this.clean.delete(scope);
    this.cleanRecords -= ring.length;
  }
}
