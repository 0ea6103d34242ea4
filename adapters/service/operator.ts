// The operator's reads and writes (the admin API's), beside the game service: a
// player as stored now, players found by a key, their sessions (listed and ended),
// the reach of a present and its sending (each player on the commit path, by the
// entry adminSendPresent), and the draws every player made on a gacha.
import { gameError, type GameError } from '../../core/errors.js';
import type { Master } from '../../core/master/index.js';
import { grantTargetExists } from '../../core/master/index.js';
import type { Grant } from '../../core/master/common.js';
import type { AnyOperation } from '../../core/operation.js';
import { entryByName } from '../../core/operations/table.js';
import type { DrawRecord, PlayerState } from '../../core/state.js';
import { E } from '../../core/shared/result.js';
import { evenly } from '../../core/shared/sample.js';
import type { Commit, Session, Storage } from '../storage/storage.js';
import type { Answer } from './answers.js';
import type { RequestContext } from './context.js';
import { idleLimitMs } from './sessions.js';
import type { StorageDefaults } from './storage-defaults.js';
import type { LiveOps } from '../liveops/board.js';

/** A session as the operator's console lists it: live, expired (unused too long) or voided (by an account move). */
export interface OperatorSession {
  readonly key: string;
  readonly session: Session;
  readonly status: 'live' | 'expired' | 'voided';
}

/** What the operator's service is given by the game service: its storage, and its commit path and locks. */
export interface OperatorHost {
  readonly storage: Storage;
  readonly defaults: StorageDefaults;
  /** The game data in force at an instant. */
  readonly masterAt: (now: number) => Master;
  readonly sessionIdleMs: number;
  /** A context read from the service's clock, for a caller that is not a request. */
  readonly context: () => RequestContext;
  /** The game service's commit path for a decoded request of an entry. */
  readonly runDecoded: (op: AnyOperation, ctx: RequestContext, request: unknown) => Promise<Answer>;
  /** Runs f holding the locks of these keys (the game service's). */
  readonly exclusive: <T>(keys: ReadonlyArray<string>, f: () => Promise<T>) => Promise<T>;
  readonly commit: (c: Commit) => Promise<E.Either<GameError, boolean>>;
  /** The operator's records: sends are kept there for their recall. */
  readonly liveOps: LiveOps;
}

/** What a player can be found by. */
export type FindKey = 'playerId' | 'uuid' | 'myCode' | 'name';

/** The entry that puts one present in one player's box (logged and replayed like the game's). */
const SEND_ONE = entryByName('adminSendPresent') as AnyOperation;
const RECALL_ONE = entryByName('adminRecallPresents') as AnyOperation;
const SUSPEND_ONE = entryByName('adminSuspendPlayer') as AnyOperation;
const LIFT_ONE = entryByName('adminLiftSuspension') as AnyOperation;
/** The entries that make an exported state a new player, or write it over the same one. */
const IMPORT = entryByName('adminImportPlayer') as AnyOperation;
const RESTORE = entryByName('adminRestorePlayer') as AnyOperation;

export class OperatorService {
  constructor(private readonly host: OperatorHost) {}

  private get storage(): Storage {
    return this.host.storage;
  }

  /** The player as stored now (a state another process has moved on is read again). */
  async readPlayer(playerId: number): Promise<PlayerState | undefined> {
    const s = await this.storage.load(playerId);
    if (!s || (await this.host.defaults.verify([s]))) return s;
    return this.storage.load(playerId);
  }

  /** The players a key finds (a name: up to `limit`), as stored now. */
  async findPlayers(key: FindKey, value: string | number, limit: number): Promise<PlayerState[]> {
    const ids =
      key === 'playerId'
        ? [Number(value)]
        : key === 'name'
          ? await this.host.defaults.findByName(String(value), limit)
          : [await this.storage.lookup(key, String(value))].filter((id): id is number => id !== undefined);
    return (await Promise.all(ids.map((id) => this.readPlayer(id)))).filter((s): s is PlayerState => s !== undefined);
  }

