// The operator's records on PostgreSQL (migration 7): liveops_records by kind and id,
// liveops_ids the next id of each kind; shared by every process using the database.
import type { LiveOpsRecords, RecordKind } from '../liveops/records.js';
import type { Prepared } from './postgres-query.js';

export class PostgresLiveOpsRecords implements LiveOpsRecords {
  constructor(
    private readonly query: Prepared,
    private readonly s: string,
  ) {}

  async list(kind: RecordKind): Promise<Array<{ id: number; body: unknown }>> {
    const r = await this.query<{ id: string; body: unknown }>(
      `SELECT id, body FROM ${this.s}.liveops_records WHERE kind = $1 ORDER BY id`,
      [kind],
    );
    return r.rows.map((x) => ({ id: Number(x.id), body: x.body }));
  }

  async get(kind: RecordKind, id: number): Promise<unknown> {
    const r = await this.query<{ body: unknown }>(
      `SELECT body FROM ${this.s}.liveops_records WHERE kind = $1 AND id = $2`,
      [kind, id],
    );
    return r.rows[0]?.body;
  }

  async put(kind: RecordKind, id: number, body: unknown): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.liveops_records (kind, id, body) VALUES ($1, $2, $3)
       ON CONFLICT (kind, id) DO UPDATE SET body = EXCLUDED.body`,
      [kind, id, JSON.stringify(body)],
    );
  }

  async remove(kind: RecordKind, id: number): Promise<void> {
    await this.query(`DELETE FROM ${this.s}.liveops_records WHERE kind = $1 AND id = $2`, [kind, id]);
  }

  async nextId(kind: RecordKind): Promise<number> {
    const r = await this.query<{ n: string }>(
      `INSERT INTO ${this.s}.liveops_ids (kind, n) VALUES ($1, 1)
       ON CONFLICT (kind) DO UPDATE SET n = ${this.s}.liveops_ids.n + 1 RETURNING n`,
      [kind],
    );
    return Number(r.rows[0]?.n);
  }
}
