// An in-process HTTP harness: the real Koa app on a random loopback port, with an
// injectable clock, deterministic tokens and in-memory or file storage.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppConfig } from '../../adapters/http/app.js';
import { silentLogger } from '../../adapters/http/log.js';
import { GameService } from '../../adapters/service/service.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import type { Storage } from '../../adapters/storage/storage.js';
import { master, NOW } from './core.js';
import seedrandom from 'seedrandom';

export interface Harness {
  readonly url: string;
  readonly storage: Storage;
  readonly service: GameService;
  /** Moves the server's clock. */
  readonly clock: { now: number };
  call(method: 'GET' | 'POST', path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>;
  close(): Promise<void>;
}

export const ADMIN = 'test-admin-token';

export const startHarness = async (opts: { storage?: Storage; cfg?: Partial<AppConfig>; now?: number; tokenSeed?: string } = {}): Promise<Harness> => {
  const storage = opts.storage ?? new MemoryStorage();
  const clock = { now: opts.now ?? NOW };
  const tokenRng = seedrandom.alea(opts.tokenSeed ?? 'tokens');
  const service = new GameService({
    storage, master: master(), clock: () => clock.now, seedSecret: 'test-seed-secret',
    newToken: () => Array.from({ length: 24 }, () => 'abcdefghijklmnopqrstuvwxyz0123456789'[Math.floor(tokenRng() * 36)]).join(''),
    sessionIdleMs: 3600_000,
  });
  const cfg: AppConfig = { adminToken: ADMIN, requestHashSalt: 'test-salt', requestHashRequired: false, bodyLimitBytes: 65536, always200: false, serverVersion: 7, ...opts.cfg };
  const app = createApp(service, cfg, silentLogger);
  const server: Server = await new Promise((resolve) => { const s = app.listen(0, '127.0.0.1', () => resolve(s)); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url, storage, service, clock,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}${path}`, init);
      const text = await res.text();
      return { status: res.status, body: JSON.parse(text) as Record<string, unknown>, headers: Object.fromEntries(res.headers.entries()) };
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
};

let uuidCounter = 0;
export const newUuid = (): string => `00000000-0000-4000-8000-${String(++uuidCounter + Math.floor(Math.random() * 1e6) * 1000).padStart(12, '0')}`;

/** Signs up and logs in; returns what a client holds. */
export const signupLogin = async (h: Harness, uuid = newUuid()) => {
  const su = await h.call('POST', '/api/player/signup', { uuid, platform: 1, name: 'Aki' });
  if (su.body['resultCode'] !== 0) throw new Error(`signup failed: ${JSON.stringify(su.body)}`);
  const li = await h.call('POST', '/api/player/login', { uuid, accessToken: su.body['accessToken'], platform: 1, appVersion: '1.0.0' });
  if (li.body['resultCode'] !== 0) throw new Error(`login failed: ${JSON.stringify(li.body)}`);
  const sessionId = li.body['sessionId'] as string;
  const playerId = su.body['playerId'] as number;
  return {
    uuid, playerId, sessionId, accessToken: su.body['accessToken'] as string,
    get: (path: string) => h.call('GET', path, undefined, { 'X-STAR-SESSION-ID': sessionId }),
    post: (path: string, body: unknown = {}) => h.call('POST', path, body, { 'X-STAR-SESSION-ID': sessionId }),
  };
};

/** Sends a present through the admin API (tests use it to grant currency). */
export const grant = async (h: Harness, playerId: number, kind: string, objectId: number, amount: number) => {
  const r = await h.call('POST', '/admin/presents', { playerId, grant: { kind, objectId, amount }, title: 'Test', message: '' }, { Authorization: `Bearer ${ADMIN}` });
  if (r.body['resultCode'] !== 0) throw new Error(`admin grant failed: ${JSON.stringify(r.body)}`);
};

/** Receives every present in the player's box over HTTP. */
export const receiveAllHttp = async (client: Awaited<ReturnType<typeof signupLogin>>) => {
  const list = await client.get('/api/player/present/get_all');
  const ids = (list.body['presents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId);
  return client.get(`/api/player/present/get?managedPresentId=${ids.join(',')}&stepCode=0`);
};