  /** A player's sessions as the operator sees them: live, or why not (idle too long, voided by an account move). */
  async sessionsOfPlayer(playerId: number, now: number): Promise<E.Either<GameError, OperatorSession[]>> {
    const state = await this.storage.load(playerId);
    if (!state) return E.left(gameError('PLAYER_NOT_FOUND', {}));
    const idle = idleLimitMs(this.host.sessionIdleMs);
    return E.right(
      (await this.storage.sessionsOf(playerId)).map(({ key, session }) => ({
        key,
        session,
        status:
          session.epoch !== state.account.sessionEpoch
            ? 'voided'
            : now - session.lastSeenAt >= idle
              ? 'expired'
              : 'live',
      })),
    );
  }

  /**
   * Ends sessions of a player (each by its key, or all of them): removed, so their
   * next request is 203. Under the player's lock, like every change to the player.
   */
  async endSessions(
    playerId: number,
    keys: ReadonlyArray<string> | 'all',
  ): Promise<E.Either<GameError, { ended: number }>> {
    return this.host.exclusive([`p:${playerId}`], async () => {
      if (!(await this.storage.load(playerId))) return E.left(gameError('PLAYER_NOT_FOUND', {}));
      const held = new Set((await this.storage.sessionsOf(playerId)).map((x) => x.key));
      const unknown = keys === 'all' ? undefined : keys.find((k) => !held.has(k));
      if (unknown !== undefined)
        return E.left(gameError('NOT_FOUND', { entity: `session of player ${playerId}`, id: unknown }));
      const ending = keys === 'all' ? [...held] : [...new Set(keys)];
      if (ending.length === 0) return E.right({ ended: 0 });
      const c = await this.host.commit({ players: [], sessions: ending.map((key) => ({ key, session: null })) });
      return E.isLeft(c) ? c : E.right({ ended: ending.length });
    });
  }

  /**
   * What a present to these players would reach, before it is sent: the players
   * named (or every player), those found, and of them those whose present box is
   * full (skipped by a list or a broadcast).
   */
  async presentReach(
    target: ReadonlyArray<number> | 'all',
    now: number,
  ): Promise<{ players: number; reaches: number; boxFull: number; notFound: number }> {
    const ids = target === 'all' ? await this.storage.playerIds() : [...new Set(target)];
    const max = this.host.masterAt(now).game.presents.boxMax;
    let found = 0;
    let boxFull = 0;
    for (const id of ids) {
      const s = await this.storage.load(id);
      if (!s) continue;
      found++;
      // Presents past their deadline make room (grant.ts sendPresent drops them as it adds one).
      if (s.presents.filter((p) => p.deadline === null || p.deadline > now).length >= max) boxFull++;
    }
    return { players: ids.length, reaches: found - boxFull, boxFull, notFound: ids.length - found };
  }

  /**
   * Sends a present to one player, a list of players or every player (the entry
   * adminSendPresent, once per player, on the commit path); returns how many received it.
   */
  async sendPresents(
    target: number | ReadonlyArray<number> | 'all',
    grant: Grant,
    meta: { title: string; message: string; deadline: number | null },
    ctx: RequestContext = this.host.context(),
    by = 'admin',
  ): Promise<E.Either<GameError, { sent: number; sendId: number }>> {
    // Checked once before a broadcast walks the players (the entry checks it again for each).
    if (!grantTargetExists(this.host.masterAt(ctx.now), grant))
      return E.left(gameError('NOT_FOUND', { entity: grant.kind, id: grant.objectId }));
    const one = typeof target === 'number';
    const ids = target === 'all' ? await this.storage.playerIds() : one ? [target] : [...new Set(target)];
    // Every present of the send carries its id: a recall takes back those still unreceived.
    const sendId = await this.host.liveOps.nextSendId();
    const reached: number[] = [];
    const keep = async () => {
      if (reached.length === 0) return;
      await this.host.liveOps.keepSend(
        {
          id: sendId,
          at: ctx.now,
          by,
          grant,
          ...meta,
          target: target === 'all' ? 'all' : one ? 'one' : 'list',
          sent: reached.length,
          recalledAt: null,
          removed: 0,
          alreadyReceived: 0,
        },
        reached,
      );
    };
    for (const playerId of ids) {
      const r = await this.host.runDecoded(
        SEND_ONE,
        { ...ctx, idempotencyKey: undefined },
        { playerId, grant, ...meta, sendId },
      );
      if (E.isLeft(r)) {
        // A player gone from a list or broadcast is skipped, as is one whose present box is full (not
        // counted in `sent`); a single named one that does not exist is 202, one with a full box 313.
        if ((r.left.code === 'PLAYER_NOT_FOUND' || r.left.code === 'PRESENT_LIMIT') && !one) continue;
        await keep();
        return E.left(r.left);
      }
      reached.push(playerId);
    }
    await keep();
    return E.right({ sent: reached.length, sendId });
  }

