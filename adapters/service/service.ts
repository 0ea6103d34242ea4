// The game service: runs table operations against storage. One path for every
// operation: resolve the session → load the player(s) under their locks → derive
// the seed → run the reducer → commit with the version check (retry on conflict).
import type { GameError } from '../../core/errors.js';
import { gameError } from '../../core/errors.js';
import type { Master } from '../../core/master/index.js';
import { grantTargetExists } from '../../core/master/index.js';
import type { Grant } from '../../core/master/common.js';
import { execute, type AnyOperation, type OtherRef } from '../../core/operation.js';
import type { PlayerState } from '../../core/state.js';
import { relatedPlayerIds } from '../../core/state/social.js';
import { rngFromSeed } from '../../core/rng.js';
import { applyMove, createPlayer, login } from '../../core/account.js';
import { sendPresent } from '../../core/shared/grant.js';
import { sha256 } from '../../core/secret.js';
import type { LoginRequest, MoveSetRequest, SignupRequest } from '../../core/operations/player.js';
import { E } from '../../core/shared/result.js';
import type { Commit, Session, Storage } from '../storage/storage.js';
import { StorageError } from '../storage/storage.js';
import { KeyedLock } from './locks.js';
import { deriveSeed } from './seed.js';

export interface ServiceDeps {
  readonly storage: Storage;
  readonly master: Master;
  /** The clock, read once per request. */
  readonly clock: () => number;
  /** Secret the seeds are derived from. */
  readonly seedSecret: string;
  /** Makes a fresh random token (access tokens, session ids). */
  readonly newToken: () => string;
  readonly sessionIdleMs: number;
}

export type Answer = E.Either<GameError, Record<string, unknown>>;

const MAX_ATTEMPTS = 5;
/** A session's last-seen time is written at most this often (it bounds idle expiry's precision). */
const TOUCH_INTERVAL_MS = 60_000;

const left = (e: GameError): Answer => E.left(e);

export class GameService {
  private readonly locks = new KeyedLock();
  constructor(readonly deps: ServiceDeps) {}

  private get master(): Master { return this.deps.master; }

  /** The session's player, or 203. A move raises the player's epoch and voids older sessions. */
  async resolveSession(sessionId: string | undefined, now: number): Promise<E.Either<GameError, { key: string; session: Session }>> {
    if (!sessionId) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
    const key = sha256(`session:${sessionId}`);
    const session = await this.deps.storage.getSession(key);
    if (!session || now - session.lastSeenAt > this.deps.sessionIdleMs) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
    return E.right({ key, session });
  }

  private async resolveOthers(refs: ReadonlyArray<OtherRef>, playerId: number): Promise<Array<number | undefined>> {
    // A ref can name several players (related, recentlyActive); env.others lists them in ref order.
    const lists = await Promise.all(refs.map(async (r): Promise<Array<number | undefined>> => {
      switch (r.by) {
        case 'playerId': return [r.playerId];
        case 'myCode': return [await this.deps.storage.lookup('myCode', r.myCode)];
        case 'related': {
          const me = await this.deps.storage.load(playerId);
          return me ? relatedPlayerIds(me) : [];
        }
        case 'recentlyActive': return (await this.deps.storage.recentlyActive(r.count + 1)).filter((id) => id !== playerId).slice(0, r.count);
      }
    }));
    return lists.flat();
  }

