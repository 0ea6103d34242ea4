// A deleted player purged from PostgreSQL (docs/privacy.md), after the commit that deleted
// it (which wrote its row and its friends' whole, removed its keys and sessions, dropped
// its own kept answers and noted the erasure): for each erasure not yet purged, its
// replay-log entries with their personal fields emptied (erase.ts scrubEntry), the kept
// answers of the players it was shown to scrubbed of its name and friend code, and every
// other row whose base or deltas still name it (a relation that ended before the
// deletion, in a base not folded since) written whole; then the erasure is marked purged.
// Each step can run again (a purge cut short is taken up by the next): the process that
// deleted starts it at once, and every process's prune runs it while one is not done.
import type pg from 'pg';
import { needsScrub, scrubAnswer, scrubEntry } from './erase.js';
import type { Prepared } from './postgres-query.js';
import { decodeRow, type StoredRow } from './postgres-rows.js';
import type { StoredLogEntry } from './replay-log.js';
import { StorageError, type IdempotencyRecord } from './storage.js';

type Log = (event: string, data: Record<string, unknown>) => void;

/** The deleted player's entries, scrubbed in place (through replay_log_players): how many were written. */
const scrubLog = async (query: Prepared, s: string, id: number): Promise<number> => {
  const ids = new Set([id]);
  const r = await query<{ seq: string; entry: string }>(
    `SELECT l.seq, l.entry::text AS entry FROM ${s}.replay_log l
       WHERE l.seq IN (SELECT seq FROM ${s}.replay_log_players WHERE player_id = $1) ORDER BY l.seq`,
    [id],
  );
  const seqs: string[] = [];
  const texts: string[] = [];
  for (const row of r.rows) {
    const e = JSON.parse(row.entry) as StoredLogEntry;
    if (!needsScrub(e, ids)) continue;
    seqs.push(row.seq);
    texts.push(JSON.stringify(scrubEntry(e, ids)));
  }
  if (seqs.length > 0)
    await query(
      `UPDATE ${s}.replay_log l SET entry = u.entry::json FROM unnest($1::bigint[], $2::text[]) AS u(seq, entry) WHERE l.seq = u.seq`,
      [seqs, texts],
    );
  return seqs.length;
};

/** The kept answers of the scopes it was shown to, scrubbed of it: how many were written. */
const scrubAnswers = async (query: Prepared, s: string, id: number, scopes: ReadonlyArray<string>): Promise<number> => {
  if (scopes.length === 0) return 0;
  const r = await query<{ key: string; record: string }>(
    `SELECT key, record::text AS record FROM ${s}.idempotency WHERE split_part(key, ':', 1) = ANY ($1::text[])`,
    [scopes],
  );
  const keys: string[] = [];
  const records: string[] = [];
  for (const row of r.rows) {
    const record = JSON.parse(row.record) as IdempotencyRecord;
    const scrubbed = scrubAnswer(record, new Set([id]));
    if (scrubbed === record) continue;
    keys.push(row.key);
    records.push(JSON.stringify(scrubbed));
  }
  if (keys.length > 0)
    await query(
      `UPDATE ${s}.idempotency x SET record = u.record::json FROM unnest($1::text[], $2::text[]) AS u(key, record) WHERE x.key = u.key`,
      [keys, records],
    );
  return keys.length;
};

/**
 * Every other row whose base or deltas name the player (`"playerId":7,` in their text), written
 * whole at the version it is at, its deltas deleted, in a transaction holding the row: the state
 * is the same (its version too), only how the row keeps it changes. Rows with no deltas hold
 * their current state whole, which no longer names it (the deletion dropped every relation).
 */
const foldRowsNaming = async (pool: pg.Pool, query: Prepared, s: string, load: string, id: number): Promise<number> => {
  const naming = `"playerId":${id}[,}]`;
  const r = await query<{ player_id: string }>(
    `SELECT p.player_id FROM ${s}.players p WHERE p.player_id <> $1 AND p.base_version IS NOT NULL
       AND (p.state::text ~ $2 OR EXISTS (SELECT 1 FROM ${s}.player_deltas d WHERE d.player_id = p.player_id AND d.delta::text ~ $2))`,
    [id, naming],
  );
  for (const { player_id } of r.rows) {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      const row = (await c.query<StoredRow>(`${load} FOR UPDATE OF p`, [player_id])).rows[0];
      if (row) {
        const { state } = decodeRow(Number(player_id), row);
        await c.query(
          `UPDATE ${s}.players SET state = $2::json, base_version = NULL WHERE player_id = $1 AND version = $3`,
          [player_id, JSON.stringify(state), state.version],
        );
        await c.query(`DELETE FROM ${s}.player_deltas WHERE player_id = $1`, [player_id]);
      }
      await c.query('COMMIT');
    } catch (e) {
      await c.query('ROLLBACK').catch(() => undefined);
      throw e instanceof StorageError ? e : new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    } finally {
      c.release();
    }
  }
  return r.rows.length;
};

/** Purges every erasure not yet purged (one player at a time) and logs player.purged for each: how many. */
export const purgeErasures = async (
  pool: pg.Pool,
  query: Prepared,
  s: string,
  load: string,
  log: Log | undefined,
  now: number,
): Promise<number> => {
  const pending = await query<{ player_id: string; scrub: string[] }>(
    `SELECT player_id, scrub FROM ${s}.erasures WHERE purged_at IS NULL ORDER BY player_id`,
  );
  for (const row of pending.rows) {
    const id = Number(row.player_id);
    const entries = await scrubLog(query, s, id);
    const answers = await scrubAnswers(query, s, id, row.scrub);
    const rows = await foldRowsNaming(pool, query, s, load, id);
    await query(`UPDATE ${s}.erasures SET purged_at = $2, scrub = '{}' WHERE player_id = $1`, [id, now]);
    log?.('player.purged', { playerId: id, entries, answers, rows });
  }
  return pending.rows.length;
};
