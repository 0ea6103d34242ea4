// Configuration from environment variables, each with its documented default (README).
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
  readonly serverVersion: number;
  readonly cacheSize: number;
  readonly logLevel: 'info' | 'notice' | 'error' | 'silent';
  readonly production: boolean;
}

export const DEV_HASH_SALT = 'hoshi-dev-salt';
export const DEV_SEED_SECRET = 'hoshi-dev-seed-secret';

const int = (v: string | undefined, d: number, name: string): number => {
  if (v === undefined || v === '') return d;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
};
const bool = (v: string | undefined, d: boolean): boolean => (v === undefined || v === '' ? d : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase()));

export const configFromEnv = (env: NodeJS.ProcessEnv = process.env): Config => {
  const storage = env['STORAGE'] ?? 'file';
  if (storage !== 'file' && storage !== 'memory') throw new Error(`STORAGE must be file or memory, got ${JSON.stringify(storage)}`);
  const logLevel = env['LOG_LEVEL'] ?? 'info';
  if (logLevel !== 'info' && logLevel !== 'notice' && logLevel !== 'error' && logLevel !== 'silent') throw new Error('LOG_LEVEL must be info, notice, error or silent');
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
    serverVersion: int(env['SERVER_VERSION'], 1, 'SERVER_VERSION'),
    cacheSize: int(env['CACHE_SIZE'], 10_000, 'CACHE_SIZE'),
    logLevel,
    production: env['NODE_ENV'] === 'production',
  };
};