  /**
   * Takes back a send's presents still unreceived, from every player it reached (the
   * entry adminRecallPresents, once per player); those received stay with the player.
   */
  async recall(
    sendId: number,
    ctx: RequestContext = this.host.context(),
  ): Promise<E.Either<GameError, { removed: number; alreadyReceived: number; players: number }>> {
    const kept = await this.host.liveOps.send(sendId);
    if (!kept) return E.left(gameError('NOT_FOUND', { entity: 'send', id: sendId }));
    let removed = 0;
    let alreadyReceived = 0;
    let players = 0;
    for (const playerId of kept.playerIds) {
      const r = await this.host.runDecoded(RECALL_ONE, { ...ctx, idempotencyKey: undefined }, { playerId, sendId });
      // A player deleted since the send has nothing left to recall.
      if (E.isLeft(r)) {
        if (r.left.code === 'PLAYER_NOT_FOUND') continue;
        return E.left(r.left);
      }
      players++;
      removed += r.right['removed'] as number;
      alreadyReceived += r.right['alreadyReceived'] as number;
    }
    // A second recall finds nothing more to remove: the record keeps the first's figures and the latest time.
    await this.host.liveOps.markRecalled({
      ...kept.send,
      recalledAt: ctx.now,
      removed: kept.send.removed + removed,
      alreadyReceived,
    });
    return E.right({ removed, alreadyReceived, players });
  }

  /** Suspends a player (its sessions end) until `until` (null: until lifted), or lifts the suspension in force. */
  async suspend(
    playerId: number,
    change: { readonly until: number | null; readonly reason: string; readonly by: string } | 'lift',
    ctx: RequestContext = this.host.context(),
  ): Promise<E.Either<GameError, Record<string, never>>> {
    const r =
      change === 'lift'
        ? await this.host.runDecoded(LIFT_ONE, { ...ctx, idempotencyKey: undefined }, { playerId })
        : await this.host.runDecoded(SUSPEND_ONE, { ...ctx, idempotencyKey: undefined }, { playerId, ...change });
    return E.isLeft(r) ? r : E.right({});
  }

  /**
   * An exported state (core/player-document.ts readDocument read it) made a new player,
   * bound to its uuid or `uuid` (adminImportPlayer), or written over the same player
   * (`overwrite`: adminRestorePlayer); on the commit path, kept in the replay log.
   */
  async importPlayer(
    state: PlayerState,
    how: { readonly overwrite: boolean; readonly uuid?: string },
    ctx: RequestContext = this.host.context(),
  ): Promise<Answer> {
    const once = { ...ctx, idempotencyKey: undefined };
    if (how.overwrite) return this.host.runDecoded(RESTORE, once, { state });
    return this.host.runDecoded(IMPORT, once, { state, ...(how.uuid === undefined ? {} : { uuid: how.uuid }) });
  }

  /** Up to `n` players as stored now, evenly spread over the ids (the game-data preview's sample). */
  async samplePlayers(n: number): Promise<PlayerState[]> {
    const ids = await this.storage.playerIds();
    return (await Promise.all(evenly(ids, n).map((id) => this.readPlayer(id)))).filter(
      (s): s is PlayerState => s !== undefined,
    );
  }

  /** Every draw made on a gacha, by every player (only its records are kept while the histories go by), and how many players were read. */
  async gachaDraws(gachaId: number): Promise<{ records: DrawRecord[]; players: number }> {
    const records: DrawRecord[] = [];
    const players = await this.storage.drawHistories((h) => {
      for (const r of h) if (r.gachaId === gachaId) records.push(r);
    });
    return { records, players };
  }
}
