// The replay log on PostgreSQL (replay_log, and replay_log_players indexing it by player):
// read whole or by player, pruned by age in bounded batches, where it starts, its size on disk.
import type pg from 'pg';
import type { Query } from './postgres-options.js';
import type { StoredLogEntry } from './replay-log.js';
import { StorageError, type LogFilter } from './storage.js';

type Log = (event: string, data: Record<string, unknown>) => void;

/** Every entry of the replay log, in order, or only those that changed one of `filter.players`. */
export const readEntries = async (query: Query, s: string, filter: LogFilter): Promise<StoredLogEntry[]> => {
  const r =
    filter.players === undefined
      ? await query<{ seq: number; entry: StoredLogEntry }>(`SELECT seq, entry FROM ${s}.replay_log ORDER BY seq`)
      : // Through the per-player index: only the entries that changed one of these players.
        await query<{ seq: number; entry: StoredLogEntry }>(
          `SELECT l.seq, l.entry FROM ${s}.replay_log l WHERE l.seq IN (SELECT seq FROM ${s}.replay_log_players WHERE player_id = ANY ($1::bigint[])) ORDER BY l.seq`,
          [[...filter.players]],
        );
  return r.rows.map((x) => ({ ...x.entry, seq: x.seq }));
};

/**
 * Deletes the replay log's entries older than `olderThan` (their `at`), and their
 * rows of replay_log_players: those before the first entry at or after it, so the
 * kept log stays one run of seqs. In batches of `batch` entries, one statement to
 * find where to stop among the oldest and one to delete, each bounded, never one
 * statement over millions of rows; at most `maxBatches` a call (the server's prune
 * comes every ten minutes: a backlog goes in several). Logs replay_log.pruned.
 * Returns the entries deleted. The archive on PostgreSQL is the operator's backups.
 */
export const pruneEntries = async (
  query: Query,
  s: string,
  log: Log | undefined,
  olderThan: number,
  { batch = 10_000, maxBatches = 100 }: { readonly batch?: number; readonly maxBatches?: number } = {},
): Promise<number> => {
  let deleted = 0;
  let below = 0;
  for (let i = 0; i < maxBatches; i++) {
    const head = (
      await query<{ bound: number | null; last: number | null }>(
        `SELECT min(seq) FILTER (WHERE at >= $1) AS bound, max(seq) AS last
           FROM (SELECT seq, (entry->>'at')::float8 AS at FROM ${s}.replay_log ORDER BY seq LIMIT $2) h`,
        [olderThan, batch],
      )
    ).rows[0];
    // No entry left; or the first entry at or after the cutoff is the batch's first: nothing more to delete.
    if (head === undefined || head.last === null) break;
    const upTo = head.bound ?? head.last + 1;
    const r = await query<{ n: number }>(
      `WITH gone AS (DELETE FROM ${s}.replay_log WHERE seq < $1 RETURNING seq, entry),
           players AS (DELETE FROM ${s}.replay_log_players p
             USING (SELECT g.seq, (x.id)::bigint AS player_id FROM gone g, json_array_elements_text(g.entry->'playerIds') AS x(id)) d
             WHERE p.player_id = d.player_id AND p.seq = d.seq)
         SELECT count(*)::int AS n FROM gone`,
      [upTo],
    );
    deleted += r.rows[0]?.n ?? 0;
    below = upTo;
    if (head.bound !== null) break;
  }
  // `below`: every entry before this seq is gone.
  if (deleted > 0) log?.('replay_log.pruned', { deleted, olderThan, below });
  return deleted;
};

/** The first seq the replay log keeps (undefined: it keeps none). */
export const firstSeq = async (query: Query, s: string): Promise<number | undefined> => {
  const r = await query<{ seq: number | null }>(`SELECT min(seq) AS seq FROM ${s}.replay_log`);
  return r.rows[0]?.seq ?? undefined;
};

/** The replay log's bytes on disk: replay_log and replay_log_players, with their indexes and TOAST. Straight to the pool: not counted in roundTrips (stats asks it). */
export const bytesOnDisk = async (pool: pg.Pool, s: string): Promise<number> => {
  try {
    const r = await pool.query<{ bytes: number }>(
      'SELECT pg_total_relation_size(to_regclass($1)) + pg_total_relation_size(to_regclass($2)) AS bytes',
      [`${s}.replay_log`, `${s}.replay_log_players`],
    );
    return r.rows[0]?.bytes ?? 0;
  } catch (e) {
    throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
  }
};
