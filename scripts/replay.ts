// npm run replay -- --player ID [--data DIR | --database-url URL [--schema NAME]] (--help for the options)
// Rebuilds a player by running the reducers again over the replay log (every
// player, in log order) with the master data each entry saw, and reports whether
// the result is byte-identical to the stored state, or the first entry that
// differs. Exit status 1 on a difference. Run it on a stopped server's data
// directory or a copy of it (it opens the storage).
import { resolve } from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadMaster, masterFromFiles, masterHashOf, readMasterSnapshot } from '../adapters/master/load.js';
import { PostgresStorage } from '../adapters/storage/postgres.js';
import { recordedInJournal, replayPlayer } from '../adapters/service/replay.js';
import { parseJournal } from '../adapters/storage/journal.js';
import { FileStorage } from '../adapters/storage/file.js';
import type { Master } from '../core/master/index.js';
import { cli, int, str } from './args.js';

const SPEC = {
  command: 'npm run replay --',
  summary: 'Rebuilds a player by running the reducers again over the replay log, with the master data each entry saw, and says whether the result is byte-identical to the stored state (exit 0) or where it first differs (exit 1). Run it on a stopped server\'s data or a copy.',
  options: {
    player: { type: 'string', value: 'ID', required: true, description: 'the player to rebuild' },
    data: { type: 'string', value: 'DIR', default: process.env['DATA_DIR'] || './data', description: 'the JSON-file store\'s directory (DATA_DIR sets the default)' },
    'database-url': { type: 'string', value: 'URL', description: 'read a PostgreSQL store instead (DATABASE_URL sets the default)' },
    schema: { type: 'string', value: 'NAME', default: process.env['PG_SCHEMA'] || 'hoshi', description: 'the PostgreSQL schema (PG_SCHEMA sets the default)' },
  },
} as const;

cli(SPEC, async (args) => {
  const playerId = int(args, 'player');
  const dir = resolve(str(args, 'data'));
  const databaseUrl = str(args, 'database-url', process.env['DATABASE_URL'] ?? '');
  const pgStore = databaseUrl ? await PostgresStorage.open({ connectionString: databaseUrl, schema: str(args, 'schema') }) : undefined;
  if (!pgStore && !existsSync(join(dir, 'journal.log'))) throw new Error(`${dir} holds no data (no journal.log)`);
  // The states the journal recorded since the last checkpoint (read before opening, which may
  // checkpoint): a difference at one of its entries then names the first path that differs.
  const recorded = pgStore ? undefined : recordedInJournal(parseJournal(readFileSync(join(dir, 'journal.log'))).records);
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
    const r = replayPlayer(log, masterFor, playerId, stored, recorded ? { recorded } : {});
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
    if (d) process.stdout.write(`player ${playerId}: first difference at log entry ${d.seq ?? '?'} (${d.kind}${d.op ? ` ${d.op}` : ''}): ${d.reason}${d.path === undefined ? '' : `, first at ${d.path || '(the state)'} (replayed ${d.replayed}, recorded ${d.recorded}; fields ${d.fields?.join(', ')})`}\n`);
    if (!r.storedMatches) {
      const s = r.storedDifference;
      process.stdout.write(`player ${playerId}: the rebuilt state is not byte-identical to the stored one${s ? `: first at ${s.path || '(the state)'} (rebuilt ${s.replayed}, stored ${s.recorded}; fields ${s.fields.join(', ')})` : ''}\n`);
    }
    return 1;
  } finally {
    await storage.close();
  }
});
