// The operator API under /admin, mounted only when ADMIN_TOKEN is set: send
// presents to a player, a list or all (after a preview of whom it reaches), find
// players by id, uuid, friend code or name, read a player's whole state, draw
// history and sessions (and end them), the gachas' published and observed rates,
// health and the master data loaded. The console (console-static.ts) is its page.
// Every write is logged (admin.action) with what the operator did. Times are the
// wire's (`2026-12-31T23:59:59`, the game's time zone) or ISO 8601 with a zone.
import Router, { type RouterContext } from '@koa/router';
import type Koa from 'koa';
import * as t from 'io-ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { gameError, RESULT_CODES, type ErrorName, type GameError } from '../../core/errors.js';
import { DisplayText, requestError, PosInt } from '../../core/codecs.js';
import { Grant } from '../../core/master/common.js';
import { PlayerState, type DrawRecord } from '../../core/state.js';
import type { GachaIndexed } from '../../core/master/index.js';
import { StorageError } from '../storage/storage.js';
import { E } from '../../core/shared/result.js';
import { formatTime, parseTime } from '../../core/time.js';
import { answerProblems } from '../../core/answer-check.js';
import { entryByName } from '../../core/operations/table.js';
import { execute, type AnyOperation } from '../../core/operation.js';
import { lazyRng } from '../../core/rng.js';
import type { GameService } from '../service/service.js';
import { contextAt } from '../service/context.js';
import type { envelope } from './app.js';
import type { Logger } from './log.js';
import type { Metrics } from './metrics.js';
import type { Lifecycle } from './ops.js';
import { AdminGachaResponse, AdminGachasResponse, gachaRates, gachaSummary } from './admin-gachas.js';
import { AdminHealthResponse, AdminMasterResponse, healthOf, masterOf } from './admin-health.js';

const WIRE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
const TIME_FORMS = 'a time as 2026-12-31T23:59:59 (the game\'s time zone, as every answer\'s times) or ISO 8601 with a zone (2026-12-31T14:59:59Z)';

/** An instant as an operator writes it: the wire's time (the game's zone) or ISO 8601 with a zone. */
export const parseOperatorTime = (s: string, offsetMinutes: number): number | undefined => {
  if (WIRE_TIME.test(s)) return parseTime(s, offsetMinutes);
  if (!ISO_TIME.test(s)) return undefined;
  const ms = Date.parse(s);
  return Number.isFinite(ms) ? ms : undefined;
};

/** A string in one of the two forms (checked again, with the calendar, when converted). */
const OperatorTime = new t.RefinementType<t.StringC>(
  'OperatorTime',
  (u): u is string => typeof u === 'string' && (WIRE_TIME.test(u) || ISO_TIME.test(u)),
  (u, c) => (typeof u === 'string' && (WIRE_TIME.test(u) || ISO_TIME.test(u)) ? t.success(u) : t.failure(u, c, `must be ${TIME_FORMS}`)),
  t.identity, t.string, (s) => WIRE_TIME.test(s) || ISO_TIME.test(s),
);

