// Where an entry runs, before any lock: the player its `find` names (or none yet),
// the locks to take and the scope of its Idempotency-Keys; and, under the lock, the
// other players its request names.
import { gameError, type GameError } from '../../core/errors.js';
import { findOf, type AnyOperation, type OtherRef } from '../../core/operation.js';
import { E } from '../../core/shared/result.js';
import type { PlayerState } from '../../core/state.js';
import { relatedPlayerIds } from '../../core/state/social.js';
import type { Storage } from '../storage/storage.js';
import type { ResolvedSession } from './sessions.js';
import { left, storedAnswer, type Answer } from './answers.js';
import type { RequestContext } from './context.js';

export interface Located {
  /** The player's id; undefined for a new player (allocated under the lock) and for an entry on no one. */
  readonly playerId: number | undefined;
  readonly session?: ResolvedSession;
  readonly lockKeys: ReadonlyArray<string>;
  /** Keys are scoped by who the caller is: the player (and kind); a sign-up, by the uuid it signs up. */
  readonly scope: string | undefined;
}

/** A move's keys are the new device's: scoped by the uuid it claims (known before the code is looked up). */
export const moveScope = (claims: string | undefined, playerId: number): string =>
  claims === undefined ? `move${playerId}` : `move/${claims}`;

const lockOf = (id: number): string => `p:${id}`;

/**
 * The entry's `find`, before any lock: the player, or the answer when there is none.
 * A write that names other players by id locks them too (in sorted order, so two
 * writes on one pair never deadlock); others are only read, and every commit checks
 * the versions of what it read and wrote, so a lock is never needed for correctness.
 */
export const locate = async (
  storage: Storage,
  op: AnyOperation,
  request: unknown,
  session: ResolvedSession | undefined,
): Promise<E.Either<GameError, Located>> => {
  const find = findOf(op);
  switch (find.by) {
    case 'session': {
      const playerId = (session as ResolvedSession).session.playerId;
      const named = op.readOnly
        ? []
        : (op.touches?.(request) ?? []).flatMap((r) => (r.by === 'playerId' ? [r.playerId] : []));
      return E.right({ playerId, session, lockKeys: [playerId, ...named].map(lockOf), scope: `p${playerId}` });
    }
    case 'new':
      return E.right({
        playerId: undefined,
        lockKeys: [`uuid:${find.claims(request)}`],
        scope: `signup/${find.claims(request)}`,
      });
    case 'uuid':
    case 'moveCode': {
      const playerId = await storage.lookup(find.by, find.key(request));
      if (playerId === undefined) {
        find.whenMissing?.(request);
        return E.left(find.missing);
      }
      const claims = find.claims?.(request);
      return E.right({
        playerId,
        lockKeys: [lockOf(playerId), ...(claims === undefined ? [] : [`uuid:${claims}`])],
        scope: find.by === 'uuid' ? `login${playerId}` : moveScope(claims, playerId),
      });
    }
    case 'playerId':
      return E.right({ playerId: find.key(request), lockKeys: [lockOf(find.key(request))], scope: undefined });
    case 'none':
      return E.right({ playerId: undefined, lockKeys: [], scope: undefined });
  }
};

/** The refusal when the player an entry names is not there (or, by session, no longer holds the session). */
export const missingOf = (op: AnyOperation): GameError => {
  const find = findOf(op);
  return 'missing' in find ? find.missing : gameError('PLAYER_SESSION_EXPIRED', {});
};

/** The other players a request names, in the order of its refs (a ref can name several: related, recentlyActive). */
export const resolveOthers = async (
  storage: Storage,
  refs: ReadonlyArray<OtherRef>,
  me: PlayerState,
): Promise<Array<number | undefined>> => {
  const lists = await Promise.all(
    refs.map(async (r): Promise<Array<number | undefined>> => {
      switch (r.by) {
        case 'playerId':
          return [r.playerId];
        case 'myCode':
          return [await storage.lookup('myCode', r.myCode)];
        case 'related':
          return relatedPlayerIds(me);
        case 'recentlyActive':
          return (await storage.recentlyActive(r.count + 1)).filter((id) => id !== me.playerId).slice(0, r.count);
      }
    }),
  );
  return lists.flat();
};

/** No player holds what the request names. A retried move whose first request used the code up: its stored answer (112). */
export const unlocated = async (
  store: Storage,
  r: { readonly op: AnyOperation; readonly ctx: RequestContext; readonly request: unknown; readonly ttl: number },
  missing: GameError,
): Promise<Answer> => {
  const find = findOf(r.op);
  const claims = find.by === 'moveCode' ? find.claims?.(r.request) : undefined;
  const idem = r.ctx.idempotencyKey;
  if (!idem || claims === undefined) return left(missing);
  const prior = await store.getIdempotency(`${moveScope(claims, 0)}:${idem.key}`);
  return prior && r.ctx.now - prior.createdAt < r.ttl ? storedAnswer(prior, idem) : left(missing);
};