  /** Runs a session operation whose request was already decoded by its codec. */
  async perform(op: AnyOperation, sessionId: string | undefined, request: unknown): Promise<Answer> {
    const now = this.deps.clock();
    const auth = await this.resolveSession(sessionId, now);
    if (E.isLeft(auth)) return auth;
    const { key, session } = auth.right;
    const playerId = session.playerId;
    const otherIds = await this.resolveOthers(op.touches?.(request) ?? [], playerId);
    const lockKeys = [playerId, ...otherIds.filter((x): x is number => x !== undefined && x !== playerId)].map((id) => `p:${id}`);
    // Reads of another player need no lock on it; writes to several players lock them all.
    return this.locks.run(op.readOnly ? [`p:${playerId}`] : lockKeys, async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const state = await this.deps.storage.load(playerId);
        if (!state || state.account.sessionEpoch !== session.epoch) return left(gameError('PLAYER_SESSION_EXPIRED', {}));
        const others = await Promise.all(otherIds.map((id) => (id === undefined ? Promise.resolve(undefined) : id === playerId ? Promise.resolve(state) : this.deps.storage.load(id))));
        const rng = rngFromSeed(deriveSeed(this.deps.seedSecret, playerId, state.version, attempt));
        const r = execute(op, state, request, rng, now, { master: this.master, others });
        if (E.isLeft(r)) return r;
        const touch = now - session.lastSeenAt > TOUCH_INTERVAL_MS ? [{ key, session: { ...session, lastSeenAt: now } }] : [];
        if (!r.right.changed && touch.length === 0) return E.right(r.right.response);
        const players: Array<{ state: PlayerState; expectedVersion: number | null }> = [];
        if (r.right.state !== state) players.push({ state: r.right.state, expectedVersion: state.version });
        r.right.others.forEach((o, i) => {
          const before = others[i];
          if (o && before && o !== before && o.playerId !== playerId) players.push({ state: o, expectedVersion: before.version });
        });
        const committed = await this.commit({ players, sessions: touch });
        if (E.isLeft(committed)) return committed;
        if (committed.right) return E.right(r.right.response);
      }
      return left(gameError('STATE_CONFLICT', { reason: 'the player changed concurrently too often; try again' }));
    });
  }

  /** Commits; Right(false) means a conflict worth retrying, Left a storage failure. */
  private async commit(c: Commit): Promise<E.Either<GameError, boolean>> {
    try {
      const res = await this.deps.storage.commit(c);
      return E.right(res.ok);
    } catch (e) {
      if (e instanceof StorageError) return E.left(gameError('DB_ERROR', { reason: e.message }));
      throw e;
    }
  }

  async signup(req: SignupRequest): Promise<Answer> {
    const now = this.deps.clock();
    return this.locks.run([`uuid:${req.uuid}`], async () => {
      if ((await this.deps.storage.lookup('uuid', req.uuid)) !== undefined) return left(gameError('PLAYER_ALREADY_EXISTS', {}));
      const playerId = await this.deps.storage.nextPlayerId();
      const accessToken = this.deps.newToken();
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const rng = rngFromSeed(deriveSeed(this.deps.seedSecret, 'signup', playerId, attempt));
        const created = createPlayer(this.master, { playerId, uuid: req.uuid, platform: req.platform, name: req.name ?? '', stepCode: req.stepCode ?? 0, accessToken }, rng, now);
        if (E.isLeft(created)) return created;
        const committed = await this.commit({ players: [{ state: created.right, expectedVersion: null }] });
        if (E.isLeft(committed)) return committed;
        if (committed.right) return E.right({ playerId, accessToken });
        // A friend-code collision: the next attempt draws another code.
      }
      return left(gameError('STATE_CONFLICT', { reason: 'could not allocate a friend code; try again' }));
    });
  }

  async login(req: LoginRequest): Promise<Answer> {
    const now = this.deps.clock();
    const playerId = await this.deps.storage.lookup('uuid', req.uuid);
    if (playerId === undefined) return left(gameError('PLAYER_NOT_FOUND', {}));
    return this.locks.run([`p:${playerId}`], async () => {
      const state = await this.deps.storage.load(playerId);
      if (!state) return left(gameError('PLAYER_NOT_FOUND', {}));
      const r = login(state, req.uuid, req.accessToken, now);
      if (E.isLeft(r)) return r;
      const sessionId = this.deps.newToken();
      const session: Session = { playerId, epoch: state.account.sessionEpoch, createdAt: now, lastSeenAt: now };
      const next = { ...r.right, version: state.version + 1 };
      const committed = await this.commit({ players: [{ state: next, expectedVersion: state.version }], sessions: [{ key: sha256(`session:${sessionId}`), session }] });
      if (E.isLeft(committed)) return committed;
      if (!committed.right) return left(gameError('STATE_CONFLICT', { reason: 'the player changed during log-in; try again' }));
      return E.right({ sessionId, playerId });
    });
  }

  async moveSet(req: MoveSetRequest): Promise<Answer> {
    const now = this.deps.clock();
    const playerId = await this.deps.storage.lookup('moveCode', req.moveCode);
    if (playerId === undefined) return left(gameError('INVALID_MOVE_PARAMETERS', { reason: 'unknown code' }));
    return this.locks.run([`p:${playerId}`, `uuid:${req.uuid}`], async () => {
      const state = await this.deps.storage.load(playerId);
      if (!state) return left(gameError('INVALID_MOVE_PARAMETERS', { reason: 'unknown code' }));
      const holder = await this.deps.storage.lookup('uuid', req.uuid);
      if (holder !== undefined && holder !== playerId) return left(gameError('PLAYER_ALREADY_EXISTS', {}));
      const accessToken = this.deps.newToken();
      const r = applyMove(this.master, state, { ...req, accessToken }, now);
      if (r.state !== state) {
        const committed = await this.commit({ players: [{ state: { ...r.state, version: state.version + 1 }, expectedVersion: state.version }] });
        if (E.isLeft(committed)) return committed;
        if (!committed.right) return left(gameError('STATE_CONFLICT', { reason: 'the player changed during the move; try again' }));
      }
      if (r.error) return r.error;
      return E.right({ accessToken, playerId });
    });
  }

  // ---- operators ----

  async readPlayer(playerId: number): Promise<PlayerState | undefined> {
    return this.deps.storage.load(playerId);
  }

  /** Sends a present to one player or to every player; returns how many received it. */
  async sendPresents(target: number | 'all', grant: Grant, meta: { title: string; message: string; deadline: number | null }): Promise<E.Either<GameError, { sent: number }>> {
    if (!grantTargetExists(this.master, grant)) return E.left(gameError('NOT_FOUND', { entity: grant.kind, id: grant.objectId }));
    const now = this.deps.clock();
    const ids = target === 'all' ? await this.deps.storage.playerIds() : [target];
    let sent = 0;
    for (const id of ids) {
      const r = await this.locks.run([`p:${id}`], async (): Promise<E.Either<GameError, boolean>> => {
        for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
          const state = await this.deps.storage.load(id);
          if (!state) return E.right(false);
          const next = sendPresent(state, grant, { ...meta, source: 'operator' }, now).state;
          const committed = await this.commit({ players: [{ state: { ...next, version: state.version + 1 }, expectedVersion: state.version }] });
          if (E.isLeft(committed)) return committed;
          if (committed.right) return E.right(true);
        }
        return E.left(gameError('STATE_CONFLICT', { reason: 'the player changed concurrently; try again' }));
      });
      if (E.isLeft(r)) return r;
      if (r.right) sent++;
      else if (target !== 'all') return E.left(gameError('PLAYER_NOT_FOUND', {}));
    }
    return E.right({ sent });
  }
}