const SendPresents = t.exact(t.intersection([
  // Shown to players: DisplayText (no control or format characters, NFC, trimmed; the message may hold line feeds).
  t.type({ grant: Grant, title: DisplayText(1, 64), message: DisplayText(0, 1000, { multiline: true }) }),
  t.partial({ playerId: PosInt, playerIds: t.array(PosInt), all: t.literal(true), deadline: t.union([OperatorTime, t.null]) }),
]), 'AdminSendPresentsRequest');
/** At most this many players in one list (playerIds): larger sends are broadcasts. */
export const LIST_MAX = 1000;
const PresentReachResponse = t.type({
  /** Players named (distinct), or every player for all. */
  players: t.number,
  /** Of them, those a present would reach: found, with room in the present box. */
  reaches: t.number,
  /** Found, but their present box is full (master data presents.boxMax): skipped. */
  boxFull: t.number,
  /** Named but not found: skipped. */
  notFound: t.number,
}, 'AdminPresentReachResponse');
const SessionView = t.type({
  /** The session's key: the hash of its id (the id itself is never stored). */
  key: t.string,
  createdAt: t.string, lastSeenAt: t.string,
  /** live; expired (unused longer than SESSION_IDLE_SECONDS); voided (by an account move). Expired and voided ones answer 203. */
  status: t.keyof({ live: null, expired: null, voided: null }),
}, 'AdminSessionView');
const SessionsResponse = t.type({ sessions: t.array(SessionView) }, 'AdminSessionsResponse');
const EndSessions = t.exact(t.partial({ keys: t.array(t.string), all: t.literal(true) }), 'AdminEndSessionsRequest');
const EndSessionsResponse = t.type({ ended: t.number }, 'AdminEndSessionsResponse');
/** What the routes below answer (beside the envelope); the OpenAPI document shows these. */
const SendPresentsResponse = t.type({ sent: t.number }, 'AdminSendPresentsResponse');
const ReadPlayerResponse = t.type({ state: PlayerState }, 'AdminReadPlayerResponse');
const PlayerSummary = t.type({
  playerId: t.number, uuid: t.string, myCode: t.string, name: t.string, level: t.number,
  createdAt: t.string, lastLoginAt: t.string,
}, 'AdminPlayerSummary');
const FindPlayersResponse = t.type({ players: t.array(PlayerSummary) }, 'AdminFindPlayersResponse');
/** The search keys of GET /admin/players: exactly one is given. */
const FIND_KEYS = ['playerId', 'uuid', 'myCode', 'name'] as const;
/** At most this many players are listed by name (names are not unique). */
export const FIND_LIMIT = 100;

/** An admin route as the OpenAPI document shows it. */
export interface AdminOperation {
  readonly name: string;
  readonly method: 'GET' | 'POST';
  /** The full path, `:name` for a path parameter. */
  readonly path: string;
  readonly summary: string;
  readonly description: string;
  readonly pathParameters?: Readonly<Record<string, t.Mixed>>;
  /** Query parameters, each optional. */
  readonly queryParameters?: Readonly<Record<string, { readonly codec: t.Mixed; readonly description: string }>>;
  readonly request?: t.Mixed;
  readonly response: t.Mixed;
  /** The errors it can answer with besides the missing or wrong token (401, 203). */
  readonly errors: ReadonlyArray<ErrorName>;
  /** A write: logged (admin.action) with what it did. */
  readonly writes?: boolean;
}

/** The draw history reducer the game serves at /api/player/gacha/history, run by the operator on any player. */
const HISTORY = entryByName('getHistoryPlayerGacha') as AnyOperation;
const READ_ERRORS: ReadonlyArray<ErrorName> = ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'];

