// The operator API under /admin, mounted only when ADMIN_TOKEN is set: send
// presents to a player, a list or all (after a preview of whom it reaches), find
// players by id, uuid, friend code or name, read a player's whole state, draw
// history and sessions (and end them), the gachas' published and observed rates,
// health and the master data loaded (the operations themselves, with their codecs
// and errors, are listed in admin-operations.ts). The console (console-static.ts)
// is its page. Every write is logged (admin.action) with what the operator did. Times are the
// wire's (`2026-12-31T23:59:59`, the game's time zone) or ISO 8601 with a zone.
import Router, { type RouterContext } from '@koa/router';
import type Koa from 'koa';
import { createHash, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { gameError, RESULT_CODES, type GameError } from '../../core/errors.js';
import { requestError, PosInt } from '../../core/codecs.js';
import type { PlayerState } from '../../core/state.js';
import type { GachaIndexed } from '../../core/master/index.js';
import { StorageError } from '../storage/storage.js';
import { E } from '../../core/shared/result.js';
import { formatTime } from '../../core/time.js';
import { answerProblems } from '../../core/answer-check.js';
import { execute } from '../../core/operation.js';
import { lazyRng } from '../../core/rng.js';
import type { GameService } from '../service/service.js';
import { contextAt } from '../service/context.js';
import type { Envelope } from './envelope.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { Lifecycle } from './ops.js';
import { gachaRates, gachaSummary } from './admin-gachas.js';
import { healthOf, masterOf } from './admin-health.js';
import { masterRoutes, versionsListing } from './admin-master.js';
import { liveOpsRoutes } from './admin-liveops.js';
import { operatorRoutes } from './admin-operators.js';
import { forLog, playersNamed } from './admin-audit.js';
import { OperatorAccounts, type Actor, type Expiry } from '../operators/accounts.js';
import { allows, rolesFor } from '../operators/roles.js';
import { playerDataRoutes } from './admin-player-data.js';
import { presentRoutes } from './admin-presents.js';
import {
  ADMIN_OPERATIONS,
  EndSessions,
  FIND_KEYS,
  FIND_LIMIT,
  HISTORY,
  LIST_MAX,
  parseOperatorTime,
  SendPresents,
  TIME_FORMS,
  type AdminOperation,
} from './admin-operations.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** What the router needs besides the service: where writes are logged, and what /admin/health reads. */
export interface AdminOptions {
  readonly log: Logger;
  readonly lifecycle: Lifecycle;
  /** Absent with METRICS=off: /admin/health's metrics are null. */
  readonly metrics?: Metrics;
  /** Check every answer against its declared codec (CHECK_ANSWERS), as /api does. */
  readonly checkAnswers?: boolean;
  /** Worker threads a game-data preview runs on (PREVIEW_THREADS; default all cores but one). */
  readonly previewThreads?: number;
  /** How long an operator's console session lasts unused, and at most (OPERATOR_IDLE_SECONDS, OPERATOR_SESSION_SECONDS). */
  readonly operatorExpiry?: Expiry;
}

/** ADMIN_TOKEN: the bootstrap administrator (and scripts), named "admin" in the audit. */
const BOOTSTRAP: Actor = { name: 'admin', role: 'admin', via: 'bootstrap', operatorId: null, secretId: null };
const DEFAULT_EXPIRY: Expiry = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };

type AdminState = { requestId: string; now?: number; resultCode?: number; actor?: Actor };
type Ctx = RouterContext<AdminState>;
/** A refusal: a game error, or "No such player" naming the id the operator gave. */
type Refusal = GameError | { readonly noSuchPlayer: number };
type AdminAnswer = E.Either<Refusal, Record<string, unknown>>;

const refuse = (e: Refusal): AdminAnswer => E.left(e);
const invalid = (field: string, reason: string): AdminAnswer =>
  refuse(gameError('INVALID_PARAMETERS', { field, reason }));
/** A query parameter given once, or why not. */
const single = (ctx: Ctx, key: string): E.Either<GameError, string | undefined> => {
  const v = ctx.query[key];
  return Array.isArray(v)
    ? E.left(gameError('INVALID_PARAMETERS', { field: key, reason: 'given more than once' }))
    : E.right(v);
};
const positive = (field: string, v: unknown): E.Either<GameError, number> => {
  const d = PosInt.decode(v);
  return d._tag === 'Left'
    ? E.left(gameError('INVALID_PARAMETERS', { field, reason: 'must be a positive integer' }))
    : E.right(d.right);
};

