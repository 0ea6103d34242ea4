// The game data's versions on PostgreSQL: their files in master_snapshots, their
// records in master_versions, the schedule in master_schedule (migration 6), shared
// by every process using the database.
import type { MasterFiles } from '../master/load.js';
import type { MasterLedger, MasterRegistry, MasterScheduleEntry, MasterVersion } from '../master/registry.js';
import type { Prepared } from './postgres-query.js';

interface ScheduleRow {
  id: number;
  version: string;
  at: number;
  by_whom: string;
  note: string;
  created_at: number;
  cancelled_at: number | null;
}

const entryOf = (r: ScheduleRow): MasterScheduleEntry => ({
  id: Number(r.id),
  version: r.version,
  at: Number(r.at),
  by: r.by_whom,
  note: r.note,
  createdAt: Number(r.created_at),
  cancelledAt: r.cancelled_at === null ? null : Number(r.cancelled_at),
});

export class PostgresMasterRegistry implements MasterRegistry {
  constructor(
    private readonly query: Prepared,
    private readonly s: string,
  ) {}

  async saveVersion(files: MasterFiles, meta: MasterVersion): Promise<void> {
    await this.query(
      `INSERT INTO ${this.s}.master_snapshots (hash, files) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING`,
      [meta.version, JSON.stringify(files)],
    );
    await this.query(
      `INSERT INTO ${this.s}.master_versions (hash, published_at, by_whom, note) VALUES ($1, $2, $3, $4) ON CONFLICT (hash) DO NOTHING`,
      [meta.version, meta.publishedAt, meta.by, meta.note],
    );
  }

  async readFiles(version: string): Promise<MasterFiles | undefined> {
    const r = await this.query<{ files: MasterFiles }>(`SELECT files FROM ${this.s}.master_snapshots WHERE hash = $1`, [
      version,
    ]);
    return r.rows[0]?.files;
  }

  async readLedger(): Promise<MasterLedger> {
    const v = await this.query<{ hash: string; published_at: number; by_whom: string; note: string }>(
      `SELECT hash, published_at, by_whom, note FROM ${this.s}.master_versions ORDER BY published_at, hash`,
    );
    const e = await this.query<ScheduleRow>(`SELECT * FROM ${this.s}.master_schedule ORDER BY id`);
    return {
      versions: v.rows.map((r) => ({
        version: r.hash,
        publishedAt: Number(r.published_at),
        by: r.by_whom,
        note: r.note,
      })),
      schedule: e.rows.map(entryOf),
    };
  }

  async schedule(entry: Omit<MasterScheduleEntry, 'id' | 'cancelledAt'>): Promise<MasterScheduleEntry> {
    const r = await this.query<ScheduleRow>(
      `INSERT INTO ${this.s}.master_schedule (version, at, by_whom, note, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
      [entry.version, entry.at, entry.by, entry.note, entry.createdAt],
    );
    return entryOf(r.rows[0] as ScheduleRow);
  }

  async cancel(id: number, now: number): Promise<boolean> {
    // Only an entry not yet in effect: one in force is undone by scheduling the earlier version.
    const r = await this.query(
      `UPDATE ${this.s}.master_schedule SET cancelled_at = $2 WHERE id = $1 AND cancelled_at IS NULL AND at > $2`,
      [id, now],
    );
    return (r.rowCount ?? 0) > 0;
  }
}
