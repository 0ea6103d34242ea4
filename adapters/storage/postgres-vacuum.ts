// The self-vacuum of PostgreSQL storage: VACUUM of the tables writes churn, for a
// database whose autovacuum is off (the server runs it on a timer then).
import type pg from 'pg';
import { StorageError } from './storage.js';

/** The tables whose rows writes replace or delete (VACUUM reclaims their dead versions). */
const CHURNING = [
  'players',
  'player_deltas',
  'idempotency',
  'idempotency_claims',
  'sessions',
  'rate_buckets',
  'player_keys',
  'replay_log',
  'replay_log_players',
];

/**
 * VACUUM of the tables writes churn (CHURNING) in schema `s`, by one process at a time (an advisory
 * lock; another process holding it: none run, `ran` false). What autovacuum would do:
 * without it, every answer kept and trimmed, every delta folded and every row version
 * replaced stays on disk, and the tables and their indexes grow without bound.
 * `roundTrips` is told of the statements sent, as they are counted.
 */
export const vacuumTables = async (
  pool: pg.Pool,
  s: string,
  roundTrips: (n: number) => void,
): Promise<{ ran: boolean; ms: number }> => {
  const started = Date.now();
  const c = await pool.connect();
  try {
    roundTrips(1);
    const lock = await c.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [
      `hoshi-vacuum:${s}`,
    ]);
    if (lock.rows[0]?.got !== true) return { ran: false, ms: Date.now() - started };
    try {
      // VACUUM takes as long as the tables need: not the pool's statement timeout.
      await c.query('SET statement_timeout = 0');
      await c.query(`VACUUM ${CHURNING.map((t) => `${s}.${t}`).join(', ')}`);
    } finally {
      await c.query('RESET statement_timeout');
      await c.query('SELECT pg_advisory_unlock(hashtext($1))', [`hoshi-vacuum:${s}`]);
    }
    roundTrips(4);
    return { ran: true, ms: Date.now() - started };
  } catch (e) {
    throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
  } finally {
    c.release();
  }
};
