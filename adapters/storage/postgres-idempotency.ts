// The answers kept for Idempotency-Keys on PostgreSQL (the idempotency table) and the claims of
// the keys of requests running (idempotency_claims): read, claimed, released, pruned, measured.
import type pg from 'pg';
import type { PostgresOptions } from './postgres-options.js';
import type { Prepared } from './postgres-query.js';
import type { Statements } from './postgres-schema.js';
import {
  decodeStored,
  IdempotencyRecordCodec,
  StorageError,
  type IdempotencyClaim,
  type IdempotencyRecord,
} from './storage.js';

/** A claim older than this belongs to a request that died with its process: taken over. */
const CLAIM_STALE_MS = 60_000;

export class IdempotencyRows {
  /** Keys whose claim a commit released (its record written). */
  private readonly released = new Set<string>();

  constructor(
    private readonly query: Prepared,
    private readonly pool: pg.Pool,
    private readonly s: string,
    private readonly sql: Statements,
    private readonly opts: PostgresOptions,
  ) {}

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
    const r = await this.query<{ record: unknown; claimed: boolean }>(
      this.sql.claim,
      [key, now, now - CLAIM_STALE_MS, now - ttl],
      'claim',
    );
    const row = r.rows[0];
    this.released.delete(key);
    const record =
      row?.record == null ? undefined : decodeStored(IdempotencyRecordCodec, row.record, `the answer kept for ${key}`);
    return { claimed: row?.claimed === true, ...(record ? { record } : {}) };
  }

  /** A commit wrote the key's record: its claim went with it. */
  written(key: string): void {
    this.released.add(key);
  }

  async release(key: string): Promise<void> {
    if (this.released.delete(key)) return;
    await this.query(`DELETE FROM ${this.s}.idempotency_claims WHERE key = $1`, [key], 'release');
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
