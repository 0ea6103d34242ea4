// The Koa app, built from the operations table: one generic handler serves every
// operation. Parse and decode with the operation's codec → check the request
// hash → the service (session, load, reduce, commit) → the envelope.
import Koa from 'koa';
import Router from '@koa/router';
import bodyParser from 'koa-bodyparser';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { gameError, messageOf, RESULT_CODES, type GameError } from '../../core/errors.js';
import { requestError } from '../../core/codecs.js';
import { OPERATIONS } from '../../core/operations/table.js';
import { LoginRequest, MoveSetRequest, SignupRequest } from '../../core/operations/player.js';
import { answerCodec, type AnyOperation } from '../../core/operation.js';
import { answerProblems } from '../../core/answer-check.js';
import { formatTime } from '../../core/time.js';
import { E } from '../../core/shared/result.js';
import type { GameService, Answer, Idem } from '../service/service.js';
import { RateLimiter } from './rate-limit.js';
import { HTTP_STATUS } from './status.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { openApiDocument } from './openapi.js';
import { adminRouter } from './admin.js';
import { answerJson } from './json.js';

export type AppConfig = Pick<Config, 'adminToken' | 'requestHashSalt' | 'requestHashRequired' | 'bodyLimitBytes' | 'always200' | 'serverVersion'> & Partial<Pick<Config, 'rateLimits' | 'checkAnswers'>>;

interface State { requestId: string; resultCode?: number }

/** Writes the envelope: resultCode, resultMessage, serverTime, serverVersion, then the payload. */
export const envelope = (service: GameService, cfg: AppConfig) => {
  const offset = service.deps.master.game.timezoneOffsetMinutes;
  const head = (resultCode: number, resultMessage: string) => ({
    resultCode, resultMessage, serverTime: formatTime(service.deps.clock(), offset), serverVersion: cfg.serverVersion,
  });
  return {
    ok: (ctx: Koa.ParameterizedContext<State>, payload: Record<string, unknown>) => {
      ctx.status = 200;
      ctx.state.resultCode = 0;
      ctx.type = 'application/json';
      ctx.body = answerJson({ ...head(0, ''), ...payload });
    },
    error: (ctx: Koa.ParameterizedContext<State>, e: GameError, extra: Record<string, unknown> = {}) => {
      const resultCode = RESULT_CODES[e.code].resultCode;
      ctx.status = cfg.always200 ? 200 : HTTP_STATUS[e.code];
      ctx.state.resultCode = resultCode;
      ctx.body = { ...head(resultCode, messageOf(e)), ...extra };
    },
    raw: (ctx: Koa.ParameterizedContext<State>, status: number, resultCode: number, message: string) => {
      ctx.status = cfg.always200 ? 200 : status;
      ctx.state.resultCode = resultCode;
      ctx.body = head(resultCode, message);
    },
  };
};

const sha256hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

const sessionIdOf = (ctx: Koa.Context): string | undefined => {
  const h = ctx.get('X-STAR-SESSION-ID');
  if (h) return h;
  const auth = ctx.get('Authorization');
  const m = /^Bearer\s+(\S+)$/i.exec(auth);
  return m ? m[1] : undefined;
};