export const ADMIN_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminSendPresents', method: 'POST', path: '/admin/presents',
    summary: 'Send a present to one player or to every player',
    description: `Puts the grant in the gift box of \`playerId\`, of each of \`playerIds\` (up to ${LIST_MAX}), or of every player with \`all: true\` (exactly one of the three). \`deadline\` is ${TIME_FORMS}, in the future; null or absent for none. Answers how many players received it (with \`playerIds\` or \`all\`, a player not found or whose present box is full is skipped: GET /admin/presents/reach tells how many it reaches first). An unknown \`playerId\` is 202 (404, "No such player"); one whose box is full (master data presents.boxMax) is 313. Logged (admin.action).`,
    request: SendPresents, response: SendPresentsResponse, writes: true,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'NOT_FOUND', 'PLAYER_NOT_FOUND', 'PRESENT_LIMIT', 'STATE_CONFLICT', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminPresentReach', method: 'GET', path: '/admin/presents/reach',
    summary: 'How many players a present would reach',
    description: `The preview of POST /admin/presents: \`playerIds\` (comma-separated, up to ${LIST_MAX}) or \`all=true\` (exactly one). Answers the players named (or every player), how many a present would reach now, and how many it would skip (not found, or their present box full). Changes nothing; \`all\` reads every player.`,
    queryParameters: {
      playerIds: { codec: t.string, description: 'Player ids, comma-separated.' },
      all: { codec: t.literal('true'), description: 'Every player.' },
    },
    response: PresentReachResponse,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminFindPlayers', method: 'GET', path: '/admin/players',
    summary: 'Find players by uuid, friend code or name',
    description: `Exactly one of \`uuid\` (the device's), \`myCode\` (the friend code) or \`name\` (exact, case-sensitive; up to ${FIND_LIMIT} players, by id; on the JSON-file store a scan of every player, about a second per 30,000). Answers each player found with its id and times in the wire's format; none found is an empty list.`,
    queryParameters: {
      playerId: { codec: PosInt, description: 'The player\'s id.' },
      uuid: { codec: t.string, description: 'The uuid the player signed up (or moved) with.' },
      myCode: { codec: t.string, description: 'The player\'s friend code.' },
      name: { codec: t.string, description: 'The player\'s name, exactly.' },
    },
    response: FindPlayersResponse,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminReadPlayer', method: 'GET', path: '/admin/players/:playerId',
    summary: 'Read a player\'s whole stored state',
    description: 'The state as stored (not the client\'s view): times in milliseconds since the epoch, the account with its hashes. An unknown id is 202 (404, "No such player").',
    pathParameters: { playerId: PosInt }, response: ReadPlayerResponse,
    errors: READ_ERRORS,
  },
  {
    name: 'adminPlayerDraws', method: 'GET', path: '/admin/players/:playerId/draws',
    summary: 'A player\'s draw history, by gacha and date',
    description: 'What GET /api/player/gacha/history answers the player, newest first, in pages: `gachaId`, `from` and `to` (game-local times, as answers give them; from inclusive, to exclusive), `page` and `pageSize` (at most 100). An unknown id is 202 (404).',
    pathParameters: { playerId: PosInt },
    queryParameters: {
      gachaId: { codec: PosInt, description: 'Draws of this gacha only.' },
      from: { codec: t.string, description: 'Draws at or after this game-local time (2026-12-31T23:59:59).' },
      to: { codec: t.string, description: 'Draws before this game-local time.' },
      page: { codec: PosInt, description: 'The page, from 1.' },
      pageSize: { codec: PosInt, description: 'Draws a page: 20 unless given, at most 100.' },
    },
    response: HISTORY.response, errors: READ_ERRORS,
  },
  {
    name: 'adminPlayerSessions', method: 'GET', path: '/admin/players/:playerId/sessions',
    summary: 'A player\'s sessions',
    description: 'Every session the storage holds for the player, oldest first: its key (the hash of its id), when it was made and last used, and whether it is live, expired (unused longer than SESSION_IDLE_SECONDS) or voided (by an account move). An unknown id is 202 (404).',
    pathParameters: { playerId: PosInt }, response: SessionsResponse, errors: READ_ERRORS,
  },
  {
    name: 'adminEndSessions', method: 'POST', path: '/admin/players/:playerId/sessions/end',
    summary: 'End a player\'s sessions',
    description: 'Removes the sessions named by `keys` (as GET /admin/players/{playerId}/sessions lists them), or all of the player\'s with `all: true` (exactly one of the two): their next request answers 203 and the player logs in again. A key the player does not hold is 107 (404) and ends none. Logged (admin.action).',
    pathParameters: { playerId: PosInt }, request: EndSessions, response: EndSessionsResponse, writes: true,
    errors: ['INVALID_PARAMETERS', 'BODY_TOO_LARGE', 'NOT_FOUND', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminGachas', method: 'GET', path: '/admin/gachas',
    summary: 'Every gacha: period, prices, open now',
    description: 'Each gacha of the master data: its period and weekdays (the game\'s time zone), whether it is open now, its prices, ten-draw size, guarantee and pool size.',
    response: AdminGachasResponse, errors: ['UNKNOWN_ERROR'],
  },
  {
    name: 'adminGacha', method: 'GET', path: '/admin/gachas/:gachaId',
    summary: 'A gacha\'s published rates beside the observed ones',
    description: 'The rates box/get publishes (each rarity and character per pull, the guarantee, a whole ten-draw\'s effective per-pull rates) and the rates the draws gave, counted from every player\'s kept draw history (gacha.historyDays), single pulls and ten-draws apart. Reads every player without keeping them in memory (on the JSON-file store about a second per 30,000). An unknown gacha is 107 (404).',
    pathParameters: { gachaId: PosInt }, response: AdminGachaResponse,
    errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminHealth', method: 'GET', path: '/admin/health',
    summary: 'What /readyz and /metrics say',
    description: 'GET /readyz\'s checks, and from the registry GET /metrics writes: requests and errors by operation, storage commits and their latency, players in memory, journal bytes since the last checkpoint (metrics null with METRICS=off).',
    response: AdminHealthResponse, errors: ['UNKNOWN_ERROR'],
  },
  {
    name: 'adminMaster', method: 'GET', path: '/admin/master',
    summary: 'The master data loaded',
    description: 'Its hash (as the replay log names it), when this process loaded it and from where, the game\'s time zone and how many gachas, characters and items it defines.',
    response: AdminMasterResponse, errors: ['UNKNOWN_ERROR'],
  },
];

