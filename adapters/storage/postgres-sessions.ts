// Sessions on PostgreSQL as a store reads them: by key, kept in memory a short while (another
// process may end one meanwhile), bounded like the states; and every session of a player.
// Reads asked while others are out go together, one round trip for several (grouped-calls.ts).
import { GroupedCalls } from './grouped-calls.js';
import type { PostgresOptions } from './postgres-options.js';
import type { Prepared } from './postgres-query.js';
import type { Statements } from './postgres-statements.js';
import { decodeStored, SessionCodec, type Session } from './storage.js';

/** Up to 64 reads a round trip, two round trips out at once. */
export const READS = { maxBatch: 64, inFlight: 2 };

export class SessionReads {
  private readonly sessions = new Map<string, { session: Session; at: number }>();
  private readonly reads: GroupedCalls<string, Session | undefined>;

  constructor(
    private readonly query: Prepared,
    private readonly s: string,
    private readonly sql: Statements,
    private readonly opts: PostgresOptions,
  ) {
    this.reads = new GroupedCalls((keys) => this.read(keys), READS);
  }

  /** A session, from memory when read in the last two seconds (`fresh`: from the database). */
  async get(key: string, fresh: boolean): Promise<Session | undefined> {
    const now = Date.now();
    const hit = fresh ? undefined : this.sessions.get(key);
    if (hit && now - hit.at < (this.opts.sessionCacheMs ?? 2_000)) return hit.session;
    const session = await this.reads.submit(key);
    this.keep(key, session, now);
    return session;
  }

  /** The sessions under `keys`, each a promise of its own: one that does not decode fails alone. */
  private async read(keys: string[]): Promise<Array<Promise<Session | undefined>>> {
    const raw = new Map<string, unknown>();
    if (keys.length === 1) {
      const r = await this.query<{ session: unknown }>(this.sql.session, keys, 'session');
      if (r.rows[0]) raw.set(keys[0] as string, r.rows[0].session);
    } else {
      const r = await this.query<{ key: string; session: unknown }>(
        this.sql.sessions,
        [[...new Set(keys)]],
        'sessions',
      );
      for (const row of r.rows) raw.set(row.key, row.session);
    }
    return keys.map(async (key) =>
      raw.has(key) ? decodeStored(SessionCodec, raw.get(key), `session ${key}`) : undefined,
    );
  }

  /** A session as read or written at `at` (none: not kept). */
  keep(key: string, session: Session | undefined | null, at: number): void {
    this.sessions.delete(key);
    if (!session) return;
    this.sessions.set(key, { session, at });
    // Bounded like the states: the oldest read goes first.
    if (this.sessions.size > Math.max(1, this.opts.cacheSize ?? 10_000)) {
      const oldest = this.sessions.keys().next();
      if (!oldest.done) this.sessions.delete(oldest.value);
    }
  }

  /** A player's sessions, oldest first. */
  async of(playerId: number): Promise<Array<{ key: string; session: Session }>> {
    const r = await this.query<{ key: string; session: unknown }>(
      `SELECT key, session FROM ${this.s}.sessions WHERE (session->>'playerId')::bigint = $1 ORDER BY (session->>'createdAt')::bigint, key`,
      [playerId],
    );
    return r.rows.map((x) => ({ key: x.key, session: decodeStored(SessionCodec, x.session, `session ${x.key}`) }));
  }
}
