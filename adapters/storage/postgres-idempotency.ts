// The answers kept for Idempotency-Keys on PostgreSQL (the idempotency table) and the claims of
// the keys of requests running (idempotency_claims): read, claimed, released, pruned, measured.
// Claims asked while others are out go together, one round trip and one transaction for
// several keys (grouped-calls.ts): the typed client sends a key with every write, so each
// keyed write made a round trip of its own before its commit.
import type pg from 'pg';
import { eachAlone, GroupedCalls } from './grouped-calls.js';
import type { PostgresOptions } from './postgres-options.js';
import { answeredFailure, type Prepared } from './postgres-query.js';
import type { Statements } from './postgres-statements.js';
import {
  decodeStored,
  IdempotencyRecordCodec,
  StorageError,
  type IdempotencyClaim,
  type IdempotencyRecord,
} from './storage.js';

/** Up to 32 claims a round trip, one round trip out at once (as the commits: each is a transaction). */
const CLAIMS = { maxBatch: 32, inFlight: 1 };

/** A claim's values, as claim's statement takes them: the key, now, claims older than this taken over, answers kept since this live. */
type ClaimArgs = readonly [key: string, now: number, takeBefore: number, liveAfter: number];
interface ClaimRow {
  readonly record: unknown;
  readonly claimed: boolean;
}

/** A claim older than this belongs to a request that died with its process: taken over. */
const CLAIM_STALE_MS = 60_000;
/**
 * Tries a release gets (issue 33): a connection killed under a request may leave others in
 * the pool dead too, and a failed statement's connection leaves the pool, so each try after
 * the first goes to another connection (or a new one).
 */
const RELEASE_TRIES = 3;

export class IdempotencyRows {
  /** Keys whose claim a commit released (its record written). */
  private readonly released = new Set<string>();
  /** The keys this process holds a claim on now, with the instant claimed (the row's claimed_at). */
  private readonly held = new Map<string, number>();
  /**
   * Claims of this process whose request failed and whose release failed on every try: the
   * key's next claim here takes its own claim over at once (no other process's claim is newer
   * than ours unless it took ours over already), not after CLAIM_STALE_MS.
   */
  private readonly unreleased = new Map<string, number>();
  private readonly claims: GroupedCalls<ClaimArgs, ClaimRow | undefined>;

  constructor(
    private readonly query: Prepared,
    private readonly pool: pg.Pool,
    private readonly s: string,
    private readonly sql: Statements,
    private readonly opts: PostgresOptions,
  ) {
    this.claims = new GroupedCalls((calls) => this.send(calls), CLAIMS);
  }

  async get(key: string): Promise<IdempotencyRecord | undefined> {
    const r = await this.query<{ record: unknown }>(
      `SELECT record FROM ${this.s}.idempotency WHERE key = $1`,
      [key],
      'idempotency',
    );
    const row = r.rows[0];
    return row && decodeStored(IdempotencyRecordCodec, row.record, `the answer kept for ${key}`);
  }

  async claim(key: string, now: number): Promise<IdempotencyClaim> {
    const ttl = this.opts.idempotencyTtlMs ?? 86_400_000;
    const own = this.unreleased.get(key);
    // A claim row older than this is taken over: a dead process's, or this process's own failed one.
    const takeBefore = own === undefined ? now - CLAIM_STALE_MS : Math.max(now - CLAIM_STALE_MS, own + 1);
    const row = await this.claims.submit([key, now, takeBefore, now - ttl], [key]);
    this.released.delete(key);
    this.unreleased.delete(key);
    if (row?.claimed === true) this.held.set(key, now);
    const record =
      row?.record == null ? undefined : decodeStored(IdempotencyRecordCodec, row.record, `the answer kept for ${key}`);
    return { claimed: row?.claimed === true, ...(record ? { record } : {}) };
  }

  /** One claim alone (claim's statement), or several in one statement (claims'), each one's row in order. */
  private async send(
    calls: ReadonlyArray<ClaimArgs>,
  ): Promise<ReadonlyArray<ClaimRow | undefined | Promise<ClaimRow | undefined>>> {
    if (calls.length === 1) return [await this.alone(calls[0] as ClaimArgs)];
    try {
      const r = await this.query<ClaimRow>(
        this.sql.claims,
        [0, 1, 2, 3].map((i) => calls.map((c) => c[i])),
        'claims',
      );
      return r.rows;
    } catch (e) {
      if (!answeredFailure(e)) throw e;
      return eachAlone(calls, (c) => this.alone(c));
    }
  }

  private async alone(args: ClaimArgs): Promise<ClaimRow | undefined> {
    const r = await this.query<ClaimRow>(this.sql.claim, [...args], 'claim');
    return r.rows[0];
  }

  /** A commit wrote the key's record: its claim went with it. */
  written(key: string): void {
    this.released.add(key);
    this.held.delete(key);
  }

  /**
   * Releases a claim whose request kept no answer. Never throws: a release that fails on every
   * try is logged (postgres.claim_release_failed) and the key's next claim here takes it over.
   */
  async release(key: string): Promise<void> {
    const claimedAt = this.held.get(key);
    this.held.delete(key);
    if (this.released.delete(key)) return;
    let error: Error | undefined;
    for (let i = 0; i < RELEASE_TRIES; i++) {
      try {
        await this.query(`DELETE FROM ${this.s}.idempotency_claims WHERE key = $1`, [key], 'release');
        return;
      } catch (e) {
        error = e as Error;
      }
    }
    if (claimedAt !== undefined) this.remember(key, claimedAt);
    this.opts.log?.('postgres.claim_release_failed', { key, tries: RELEASE_TRIES, error: error?.message });
  }

  /** Keeps a failed release's key; those past CLAIM_STALE_MS are dropped (anyone takes them over now). */
  private remember(key: string, claimedAt: number): void {
    for (const [k, at] of this.unreleased) if (at < claimedAt - CLAIM_STALE_MS) this.unreleased.delete(k);
    this.unreleased.set(key, claimedAt);
  }

  /** Drops idempotency records older than an instant (operators may run it from a timer). */
  async prune(olderThan: number): Promise<number> {
    const r = await this.query(`DELETE FROM ${this.s}.idempotency WHERE created_at < $1`, [olderThan]);
    return r.rowCount ?? 0;
  }

  /** The kept answers for Idempotency-Keys: their rows and the table's bytes with its indexes and TOAST. Not counted in roundTrips (stats asks it). */
  async size(): Promise<{ records: number; bytes: number }> {
    try {
      const r = await this.pool.query<{ records: number; bytes: number }>(
        `SELECT (SELECT count(*) FROM ${this.s}.idempotency)::int AS records, pg_total_relation_size(to_regclass($1)) AS bytes`,
        [`${this.s}.idempotency`],
      );
      return r.rows[0] ?? { records: 0, bytes: 0 };
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    }
  }
}
