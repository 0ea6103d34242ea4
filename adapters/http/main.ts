// Starts the service on the embedded defaults: JSON files under ./data, the bundled
// fixtures, port 8080, /healthz, /readyz and /metrics beside /api. npm start runs the
// compiled copy (dist/adapters/http/main.js) with node. SIGTERM turns /readyz 503,
// stops accepting, finishes in-flight requests, flushes, logs "stopped" and exits 0.
import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { resolve } from 'node:path';
import { configFromEnv, weakSecrets } from './config.js';
import { jsonLogger, type Level } from './log.js';
import { Metrics } from './metrics.js';
import type { Lifecycle } from './ops.js';
import { createApp } from './app.js';
import { setAnswerCacheBytes } from './json.js';
import { loadMaster, MasterDataError, masterSourceOf } from '../master/load.js';
import { MasterBook } from '../master/book.js';
import { LiveOps } from '../liveops/board.js';
import { FileLiveOpsRecords, MemoryLiveOpsRecords } from '../liveops/records.js';
import { FileMasterRegistry, MemoryMasterRegistry, type MasterRegistry } from '../master/registry.js';
import { FileStorage } from '../storage/file.js';
import { MemoryStorage } from '../storage/memory.js';
import { PostgresStorage } from '../storage/postgres.js';
import { StorageError, type Storage } from '../storage/storage.js';
import { GameService } from '../service/service.js';

