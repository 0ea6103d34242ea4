// The Koa app, built from the operations table: one generic handler serves every
// operation. The first middleware reads the clock, once for the request; the
// handler checks the request hash, parses the body, builds the request context
// {now, requestId, session, idempotencyKey} and hands it with the input to the
// service (find, decode, lock, load, reduce, commit), then writes the envelope.
// Around it: the request id (X-Request-Id, the caller's when valid), the client's
// address (through TRUST_PROXY proxies), the rate limits, one log line and the
// metrics per request, the probes and /metrics (ops.ts), and 405 with Allow.
import Koa from 'koa';
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import { randomUUID } from 'node:crypto';
import { gameError, RESULT_CODES, type GameError } from '../../core/errors.js';
import { requestError } from '../../core/codecs.js';
import { OPERATIONS } from '../../core/operations/table.js';
import { answerCodec, type AnyOperation } from '../../core/operation.js';
import { answerProblems } from '../../core/answer-check.js';
import { E } from '../../core/shared/result.js';
import { zoneText } from '../../core/time.js';
import type { GameService, Answer, RequestContext } from '../service/service.js';
import { DEFAULT_LIMITS, RateLimiter, SharedRateLimiter, type Bucket, type Limiter } from './rate-limit.js';
import type { Config } from './config.js';
import { writes, type Logger } from './log.js';
import type { Metrics, RateLimitBucket } from './metrics.js';
import { allowedMethods, opsMiddleware, operationNamer, OPS_PATHS, type Lifecycle } from './ops.js';
import { openApiDocument } from './openapi.js';
import { adminRouter } from './admin.js';
import { StorageError } from '../storage/storage.js';
import { CONSOLE_PATHS, consoleStatic } from './console-static.js';
import { envelope } from './envelope.js';
import { bodyOf, checkHash, header, idemOf, queryOf, sessionIdOf } from './request-input.js';

export type AppConfig = Pick<
  Config,
  'adminToken' | 'requestHashSalt' | 'requestHashRequired' | 'bodyLimitBytes' | 'always200' | 'serverVersion'
> &
  Partial<
    Pick<
      Config,
      | 'rateLimits'
      | 'checkAnswers'
      | 'trustProxyHops'
      | 'metricsToken'
      | 'previewThreads'
      | 'operatorIdleSeconds'
      | 'operatorSessionSeconds'
    >
  >;
export { envelope };

/** What the server around the app provides: metrics (absent: no /metrics), and the stop signal's state for /readyz. */
export interface AppOps {
  readonly metrics?: Metrics;
  readonly lifecycle?: Lifecycle;
}

/**
 * What a request carries through the middlewares: its id, the one clock read
 * (`now`), and for its log line and metrics the operation, the player and the result code.
 */
interface State {
  requestId: string;
  now: number;
  resultCode?: number;
  operation?: string;
  playerId?: number;
}

/** An X-Request-Id a caller (or a proxy) may give: 1 to 128 printable ASCII characters. */
const REQUEST_ID = /^[\x21-\x7e]{1,128}$/;
const NO_WAIT: { readonly wait: number; readonly bucket?: RateLimitBucket } = { wait: 0 };

