// npm run replay -- --player ID [--data DIR | --database-url URL [--schema NAME]] [--out FILE] (--help for the options)
// Rebuilds a player by running the reducers again over the entries of the replay
// log its states depend on (its own, and those of the players they read, before
// they read them: readPlayerLog), with the master data each entry saw, and reports
// whether the result is byte-identical to the stored state, or the first entry that
// differs. Exit status 1 on a difference; 3 when the player's history begins before
// the kept replay log (its older entries archived or deleted by the retention,
// REPLAY_LOG_RETENTION_DAYS): it says where the kept log starts and where the rest
// is. A JSON-file directory is read as files, never opened for writing: it may be a
// running server's.
import { resolve } from 'node:path';
import { existsSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { join } from 'node:path';
import { PostgresStorage } from '../adapters/storage/postgres.js';
import { bornBefore, readPlayerLog, replayPlayer, type ReplayOptions } from '../adapters/service/replay.js';
import { canonicalJson } from '../adapters/storage/canonical.js';
import { readLogAt, readStoredPlayer } from '../adapters/storage/file-reader.js';
import { ARCHIVE_DIR, listArchives, readArchives } from '../adapters/storage/oplog-archive.js';
import { keptFromAt } from '../adapters/storage/oplog-segments.js';
import type { LogFilter } from '../adapters/storage/storage.js';
import type { StoredLogEntry } from '../adapters/storage/replay-log.js';
import type { PlayerState } from '../core/state.js';
import { cli, flag, int, str, UsageError } from './args.js';
import { mastersOf } from './lib/masters.js';

const SPEC = {
  command: 'npm run replay --',
  summary:
    "Rebuilds a player by running the reducers again over the replay-log entries its states depend on, with the master data each entry saw, and says whether the result is byte-identical to the stored state (exit 0) or where it first differs (exit 1); exit 3 when its history begins before the kept log (archived or deleted by the retention). A data directory is only read: it may be a running server's.",
  options: {
    player: {
      type: 'string',
      value: 'ID',
      required: true,
      kind: 'integer',
      min: 1,
      description: 'the player to rebuild',
    },
    data: {
      type: 'string',
      value: 'DIR',
      default: process.env['DATA_DIR'] || './data',
      description: "the JSON-file store's directory (DATA_DIR sets the default)",
    },
    'database-url': {
      type: 'string',
      value: 'URL',
      description: 'read a PostgreSQL store instead (DATABASE_URL sets the default)',
    },
    schema: {
      type: 'string',
      value: 'NAME',
      default: process.env['PG_SCHEMA'] || 'hoshi',
      description: 'the PostgreSQL schema (PG_SCHEMA sets the default)',
    },
    out: {
      type: 'string',
      value: 'FILE',
      description: 'write the rebuilt state to FILE (canonical JSON), whether or not it matches',
    },
    archive: {
      type: 'boolean',
      description:
        'also read the archived segments (DIR/oplog-archive/*.jsonl.gz, decompressed at each read): for a player whose history begins before the kept log',
    },
  },
} as const;

/** What a replay reads from a store: the stored player, the entries it depends on, and what the store knows besides. */
interface Source {
  readonly stored: PlayerState | undefined;
  readonly log: ReadonlyArray<StoredLogEntry>;
  readonly options: ReplayOptions;
  /** Master data the store keeps itself (PostgreSQL), by hash. */
  readonly masters: ReadonlyMap<string, unknown>;
  /** The first seq of the log read (undefined: it holds none), and what to say of the entries before it. */
  readonly keptFrom: number | undefined;
  readonly before: string;
}

/** Entries of two reads of the log, each once, in seq order. */
const merged = (a: ReadonlyArray<StoredLogEntry>, b: ReadonlyArray<StoredLogEntry>): StoredLogEntry[] =>
  [...new Map([...a, ...b].map((e) => [e.seq ?? 0, e])).values()].sort((x, y) => (x.seq ?? 0) - (y.seq ?? 0));

/** A JSON-file directory, as files: the stored state first, then the log (at least as new). */
const fromDirectory = async (dir: string, playerId: number, archive: boolean): Promise<Source> => {
  if (!existsSync(join(dir, 'journal.log'))) throw new Error(`${dir} holds no data (no journal.log)`);
  const player = await readStoredPlayer(dir, playerId);
  const kept = (filter: LogFilter) => readLogAt(dir, player.journalLog, filter);
  const read = archive
    ? async (filter: LogFilter) => merged(await readArchives(dir, filter), await kept(filter))
    : kept;
  const log = await readPlayerLog(read, playerId, player.state ? { version: player.state.version } : {});
  const starts = [
    await keptFromAt(dir),
    player.journalLog[0]?.seq,
    archive ? (await listArchives(dir))[0]?.first : undefined,
  ].filter((n): n is number => n !== undefined);
  const archived = join(dir, ARCHIVE_DIR);
  return {
    // The states the journal still holds: a difference at one of their entries names the first path that differs.
    stored: player.state,
    log,
    options: { recorded: (seq, id) => (seq === undefined || id !== playerId ? undefined : player.recorded.get(seq)) },
    masters: new Map(),
    keptFrom: starts.length === 0 ? undefined : Math.min(...starts),
    before: archive
      ? `the archive in ${archived} does not reach back further (archives were removed)`
      : `older entries were archived to ${archived} (run again with --archive to read them too)`,
  };
};

const fromPostgres = async (url: string, schema: string, playerId: number): Promise<Source> => {
  const storage = await PostgresStorage.open({ connectionString: url, schema });
  try {
    const stored = await storage.load(playerId);
    const log = await readPlayerLog(
      (filter) => storage.readLog(filter),
      playerId,
      stored ? { version: stored.version } : {},
    );
    // PostgreSQL keeps its master snapshots in the database: those the entries name.
    const masters = new Map<string, unknown>();
    for (const e of log)
      if (!masters.has(e.masterHash)) masters.set(e.masterHash, await storage.readMasterSnapshot(e.masterHash));
    const keptFrom = await storage.replayLogStart();
    return {
      stored,
      log,
      options: {},
      masters,
      keptFrom,
      before: "older rows were deleted by the retention (REPLAY_LOG_RETENTION_DAYS); the database's backups hold them",
    };
  } finally {
    await storage.close();
  }
};

// The live data is small (the states and the entries read); V8 would let the heap grow
// to several times it between collections (the server's HEAP_GROWTH_PERCENT does the same).
setFlagsFromString('--heap-growing-percent=50');

cli(SPEC, async (args) => {
  const playerId = int(args, 'player');
  const dir = resolve(str(args, 'data'));
  const databaseUrl = str(args, 'database-url', process.env['DATABASE_URL'] ?? '');
  const out = str(args, 'out', '');
  const started = performance.now();
  const archive = flag(args, 'archive');
  if (archive && databaseUrl)
    throw new UsageError(
      "--archive reads a data directory's archive; on PostgreSQL the archive is the database's backups",
    );
  const {
    stored,
    log,
    options,
    masters: kept,
    keptFrom,
    before,
  } = databaseUrl
    ? await fromPostgres(databaseUrl, str(args, 'schema'), playerId)
    : await fromDirectory(dir, playerId, archive);
  // A log that does not start at its first entry (the retention took the older ones): a history it lacks is said as such, not as a difference.
  const lacking = keptFrom === 1 ? [] : bornBefore(log);
  if (keptFrom !== 1 && (lacking.length > 0 || (log.length === 0 && stored !== undefined))) {
    const start = keptFrom === undefined ? 'keeps no entry' : `starts at seq ${keptFrom}`;
    const who =
      lacking.length > 0 ? `; created before it: player${lacking.length > 1 ? 's' : ''} ${lacking.join(', ')}` : '';
    process.stdout.write(
      `player ${playerId}: its history begins before the kept replay log, which ${start}${who}; ${before}\n`,
    );
    return 3;
  }
  const masterFor = mastersOf(dir, { kept, files: !databaseUrl });
  const r = replayPlayer(log, masterFor, playerId, stored, options);
  const ms = Math.round(performance.now() - started);
  const usage = process.resourceUsage();
  const cpu = ((usage.userCPUTime + usage.systemCPUTime) / 1e6).toFixed(1);
  process.stdout.write(
    `replayed ${r.entries} log entries (${r.playerEntries} for player ${playerId}) in ${ms} ms (${cpu} s of CPU since start), peak resident set ${Math.round(usage.maxRSS / 1024)} MB\n`,
  );
  if (out !== '') {
    if (r.rebuilt === undefined) process.stdout.write(`no entry made player ${playerId}: nothing written to ${out}\n`);
    else {
      writeFileSync(out, `${canonicalJson(r.rebuilt)}\n`);
      process.stdout.write(`the rebuilt state (version ${r.rebuilt.version}) written to ${out}\n`);
    }
  }
  if (!stored) {
    process.stdout.write(`player ${playerId} is not stored\n`);
    return 1;
  }
  if (r.identical) {
    process.stdout.write(`player ${playerId}: byte-identical to the stored state (version ${stored.version})\n`);
    return 0;
  }
  const d = r.firstDifference;
  if (d)
    process.stdout.write(
      `player ${playerId}: first difference at log entry ${d.seq ?? '?'} (${d.kind}${d.op ? ` ${d.op}` : ''}): ${d.reason}${d.path === undefined ? '' : `, first at ${d.path || '(the state)'} (replayed ${d.replayed}, recorded ${d.recorded}; fields ${d.fields?.join(', ')})`}\n`,
    );
  if (!r.storedMatches) {
    const s = r.storedDifference;
    process.stdout.write(
      `player ${playerId}: the rebuilt state is not byte-identical to the stored one${s ? `: first at ${s.path || '(the state)'} (rebuilt ${s.replayed}, stored ${s.recorded}; fields ${s.fields.join(', ')})` : ''}\n`,
    );
  }
  return 1;
});
