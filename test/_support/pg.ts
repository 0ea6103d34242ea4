// The machine's PostgreSQL for tests (127.0.0.1:5432, trust auth, database test).
// Tests that need it fail loudly when it is absent: .ci/run starts it first.
import { PostgresStorage } from '../../adapters/storage/postgres.js';

export const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

let n = 0;
/** A schema of its own for one test, so runs and tests never collide. */
export const freshSchema = (): string => `hoshi_t${process.pid}_${Date.now() % 1_000_000}_${n++}`;

export const openPostgres = async (schema = freshSchema()) => {
  const storage = await PostgresStorage.open({ connectionString: TEST_DATABASE_URL, schema, poolSize: 4 });
  return {
    storage, schema,
    cleanup: async () => { await storage.close(); await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema); },
  };
};