const digest = (s: string) => createHash('sha256').update(s).digest();

/** What the router needs besides the service: where writes are logged, and what /admin/health reads. */
export interface AdminOptions {
  readonly log: Logger;
  readonly lifecycle: Lifecycle;
  /** Absent with METRICS=off: /admin/health's metrics are null. */
  readonly metrics?: Metrics;
  /** Check every answer against its declared codec (CHECK_ANSWERS), as /api does. */
  readonly checkAnswers?: boolean;
}

type AdminState = { requestId: string; now?: number; resultCode?: number };
type Ctx = RouterContext<AdminState>;
/** A refusal: a game error, or "No such player" naming the id the operator gave. */
type Refusal = GameError | { readonly noSuchPlayer: number };
type Outcome = E.Either<Refusal, Record<string, unknown>>;

const refuse = (e: Refusal): Outcome => E.left(e);
const invalid = (field: string, reason: string): Outcome => refuse(gameError('INVALID_PARAMETERS', { field, reason }));
/** A query parameter given once, or why not. */
const single = (ctx: Ctx, key: string): E.Either<GameError, string | undefined> => {
  const v = ctx.query[key];
  return Array.isArray(v) ? E.left(gameError('INVALID_PARAMETERS', { field: key, reason: 'given more than once' })) : E.right(v);
};
const positive = (field: string, v: unknown): E.Either<GameError, number> => {
  const d = PosInt.decode(v);
  return d._tag === 'Left' ? E.left(gameError('INVALID_PARAMETERS', { field, reason: 'must be a positive integer' })) : E.right(d.right);
};

