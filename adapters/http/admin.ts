// The operator API under /admin, mounted only when ADMIN_TOKEN is set: send
// presents to a player or to all, and read a player's whole state.
import Router from '@koa/router';
import type Koa from 'koa';
import * as t from 'io-ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { gameError } from '../../core/errors.js';
import { requestError, PosInt, Text, NonNegInt } from '../../core/codecs.js';
import { Grant } from '../../core/master/common.js';
import { E } from '../../core/shared/result.js';
import type { GameService } from '../service/service.js';
import type { envelope } from './app.js';

const SendPresents = t.exact(t.intersection([
  t.type({ grant: Grant, title: Text(1, 64), message: Text(0, 1000) }),
  t.partial({ playerId: PosInt, all: t.literal(true), deadline: t.union([NonNegInt, t.null]) }),
]));

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
