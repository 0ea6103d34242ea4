// What the /api handler reads of a request before the service runs it: the session
// id it carries, the request hash (WIRE.md), the Idempotency-Key, and its input (GET
// parameters, or a POST's JSON object). Headers are read from Node's own table (its
// names are lower case already), not through Koa's ctx.get, which lower-cases each name again.
import type Koa from 'koa';
import { createHash, timingSafeEqual } from 'node:crypto';
import { gameError, type GameError } from '../../core/errors.js';
import { E } from '../../core/shared/result.js';
import type { Idem } from '../service/service.js';
import type { Config } from './config.js';

const sha256hex = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/** A header's value as Koa's ctx.get gives it ('' when absent); `name` in lower case. */
export const header = (ctx: Koa.Context, name: string): string => {
  const v = ctx.req.headers[name];
  return v === undefined ? '' : Array.isArray(v) ? v.join(', ') : v;
};

const rawBodyOf = (ctx: Koa.Context): string | undefined => (ctx.request as { rawBody?: string }).rawBody;

const BEARER = /^Bearer\s+(\S+)$/i;

export const sessionIdOf = (ctx: Koa.Context): string | undefined => {
  const h = header(ctx, 'x-star-session-id');
  if (h) return h;
  const m = BEARER.exec(header(ctx, 'authorization'));
  return m ? m[1] : undefined;
};

/** The request hash (WIRE.md): sha256 of [sessionId + " "] + path + [" " + body] + " " + salt; without a session, also " " + path .... */
export const checkHash = (
  ctx: Koa.Context,
  cfg: Pick<Config, 'requestHashSalt' | 'requestHashRequired'>,
): GameError | null => {
  const given = header(ctx, 'x-star-requesthash');
  if (!given) return cfg.requestHashRequired ? gameError('INVALID_REQUEST_HASH', {}) : null;
  const session = header(ctx, 'x-star-session-id');
  const raw = rawBodyOf(ctx) ?? '';
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
const NO_KEY: E.Either<GameError, Idem | undefined> = E.right(undefined);

/** The Idempotency-Key of a POST, with the hash of what it asks (method, path as sent, raw body). */
export const idemOf = (ctx: Koa.Context): E.Either<GameError, Idem | undefined> => {
  const key = header(ctx, 'idempotency-key');
  if (!key || ctx.method !== 'POST') return NO_KEY;
  if (!IDEMPOTENCY_KEY.test(key))
    return E.left(
      gameError('INVALID_PARAMETERS', {
        field: 'Idempotency-Key',
        reason: 'must be 1 to 255 printable ASCII characters',
      }),
    );
  return E.right({ key, requestHash: sha256hex(`${ctx.method} ${ctx.originalUrl} ${rawBodyOf(ctx) ?? ''}`) });
};

/** GET parameters: each given once; a repeated one is refused rather than guessed. */
export const queryOf = (ctx: Koa.Context): E.Either<GameError, Record<string, string>> => {
  const out: Record<string, string> = {};
  // No query string: no parameters (Koa's parse of '' skipped).
  if (ctx.querystring === '') return E.right(out);
  for (const [k, v] of Object.entries(ctx.query)) {
    if (Array.isArray(v)) return E.left(gameError('INVALID_PARAMETERS', { field: k, reason: 'given more than once' }));
    if (v !== undefined) out[k] = v;
  }
  return E.right(out);
};

export const bodyOf = (ctx: Koa.Context): E.Either<GameError, unknown> => {
  const raw = rawBodyOf(ctx);
  const body = (ctx.request as { body?: unknown }).body;
  if (raw === undefined || raw === '') {
    // A body we did not parse: only JSON is accepted.
    if ((ctx.request.length ?? 0) > 0 && !ctx.is('application/json')) {
      return E.left(gameError('INVALID_PARAMETERS', { field: 'Content-Type', reason: 'must be application/json' }));
    }
    return E.right({});
  }
  // Bytes that are not UTF-8 arrive as U+FFFD: refuse them rather than store replacement characters.
  if (raw.includes('\uFFFD'))
    return E.left(gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'is not valid UTF-8' }));
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return E.left(gameError('INVALID_PARAMETERS', { field: '(body)', reason: 'must be a JSON object' }));
  }
  return E.right(body);
};