export const adminRouter = (service: GameService, token: string, env: ReturnType<typeof envelope>, opts: AdminOptions) => {
  const router = new Router<AdminState>({ prefix: '/admin' });
  const want = digest(token);
  router.use(async (ctx: Koa.ParameterizedContext<AdminState>, next) => {
    const m = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'));
    if (!m || !timingSafeEqual(digest(m[1] ?? ''), want)) {
      env.raw(ctx, 401, 203, 'The admin API needs Authorization: Bearer <ADMIN_TOKEN>.');
      return;
    }
    await next();
  });
  const master = service.deps.master;
  const offset = master.game.timezoneOffsetMinutes;
  const storage = service.deps.storage;
  /** The request's `now`, read once by the app's first middleware. */
  const nowOf = (ctx: { readonly state: object }): number => (ctx.state as { now?: number }).now ?? service.deps.clock();
  const body = (ctx: Ctx): unknown => (ctx.request as { body?: unknown }).body ?? {};
  const byName = new Map(ADMIN_OPERATIONS.map((o) => [o.name, o]));

  /** Serves an operation: its refusals in words, its answer checked (CHECK_ANSWERS), its writes logged with what the operator asked and got. */
  const route = (name: string, handler: (ctx: Ctx) => Promise<Outcome>) => {
    const op = byName.get(name) as AdminOperation;
    const serve = async (ctx: Ctx) => {
      let out: Outcome;
      try {
        out = await handler(ctx);
      } catch (e) {
        // A read or write the storage could not serve: 105 with why, never the data.
        if (!(e instanceof StorageError)) throw e;
        out = refuse(gameError('DB_ERROR', { reason: e.message }));
      }
      if (op.writes) {
        const resultCode = E.isRight(out) ? 0 : 'noSuchPlayer' in out.left ? RESULT_CODES.PLAYER_NOT_FOUND.resultCode : RESULT_CODES[out.left.code].resultCode;
        opts.log('notice', 'admin.action', {
          requestId: ctx.state.requestId, action: op.name, ip: ctx.ip, params: { ...ctx.params }, request: body(ctx), resultCode,
          ...(E.isRight(out) ? { answer: out.right } : {}),
        });
      }
      if (E.isLeft(out)) {
        const r = out.left;
        return 'noSuchPlayer' in r ? env.raw(ctx, 404, RESULT_CODES.PLAYER_NOT_FOUND.resultCode, `No such player: ${r.noSuchPlayer}.`) : env.error(ctx, r);
      }
      if (opts.checkAnswers) {
        const problems = answerProblems(op.response, out.right);
        if (problems.length > 0) {
          opts.log('error', 'answer.undeclared', { requestId: ctx.state.requestId, operation: op.name, problems });
          return env.error(ctx, gameError('UNKNOWN_ERROR', {}), { requestId: ctx.state.requestId, answerProblems: problems.slice(0, 20) });
        }
      }
      return env.ok(ctx, out.right);
    };
    const path = op.path.slice('/admin'.length);
    if (op.method === 'GET') router.get(path, serve);
    else router.post(path, serve);
  };
  /** The path's player id, and the player (a missing one is "No such player"). */
  const playerOf = async (ctx: Ctx): Promise<E.Either<Refusal, PlayerState>> => {
    const id = positive('playerId', ctx.params['playerId']);
    if (E.isLeft(id)) return id;
    const s = await service.readPlayer(id.right);
    return s ? E.right(s) : E.left({ noSuchPlayer: id.right });
  };

  route('adminSendPresents', async (ctx) => {
    const d = SendPresents.decode(body(ctx));
    if (d._tag === 'Left') return refuse(requestError(d.left));
    const { grant, title, message, playerId, playerIds, all, deadline } = d.right;
    if ([playerId, playerIds, all].filter((x) => x !== undefined).length !== 1) return invalid('playerId', 'give one of playerId, playerIds or all: true');
    if (playerIds !== undefined && (playerIds.length === 0 || playerIds.length > LIST_MAX)) return invalid('playerIds', `must list 1 to ${LIST_MAX} players`);
    let until: number | null = null;
    if (deadline !== undefined && deadline !== null) {
      const ms = parseOperatorTime(deadline, offset);
      if (ms === undefined) return invalid('deadline', `must be ${TIME_FORMS}`);
      if (ms <= nowOf(ctx)) return invalid('deadline', 'must be in the future');
      until = ms;
    }
    const target = all ? 'all' : playerIds ?? (playerId as number);
    const r = await service.sendPresents(target, grant, { title, message, deadline: until }, contextAt(nowOf(ctx), { requestId: ctx.state.requestId }));
    if (E.isLeft(r)) return refuse(r.left.code === 'PLAYER_NOT_FOUND' && playerId !== undefined ? { noSuchPlayer: playerId } : r.left);
    return E.right(r.right);
  });

  route('adminPresentReach', async (ctx) => {
    const ids = single(ctx, 'playerIds');
    const all = single(ctx, 'all');
    if (E.isLeft(ids)) return ids;
    if (E.isLeft(all)) return all;
    if (all.right !== undefined && all.right !== 'true') return invalid('all', 'must be true');
    if ((ids.right === undefined) === (all.right === undefined)) {
      return ids.right === undefined ? refuse(gameError('INSUFFICIENT_PARAMETERS', { field: 'playerIds or all' })) : invalid('all', 'give one of playerIds or all=true');
    }
    if (all.right) return E.right(await service.presentReach('all', nowOf(ctx)));
    const parts = (ids.right as string).split(',').map((x) => x.trim()).filter((x) => x !== '');
    if (parts.length === 0 || parts.length > LIST_MAX) return invalid('playerIds', `must list 1 to ${LIST_MAX} players`);
    const list: number[] = [];
    for (const p of parts) {
      const id = positive('playerIds', /^\d+$/.test(p) ? Number(p) : p);
      if (E.isLeft(id)) return id;
      list.push(id.right);
    }
    return E.right(await service.presentReach(list, nowOf(ctx)));
  });

  route('adminFindPlayers', async (ctx) => {
    const given = FIND_KEYS.filter((k) => ctx.query[k] !== undefined);
    if (given.length === 0) return refuse(gameError('INSUFFICIENT_PARAMETERS', { field: 'playerId, uuid, myCode or name' }));
    const key = given[0] as (typeof FIND_KEYS)[number];
    if (given.length > 1) return invalid(given[1] as string, 'give one of playerId, uuid, myCode or name');
    const value = single(ctx, key);
    if (E.isLeft(value)) return value;
    const v = value.right as string;
    let ids: number[];
    if (key === 'playerId') {
      const id = positive('playerId', /^\d+$/.test(v) ? Number(v) : v);
      if (E.isLeft(id)) return id;
      ids = [id.right];
    } else if (key === 'name') {
      ids = storage.findByName
        ? await storage.findByName(v, FIND_LIMIT)
        : (await Promise.all((await storage.playerIds()).map((id) => service.readPlayer(id)))).filter((s) => s?.name === v).map((s) => (s as PlayerState).playerId).slice(0, FIND_LIMIT);
    } else {
      const id = await storage.lookup(key, v);
      ids = id === undefined ? [] : [id];
    }
    const states = (await Promise.all(ids.map((id) => service.readPlayer(id)))).filter((s): s is PlayerState => s !== undefined);
    return E.right({
      players: states.map((s) => ({
        playerId: s.playerId, uuid: s.account.uuid, myCode: s.myCode, name: s.name, level: s.level,
        createdAt: formatTime(s.createdAt, offset), lastLoginAt: formatTime(s.lastLoginAt, offset),
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
    const r = execute(HISTORY, s.right, req.right, lazyRng(() => 'admin-read'), nowOf(ctx), { master, others: [] });
    return E.isLeft(r) ? r : E.right(r.right.response as Record<string, unknown>);
  });

  route('adminPlayerSessions', async (ctx) => {
    const id = positive('playerId', ctx.params['playerId']);
    if (E.isLeft(id)) return id;
    const r = await service.sessionsOfPlayer(id.right, nowOf(ctx));
    if (E.isLeft(r)) return refuse({ noSuchPlayer: id.right });
    return E.right({
      sessions: r.right.map((x) => ({ key: x.key, createdAt: formatTime(x.session.createdAt, offset), lastSeenAt: formatTime(x.session.lastSeenAt, offset), status: x.status })),
    });
  });

  route('adminEndSessions', async (ctx) => {
    const id = positive('playerId', ctx.params['playerId']);
    if (E.isLeft(id)) return id;
    const d = EndSessions.decode(body(ctx));
    if (d._tag === 'Left') return refuse(requestError(d.left));
    const { keys, all } = d.right;
    if ((keys === undefined) === (all === undefined)) return invalid('keys', 'give one of keys or all: true');
    if (keys !== undefined && (keys.length === 0 || keys.length > 100)) return invalid('keys', 'must list 1 to 100 sessions');
    const r = await service.endSessions(id.right, all ? 'all' : (keys as string[]));
    if (E.isLeft(r)) return refuse(r.left.code === 'PLAYER_NOT_FOUND' ? { noSuchPlayer: id.right } : r.left);
    return E.right(r.right);
  });

  route('adminGachas', async (ctx) => E.right({
    gachas: master.gachas.map((g) => gachaSummary(master, master.gacha.get(g.gachaId) as GachaIndexed, nowOf(ctx))),
  }));

  route('adminGacha', async (ctx) => {
    const id = positive('gachaId', ctx.params['gachaId']);
    if (E.isLeft(id)) return id;
    const g = master.gacha.get(id.right);
    if (!g) return refuse(gameError('NOT_FOUND', { entity: 'gacha', id: id.right }));
    // Only this gacha's records are kept while every player's history goes by.
    const records: DrawRecord[] = [];
    const players = await storage.drawHistories((h) => { for (const r of h) if (r.gachaId === g.gachaId) records.push(r); });
    return E.right(gachaRates(master, g, records, players, nowOf(ctx)));
  });

  route('adminHealth', async () => E.right(await healthOf(service, opts.lifecycle, opts.metrics)));
  route('adminMaster', async () => E.right(masterOf(master)));
  return router;
};