/** The request hash (WIRE.md): sha256 of [sessionId + " "] + path + [" " + body] + " " + salt; without a session, also " " + path .... */
const checkHash = (ctx: Koa.Context, cfg: AppConfig): GameError | null => {
  const given = ctx.get('X-STAR-REQUESTHASH');
  if (!given) return cfg.requestHashRequired ? gameError('INVALID_REQUEST_HASH', {}) : null;
  const session = ctx.get('X-STAR-SESSION-ID');
  const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
  const rest = `${ctx.originalUrl}${raw ? ` ${raw}` : ''} ${cfg.requestHashSalt}`;
  const got = Buffer.from(given.toLowerCase(), 'utf8');
  const matches = (text: string): boolean => {
    const want = Buffer.from(sha256hex(text), 'utf8');
    return want.length === got.length && timingSafeEqual(want, got);
  };
  if (session) return matches(`${session} ${rest}`) ? null : gameError('INVALID_REQUEST_HASH', {});
  // Without a session some of the original's clients hashed an empty session id and its
  // separator (" " + path ...): both forms are accepted there (WIRE.md).
  return matches(rest) || matches(` ${rest}`) ? null : gameError('INVALID_REQUEST_HASH', {});
};

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key of a POST, with the hash of what it asks (method, path as sent, raw body). */
const idemOf = (ctx: Koa.Context): E.Either<GameError, Idem | undefined> => {
  const key = ctx.get('Idempotency-Key');
  if (!key || ctx.method !== 'POST') return E.right(undefined);
  if (!IDEMPOTENCY_KEY.test(key)) return E.left(gameError('INVALID_PARAMETERS', { field: 'Idempotency-Key', reason: 'must be 1 to 255 printable ASCII characters' }));
  const raw = (ctx.request as { rawBody?: string }).rawBody ?? '';
  return E.right({ key, requestHash: sha256hex(`${ctx.method} ${ctx.originalUrl} ${raw}`) });
};

/** GET parameters: each given once; a repeated one is refused rather than guessed. */
const queryOf = (ctx: Koa.Context): E.Either<GameError, Record<string, string>> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.query)) {
    if (Array.isArray(v)) return E.left(gameError('INVALID_PARAMETERS', { field: k, reason: 'given more than once' }));
    if (v !== undefined) out[k] = v;
  }
  return E.right(out);
};

const bodyOf = (ctx: Koa.Context): E.Either<GameError, unknown> => {
  const raw = (ctx.request as { rawBody?: string }).rawBody;
  const body = (ctx.request as { body?: unknown }).body;
  if (raw === undefined || raw === '') {
    // A body we did not parse: only JSON is accepted.
    if ((ctx.request.length ?? 0) > 0 && !ctx.is('application/json')) {
      return E.left(gameError('INVALID_PARAMETERS', { field: 'Content-Type', reason: 'must be application/json' }));
    }
    return E.right({});
  }
  // Bytes that are not UTF-8 arrive as U+FFFD: refuse them rather than store replacement characters.
  if (raw.includes('\uFFFD')) return E.left(gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'is not valid UTF-8' }));
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return E.left(gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'must be a JSON object' }));
  }
  return E.right(body);
};

