// Configuration: defaults, validation, and the refusal to run in production on default secrets.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { configFromEnv, weakSecrets } from '../../adapters/http/config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('defaults are the documented ones', (t) => {
  const c = configFromEnv({});
  t.like(c, { port: 8080, dataDir: './data', storage: 'file', adminToken: undefined, sessionIdleSeconds: 86_400, bodyLimitBytes: 262_144, always200: false, idempotencyTtlSeconds: 86_400 });
  t.truthy(c.rateLimits, 'rate limits are on by default');
  t.is(configFromEnv({ RATE_LIMITS: 'off' }).rateLimits, null);
  t.throws(() => configFromEnv({ PORT: 'eighty' }), { message: /PORT/ });
  t.throws(() => configFromEnv({ STORAGE: 'mongo' }), { message: /STORAGE/ });
  t.is(c.heapGrowthPercent, 50);
  t.is(configFromEnv({ HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
  t.throws(() => configFromEnv({ HEAP_GROWTH_PERCENT: '-5' }), { message: /HEAP_GROWTH_PERCENT/ });
  t.is(c.answerCacheMb, 16);
  t.is(configFromEnv({ ANSWER_CACHE_MB: '0' }).answerCacheMb, 0);
  t.throws(() => configFromEnv({ ANSWER_CACHE_MB: 'lots' }), { message: /ANSWER_CACHE_MB/ });
});

test('default or short secrets are named', (t) => {
  t.deepEqual(weakSecrets(configFromEnv({ ADMIN_TOKEN: 'admin' })), ['REQUEST_HASH_SALT', 'SEED_SECRET', 'ADMIN_TOKEN']);
  t.deepEqual(weakSecrets(configFromEnv({ REQUEST_HASH_SALT: 'a-long-random-salt-value', SEED_SECRET: 'another-long-random-secret', ADMIN_TOKEN: 'a-long-enough-admin-token' })), []);
});

const start = (env: Record<string, string>) => spawnSync(process.execPath, ['--import', 'tsx', 'adapters/http/main.ts'], {
  cwd: root, env: { ...process.env, STORAGE: 'memory', PORT: '0', LOG_LEVEL: 'notice', ...env }, encoding: 'utf8', timeout: 5000, killSignal: 'SIGKILL',
});

test('in production the server refuses to start with default secrets; otherwise it warns', (t) => {
  const refused = start({ NODE_ENV: 'production' });
  t.is(refused.status, 2);
  t.regex(refused.stderr, /refusing to start in production with default or weak secrets: REQUEST_HASH_SALT, SEED_SECRET/);
  const warned = start({});
  t.regex(warned.stdout, /"event":"config.default_secrets"/);
  t.regex(warned.stdout, /"event":"listening"/);
});
