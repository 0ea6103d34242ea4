// Configuration from environment variables, each with its documented default (README).
import { availableParallelism } from 'node:os';
import { DEFAULT_LIMITS, type RateLimits } from './rate-limit.js';
import { LOG_LEVELS, parseLogLevel, type LogLevelSetting } from './log.js';
import { KEPT_PER_SCOPE } from '../storage/kept-answers.js';
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly masterDir: string | undefined;
  readonly storage: 'file' | 'memory';
  readonly adminToken: string | undefined;
  readonly requestHashSalt: string;
  readonly requestHashRequired: boolean;
  readonly seedSecret: string;
  readonly sessionIdleSeconds: number;
  readonly bodyLimitBytes: number;
  readonly always200: boolean;
  /** Check every answer against its operation's codec, strictly (CHECK_ANSWERS; development and tests). */
  readonly checkAnswers: boolean;
  readonly serverVersion: number;
  readonly cacheSize: number;
  /** A player state unused this long leaves the cache (0: only CACHE_SIZE bounds it). */
  readonly cacheIdleSeconds: number;
  /** The JSON-file store checkpoints at least this often while it has changes (CHECKPOINT_INTERVAL_SECONDS; 0: only by journal size and at shutdown). */
  readonly checkpointIntervalSeconds: number;
  /** Replay-log entries are kept this many days, then archived (JSON files) or deleted (PostgreSQL); 0 keeps them for ever (REPLAY_LOG_RETENTION_DAYS). */
  readonly replayLogRetentionDays: number;
  /**
   * How far V8 lets the heap grow past what was live at the last full collection
   * before the next one (percent; 0 leaves V8's own, which lets it reach 2–4×).
   */
  readonly heapGrowthPercent: number;
  /** The answer cache's bound, per generation (two are kept), in MB; 0 keeps none. */
  readonly answerCacheMb: number;
  readonly logLevel: LogLevelSetting;
  /**
   * How many proxies in front of the server to trust (TRUST_PROXY): 0 reads the
   * client's address from the connection; n takes it from X-Forwarded-For, n
   * entries from its end (each trusted proxy appends the address it saw).
   */
  readonly trustProxyHops: number;
  /** GET /metrics is served (METRICS, default on). */
  readonly metrics: boolean;
  /** When set, GET /metrics needs Authorization: Bearer <METRICS_TOKEN>. */
  readonly metricsToken: string | undefined;
  readonly production: boolean;
  /** Null: rate limits off (RATE_LIMITS=off). */
  readonly rateLimits: RateLimits | null;
  readonly idempotencyTtlSeconds: number;
  /** Answers kept per caller (a player, a signing-up uuid): a retry of any of its last this many keys gets its answer. */
  readonly idempotencyKeysPerScope: number;
  /** On SIGTERM, how long requests in flight may take before their connections are closed. */
  readonly shutdownGraceSeconds: number;
  /** PostgreSQL instead of JSON files when set. */
  readonly databaseUrl: string | undefined;
  readonly pgSchema: string;
  readonly pgPoolSize: number;
  readonly pgStatementTimeoutMs: number;
  readonly pgRetries: number;
  /** How long a PostgreSQL process reuses a session it read (ms). */
  readonly pgSessionCacheMs: number;
  /** Commits sent to PostgreSQL in one call at most, when several wait (group commit; 1: each alone). */
  readonly pgCommitBatch: number;
  /** Commit calls out to PostgreSQL at once at most; more commits wait and go together. */
  readonly pgCommitCalls: number;
  /** How often the server vacuums its PostgreSQL tables itself when autovacuum is off (s; 0: never). */
  readonly pgVacuumSeconds: number;
  /** How often each process reads the game data's schedule (a store shared by several processes). */
  readonly masterPollSeconds: number;
  /** Worker threads a game-data preview (POST /admin/master/preview) runs on. */
  readonly previewThreads: number;
  /** An operator's console session ends unused this long, and this long after sign-in. */
  readonly operatorIdleSeconds: number;
  readonly operatorSessionSeconds: number;
}

export const DEV_HASH_SALT = 'hoshi-dev-salt';
export const DEV_SEED_SECRET = 'hoshi-dev-seed-secret';

