// How PostgreSQL storage sends a statement: one round trip, counted; a failure thrown as a
// StorageError; with a name, a prepared statement (parsed and planned once per connection).
import pg from 'pg';
import { StorageError } from './storage.js';

/** The store's query: a Query (postgres-options.ts) that a `name` makes a prepared statement. */
export type Prepared = <R extends pg.QueryResultRow>(
  text: string,
  values?: unknown[],
  name?: string,
) => Promise<pg.QueryResult<R>>;

/** The query of a store on `pool` in schema `s` (a prepared statement's name is in the schema's); `sent` counts each round trip. */
export const queryOn =
  (pool: pg.Pool, s: string, sent: () => void): Prepared =>
  async <R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    name?: string,
  ): Promise<pg.QueryResult<R>> => {
    sent();
    try {
      return await pool.query<R>(name === undefined ? { text, values } : { name: `${s}.${name}`, text, values });
    } catch (e) {
      throw new StorageError(`PostgreSQL: ${(e as Error).message}`, e);
    }
  };

/**
 * An error PostgreSQL answered with, as thrown or as the cause of the StorageError `queryOn`
 * wraps it in: the transaction was rolled back, nothing of it kept (a lost connection's may
 * have been kept).
 */
export const answeredFailure = (e: unknown): boolean =>
  (e instanceof StorageError ? e.cause : e) instanceof pg.DatabaseError;