export const adminRouter = (service: GameService, token: string, env: Envelope, opts: AdminOptions) => {
  const router = new Router<AdminState>({ prefix: '/admin' });
  const want = digest(token);
  const accounts = new OperatorAccounts(service.liveOps.records, opts.operatorExpiry ?? DEFAULT_EXPIRY);
  // Who calls: ADMIN_TOKEN, or an operator's live session or personal token, read from the store
  // at every request (so a revocation holds at once on every process). Signing in needs neither.
  router.use(async (ctx: Koa.ParameterizedContext<AdminState>, next) => {
    if (ctx.method === 'POST' && ctx.path === '/admin/session') return next();
    const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'));
    const secret = m?.[1] ?? '';
    const actor = !m
      ? undefined
      : timingSafeEqual(digest(secret), want)
        ? BOOTSTRAP
        : await accounts.resolve(secret, ctx.state.now ?? service.now());
    if (!actor) {
      env.raw(
        ctx,
        401,
        203,
        'The admin API needs Authorization: Bearer <a session token, a personal token or ADMIN_TOKEN>.',
      );
      return;
    }
    ctx.state.actor = actor;
    await next();
  });
  const actorOf = (ctx: { readonly state: object }): Actor => (ctx.state as AdminState).actor ?? BOOTSTRAP;
  const operator = service.operator;
  /** The request's `now`, read once by the app's first middleware. */
  const nowOf = (ctx: { readonly state: object }): number => (ctx.state as { now?: number }).now ?? service.now();
  /** The game data in force at the request's `now`, and its time zone. */
  const gameAt = (ctx: { readonly state: object }) => service.masterAt(nowOf(ctx)).master;
  const offsetOf = (ctx: { readonly state: object }) => gameAt(ctx).game.timezoneOffsetMinutes;
  const body = (ctx: Ctx): unknown => (ctx.request as { body?: unknown }).body ?? {};
  const byName = new Map(ADMIN_OPERATIONS.map((o) => [o.name, o]));

  /** Serves an operation: its refusals in words, its answer checked (CHECK_ANSWERS), its writes logged with what the operator asked and got. */
  const route = (name: string, handler: (ctx: Ctx) => Promise<AdminAnswer>) => {
    const op = byName.get(name) as AdminOperation;
    const serve = async (ctx: Ctx) => {
      let out: AdminAnswer;
      const actor = ctx.state.actor;
      try {
        out =
          op.needs === 'anyone' || (actor && allows(actor.role, op.needs))
            ? await handler(ctx)
            : refuse(
                gameError('FORBIDDEN', {
                  role: actor?.role ?? 'none',
                  needs: op.needs,
                  roles: rolesFor(op.needs).join(' or '),
                }),
              );
      } catch (e) {
        // A read or write the storage could not serve: 105 with why, never the data.
        if (!(e instanceof StorageError)) throw e;
        out = refuse(gameError('DB_ERROR', { reason: e.message }));
      }
      if (op.writes || op.audited) {
        const resultCode = E.isRight(out)
          ? 0
          : 'noSuchPlayer' in out.left
            ? RESULT_CODES.PLAYER_NOT_FOUND.resultCode
            : RESULT_CODES[out.left.code].resultCode;
        // Signing in acts as the name given (no actor yet); everything else as its caller.
        const who =
          op.needs === 'anyone'
            ? { operator: String((body(ctx) as { name?: unknown }).name ?? ''), via: 'sign-in' }
            : { operator: actorOf(ctx).name, via: actorOf(ctx).via };
        const request = forLog(op.logged?.request ? op.logged.request(body(ctx)) : body(ctx));
        const answer = E.isRight(out) ? forLog(op.logged?.answer ? op.logged.answer(out.right) : out.right) : null;
        opts.log('notice', 'admin.action', {
          requestId: ctx.state.requestId,
          action: op.name,
          ...who,
          ip: ctx.ip,
          params: { ...ctx.params },
          request,
          resultCode,
          ...(E.isRight(out) ? { answer } : {}),
        });
        await accounts.audit({
          at: nowOf(ctx),
          ...who,
          ip: ctx.ip,
          action: op.name,
          params: { ...ctx.params },
          request,
          resultCode,
          answer,
          playerIds: playersNamed(ctx.params, body(ctx)),
        });
      }
      if (E.isLeft(out)) {
        const r = out.left;
        return 'noSuchPlayer' in r
          ? env.raw(ctx, 404, RESULT_CODES.PLAYER_NOT_FOUND.resultCode, `No such player: ${r.noSuchPlayer}.`)
          : env.error(ctx, r);
      }
      if (opts.checkAnswers) {
        const problems = answerProblems(op.response, out.right);
        if (problems.length > 0) {
          opts.log('error', 'answer.undeclared', { requestId: ctx.state.requestId, operation: op.name, problems });
          return env.error(ctx, gameError('UNKNOWN_ERROR', {}), {
            requestId: ctx.state.requestId,
            answerProblems: problems.slice(0, 20),
          });
        }
      }
      return env.ok(ctx, out.right);
    };
    const path = op.path.slice('/admin'.length);
    if (op.method === 'GET') router.get(path, serve);
    else if (op.method === 'DELETE') router.delete(path, serve);
    else router.post(path, serve);
  };
  /** The path's player id, and the player (a missing one is "No such player"). */
  const playerOf = async (ctx: Ctx): Promise<E.Either<Refusal, PlayerState>> => {
    const id = positive('playerId', ctx.params['playerId']);
    if (E.isLeft(id)) return id;
    const s = await operator.readPlayer(id.right);
    return s ? E.right(s) : E.left({ noSuchPlayer: id.right });
  };

  route('adminDeliverPresents', async (ctx) => {
    const d = SendPresents.decode(body(ctx));
    if (d._tag === 'Left') return refuse(requestError(d.left));
    const { grant, title, message, playerId, playerIds, all, deadline } = d.right;
    if ([playerId, playerIds, all].filter((x) => x !== undefined).length !== 1)
      return invalid('playerId', 'give one of playerId, playerIds or all: true');
    if (playerIds !== undefined && (playerIds.length === 0 || playerIds.length > LIST_MAX))
      return invalid('playerIds', `must list 1 to ${LIST_MAX} players`);
    let until: number | null = null;
    if (deadline !== undefined && deadline !== null) {
      const ms = parseOperatorTime(deadline, offsetOf(ctx));
      if (ms === undefined) return invalid('deadline', `must be ${TIME_FORMS}`);
      if (ms <= nowOf(ctx)) return invalid('deadline', 'must be in the future');
      until = ms;
    }
    const target = all ? 'all' : (playerIds ?? (playerId as number));
    const r = await operator.sendPresents(
      target,
      grant,
      { title, message, deadline: until },
      contextAt(nowOf(ctx), { requestId: ctx.state.requestId }),
      actorOf(ctx).name,
    );
    if (E.isLeft(r))
      return refuse(r.left.code === 'PLAYER_NOT_FOUND' && playerId !== undefined ? { noSuchPlayer: playerId } : r.left);
    return E.right(r.right);
  });

  route('adminFindPlayers', async (ctx) => {
    const given = FIND_KEYS.filter((k) => ctx.query[k] !== undefined);
    if (given.length === 0)
      return refuse(gameError('INSUFFICIENT_PARAMETERS', { field: 'playerId, uuid, myCode or name' }));
    const key = given[0] as (typeof FIND_KEYS)[number];
    if (given.length > 1) return invalid(given[1] as string, 'give one of playerId, uuid, myCode or name');
    const value = single(ctx, key);
    if (E.isLeft(value)) return value;
    const v = value.right as string;
    let found: string | number = v;
    if (key === 'playerId') {
      const id = positive('playerId', /^\d+$/.test(v) ? Number(v) : v);
      if (E.isLeft(id)) return id;
      found = id.right;
    }
    const states = await operator.findPlayers(key, found, FIND_LIMIT);
    return E.right({
      players: states.map((s) => ({
        playerId: s.playerId,
        uuid: s.account.uuid,
        myCode: s.myCode,
        name: s.name,
        level: s.level,
        createdAt: formatTime(s.createdAt, offsetOf(ctx)),
        lastLoginAt: formatTime(s.lastLoginAt, offsetOf(ctx)),
      })),
    });
  });

  route('adminReadPlayer', async (ctx) => {
    const s = await playerOf(ctx);
    return E.isLeft(s) ? s : E.right({ state: s.right });
  });

  route('adminPlayerDraws', async (ctx) => {
    const s = await playerOf(ctx);
    if (E.isLeft(s)) return s;
    const query: Record<string, string> = {};
    for (const k of Object.keys(ctx.query)) {
      const v = single(ctx, k);
      if (E.isLeft(v)) return v;
      if (v.right !== undefined) query[k] = v.right;
    }
    const req = HISTORY.request.decode(query);
    if (req._tag === 'Left') return refuse(requestError(req.left));
    // The game's own reducer, read-only: the operator sees what the player would.
    const r = execute(
      HISTORY,
      s.right,
      req.right,
      lazyRng(() => 'admin-read'),
      nowOf(ctx),
      { master: gameAt(ctx), others: [] },
    );
    return E.isLeft(r) ? r : E.right(r.right.response as Record<string, unknown>);
  });

  route('adminPlayerSessions', async (ctx) => {
    const id = positive('playerId', ctx.params['playerId']);
    if (E.isLeft(id)) return id;
    const r = await operator.sessionsOfPlayer(id.right, nowOf(ctx));
    if (E.isLeft(r)) return refuse({ noSuchPlayer: id.right });
    return E.right({
      sessions: r.right.map((x) => ({
        key: x.key,
        createdAt: formatTime(x.session.createdAt, offsetOf(ctx)),
        lastSeenAt: formatTime(x.session.lastSeenAt, offsetOf(ctx)),
        status: x.status,
      })),
    });
  });

  route('adminEndSessions', async (ctx) => {
    const id = positive('playerId', ctx.params['playerId']);
    if (E.isLeft(id)) return id;
    const d = EndSessions.decode(body(ctx));
    if (d._tag === 'Left') return refuse(requestError(d.left));
    const { keys, all } = d.right;
    if ((keys === undefined) === (all === undefined)) return invalid('keys', 'give one of keys or all: true');
    if (keys !== undefined && (keys.length === 0 || keys.length > 100))
      return invalid('keys', 'must list 1 to 100 sessions');
    const r = await operator.endSessions(id.right, all ? 'all' : (keys as string[]));
    if (E.isLeft(r)) return refuse(r.left.code === 'PLAYER_NOT_FOUND' ? { noSuchPlayer: id.right } : r.left);
    return E.right(r.right);
  });

  route('adminGachas', async (ctx) => {
    const master = gameAt(ctx);
    return E.right({
      gachas: master.gachas.map((g) => gachaSummary(master, master.gacha.get(g.gachaId) as GachaIndexed, nowOf(ctx))),
    });
  });

  route('adminGacha', async (ctx) => {
    const id = positive('gachaId', ctx.params['gachaId']);
    if (E.isLeft(id)) return id;
    const master = gameAt(ctx);
    const g = master.gacha.get(id.right);
    if (!g) return refuse(gameError('NOT_FOUND', { entity: 'gacha', id: id.right }));
    const { records, players } = await operator.gachaDraws(g.gachaId);
    return E.right(gachaRates(master, g, records, players, nowOf(ctx)));
  });

  route('adminHealth', async () => E.right(await healthOf(service, opts.lifecycle, opts.metrics)));
  route('adminMaster', async (ctx) =>
    E.right(masterOf(gameAt(ctx), versionsListing(service, nowOf(ctx), offsetOf(ctx)))),
  );
  operatorRoutes({ route, accounts, nowOf, offsetOf, actorOf });
  presentRoutes({ route, service, nowOf });
  liveOpsRoutes({
    route,
    service,
    nowOf,
    offsetOf,
    actorOf: (ctx) => actorOf(ctx).name,
    contextOf: (ctx) => contextAt(nowOf(ctx), { requestId: (ctx.state as AdminState).requestId }),
  });
  playerDataRoutes({ route, operator, nowOf, masterVersionAt: (now) => service.masterAt(now).version });
  masterRoutes({
    route,
    service,
    nowOf,
    offsetOf,
    actorOf: (ctx) => actorOf(ctx).name,
    previewThreads: opts.previewThreads ?? Math.max(1, availableParallelism() - 1),
  });
  return router;
};
