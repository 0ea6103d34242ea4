// npm run replay -- --player ID [--data DIR]
// Rebuilds a player by running the reducers again over the replay log (every
// player, in log order) with the master data each entry saw, and reports whether
// the result is byte-identical to the stored state, or the first entry that
// differs. Exit status 1 on a difference. Run it on a stopped server's data
// directory or a copy of it (it opens the storage).
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadMaster, masterFromFiles, masterHashOf, readMasterSnapshot } from '../adapters/master/load.js';
import { PostgresStorage } from '../adapters/storage/postgres.js';
import { replayPlayer } from '../adapters/service/replay.js';
import { FileStorage } from '../adapters/storage/file.js';
import type { Master } from '../core/master/index.js';
import { cli, int, parseArgs, str } from './args.js';

const USAGE = 'usage: npm run replay -- --player ID [--data DIR (default $DATA_DIR or ./data) | --database-url URL [--schema NAME]]';

cli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), []);
  const playerId = int(args, 'player');
  const dir = resolve(str(args, 'data', process.env['DATA_DIR'] ?? './data'));
  const databaseUrl = str(args, 'database-url', process.env['DATABASE_URL'] ?? '');
  const pgStore = databaseUrl ? await PostgresStorage.open({ connectionString: databaseUrl, schema: str(args, 'schema', process.env['PG_SCHEMA'] ?? 'hoshi') }) : undefined;
  if (!pgStore && !existsSync(join(dir, 'journal.log'))) throw new Error(`${dir} holds no data (no journal.log)`);
  const storage = pgStore ?? await FileStorage.open({ dir });
  // PostgreSQL keeps its master snapshots in the database; read those the log names up front.
  const pgMasters = new Map<string, unknown>();
  if (pgStore) for (const e of await pgStore.readLog()) if (!pgMasters.has(e.masterHash)) pgMasters.set(e.masterHash, await pgStore.readMasterSnapshot(e.masterHash));
  try {
    const log = await storage.readLog();
    const stored = await storage.load(playerId);
    const masters = new Map<string, Master>();
    let fixtures: Master | undefined;
    const masterFor = (hash: string): Master => {
      let m = masters.get(hash);
      if (!m) {
        const fromDb = pgMasters.get(hash);
        if (fromDb !== undefined) m = masterFromFiles(fromDb as Record<string, unknown>);
        else if (!pgStore && existsSync(join(dir, 'master', `${hash}.json`))) m = readMasterSnapshot(dir, hash);
        else {
          // No snapshot (a run without one): the bundled fixtures, if they are the same data.
          fixtures ??= loadMaster();
          if (masterHashOf(fixtures) !== hash) throw new Error(`no master snapshot ${hash} in ${join(dir, 'master')}`);
          m = fixtures;
        }
        masters.set(hash, m);
      }
      return m;
    };
    const started = performance.now();
    const r = replayPlayer(log, masterFor, playerId, stored);
    const ms = Math.round(performance.now() - started);
    process.stdout.write(`replayed ${r.entries} log entries (${r.playerEntries} for player ${playerId}) in ${ms} ms\n`);
    if (!stored) {
      process.stdout.write(`player ${playerId} is not stored\n`);
      return 1;
    }
    if (r.identical) {
      process.stdout.write(`player ${playerId}: byte-identical to the stored state (version ${stored.version})\n`);
      return 0;
    }
    const d = r.firstDifference;
    if (d) process.stdout.write(`player ${playerId}: first difference at log entry ${d.seq ?? '?'} (${d.kind}${d.op ? ` ${d.op}` : ''}): ${d.reason}\n`);
    if (!r.storedMatches) process.stdout.write(`player ${playerId}: the rebuilt state is not byte-identical to the stored one\n`);
    return 1;
  } finally {
    await storage.close();
  }
});