const main = async (): Promise<void> => {
  const cfg = configFromEnv();
  // Read by V8 at each full collection: the resident set stays nearer the live data
  // (after the bench's mixes ~330 MB at 50, ~305 at 30, ~480 with V8's own; docs/performance.md).
  if (cfg.heapGrowthPercent > 0) setFlagsFromString(`--heap-growing-percent=${cfg.heapGrowthPercent}`);
  setAnswerCacheBytes(cfg.answerCacheMb * 1024 * 1024);
  const log = jsonLogger(cfg.logLevel);
  let master;
  try {
    master = loadMaster(cfg.masterDir ? resolve(cfg.masterDir) : undefined);
  } catch (e) {
    if (e instanceof MasterDataError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const weak = weakSecrets(cfg);
  if (weak.length > 0) {
    if (cfg.production) {
      process.stderr.write(`refusing to start in production with default or weak secrets: ${weak.join(', ')}\n`);
      process.exit(2);
    }
    log('warn', 'config.default_secrets', {
      settings: weak,
      note: 'set them before going to production (NODE_ENV=production refuses to start)',
    });
  }
  // The storage's events at their level: failures are errors, what was repaired or can wait is a warning.
  const STORAGE_LEVELS: Record<string, Level> = {
    'checkpoint.failed': 'error',
    'journal.write_failed': 'error',
    'journal.torn': 'warn',
    'oplog.write_failed': 'warn',
    'postgres.idle_client_error': 'warn',
    'postgres.claim_release_failed': 'error',
    'storage.hold_failed': 'warn',
    'oplog.rotate_failed': 'warn',
    'oplog.archive_failed': 'warn',
    'postgres.measure_failed': 'warn',
  };
  const storageLog = (event: string, data: Record<string, unknown>) =>
    log(STORAGE_LEVELS[event] ?? 'notice', event, data);
  const storage: Storage = cfg.databaseUrl
    ? await PostgresStorage.open({
        connectionString: cfg.databaseUrl,
        schema: cfg.pgSchema,
        poolSize: cfg.pgPoolSize,
        statementTimeoutMs: cfg.pgStatementTimeoutMs,
        retries: cfg.pgRetries,
        log: storageLog,
        cacheSize: cfg.cacheSize,
        cacheIdleMs: cfg.cacheIdleSeconds * 1000,
        idempotencyTtlMs: cfg.idempotencyTtlSeconds * 1000,
        sessionCacheMs: cfg.pgSessionCacheMs,
        commitBatch: cfg.pgCommitBatch,
        commitCallsInFlight: cfg.pgCommitCalls,
        answersPerScope: cfg.idempotencyKeysPerScope,
        replayLogRetentionMs: cfg.replayLogRetentionDays * 86_400_000,
      })
    : cfg.storage === 'memory'
      ? new MemoryStorage({
          answers: { perScope: cfg.idempotencyKeysPerScope, ttlMs: cfg.idempotencyTtlSeconds * 1000 },
        })
      : await FileStorage.open({
          dir: resolve(cfg.dataDir),
          cacheSize: cfg.cacheSize,
          cacheIdleMs: cfg.cacheIdleSeconds * 1000,
          log: storageLog,
          idempotencyTtlMs: cfg.idempotencyTtlSeconds * 1000,
          clock: () => Date.now(),
          answersPerScope: cfg.idempotencyKeysPerScope,
          // A session unused a day past its idle time is refused already; the checkpoint need not carry it on.
          sessionRetentionMs: (cfg.sessionIdleSeconds + 86_400) * 1000,
          checkpointIntervalMs: cfg.checkpointIntervalSeconds * 1000,
          // The live oplog is sealed daily too, so a quiet server's log ages out by the day.
          replayLogRetentionMs: cfg.replayLogRetentionDays * 86_400_000,
          oplogSegmentAgeMs: 86_400_000,
        }).catch((e: unknown) => {
          // A damaged data directory (journal, checkpoint, keys file): said plainly, with the file at fault, and nothing changed.
          if (!(e instanceof StorageError)) throw e;
          log('error', 'storage.refused', { dataDir: cfg.dataDir, error: e.message });
          process.stderr.write(`cannot open ${cfg.dataDir}: ${e.message}\n`);
          process.exit(2);
        });
  // The game data's versions: the files started with are one (kept by hash, so a replay loads what
  // each log entry saw), and the schedule says which serves each request; on PostgreSQL every
  // process reads it every MASTER_POLL_SECONDS.
  const shared = storage instanceof PostgresStorage;
  const registry: MasterRegistry = shared
    ? storage.masterRegistry()
    : cfg.storage === 'memory'
      ? new MemoryMasterRegistry()
      : new FileMasterRegistry(resolve(cfg.dataDir));
  const src = masterSourceOf(master);
  if (src)
    await registry.saveVersion(src.raw, {
      version: src.hash,
      publishedAt: Date.now(),
      by: 'start-up',
      note: `read from ${src.dir}`,
    });
  const pollMs = Math.max(1, cfg.masterPollSeconds) * 1000;
  const book = new MasterBook({ master, version: src?.hash ?? 'unhashed' }, registry, shared ? 2 * pollMs + 1000 : 0);
  await book.refresh();
  if (shared) {
    setInterval(() => {
      book.refresh().catch((e: unknown) => log('warn', 'master.refresh_failed', { error: (e as Error).message }));
    }, pollMs).unref();
  }
  log('notice', 'master.in_force', { version: book.at(Date.now()).version, scheduled: book.known.schedule.length });
  // The operator's maintenance window and notices: kept by the store, read again on the same poll by every process.
  const liveOps = new LiveOps(
    shared
      ? storage.liveOpsRecords()
      : cfg.storage === 'memory'
        ? new MemoryLiveOpsRecords()
        : new FileLiveOpsRecords(resolve(cfg.dataDir)),
  );
  await liveOps.refresh();
  if (shared) {
    setInterval(() => {
      liveOps.refresh().catch((e: unknown) => log('warn', 'liveops.refresh_failed', { error: (e as Error).message }));
    }, pollMs).unref();
  }
  const window = liveOps.window;
  if (window) log('notice', 'maintenance.set', { from: window.from, until: window.until, by: window.by });
  if (storage instanceof PostgresStorage) {
    // What the shared tables keep past its use: answers past their time, idle rate buckets (full again
    // after an hour), claims of requests whose process died. Any process may do it; it is idempotent.
    const prune = async () => {
      const now = Date.now();
      try {
        await storage.prune(now, cfg.idempotencyTtlSeconds * 1000);
      } catch (e) {
        log('warn', 'postgres.prune_failed', { error: (e as Error).message });
      }
    };
    setInterval(() => {
      void prune();
    }, 600_000).unref();
    // Answers trimmed, deltas folded and rows moved on leave dead row versions that only VACUUM
    // reclaims. Where PostgreSQL's autovacuum is off, the tables would grow without bound: the
    // server vacuums them itself (one process at a time), every PG_VACUUM_SECONDS.
    if (cfg.pgVacuumSeconds > 0 && !(await storage.autovacuumOn())) {
      log('notice', 'postgres.self_vacuum', { reason: 'autovacuum is off', everySeconds: cfg.pgVacuumSeconds });
      let running = false;
      const vacuum = async () => {
        if (running) return;
        running = true;
        try {
          const r = await storage.vacuum();
          if (r.ran) log('debug', 'postgres.vacuumed', { ms: r.ms });
        } catch (e) {
          log('warn', 'postgres.vacuum_failed', { error: (e as Error).message });
        } finally {
          running = false;
        }
      };
      setInterval(() => {
        void vacuum();
      }, cfg.pgVacuumSeconds * 1000).unref();
    }
  }
  // The service sees the storage through the metrics (its commits timed, its cache and fsync batches counted).
  const metrics = cfg.metrics ? new Metrics() : undefined;
  const lifecycle: Lifecycle = { draining: false };
  const service = new GameService({
    storage: metrics ? metrics.observeStorage(storage) : storage,
    master,
    clock: () => Date.now(),
    seedSecret: cfg.seedSecret,
    // UUID strings (WIRE.md: the original's clients store a 36-character access token); session ids too (122 random bits).
    newToken: () => randomUUID(),
    sessionIdleMs: cfg.sessionIdleSeconds * 1000,
    idempotencyTtlMs: cfg.idempotencyTtlSeconds * 1000,
    book,
    liveOps,
    ...(src ? { masterHash: src.hash } : {}),
  });
  const app = createApp(service, cfg, log, { ...(metrics ? { metrics } : {}), lifecycle });
  const server = app.listen(cfg.port, cfg.host, () => {
    const addr = server.address();
    log('notice', 'listening', {
      port: typeof addr === 'object' && addr ? addr.port : cfg.port,
      storage: cfg.databaseUrl ? 'postgres' : cfg.storage,
      dataDir: cfg.dataDir,
      admin: cfg.adminToken !== undefined,
      metrics: metrics === undefined ? false : cfg.metricsToken === undefined ? 'open' : 'token',
      trustProxy: cfg.trustProxyHops,
    });
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    // /readyz answers 503 from now on: a load balancer still probing sends new requests elsewhere.
    lifecycle.draining = true;
    log('notice', 'stopping', { signal });
    // Stop accepting; requests in flight finish; keep-alive connections close as they go idle.
    server.close(() => {
      clearInterval(idle);
      clearTimeout(hard);
      void storage.close().then(
        () => {
          log('notice', 'stopped', {});
          process.exit(0);
        },
        // The last flush failed (its data directory gone, a full disk): said, and exit 1 so
        // a supervisor sees it; what was acknowledged is in the journal if the directory is.
        (e: unknown) => {
          log('error', 'stop.failed', { error: e instanceof Error ? e.message : String(e) });
          process.exit(1);
        },
      );
    });
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const hard = setTimeout(() => server.closeAllConnections(), cfg.shutdownGraceSeconds * 1000);
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
};

const USAGE = `usage: npm start [-- --help]   (npm run dev: the same through tsx; node dist/adapters/http/main.js)

Runs the player service: /api, the probes /healthz and /readyz, /metrics, and /admin with ADMIN_TOKEN.
It takes no arguments: every setting is an environment variable (README.md, Configuration), among them
  PORT (8080), HOST (0.0.0.0), DATA_DIR (./data), STORAGE (file | memory), DATABASE_URL (PostgreSQL),
  MASTER_DIR (the bundled fixtures/), ADMIN_TOKEN, REQUEST_HASH_SALT, SEED_SECRET, LOG_LEVEL (info).

options:
  --help  print this help and exit`;

// Settings come from the environment; an argument is --help or a mistake, never silently ignored.
const argv = process.argv.slice(2);
if (argv.length === 0) void main();
else if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) process.stdout.write(`${USAGE}\n`);
else {
  process.stderr.write(`unexpected argument ${JSON.stringify(argv[0])}\n\n${USAGE}\n`);
  process.exitCode = 2;
}