export const createApp = (service: GameService, cfg: AppConfig, log: Logger, ops: AppOps = {}): Koa<State> => {
  const app = new Koa<State>();
  // Behind TRUST_PROXY proxies the client's address is read from X-Forwarded-For, that many entries from its end.
  const hops = cfg.trustProxyHops ?? 0;
  app.proxy = hops > 0;
  app.maxIpsCount = hops;
  const lifecycle = ops.lifecycle ?? { draining: false };
  const allowed = allowedMethods({ admin: cfg.adminToken !== undefined, metrics: ops.metrics !== undefined });
  const operationOf = operationNamer();
  const PROBES = new Set<string>([OPS_PATHS.healthz, OPS_PATHS.readyz, OPS_PATHS.metrics]);
  const env = envelope(service, cfg);
  const router = new Router<State>({ prefix: '/api' });
  const logsAt = { debug: writes(log, 'debug'), info: writes(log, 'info') };
  const parse = bodyParser({
    enableTypes: ['json'],
    jsonLimit: `${cfg.bodyLimitBytes}b`,
    strict: true,
    extendTypes: { json: ['application/json'] },
    onerror: (err) => {
      throw err;
    },
  });

  const answer = (ctx: Koa.ParameterizedContext<State>, op: AnyOperation, a: Answer) => {
    if (E.isLeft(a)) {
      // The client is told only that the store failed; the operator reads why (a damaged file is named).
      if (a.left.code === 'DB_ERROR')
        log('error', 'storage.failed', {
          requestId: ctx.state.requestId,
          operation: op.name,
          playerId: ctx.state.playerId,
          reason: a.left.reason,
        });
      return env.error(ctx, a.left);
    }
    if (cfg.checkAnswers) {
      // An answer that breaks its own contract is a server fault: 500 with what was wrong, never sent as valid.
      const problems = answerProblems(answerCodec(op), a.right);
      if (problems.length > 0) {
        log('error', 'answer.undeclared', { requestId: ctx.state.requestId, operation: op.name, problems });
        return env.error(ctx, gameError('UNKNOWN_ERROR', {}), {
          requestId: ctx.state.requestId,
          answerProblems: problems.slice(0, 20),
        });
      }
    }
    // An answer the same for every caller (the notices) may be kept by a cache a while.
    if (op.cacheSeconds !== undefined) ctx.set('Cache-Control', `public, max-age=${op.cacheSeconds}`);
    return env.ok(ctx, a.right);
  };

  const handle = (op: AnyOperation) => async (ctx: Koa.ParameterizedContext<State>) => {
    ctx.state.operation = op.name;
    const hash = checkHash(ctx, cfg);
    if (hash) return env.error(ctx, hash);
    const input = op.method === 'GET' ? queryOf(ctx) : bodyOf(ctx);
    if (E.isLeft(input)) return env.error(ctx, input.left);
    const idem = idemOf(ctx);
    if (E.isLeft(idem)) return env.error(ctx, idem.left);
    // Built once, here: everything below reads the request's time, session and key from it.
    const request: RequestContext = {
      now: ctx.state.now,
      requestId: ctx.state.requestId,
      session: sessionIdOf(ctx),
      idempotencyKey: idem.right,
      onPlayer: (playerId) => {
        ctx.state.playerId = playerId;
      },
    };
    return answer(ctx, op, await service.run(op, request, input.right));
  };

  // Rate limits: every caller's address, each session, and a stricter bucket for account operations.
  // A storage shared by several processes holds the buckets, so that a limit holds across them.
  const shared = service.sharedBuckets;
  const limiter: Limiter | null = !cfg.rateLimits
    ? null
    : shared
      ? new SharedRateLimiter(shared)
      : new RateLimiter(() => service.now());
  const ACCOUNT_PATHS = new Set([
    '/api/player/signup',
    '/api/player/login',
    '/api/player/move/set',
    '/api/player/move/get',
  ]);
  // Where failures are counted per address (wrong move codes or passwords, wrong admin tokens): a guesser runs out, the owner's code is untouched.
  const moveSet = OPERATIONS.find((o) => o.name === 'setPlayerMove');
  const MOVE_PATHS = new Set(
    (moveSet ? [moveSet.path, ...(moveSet.aliases ?? [])] : ['/player/move/set']).map((p) => `/api${p}`),
  );
  const guarded = (path: string): 'move' | 'admin' | undefined =>
    MOVE_PATHS.has(path) ? 'move' : path === '/admin' || path.startsWith('/admin/') ? 'admin' : undefined;
  const failuresBucket = cfg.rateLimits?.failures ?? (DEFAULT_LIMITS.failures as Bucket);
  /** Counts a failure of the caller's address when the answer was one (210 from move/set, 401/203 from /admin). */
  const countFailure = async (ctx: Koa.ParameterizedContext<State>): Promise<void> => {
    const kind = limiter ? guarded(ctx.path) : undefined;
    if (!limiter || !kind) return;
    // By result code (ALWAYS_200 answers every status as 200): 210 from move/set, 203 (the wrong-token answer) from /admin.
    const failed =
      ctx.state.resultCode ===
      (kind === 'move' ? RESULT_CODES.INVALID_MOVE_PARAMETERS : RESULT_CODES.PLAYER_SESSION_EXPIRED).resultCode;
    if (failed) await limiter.take(`f:${ctx.ip}`, failuresBucket, ctx.state.now);
  };
  /** Seconds until the request may be made, and the bucket that refused it; 0 when allowed. */
  const limited = async (ctx: Koa.ParameterizedContext<State>): Promise<{ wait: number; bucket?: RateLimitBucket }> => {
    const limits = cfg.rateLimits;
    if (!limiter || !limits) return { wait: 0 };
    const now = ctx.state.now;
    const byAddress = await limiter.take(`a:${ctx.ip}`, limits.address, now);
    if (byAddress > 0) return { wait: byAddress, bucket: 'address' };
    if (guarded(ctx.path)) {
      const byFailures = await limiter.peek(`f:${ctx.ip}`, failuresBucket, now);
      if (byFailures > 0) return { wait: byFailures, bucket: 'failures' };
    }
    if (ACCOUNT_PATHS.has(ctx.path)) {
      const byAccount = await limiter.take(`m:${ctx.ip}`, limits.account, now);
      if (byAccount > 0) return { wait: byAccount, bucket: 'account' };
    }
    const session = sessionIdOf(ctx);
    const bySession = session ? await limiter.take(`s:${session}`, limits.session, now) : 0;
    return bySession > 0 ? { wait: bySession, bucket: 'session' } : { wait: 0 };
  };

  const personal = (path: string): boolean =>
    (path.startsWith('/api/') && path !== '/api/openapi.json') ||
    (guarded(path) === 'admin' && path !== CONSOLE_PATHS.page && !path.startsWith(CONSOLE_PATHS.files));

  // Each entry's path as sent (method and exact path: "GET /api/player/get_all"), served
  // without the chain below; any other spelling (a trailing slash, other case, HEAD) goes through the router.
  const direct = new Map<string, (ctx: Koa.ParameterizedContext<State>) => Promise<void>>();
  for (const op of OPERATIONS) {
    // An entry's aliases (the original's older paths) are served by the same handler.
    for (const path of [op.path, ...(op.aliases ?? [])]) {
      const h = handle(op);
      direct.set(`${op.method} /api${path}`, h);
      if (op.method === 'GET') router.get(path, h);
      else router.post(path, h);
    }
  }
  router.get('/openapi.json', (ctx) => {
    // The zone of the master data in force: the one every time in an answer is written in.
    const zone = zoneText(service.masterAt(service.now()).master.game.timezoneOffsetMinutes);
    ctx.body = openApiDocument(cfg.serverVersion, zone);
  });

  app.use(async (ctx, next) => {
    const start = process.hrtime.bigint();
    // The one clock read of the request.
    ctx.state.now = service.now();
    // The caller's (or its proxy's) id when it gives a usable one, so that its logs and ours meet.
    const given = header(ctx, 'x-request-id');
    ctx.state.requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    // A player's state and the operator's reads are personal: no cache keeps them (the
    // OpenAPI document and the console's static files, set by console-static.ts, aside).
    if (personal(ctx.path)) ctx.set('Cache-Control', 'no-store');
    try {
      // With RATE_LIMITS=off nothing is counted or awaited.
      const limit = limiter && (ctx.path.startsWith('/api/') || guarded(ctx.path)) ? await limited(ctx) : NO_WAIT;
      if (limit.wait > 0) {
        ops.metrics?.rateLimited(limit.bucket as RateLimitBucket);
        ctx.set('Retry-After', String(limit.wait));
        env.error(ctx, gameError('RATE_LIMITED', { retryAfterSeconds: limit.wait }));
      } else {
        await next();
        if (limiter) await countFailure(ctx);
      }
      if (ctx.body === undefined && ctx.status === 404) {
        const methods = allowed(ctx.path);
        if (methods && ctx.method === 'OPTIONS') {
          ctx.set('Allow', [...methods, 'OPTIONS'].join(', '));
          ctx.status = 204;
        } else if (methods) {
          // A known path asked with another method: 405, and which methods it takes.
          ctx.set('Allow', methods.join(', '));
          env.raw(
            ctx,
            405,
            RESULT_CODES.INVALID_PARAMETERS.resultCode,
            `${ctx.method} is not allowed at ${ctx.path}; it takes ${methods.join(', ')}.`,
          );
        } else
          env.raw(ctx, 404, RESULT_CODES.INVALID_PARAMETERS.resultCode, `No operation at ${ctx.method} ${ctx.path}.`);
      }
    } catch (err) {
      const e = err as { status?: number; type?: string; message?: string };
      if (e.status === 413 || e.type === 'entity.too.large') {
        env.error(ctx, gameError('BODY_TOO_LARGE', { limit: cfg.bodyLimitBytes }));
      } else if (e.status === 400 || e.type === 'entity.parse.failed') {
        env.error(ctx, gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'is not valid JSON' }));
      } else if (e.status === 415) {
        env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'Content-Type', reason: 'is not supported' }));
      } else if (err instanceof StorageError) {
        // The shared rate limits' store did not answer: the storage's own failure, as the operations report it.
        env.error(ctx, gameError('DB_ERROR', { reason: err.message }));
      } else {
        log('error', 'request.failed', {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: ctx.path,
          error: e.message,
          stack: (err as Error).stack,
        });
        env.error(ctx, gameError('UNKNOWN_ERROR', {}), { requestId: ctx.state.requestId });
      }
    }
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    const operation = ctx.state.operation ?? operationOf(ctx.method, ctx.path);
    ops.metrics?.request(operation, ctx.status, ctx.state.resultCode, ms / 1000);
    // Probes and scrapes come every few seconds: at debug, so that they do not drown the requests.
    const level = PROBES.has(ctx.path) ? 'debug' : 'info';
    // The line is built only when the level is written (LOG_LEVEL=notice writes none).
    if (logsAt[level])
      log(level, 'request', {
        requestId: ctx.state.requestId,
        operation,
        playerId: ctx.state.playerId,
        resultCode: ctx.state.resultCode,
        status: ctx.status,
        ms: Math.round(ms * 100) / 100,
        method: ctx.method,
        path: ctx.path,
        ip: ctx.ip,
      });
  });
  // An entry's exact path: its handler, after the body parser for a request with a body
  // (a GET without one has nothing to parse). The probes, the console, /admin and the
  // router below never serve an /api path the table names, so skipping them changes no answer.
  app.use((ctx, next) => {
    const h = direct.get(`${ctx.method} ${ctx.path}`);
    if (!h) return next();
    const headers = ctx.req.headers;
    const cl = headers['content-length'];
    if (ctx.method === 'GET' && headers['transfer-encoding'] === undefined && (cl === undefined || cl === '0'))
      return h(ctx);
    return parse(ctx, () => h(ctx));
  });
  app.use(
    opsMiddleware(service, {
      lifecycle,
      ...(ops.metrics ? { metrics: ops.metrics } : {}),
      ...(cfg.metricsToken ? { metricsToken: cfg.metricsToken } : {}),
    }),
  );
  app.use(parse);
  if (cfg.adminToken) {
    // The console's page and scripts first: they carry no token (the page asks for it).
    app.use(consoleStatic());
    const admin = adminRouter(service, cfg.adminToken, env, {
      log,
      lifecycle,
      ...(ops.metrics ? { metrics: ops.metrics } : {}),
      ...(cfg.checkAnswers ? { checkAnswers: true } : {}),
      ...(cfg.previewThreads !== undefined ? { previewThreads: cfg.previewThreads } : {}),
      ...(cfg.operatorIdleSeconds !== undefined && cfg.operatorSessionSeconds !== undefined
        ? {
            operatorExpiry: {
              idleMs: cfg.operatorIdleSeconds * 1000,
              absoluteMs: cfg.operatorSessionSeconds * 1000,
            },
          }
        : {}),
    });
    app.use(admin.routes());
  }
  app.use(router.routes());
  return app;
};
