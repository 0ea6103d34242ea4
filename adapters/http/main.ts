// Starts the service on the embedded defaults: JSON files under ./data, the bundled
// fixtures, port 8080. SIGTERM stops accepting, finishes in-flight requests, flushes.
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { configFromEnv, DEV_HASH_SALT, DEV_SEED_SECRET } from './config.js';
import { jsonLogger } from './log.js';
import { createApp } from './app.js';
import { loadMaster, MasterDataError } from '../master/load.js';
import { FileStorage } from '../storage/file.js';
import { MemoryStorage } from '../storage/memory.js';
import type { Storage } from '../storage/storage.js';
import { GameService } from '../service/service.js';

const main = async (): Promise<void> => {
  const cfg = configFromEnv();
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
  const defaults = [
    cfg.requestHashSalt === DEV_HASH_SALT ? 'REQUEST_HASH_SALT' : null,
    cfg.seedSecret === DEV_SEED_SECRET ? 'SEED_SECRET' : null,
  ].filter((x): x is string => x !== null);
  if (defaults.length > 0) {
    if (cfg.production) {
      process.stderr.write(`refusing to start in production with default secrets: ${defaults.join(', ')}\n`);
      process.exit(2);
    }
    log('error', 'config.default_secrets', { settings: defaults, note: 'set them before going to production' });
  }
  const storage: Storage = cfg.storage === 'memory'
    ? new MemoryStorage()
    : await FileStorage.open({ dir: resolve(cfg.dataDir), cacheSize: cfg.cacheSize, log: (event, data) => log('notice', event, data) });
  const service = new GameService({
    storage, master, clock: () => Date.now(), seedSecret: cfg.seedSecret,
    newToken: () => randomBytes(24).toString('base64url'), sessionIdleMs: cfg.sessionIdleSeconds * 1000,
  });
  const app = createApp(service, cfg, log);
  const server = app.listen(cfg.port, cfg.host, () => {
    const addr = server.address();
    log('notice', 'listening', { port: typeof addr === 'object' && addr ? addr.port : cfg.port, storage: cfg.storage, dataDir: cfg.dataDir, admin: cfg.adminToken !== undefined });
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log('notice', 'stopping', { signal });
    server.close(() => {
      void storage.close().then(() => { log('notice', 'stopped', {}); process.exit(0); });
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
};

void main();
