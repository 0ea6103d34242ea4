// Configuration: defaults, validation, and the refusal to run in production on default secrets.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configFromEnv, weakSecrets } from '../../adapters/http/config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('defaults are the documented ones', (t) => {
  const c = configFromEnv({});
  t.like(c, {
    port: 8080,
    dataDir: './data',
    storage: 'file',
    adminToken: undefined,
    sessionIdleSeconds: 86_400,
    bodyLimitBytes: 262_144,
    always200: false,
    idempotencyTtlSeconds: 86_400,
  });
  t.truthy(c.rateLimits, 'rate limits are on by default');
  // On a shared store, a session's and an address's tokens are taken in leases (not one round trip a request).
  t.like(c.rateLimits, {
    session: { rate: 20, burst: 40, lease: 5 },
    address: { rate: 100, burst: 200, lease: 20 },
    account: { rate: 0.2, burst: 10 },
  });
  t.is(c.pgSessionCacheMs, 2000);
  // Group commit on PostgreSQL: 32 commits a call at most, 1 call out; PG_COMMIT_BATCH=1 each alone (0 read as 1).
  t.like(c, { pgCommitBatch: 32, pgCommitCalls: 1 });
  t.like(configFromEnv({ PG_COMMIT_BATCH: '1', PG_COMMIT_CALLS: '4' }), { pgCommitBatch: 1, pgCommitCalls: 4 });
  t.like(configFromEnv({ PG_COMMIT_BATCH: '0', PG_COMMIT_CALLS: '0' }), { pgCommitBatch: 1, pgCommitCalls: 1 });
  t.throws(() => configFromEnv({ PG_COMMIT_BATCH: 'many' }), { message: /PG_COMMIT_BATCH/ });
  t.is(configFromEnv({ RATE_LIMITS: 'off' }).rateLimits, null);
  t.throws(() => configFromEnv({ PORT: 'eighty' }), { message: /PORT/ });
  t.throws(() => configFromEnv({ STORAGE: 'mongo' }), { message: /STORAGE/ });
  t.is(c.heapGrowthPercent, 50);
  t.is(configFromEnv({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
  t.throws(() => configFromEnv({ HEAP_GROWTH_PERCENT: '-5' }), { message: /HEAP_GROWTH_PERCENT/ });
  t.is(c.answerCacheMb, 0);
  t.is(configFromEnv({ ANSWER_CACHE_MB: '16' }).answerCacheMb, 16);
  t.throws(() => configFromEnv({ ANSWER_CACHE_MB: 'lots' }), { message: /ANSWER_CACHE_MB/ });
  // The replay log: 90 days (the draw history the game keeps), 0 for ever.
  t.is(c.replayLogRetentionDays, 90);
  t.is(configFromEnv({ REPLAY_LOG_RETENTION_DAYS: '0' }).replayLogRetentionDays, 0);
  t.throws(() => configFromEnv({ REPLAY_LOG_RETENTION_DAYS: '1.5' }), {
    message: /REPLAY_LOG_RETENTION_DAYS must be a non-negative integer/,
  });
});

test('LOG_LEVEL takes debug, info, notice, warn, error or silent (and warning, off); TRUST_PROXY false, true or a number of hops; METRICS', (t) => {
  t.is(configFromEnv({}).logLevel, 'info');
  for (const level of ['debug', 'info', 'notice', 'warn', 'error', 'silent'] as const)
    t.is(configFromEnv({ LOG_LEVEL: level }).logLevel, level);
  t.is(configFromEnv({ LOG_LEVEL: 'WARNING' }).logLevel, 'warn');
  t.is(configFromEnv({ LOG_LEVEL: 'off' }).logLevel, 'silent');
  t.throws(() => configFromEnv({ LOG_LEVEL: 'verbose' }), {
    message: /LOG_LEVEL must be one of debug, info, notice, warn, error, silent/,
  });
  t.is(configFromEnv({}).trustProxyHops, 0);
  t.is(configFromEnv({ TRUST_PROXY: 'false' }).trustProxyHops, 0);
  t.is(configFromEnv({ TRUST_PROXY: 'true' }).trustProxyHops, 1);
  t.is(configFromEnv({ TRUST_PROXY: '2' }).trustProxyHops, 2);
  t.throws(() => configFromEnv({ TRUST_PROXY: 'lb' }), { message: /TRUST_PROXY/ });
  t.is(configFromEnv({}).metrics, true);
  t.is(configFromEnv({ METRICS: 'off' }).metrics, false);
  t.is(configFromEnv({ METRICS_TOKEN: 'a-long-metrics-token-value' }).metricsToken, 'a-long-metrics-token-value');
});

test('default or short secrets are named', (t) => {
  t.deepEqual(weakSecrets(configFromEnv({ ADMIN_TOKEN: 'admin', METRICS_TOKEN: 'short' })), [
    'REQUEST_HASH_SALT',
    'SEED_SECRET',
    'ADMIN_TOKEN',
    'METRICS_TOKEN',
  ]);
  t.deepEqual(
    weakSecrets(
      configFromEnv({
        REQUEST_HASH_SALT: 'a-long-random-salt-value',
        SEED_SECRET: 'another-long-random-secret',
        ADMIN_TOKEN: 'a-long-enough-admin-token',
      }),
    ),
    [],
  );
  // A salt set but short is as weak as the default (the README: under 16 characters is refused in production).
  t.deepEqual(
    weakSecrets(
      configFromEnv({
        REQUEST_HASH_SALT: 'short',
        SEED_SECRET: 'another-long-random-secret',
        ADMIN_TOKEN: 'a-long-enough-admin-token',
      }),
    ),
    ['REQUEST_HASH_SALT'],
  );
});

const start = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'adapters/http/main.ts'], {
    cwd: root,
    env: { ...process.env, STORAGE: 'memory', PORT: '0', LOG_LEVEL: 'notice', ...env },
    encoding: 'utf8',
    // A refused start exits at once; an accepted one runs until this: long enough to reach
    // "listening" on a loaded machine (tsx compiles the server first).
    timeout: 12_000,
    killSignal: 'SIGKILL',
  });

test('in production the server refuses to start with default secrets; otherwise it logs a warning', (t) => {
  const refused = start({ NODE_ENV: 'production' });
  t.is(refused.status, 2);
  t.regex(
    refused.stderr,
    /refusing to start in production with default or weak secrets: REQUEST_HASH_SALT, SEED_SECRET/,
  );
  const short = start({
    NODE_ENV: 'production',
    REQUEST_HASH_SALT: 'short',
    SEED_SECRET: 'another-long-random-secret',
  });
  t.is(short.status, 2);
  t.regex(short.stderr, /weak secrets: REQUEST_HASH_SALT$/m);
  const warned = start({});
  // A warning, not an error: a development start is not failing.
  t.regex(warned.stdout, /"level":"warn","event":"config.default_secrets"/);
  t.regex(warned.stdout, /"event":"listening"/);
});
