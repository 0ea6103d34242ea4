// An in-process HTTP harness: the real Koa app on a random loopback port, with an
// injectable clock, deterministic tokens and in-memory or file storage.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createApp, type AppConfig, type AppOps } from '../../adapters/http/app.js';
import { silentLogger, type Logger } from '../../adapters/http/log.js';
import { GameService } from '../../adapters/service/service.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { FileStorage } from '../../adapters/storage/file.js';
import type { Storage } from '../../adapters/storage/storage.js';
import { master, NOW } from './core.js';
import type { LiveOps } from '../../adapters/liveops/board.js';
import type { Master } from '../../core/master/index.js';
import { createClient, type ClientOptions, type HoshiClient } from '../../client/index.js';
import seedrandom from 'seedrandom';

export interface Harness {
  readonly url: string;
  /** The request-hash salt the server checks against. */
  readonly salt: string;
  readonly storage: Storage;
  readonly service: GameService;
  /** Moves the server's clock. */
  readonly clock: { now: number };
  call(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>;
  close(): Promise<void>;
}

export const ADMIN = 'test-admin-token';

export const startHarness = async (
  opts: {
    storage?: Storage;
    cfg?: Partial<AppConfig>;
    now?: number;
    tokenSeed?: string;
    ops?: AppOps;
    log?: Logger;
    sessionIdleMs?: number;
    master?: Master;
    /** The operator's records (maintenance, notices, operators …): a store's, shared by several harnesses. */
    liveOps?: LiveOps;
  } = {},
): Promise<Harness> => {
  const storage = opts.storage ?? new MemoryStorage();
  const clock = { now: opts.now ?? NOW };
  const tokenRng = seedrandom.alea(opts.tokenSeed ?? 'tokens');
  const service = new GameService({
    storage,
    master: opts.master ?? master(),
    clock: () => clock.now,
    seedSecret: 'test-seed-secret',
    // Deterministic UUID-shaped tokens (version 4, as randomUUID gives in production).
    newToken: () => {
      const hex = Array.from({ length: 32 }, () => '0123456789abcdef'[Math.floor(tokenRng() * 16)]).join('');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[Math.floor(tokenRng() * 4)]}${hex.slice(17, 20)}-${hex.slice(20)}`;
    },
    sessionIdleMs: opts.sessionIdleMs ?? 3600_000,
    ...(opts.liveOps ? { liveOps: opts.liveOps } : {}),
  });
  const cfg: AppConfig = {
    adminToken: ADMIN,
    requestHashSalt: 'test-salt',
    requestHashRequired: false,
    bodyLimitBytes: 65536,
    always200: false,
    serverVersion: 7,
    checkAnswers: true,
    ...opts.cfg,
  };
  const app = createApp(service, cfg, opts.log ?? silentLogger, opts.ops);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    salt: cfg.requestHashSalt,
    storage,
    service,
    clock,
    async call(method, path, body, headers = {}) {
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = typeof body === 'string' ? body : JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
      const res = await fetch(`${url}${path}`, init);
      const text = await res.text();
      const parsed = JSON.parse(text) as Record<string, unknown>;
      // The server checks every answer against its codec (checkAnswers): a broken contract fails the test where it happened.
      const problems = parsed['answerProblems'];
      if (Array.isArray(problems))
        throw new Error(`${method} ${path}: the answer breaks its declared codec:\n  ${problems.join('\n  ')}`);
      return { status: res.status, body: parsed, headers: Object.fromEntries(res.headers.entries()) };
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

let uuidCounter = 0;
export const newUuid = (): string =>
  `00000000-0000-4000-8000-${String(++uuidCounter + Math.floor(Math.random() * 1e6) * 1000).padStart(12, '0')}`;

/**
 * The typed client (client/) against a harness: it hashes every request with the
 * harness's salt and checks every answer against its codec (a break throws, as
 * `call` does for the server's own check).
 */
export const clientOf = (h: Harness, opts: Partial<ClientOptions> = {}): HoshiClient =>
  createClient({ baseUrl: h.url, salt: h.salt, checkAnswers: true, ...opts });

/** Signs up and logs in through the typed client; returns what a client holds, the client and raw helpers. */
export const signupLogin = async (h: Harness, uuid = newUuid()) => {
  const client = clientOf(h);
  const su = await client.signupPlayer({ uuid, platform: 1, name: 'Aki' });
  if (!su.ok) throw new Error(`signup failed: ${su.resultCode} ${su.resultMessage}`);
  const li = await client.loginPlayer({ uuid, accessToken: su.value.accessToken, platform: 1, appVersion: '1.0.0' });
  if (!li.ok) throw new Error(`login failed: ${li.resultCode} ${li.resultMessage}`);
  const { sessionId } = li.value;
  return {
    uuid,
    playerId: su.value.playerId,
    sessionId,
    accessToken: su.value.accessToken,
    /** The typed client, logged in (its session is this one). */
    client,
    // Raw helpers: tests that send deliberately odd requests, or read answers as JSON.
    get: (path: string) => h.call('GET', path, undefined, { 'X-STAR-SESSION-ID': sessionId }),
    post: (path: string, body: unknown = {}) => h.call('POST', path, body, { 'X-STAR-SESSION-ID': sessionId }),
  };
};

/** Logs a player in again (on this harness or another over the same store): what signupLogin gives, with the new session. */
export const relogin = async (
  h: Harness,
  c: Awaited<ReturnType<typeof signupLogin>>,
): Promise<Awaited<ReturnType<typeof signupLogin>>> => {
  const li = await h.call('POST', '/api/player/login', {
    uuid: c.uuid,
    accessToken: c.accessToken,
    platform: 1,
    appVersion: '1.0.0',
  });
  if (li.body['resultCode'] !== 0) throw new Error(`login failed: ${JSON.stringify(li.body)}`);
  const sessionId = li.body['sessionId'] as string;
  return {
    ...c,
    sessionId,
    get: (path: string) => h.call('GET', path, undefined, { 'X-STAR-SESSION-ID': sessionId }),
    post: (path: string, body: unknown = {}) => h.call('POST', path, body, { 'X-STAR-SESSION-ID': sessionId }),
  };
};

/** Sends a present through the admin API (tests use it to grant currency). */
export const grant = async (h: Harness, playerId: number, kind: string, objectId: number, amount: number) => {
  const r = await h.call(
    'POST',
    '/admin/presents',
    { playerId, grant: { kind, objectId, amount }, title: 'Test', message: '' },
    { Authorization: `Bearer ${ADMIN}` },
  );
  if (r.body['resultCode'] !== 0) throw new Error(`admin grant failed: ${JSON.stringify(r.body)}`);
};

/** Receives every present in the player's box over HTTP. */
export const receiveAllHttp = async (client: Awaited<ReturnType<typeof signupLogin>>) => {
  const list = await client.client.getAllPlayerPresent();
  if (!list.ok) throw new Error(`present/get_all failed: ${list.resultCode} ${list.resultMessage}`);
  const ids = list.value.presents.map((p) => p.managedPresentId);
  return client.get(`/api/player/present/get?managedPresentId=${ids.join(',')}&stepCode=0`);
};

/** A JSON-file store (re)opened on `dir` behind a fresh server; both closed when the test ends. */
export const reopenFiles = async (t: { teardown: (f: () => Promise<void>) => void }, dir: string) => {
  const storage = await FileStorage.open({ dir });
  const h = await startHarness({ storage });
  t.teardown(async () => {
    await h.close();
    await storage.close();
  });
  return h;
};
