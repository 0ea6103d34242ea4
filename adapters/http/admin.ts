// The operator API under /admin, mounted only when ADMIN_TOKEN is set: send
// presents to a player or to all, find players by uuid, friend code or name, and
// read a player's whole state. Times are the wire's (`2026-12-31T23:59:59`, the
// game's time zone) or ISO 8601 with a zone.
import Router from '@koa/router';
import type Koa from 'koa';
import * as t from 'io-ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { gameError, RESULT_CODES, type ErrorName } from '../../core/errors.js';
import { DisplayText, requestError, PosInt } from '../../core/codecs.js';
import { Grant } from '../../core/master/common.js';
import { PlayerState } from '../../core/state.js';
import { E } from '../../core/shared/result.js';
import { formatTime, parseTime } from '../../core/time.js';
import type { GameService } from '../service/service.js';
import { contextAt } from '../service/context.js';
import type { envelope } from './app.js';

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
  t.partial({ playerId: PosInt, all: t.literal(true), deadline: t.union([OperatorTime, t.null]) }),
]), 'AdminSendPresentsRequest');
/** What the routes below answer (beside the envelope); the OpenAPI document shows these. */
const SendPresentsResponse = t.type({ sent: t.number }, 'AdminSendPresentsResponse');
const ReadPlayerResponse = t.type({ state: PlayerState }, 'AdminReadPlayerResponse');
const PlayerSummary = t.type({
  playerId: t.number, uuid: t.string, myCode: t.string, name: t.string, level: t.number,
  createdAt: t.string, lastLoginAt: t.string,
}, 'AdminPlayerSummary');
const FindPlayersResponse = t.type({ players: t.array(PlayerSummary) }, 'AdminFindPlayersResponse');
/** The search keys of GET /admin/players: exactly one is given. */
const FIND_KEYS = ['uuid', 'myCode', 'name'] as const;
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
}

export const ADMIN_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminSendPresents', method: 'POST', path: '/admin/presents',
    summary: 'Send a present to one player or to every player',
    description: `Puts the grant in the gift box of \`playerId\`, or of every player with \`all: true\` (exactly one of the two). \`deadline\` is ${TIME_FORMS}, in the future; null or absent for none. Answers how many players received it (with \`all\`, a player whose present box is full is skipped). An unknown \`playerId\` is 202 (404, "No such player"); one whose box is full (master data presents.boxMax) is 313.`,
    request: SendPresents, response: SendPresentsResponse,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'BODY_TOO_LARGE', 'NOT_FOUND', 'PLAYER_NOT_FOUND', 'PRESENT_LIMIT', 'STATE_CONFLICT', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminFindPlayers', method: 'GET', path: '/admin/players',
    summary: 'Find players by uuid, friend code or name',
    description: `Exactly one of \`uuid\` (the device's), \`myCode\` (the friend code) or \`name\` (exact, case-sensitive; up to ${FIND_LIMIT} players, by id; on the JSON-file store a scan of every player, about a second per 30,000). Answers each player found with its id and times in the wire's format; none found is an empty list.`,
    queryParameters: {
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
    errors: ['INVALID_PARAMETERS', 'PLAYER_NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
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
  const offset = service.deps.master.game.timezoneOffsetMinutes;
  /** The request's `now`, read once by the app's first middleware. */
  const nowOf = (ctx: { readonly state: object }): number => (ctx.state as { now?: number }).now ?? service.deps.clock();
  const noSuchPlayer = (ctx: Koa.ParameterizedContext<{ requestId: string; resultCode?: number }>, id: number) =>
    env.raw(ctx, 404, RESULT_CODES.PLAYER_NOT_FOUND.resultCode, `No such player: ${id}.`);
  router.post('/presents', async (ctx) => {
    const d = SendPresents.decode((ctx.request as { body?: unknown }).body ?? {});
    if (d._tag === 'Left') return env.error(ctx, requestError(d.left));
    const { grant, title, message, playerId, all, deadline } = d.right;
    if ((playerId === undefined) === (all === undefined)) {
      return env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'playerId', reason: 'give either playerId or all: true' }));
    }
    let until: number | null = null;
    if (deadline !== undefined && deadline !== null) {
      const ms = parseOperatorTime(deadline, offset);
      if (ms === undefined) return env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'deadline', reason: `must be ${TIME_FORMS}` }));
      if (ms <= nowOf(ctx)) return env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'deadline', reason: 'must be in the future' }));
      until = ms;
    }
    const r = await service.sendPresents(all ? 'all' : (playerId as number), grant, { title, message, deadline: until }, contextAt(nowOf(ctx), { requestId: ctx.state.requestId }));
    if (E.isLeft(r)) return r.left.code === 'PLAYER_NOT_FOUND' && playerId !== undefined ? noSuchPlayer(ctx, playerId) : env.error(ctx, r.left);
    return env.ok(ctx, r.right);
  });
  router.get('/players', async (ctx) => {
    const given = FIND_KEYS.filter((k) => ctx.query[k] !== undefined);
    if (given.length === 0) return env.error(ctx, gameError('INSUFFICIENT_PARAMETERS', { field: 'uuid, myCode or name' }));
    const key = given[0] as (typeof FIND_KEYS)[number];
    if (given.length > 1) return env.error(ctx, gameError('INVALID_PARAMETERS', { field: given[1] as string, reason: 'give one of uuid, myCode or name' }));
    const value = ctx.query[key];
    if (typeof value !== 'string') return env.error(ctx, gameError('INVALID_PARAMETERS', { field: key, reason: 'given more than once' }));
    const storage = service.deps.storage;
    let ids: number[];
    try {
      if (key === 'name') {
        ids = storage.findByName
          ? await storage.findByName(value, FIND_LIMIT)
          : (await Promise.all((await storage.playerIds()).map((id) => service.readPlayer(id)))).filter((s) => s?.name === value).map((s) => (s as PlayerState).playerId).slice(0, FIND_LIMIT);
      } else {
        const id = await storage.lookup(key, value);
        ids = id === undefined ? [] : [id];
      }
    } catch (e) {
      return env.error(ctx, gameError('DB_ERROR', { reason: e instanceof Error ? e.message : String(e) }));
    }
    let states: PlayerState[];
    try {
      states = (await Promise.all(ids.map((id) => service.readPlayer(id)))).filter((s): s is PlayerState => s !== undefined);
    } catch (e) {
      return env.error(ctx, gameError('DB_ERROR', { reason: e instanceof Error ? e.message : String(e) }));
    }
    return env.ok(ctx, {
      players: states.map((s) => ({
        playerId: s.playerId, uuid: s.account.uuid, myCode: s.myCode, name: s.name, level: s.level,
        createdAt: formatTime(s.createdAt, offset), lastLoginAt: formatTime(s.lastLoginAt, offset),
      })),
    });
  });
  router.get('/players/:playerId', async (ctx) => {
    const id = PosInt.decode(ctx.params['playerId']);
    if (id._tag === 'Left') return env.error(ctx, gameError('INVALID_PARAMETERS', { field: 'playerId', reason: 'must be a positive integer' }));
    let s: PlayerState | undefined;
    try {
      s = await service.readPlayer(id.right);
    } catch (e) {
      // A damaged snapshot is refused (105), never shown.
      return env.error(ctx, gameError('DB_ERROR', { reason: e instanceof Error ? e.message : String(e) }));
    }
    return s ? env.ok(ctx, { state: s }) : noSuchPlayer(ctx, id.right);
  });
  return router;
};
