// The operator API under /admin, mounted only when ADMIN_TOKEN is set: send
// presents to a player or to all, and read a player's whole state.
import Router from '@koa/router';
import type Koa from 'koa';
import * as t from 'io-ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { gameError, type ErrorName } from '../../core/errors.js';
import { requestError, PosInt, Text, NonNegInt } from '../../core/codecs.js';
import { Grant } from '../../core/master/common.js';
import { PlayerState } from '../../core/state.js';
import { E } from '../../core/shared/result.js';
import type { GameService } from '../service/service.js';
import type { envelope } from './app.js';

const SendPresents = t.exact(t.intersection([
  t.type({ grant: Grant, title: Text(1, 64), message: Text(0, 1000) }),
  t.partial({ playerId: PosInt, all: t.literal(true), deadline: t.union([NonNegInt, t.null]) }),
]), 'AdminSendPresentsRequest');
/** What the routes below answer (beside the envelope); the OpenAPI document shows these. */
const SendPresentsResponse = t.type({ sent: t.number }, 'AdminSendPresentsResponse');
const ReadPlayerResponse = t.type({ state: PlayerState }, 'AdminReadPlayerResponse');

/** An admin route as the OpenAPI document shows it. */
export interface AdminOperation {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The full path, `:name` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly pathParameters?: Readonly<Record<string, t.Mixed>>;
  readonly request?: t.Mixed;
  readonly response: t.Mixed;
  /** The errors it can answer with besides the missing or wrong token (401, 203). */
  readonly errors: ReadonlyArray<ErrorName>;
}

export const ADMIN_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminSendPresents', method: 'POST', path: '/admin/presents',
    summary: 'Send a present to one player or to every player',
    description: 'Puts the grant in the gift box of `playerId`, or of every player with `all: true` (exactly one of the two). `deadline` is a time in milliseconds since the epoch, or null for none. Answers how many players received it.',
    request: SendPresents, response: SendPresentsResponse,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'NOT_FOUND', 'PLAYER_NOT_FOUND', 'STATE_CONFLICT', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminReadPlayer', method: 'GET', path: '/admin/players/:playerId',
    summary: 'Read a player\'s whole stored state',
    description: 'The state as stored (not the client\'s view): times in milliseconds since the epoch, the account with its hashes.',
    pathParameters: { playerId: PosInt }, response: ReadPlayerResponse,
    errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'UNKNOWN_ERROR'],
  },
];

const digest = (s: string) => createHash('sha256').update(s).digest();

export const adminRouter = (service: GameService, token: string, env: ReturnType<typeof envelope>) => {
  const router = new Router<{ requestId: string; resultCode?: number }>({ prefix: '/admin' });
  const want = digest(token);
  router.use(async (ctx: Koa.ParameterizedContext<{ requestId: string; resultCode?: number }>, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'));
    if (!m || !timingSafeEqual(digest(m[1] ?? ''), want)) {
      env.raw(ctx, 401, 203, 'The admin API needs Authorization: Bearer <ADMIN_TOKEN>.');
      return;
    }
    await next();
  });
  router.post('/presents', async (ctx) => {
    const d = SendPresents.decode((ctx.request as { body?: unknown }).body ?? {});
    if (d._tag === 'Left') return env.error(ctx, requestError(d.left));
    const { grant, title, message, playerId, all, deadline } = d.right;
    if ((playerId === undefined) === (all === undefined)) {
      return env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'playerId', reason: 'give either playerId or all: true' }));
    }
    const r = await service.sendPresents(all ? 'all' : (playerId as number), grant, { title, message, deadline: deadline ?? null });
    return E.isLeft(r) ? env.error(ctx, r.left) : env.ok(ctx, r.right);
  });
  router.get('/players/:playerId', async (ctx) => {
    const id = PosInt.decode(ctx.params['playerId']);
    if (id._tag === 'Left') return env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'playerId', reason: 'must be a positive integer' }));
    const s = await service.readPlayer(id.right);
    return s ? env.ok(ctx, { state: s }) : env.error(ctx, gameError('PLAYER_NOT_FOUND', {}));
  });
  return router;
};