export const createApp = (service: GameService, cfg: AppConfig, log: Logger): Koa<State> => {
  const app = new Koa<State>();
  app.proxy = false;
  const env = envelope(service, cfg);
  const router = new Router<State>({ prefix: '/api' });

  const answer = (ctx: Koa.ParameterizedContext<State>, op: AnyOperation, a: Answer) => {
    if (E.isLeft(a)) return env.error(ctx, a.left);
    if (cfg.checkAnswers) {
      // An answer that breaks its own contract is a server fault: 500 with what was wrong, never sent as valid.
      const problems = answerProblems(answerCodec(op), a.right);
      if (problems.length > 0) {
        log('error', 'answer.undeclared', { requestId: ctx.state.requestId, operation: op.name, problems });
        return env.error(ctx, gameError('UNKNOWN_ERROR', {}), { requestId: ctx.state.requestId, answerProblems: problems.slice(0, 20) });
      }
    }
    return env.ok(ctx, a.right);
  };

  const handle = (op: AnyOperation) => async (ctx: Koa.ParameterizedContext<State>) => {
    const hash = checkHash(ctx, cfg);
    if (hash) return env.error(ctx, hash);
    const input = op.method === 'GET' ? queryOf(ctx) : bodyOf(ctx);
    if (E.isLeft(input)) return env.error(ctx, input.left);
    const idem = idemOf(ctx);
    if (E.isLeft(idem)) return env.error(ctx, idem.left);
    if (op.access === 'account') {
      if (op.name === 'signupPlayer') {
        const d = SignupRequest.decode(input.right);
        return d._tag === 'Left' ? env.error(ctx, requestError(d.left)) : answer(ctx, op, await service.signup(d.right, idem.right));
      }
      if (op.name === 'loginPlayer') {
        const d = LoginRequest.decode(input.right);
        return d._tag === 'Left' ? env.error(ctx, requestError(d.left)) : answer(ctx, op, await service.login(d.right, idem.right));
      }
      const d = MoveSetRequest.decode(input.right);
      return d._tag === 'Left' ? env.error(ctx, requestError(d.left)) : answer(ctx, op, await service.moveSet(d.right, idem.right));
    }
    if (!op.reduce) return env.error(ctx, gameError('NOT_IMPLEMENTED', { operation: op.name }));
    // The session comes first: an anonymous caller learns nothing about request shapes.
    const auth = await service.resolveSession(sessionIdOf(ctx), service.deps.clock());
    if (E.isLeft(auth)) return env.error(ctx, auth.left);
    const decoded = op.request.decode(input.right);
    if (decoded._tag === 'Left') return env.error(ctx, requestError(decoded.left));
    return answer(ctx, op, await service.perform(op, auth.right, decoded.right, idem.right));
  };

  // Rate limits: every caller's address, each session, and a stricter bucket for account operations.
  const limiter = cfg.rateLimits ? new RateLimiter(service.deps.clock) : null;
  const ACCOUNT_PATHS = new Set(['/api/player/signup', '/api/player/login', '/api/player/move/set', '/api/player/move/get']);
  const limited = (ctx: Koa.ParameterizedContext<State>): number => {
    const limits = cfg.rateLimits;
    if (!limiter || !limits) return 0;
    const byAddress = limiter.take(`a:${ctx.ip}`, limits.address);
    if (byAddress > 0) return byAddress;
    if (ACCOUNT_PATHS.has(ctx.path)) {
      const byAccount = limiter.take(`m:${ctx.ip}`, limits.account);
      if (byAccount > 0) return byAccount;
    }
    const session = sessionIdOf(ctx);
    return session ? limiter.take(`s:${session}`, limits.session) : 0;
  };

  for (const op of OPERATIONS) {
    if (op.method === 'GET') router.get(op.path, handle(op));
    else router.post(op.path, handle(op));
  }
  router.get('/openapi.json', (ctx) => { ctx.body = openApiDocument(cfg.serverVersion); });

  app.use(async (ctx, next) => {
    const start = process.hrtime.bigint();
    ctx.state.requestId = randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    try {
      const wait = ctx.path.startsWith('/api/') ? limited(ctx) : 0;
      if (wait > 0) {
        ctx.set('Retry-After', String(wait));
        env.error(ctx, gameError('RATE_LIMITED', { retryAfterSeconds: wait }));
      } else await next();
      if (ctx.body === undefined && ctx.status === 404) env.raw(ctx, 404, RESULT_CODES.INVALID_PARAMETERS.resultCode, `No operation at ${ctx.method} ${ctx.path}.`);
    } catch (err) {
      const e = err as { status?: number; type?: string; message?: string };
      if (e.status === 413 || e.type === 'entity.too.large') {
        env.error(ctx, gameError('BODY_TOO_LARGE', { limit: cfg.bodyLimitBytes }));
      } else if (e.status === 400 || e.type === 'entity.parse.failed') {
        env.error(ctx, gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'is not valid JSON' }));
      } else if (e.status === 415) {
        env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'Content-Type', reason: 'is not supported' }));
      } else {
        log('error', 'request.failed', { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, error: e.message, stack: (err as Error).stack });
        env.error(ctx, gameError('UNKNOWN_ERROR', {}), { requestId: ctx.state.requestId });
      }
    }
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    log('info', 'request', { requestId: ctx.state.requestId, method: ctx.method, path: ctx.path, status: ctx.status, resultCode: ctx.state.resultCode, ms: Math.round(ms * 100) / 100 });
  });
  app.use(bodyParser({
    enableTypes: ['json'], jsonLimit: `${cfg.bodyLimitBytes}b`, strict: true,
    extendTypes: { json: ['application/json'] },
    onerror: (err) => { throw err; },
  }));
  if (cfg.adminToken) {
    const admin = adminRouter(service, cfg.adminToken, env);
    app.use(admin.routes());
  }
  app.use(router.routes());
  return app;
};
