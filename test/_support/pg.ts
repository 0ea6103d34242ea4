// The machine's PostgreSQL for tests (127.0.0.1:5432, trust auth, database test).
// Tests that need it fail loudly when it is absent: .ci/run starts it first.
import type { ExecutionContext } from 'ava';
import pg from 'pg';
import { PostgresStorage, type PostgresOptions } from '../../adapters/storage/postgres.js';

export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

let n = 0;
/** A schema of its own for one test, so runs and tests never collide. */
export const freshSchema = (): string => `hoshi_t${process.pid}_${Date.now() % 1_000_000}_${n++}`;

export const openPostgres = async (schema = freshSchema()) => {
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 4 });
  return {
    storage,
    schema,
    cleanup: async () => {
      await storage.close();
      await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
    },
  };
};

/** Statements on the test database outside any store (to plant a failure, or to look at a table). */
export const sql = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<R[]> => {
  const c = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await c.connect();
  try {
    return (await c.query<R>(text, values)).rows;
  } finally {
    await c.end();
  }
};

/** A store on a schema of its own, closed and dropped when the test ends. */
export const openStore = async (t: ExecutionContext, opts: Partial<PostgresOptions> = {}, schema = freshSchema()) => {
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 2, ...opts });
  t.teardown(async () => {
    await storage.close();
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  return { storage, schema };
};