const int = (v: string | undefined, d: number, name: string): number => {
  if (v === undefined || v === '') return d;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
};
const num = (v: string | undefined, d: number, name: string): number => {
  if (v === undefined || v === '') return d;
  const n = Number(v);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got ${JSON.stringify(v)}`);
  return n;
};
const bool = (v: string | undefined, d: boolean): boolean =>
  v === undefined || v === '' ? d : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase());

/** TRUST_PROXY: false/0 (the default), true (one proxy) or the number of proxies in front. */
const trustProxy = (v: string | undefined): number => {
  if (v === undefined || v === '') return 0;
  const s = v.toLowerCase();
  if (['false', 'no', 'off'].includes(s)) return 0;
  if (['true', 'yes', 'on'].includes(s)) return 1;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0 || n > 32)
    throw new Error(
      `TRUST_PROXY must be false, true or the number of proxies in front of the server (0-32), got ${JSON.stringify(v)}`,
    );
  return n;
};

export const configFromEnv = (env: NodeJS.ProcessEnv = process.env): Config => {
  const storage = env['STORAGE'] ?? 'file';
  if (storage !== 'file' && storage !== 'memory')
    throw new Error(`STORAGE must be file or memory, got ${JSON.stringify(storage)}`);
  const logLevel = parseLogLevel(env['LOG_LEVEL'] || 'info');
  if (logLevel === undefined)
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(env['LOG_LEVEL'])}`);
  return {
    port: int(env['PORT'], 8080, 'PORT'),
    host: env['HOST'] ?? '0.0.0.0',
    dataDir: env['DATA_DIR'] ?? './data',
    masterDir: env['MASTER_DIR'] || undefined,
    storage,
    adminToken: env['ADMIN_TOKEN'] || undefined,
    requestHashSalt: env['REQUEST_HASH_SALT'] ?? DEV_HASH_SALT,
    requestHashRequired: bool(env['REQUEST_HASH_REQUIRED'], false),
    seedSecret: env['SEED_SECRET'] ?? DEV_SEED_SECRET,
    sessionIdleSeconds: int(env['SESSION_IDLE_SECONDS'], 86_400, 'SESSION_IDLE_SECONDS'),
    bodyLimitBytes: int(env['BODY_LIMIT_BYTES'], 262_144, 'BODY_LIMIT_BYTES'),
    always200: bool(env['ALWAYS_200'], false),
    checkAnswers: bool(env['CHECK_ANSWERS'], false),
    serverVersion: int(env['SERVER_VERSION'], 1, 'SERVER_VERSION'),
    cacheSize: int(env['CACHE_SIZE'], 10_000, 'CACHE_SIZE'),
    cacheIdleSeconds: int(env['CACHE_IDLE_SECONDS'], 600, 'CACHE_IDLE_SECONDS'),
    checkpointIntervalSeconds: int(env['CHECKPOINT_INTERVAL_SECONDS'], 300, 'CHECKPOINT_INTERVAL_SECONDS'),
    // 90: the draw history the game keeps (gacha.historyDays).
    replayLogRetentionDays: int(env['REPLAY_LOG_RETENTION_DAYS'], 90, 'REPLAY_LOG_RETENTION_DAYS'),
    heapGrowthPercent: int(env['HEAP_GROWTH_PERCENT'], 50, 'HEAP_GROWTH_PERCENT'),
    answerCacheMb: int(env['ANSWER_CACHE_MB'], 0, 'ANSWER_CACHE_MB'),
    logLevel,
    trustProxyHops: trustProxy(env['TRUST_PROXY']),
    metrics: bool(env['METRICS'], true),
    metricsToken: env['METRICS_TOKEN'] || undefined,
    production: env['NODE_ENV'] === 'production',
    rateLimits: ['off', '0', 'false', 'no'].includes((env['RATE_LIMITS'] ?? 'on').toLowerCase())
      ? null
      : {
          session: {
            rate: num(
              env['RATE_LIMIT_SESSION_PER_SECOND'],
              DEFAULT_LIMITS.session.rate,
              'RATE_LIMIT_SESSION_PER_SECOND',
            ),
            burst: int(env['RATE_LIMIT_SESSION_BURST'], DEFAULT_LIMITS.session.burst, 'RATE_LIMIT_SESSION_BURST'),
            lease: DEFAULT_LIMITS.session.lease ?? 1,
          },
          address: {
            rate: num(
              env['RATE_LIMIT_ADDRESS_PER_SECOND'],
              DEFAULT_LIMITS.address.rate,
              'RATE_LIMIT_ADDRESS_PER_SECOND',
            ),
            burst: int(env['RATE_LIMIT_ADDRESS_BURST'], DEFAULT_LIMITS.address.burst, 'RATE_LIMIT_ADDRESS_BURST'),
            lease: DEFAULT_LIMITS.address.lease ?? 1,
          },
          account: {
            rate: num(
              env['RATE_LIMIT_ACCOUNT_PER_SECOND'],
              DEFAULT_LIMITS.account.rate,
              'RATE_LIMIT_ACCOUNT_PER_SECOND',
            ),
            burst: int(env['RATE_LIMIT_ACCOUNT_BURST'], DEFAULT_LIMITS.account.burst, 'RATE_LIMIT_ACCOUNT_BURST'),
          },
          failures: {
            rate:
              num(
                env['RATE_LIMIT_FAILURES_PER_MINUTE'],
                60 * (DEFAULT_LIMITS.failures?.rate ?? 1 / 60),
                'RATE_LIMIT_FAILURES_PER_MINUTE',
              ) / 60,
            burst: int(
              env['RATE_LIMIT_FAILURES_BURST'],
              DEFAULT_LIMITS.failures?.burst ?? 10,
              'RATE_LIMIT_FAILURES_BURST',
            ),
          },
        },
    idempotencyTtlSeconds: int(env['IDEMPOTENCY_TTL_SECONDS'], 86_400, 'IDEMPOTENCY_TTL_SECONDS'),
    idempotencyKeysPerScope: Math.max(
      1,
      int(env['IDEMPOTENCY_KEYS_PER_SCOPE'], KEPT_PER_SCOPE, 'IDEMPOTENCY_KEYS_PER_SCOPE'),
    ),
    shutdownGraceSeconds: int(env['SHUTDOWN_GRACE_SECONDS'], 10, 'SHUTDOWN_GRACE_SECONDS'),
    databaseUrl: env['DATABASE_URL'] || undefined,
    pgSchema: env['PG_SCHEMA'] ?? 'hoshi',
    pgPoolSize: int(env['PG_POOL_SIZE'], 10, 'PG_POOL_SIZE'),
    pgStatementTimeoutMs: int(env['PG_STATEMENT_TIMEOUT_MS'], 5000, 'PG_STATEMENT_TIMEOUT_MS'),
    pgRetries: int(env['PG_RETRIES'], 5, 'PG_RETRIES'),
    pgSessionCacheMs: int(env['PG_SESSION_CACHE_MS'], 2000, 'PG_SESSION_CACHE_MS'),
    pgCommitBatch: Math.max(1, int(env['PG_COMMIT_BATCH'], 32, 'PG_COMMIT_BATCH')),
    pgCommitCalls: Math.max(1, int(env['PG_COMMIT_CALLS'], 1, 'PG_COMMIT_CALLS')),
    pgVacuumSeconds: int(env['PG_VACUUM_SECONDS'], 30, 'PG_VACUUM_SECONDS'),
    masterPollSeconds: int(env['MASTER_POLL_SECONDS'], 5, 'MASTER_POLL_SECONDS'),
    operatorIdleSeconds: int(env['OPERATOR_IDLE_SECONDS'], 1800, 'OPERATOR_IDLE_SECONDS'),
    operatorSessionSeconds: int(env['OPERATOR_SESSION_SECONDS'], 43_200, 'OPERATOR_SESSION_SECONDS'),
    previewThreads: Math.max(
      1,
      int(env['PREVIEW_THREADS'], Math.max(1, availableParallelism() - 1), 'PREVIEW_THREADS'),
    ),
  };
};

/** Secrets left at their development defaults, or too short to resist guessing. */
export const weakSecrets = (
  cfg: Pick<Config, 'requestHashSalt' | 'seedSecret' | 'adminToken'> & Partial<Pick<Config, 'metricsToken'>>,
): string[] =>
  [
    cfg.requestHashSalt === DEV_HASH_SALT || cfg.requestHashSalt.length < 16 ? 'REQUEST_HASH_SALT' : null,
    cfg.seedSecret === DEV_SEED_SECRET || cfg.seedSecret.length < 16 ? 'SEED_SECRET' : null,
    cfg.adminToken !== undefined && cfg.adminToken.length < 16 ? 'ADMIN_TOKEN' : null,
    cfg.metricsToken !== undefined && cfg.metricsToken.length < 16 ? 'METRICS_TOKEN' : null,
  ].filter((x): x is string => x !== null);
