// The statements a PostgreSQL store prepares in its schema (each named: parsed and planned
// once per connection): the commit, the reads that go with it, the Idempotency-Key claims
// and the rate limits' tokens.

/** The statements a store prepares (each named, parsed and planned once per connection). */
export type Statements = Record<
  'commit' | 'load' | 'verify' | 'versions' | 'session' | 'sessions' | 'claim' | 'claims' | 'take',
  string
>;

/** The text of the statements a store prepares in schema `s`: commit_v5, take_tokens, and the reads that go with them. */
export const statementsOf = (s: string): Statements => {
  return {
    commit: `SELECT ${s}.commit_v5($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26) AS seq`,
    // The base as text (its length is the fold's measure) and the deltas since it, in order.
    load: `SELECT p.state::text AS state, CASE WHEN p.base_version IS NULL THEN NULL ELSE
        (SELECT json_agg(d.delta ORDER BY d.version)::text FROM ${s}.player_deltas d WHERE d.player_id = p.player_id) END AS deltas
        FROM ${s}.players p WHERE p.player_id = $1`,
    verify: `SELECT count(*)::int AS n FROM unnest($1::bigint[], $2::bigint[]) AS r(id, v) JOIN ${s}.players p ON p.player_id = r.id AND p.version = r.v`,
    versions: `SELECT player_id, version FROM ${s}.players WHERE player_id = ANY ($1::bigint[])`,
    session: `SELECT session FROM ${s}.sessions WHERE key = $1`,
    sessions: `SELECT key, session FROM ${s}.sessions WHERE key = ANY ($1::text[])`,
    // The kept answer and the claim in one step: no claim while a live answer is kept, nor while
    // another request's claim is fresh.
    claim: `WITH prior AS (SELECT record, created_at FROM ${s}.idempotency WHERE key = $1),
        claim AS (
          INSERT INTO ${s}.idempotency_claims AS c (key, claimed_at) SELECT $1, $2 WHERE NOT EXISTS (SELECT 1 FROM prior WHERE created_at >= $4)
          ON CONFLICT (key) DO UPDATE SET claimed_at = EXCLUDED.claimed_at WHERE c.claimed_at < $3
          RETURNING 1)
        SELECT (SELECT record FROM prior) AS record, EXISTS (SELECT 1 FROM claim) AS claimed`,
    // Several keys' claims as claim's, one row each in the order given (the keys distinct: grouped-calls.ts).
    // Inserted in key order, so two processes' calls lock their keys in the same order.
    claims: `WITH req AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) WITH ORDINALITY AS r(key, at, take_before, live_after, i)),
        prior AS (SELECT p.key, p.record, p.created_at FROM ${s}.idempotency p JOIN req r ON p.key = r.key),
        claim AS (
          INSERT INTO ${s}.idempotency_claims AS c (key, claimed_at)
          SELECT r.key, r.at FROM req r WHERE NOT EXISTS (SELECT 1 FROM prior WHERE prior.key = r.key AND prior.created_at >= r.live_after) ORDER BY r.key
          ON CONFLICT (key) DO UPDATE SET claimed_at = EXCLUDED.claimed_at WHERE c.claimed_at < (SELECT q.take_before FROM req q WHERE q.key = EXCLUDED.key)
          RETURNING c.key)
        SELECT r.key, (SELECT record FROM prior WHERE prior.key = r.key) AS record, EXISTS (SELECT 1 FROM claim WHERE claim.key = r.key) AS claimed
        FROM req r ORDER BY r.i`,
    take: `SELECT granted, left_tokens FROM ${s}.take_tokens($1, $2, $3, $4, $5)`,
  };
};
