// The routes the console's present form and its screens of a player lean on: the
// preview of a send (GET /admin/presents/reach: whom it reaches, and the grant refused
// as the send refuses it, so an unknown item is caught before Send), and the names
// the game data gives what a grant or a player holds (GET /admin/master/names), so
// the console shows "Prism Shard (9001)", not 9001.
import * as t from 'io-ts';
import { NonNegInt, PosInt } from '../../core/codecs.js';
import { gameError } from '../../core/errors.js';
import { grantTargetExists, type Master } from '../../core/master/index.js';
import { GrantKind } from '../../core/master/common.js';
import { E } from '../../core/shared/result.js';
import type { GameService } from '../service/service.js';
import type { AdminOperation } from './admin-operation.js';
import { invalid, type RouteAnswer, type RouteCtx } from './admin-route.js';

/** At most this many players in one list (playerIds): larger sends are broadcasts. */
export const LIST_MAX = 1000;

const Named = t.type({ id: t.number, name: t.string }, 'AdminNamed');
const Names = t.array(Named);
/** Keyed by grant kind (as a present's grant.kind names them), each list by id. */
const MasterNamesResponse = t.type(
  {
    /** The version in force whose names these are. */
    version: t.string,
    character: Names,
    weapon: Names,
    item: Names,
    townFacility: Names,
    roomObject: Names,
  },
  'AdminMasterNamesResponse',
);

const PresentReachResponse = t.type(
  {
    /** Players named (distinct), or every player for all. */
    players: t.number,
    /** Of them, those a present would reach: found, with room in the present box. */
    reaches: t.number,
    /** Found, but their present box is full (master data presents.boxMax): skipped. */
    boxFull: t.number,
    /** Named but not found: skipped. */
    notFound: t.number,
  },
  'AdminPresentReachResponse',
);

export const PRESENT_OPERATIONS: ReadonlyArray<AdminOperation> = [
  {
    name: 'adminPresentReach',
    needs: 'read',
    method: 'GET',
    path: '/admin/presents/reach',
    summary: 'How many players a present would reach',
    description: `The preview of POST /admin/presents: \`playerIds\` (comma-separated, up to ${LIST_MAX}) or \`all=true\` (exactly one). Answers the players named (or every player), how many a present would reach now, and how many it would skip (not found, or their present box full). With the grant's \`kind\` and \`objectId\` (both or neither), a grant the send would refuse is refused the same way first: something the game data does not define is 107 (404), as the send answers. Changes nothing; \`all\` reads every player.`,
    queryParameters: {
      playerIds: { codec: t.string, description: 'Player ids, comma-separated.' },
      all: { codec: t.literal('true'), description: 'Every player.' },
      kind: {
        codec: GrantKind,
        description: "The grant's kind (gold, item, character …), checked as the send checks it.",
      },
      objectId: { codec: NonNegInt, description: "The grant's object id (0 for currencies)." },
    },
    response: PresentReachResponse,
    errors: ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS', 'NOT_FOUND', 'DB_ERROR', 'UNKNOWN_ERROR'],
  },
  {
    name: 'adminMasterNames',
    needs: 'read',
    method: 'GET',
    path: '/admin/master/names',
    summary: 'The names of characters, weapons, items, facilities and room objects',
    description:
      'From the game data in force: each id with its name, keyed by grant kind (character, weapon, item, townFacility, roomObject), so a screen can name what a player holds or a present grants.',
    response: MasterNamesResponse,
    errors: ['UNKNOWN_ERROR'],
  },
];

const named = <T>(rows: ReadonlyMap<number, T>, name: (r: T) => string) =>
  [...rows].sort(([a], [b]) => a - b).map(([id, r]) => ({ id, name: name(r) }));

export const namesOf = (m: Master, version: string): t.TypeOf<typeof MasterNamesResponse> => ({
  version,
  character: named(m.character, (c) => c.name),
  weapon: named(m.weapon, (w) => w.name),
  item: named(m.item, (i) => i.name),
  townFacility: named(m.facility, (f) => f.name),
  roomObject: named(m.roomObject, (o) => o.name),
});

/** What the routes need of the admin router. */
export interface PresentRouteDeps {
  readonly route: (name: string, handler: (ctx: RouteCtx) => Promise<RouteAnswer>) => void;
  readonly service: GameService;
  readonly nowOf: (ctx: RouteCtx) => number;
}

/** A query parameter given once (absent: undefined), or why not. */
const single = (ctx: RouteCtx, key: string): E.Either<RouteAnswer, string | undefined> => {
  const v = ctx.query[key];
  return Array.isArray(v) ? E.left(invalid(key, 'given more than once')) : E.right(v);
};

/** The grant's kind and object id, when given: refused as POST /admin/presents refuses them. */
const grantRefusal = (ctx: RouteCtx, master: Master): RouteAnswer | undefined => {
  const kind = single(ctx, 'kind');
  const objectId = single(ctx, 'objectId');
  if (E.isLeft(kind)) return kind.left;
  if (E.isLeft(objectId)) return objectId.left;
  if (kind.right === undefined && objectId.right === undefined) return undefined;
  if (kind.right === undefined || objectId.right === undefined)
    return invalid(kind.right === undefined ? 'kind' : 'objectId', 'give kind and objectId together');
  const k = GrantKind.decode(kind.right);
  if (E.isLeft(k)) return invalid('kind', `must be one of ${Object.keys(GrantKind.keys).join(', ')}`);
  const id = /^\d+$/.test(objectId.right) ? Number(objectId.right) : NaN;
  if (!Number.isSafeInteger(id)) return invalid('objectId', 'must be a whole number, 0 or more');
  return grantTargetExists(master, { kind: k.right, objectId: id, amount: 1 })
    ? undefined
    : E.left(gameError('NOT_FOUND', { entity: k.right, id }));
};

export const presentRoutes = (d: PresentRouteDeps): void => {
  const operator = d.service.operator;
  d.route('adminPresentReach', async (ctx) => {
    const ids = single(ctx, 'playerIds');
    const all = single(ctx, 'all');
    if (E.isLeft(ids)) return ids.left;
    if (E.isLeft(all)) return all.left;
    if (all.right !== undefined && all.right !== 'true') return invalid('all', 'must be true');
    if ((ids.right === undefined) === (all.right === undefined)) {
      return ids.right === undefined
        ? E.left(gameError('INSUFFICIENT_PARAMETERS', { field: 'playerIds or all' }))
        : invalid('all', 'give one of playerIds or all=true');
    }
    const refused = grantRefusal(ctx, d.service.masterAt(d.nowOf(ctx)).master);
    if (refused) return refused;
    if (all.right) return E.right(await operator.presentReach('all', d.nowOf(ctx)));
    const parts = (ids.right as string)
      .split(',')
      .map((x) => x.trim())
      .filter((x) => x !== '');
    if (parts.length === 0 || parts.length > LIST_MAX)
      return invalid('playerIds', `must list 1 to ${LIST_MAX} players`);
    const list: number[] = [];
    for (const p of parts) {
      const id = PosInt.decode(/^\d+$/.test(p) ? Number(p) : p);
      if (E.isLeft(id)) return invalid('playerIds', 'must be a positive integer');
      list.push(id.right);
    }
    return E.right(await operator.presentReach(list, d.nowOf(ctx)));
  });
  d.route('adminMasterNames', async (ctx) => {
    const inForce = d.service.masterAt(d.nowOf(ctx));
    return E.right(namesOf(inForce.master, inForce.version));
  });
};
