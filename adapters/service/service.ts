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
import { lazyRng, rngFromSeed } from '../../core/rng.js';
import { applyMove, createPlayer, login, moveAttemptHash } from '../../core/account.js';
import { sendPresent } from '../../core/shared/grant.js';
import { sha256, tokenHash } from '../../core/secret.js';
import type { LoginRequest, MoveSetRequest, SignupRequest } from '../../core/operations/player.js';
import type { ResponseOf } from '../../core/operations/table.js';
import { E } from '../../core/shared/result.js';
import type { Commit, IdempotencyRecord, Session, Storage } from '../storage/storage.js';
import { StorageError } from '../storage/storage.js';
import { logResults, redactForLog, type LogEntry } from '../storage/log.js';
import { masterHashOf } from '../master/load.js';
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
  /** How long an Idempotency-Key's answer is kept (ms). */
  readonly idempotencyTtlMs?: number;
  /** The master data's hash for the replay log (default: the hash loadMaster recorded, else one of its contents). */
  readonly masterHash?: string;
}

/** A request's Idempotency-Key and the hash of what it asks (method, path, body). */
export interface Idem {
  readonly key: string;
  readonly requestHash: string;
}

export type Answer = E.Either<GameError, Record<string, unknown>>;

/** A live session: its storage key (the hash of its id) and what storage holds. */
export interface ResolvedSession {
  readonly key: string;
  readonly session: Session;
}

const MAX_ATTEMPTS = 5;
/** A session's last-seen time is written at most this often (it bounds idle expiry's precision). */
const TOUCH_INTERVAL_MS = 60_000;

const left = (e: GameError): Answer => E.left(e);

const DAY_MS = 86_400_000;

/** The answer kept for an Idempotency-Key; transient failures are not kept (a retry may succeed). */
const recordOf = (idem: Idem | undefined, answer: Answer, now: number): Commit['idempotency'] => {
  if (!idem) return [];
  if (E.isLeft(answer) && (answer.left.code === 'DB_ERROR' || answer.left.code === 'STATE_CONFLICT')) return [];
  const record: IdempotencyRecord = {
    requestHash: idem.requestHash,
    answer: E.isLeft(answer) ? { error: { ...answer.left } } : { ok: answer.right },
    createdAt: now,
  };
  return [{ key: idem.key, record }];
};

/** A stored answer for a key: the answer itself for the same request, 422 for another. */
const storedAnswer = (prior: IdempotencyRecord, idem: Idem): Answer => {
  if (prior.requestHash !== idem.requestHash) return left(gameError('IDEMPOTENCY_KEY_REUSED', {}));
  return 'ok' in prior.answer ? E.right(prior.answer.ok) : E.left(prior.answer.error as unknown as GameError);
};

export class GameService {
  private readonly locks = new KeyedLock();
  /** Idempotency keys whose first request is still running (per process; storage holds the answers). */
  private readonly inFlight = new Set<string>();
  constructor(readonly deps: ServiceDeps) {}

  private get idemTtl(): number { return this.deps.idempotencyTtlMs ?? DAY_MS; }

  private knownMasterHash: string | undefined;
  /** Names the master data in every replay-log entry. */
  get masterHash(): string {
    return this.knownMasterHash ??= this.deps.masterHash ?? masterHashOf(this.deps.master)
      ?? sha256(JSON.stringify(this.deps.master, (_k, v: unknown) => (v instanceof Map ? [...v] : v)));
  }

  private get master(): Master { return this.deps.master; }

  /**
   * Runs `f` under the locks once per Idempotency-Key. The key is claimed before
   * the locks are taken, so a second request with it while the first still runs is
   * 409 at once; a key already answered returns its stored answer (or 422 when the
   * request differs). `f` commits the record with its own changes; answers that
   * commit nothing commit the record alone.
   */
  private async once(idem: Idem | undefined, now: number, lockKeys: ReadonlyArray<string>, f: () => Promise<{ answer: Answer; committed: boolean }>): Promise<Answer> {
    if (!idem) return this.locks.run(lockKeys, async () => (await f()).answer);
    if (this.inFlight.has(idem.key)) return left(gameError('REQUEST_IN_PROGRESS', {}));
    this.inFlight.add(idem.key);
    try {
      return await this.locks.run(lockKeys, async () => {
        const prior = await this.deps.storage.getIdempotency(idem.key);
        if (prior && now - prior.createdAt < this.idemTtl) return storedAnswer(prior, idem);
        const { answer, committed } = await f();
        const rec = recordOf(idem, answer, now);
        if (!committed && rec && rec.length > 0) {
          const c = await this.commit({ players: [], idempotency: rec });
          if (E.isLeft(c)) return c;
        }
        return answer;
      });
    } finally {
      this.inFlight.delete(idem.key);
    }
  }

  /** The session's player, or 203. A move raises the player's epoch and voids older sessions. */
  async resolveSession(sessionId: string | undefined, now: number): Promise<E.Either<GameError, ResolvedSession>> {
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

  /** Runs a session operation whose request was already decoded by its codec (the session by id, or as resolveSession gave it). */
  async perform(op: AnyOperation, sessionId: string | undefined | ResolvedSession, request: unknown, idem?: Idem): Promise<Answer> {
    const now = this.deps.clock();
    const auth = typeof sessionId === 'object' ? E.right(sessionId) : await this.resolveSession(sessionId, now);
    if (E.isLeft(auth)) return auth;
    const { key, session } = auth.right;
    const playerId = session.playerId;
    const scoped = idem ? { ...idem, key: `p${playerId}:${idem.key}` } : undefined;
    const otherIds = await this.resolveOthers(op.touches?.(request) ?? [], playerId);
    const lockKeys = [playerId, ...otherIds.filter((x): x is number => x !== undefined && x !== playerId)].map((id) => `p:${id}`);
    // Reads of another player need no lock on it; writes to several players lock them all.
    return this.once(scoped, now, op.readOnly ? [`p:${playerId}`] : lockKeys, async () => {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const state = await this.deps.storage.load(playerId);
        if (!state || state.account.sessionEpoch !== session.epoch) return { answer: left(gameError('PLAYER_SESSION_EXPIRED', {})), committed: false };
        const others = await Promise.all(otherIds.map((id) => (id === undefined ? Promise.resolve(undefined) : id === playerId ? Promise.resolve(state) : this.deps.storage.load(id))));
        // Derived only when used (a draw, or a commit's log entry): reads skip the HMAC and the rng set-up.
        let seedMemo: string | undefined;
        const seedOf = () => (seedMemo ??= deriveSeed(this.deps.seedSecret, playerId, state.version, attempt));
        const r = execute(op, state, request, lazyRng(seedOf), now, { master: this.master, others });
        if (E.isLeft(r)) return { answer: r, committed: false };
        const touch = now - session.lastSeenAt > TOUCH_INTERVAL_MS ? [{ key, session: { ...session, lastSeenAt: now } }] : [];
        const answer: Answer = E.right(r.right.response);
        if (!r.right.changed && touch.length === 0) return { answer, committed: false };
        const players: Array<{ state: PlayerState; expectedVersion: number | null }> = [];
        // The states they replaced: the log's hashes reuse what was hashed of their lists.
        const befores: PlayerState[] = [];
        if (r.right.state !== state) { players.push({ state: r.right.state, expectedVersion: state.version }); befores.push(state); }
        r.right.others.forEach((o, i) => {
          const before = others[i];
          if (o && before && o !== before && o.playerId !== playerId) { players.push({ state: o, expectedVersion: before.version }); befores.push(before); }
        });
        const log: LogEntry[] = players.length === 0 ? [] : [{
          kind: 'op', at: now, masterHash: this.masterHash, playerIds: players.map((p) => p.state.playerId), results: logResults(players.map((p) => p.state), befores),
          op: op.name, playerId, ...redactForLog(request, r.right.state), seed: seedOf(), others: otherIds.map((id) => id ?? null),
        }];
        const committed = await this.commit({ players, sessions: touch, idempotency: recordOf(scoped, answer, now), log });
        if (E.isLeft(committed)) return { answer: committed, committed: false };
        if (committed.right) return { answer, committed: true };
        // Another process may have answered the same key meanwhile (shared storage): that answer stands.
        const prior = scoped ? await this.deps.storage.getIdempotency(scoped.key) : undefined;
        if (scoped && prior) return { answer: storedAnswer(prior, scoped), committed: true };
      }
      return { answer: left(gameError('STATE_CONFLICT', { reason: 'the player changed concurrently too often; try again' })), committed: false };
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

  async signup(req: SignupRequest, idem?: Idem): Promise<Answer> {
    const now = this.deps.clock();
    const scoped = idem ? { ...idem, key: `signup:${idem.key}` } : undefined;
    return this.once(scoped, now, [`uuid:${req.uuid}`], async () => {
      const done = (answer: Answer) => ({ answer, committed: false });
      if ((await this.deps.storage.lookup('uuid', req.uuid)) !== undefined) return done(left(gameError('PLAYER_ALREADY_EXISTS', {})));
      const playerId = await this.deps.storage.nextPlayerId();
      const accessToken = this.deps.newToken();
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const seed = deriveSeed(this.deps.seedSecret, 'signup', playerId, attempt);
        const inputs = { playerId, uuid: req.uuid, platform: req.platform, name: req.name ?? '', stepCode: req.stepCode ?? 0, tokenHash: tokenHash(accessToken) };
        const created = createPlayer(this.master, inputs, rngFromSeed(seed), now);
        if (E.isLeft(created)) return done(created);
        const answer: Answer = E.right({ playerId, accessToken } satisfies ResponseOf<'signupPlayer'>);
        const log: LogEntry[] = [{ kind: 'signup', at: now, masterHash: this.masterHash, playerIds: [playerId], results: logResults([created.right]), ...inputs, seed }];
        const committed = await this.commit({ players: [{ state: created.right, expectedVersion: null }], idempotency: recordOf(scoped, answer, now), log });
        if (E.isLeft(committed)) return done(committed);
        if (committed.right) return { answer, committed: true };
        // A friend-code collision: the next attempt draws another code.
      }
      return done(left(gameError('STATE_CONFLICT', { reason: 'could not allocate a friend code; try again' })));
    });
  }

  async login(req: LoginRequest, idem?: Idem): Promise<Answer> {
    const now = this.deps.clock();
    const playerId = await this.deps.storage.lookup('uuid', req.uuid);
    if (playerId === undefined) return left(gameError('PLAYER_NOT_FOUND', {}));
    const scoped = idem ? { ...idem, key: `login${playerId}:${idem.key}` } : undefined;
    return this.once(scoped, now, [`p:${playerId}`], async () => {
      const done = (answer: Answer) => ({ answer, committed: false });
      const state = await this.deps.storage.load(playerId);
      if (!state) return done(left(gameError('PLAYER_NOT_FOUND', {})));
      const r = login(state, req.uuid, req.accessToken, now);
      if (E.isLeft(r)) return done(r);
      const sessionId = this.deps.newToken();
      const session: Session = { playerId, epoch: state.account.sessionEpoch, createdAt: now, lastSeenAt: now };
      const next = { ...r.right, version: state.version + 1 };
      const answer: Answer = E.right({ sessionId, playerId } satisfies ResponseOf<'loginPlayer'>);
      const log: LogEntry[] = [{ kind: 'login', at: now, masterHash: this.masterHash, playerIds: [playerId], results: logResults([next], [state]), playerId }];
      const committed = await this.commit({ players: [{ state: next, expectedVersion: state.version }], sessions: [{ key: sha256(`session:${sessionId}`), session }], idempotency: recordOf(scoped, answer, now), log });
      if (E.isLeft(committed)) return done(committed);
      if (!committed.right) return done(left(gameError('STATE_CONFLICT', { reason: 'the player changed during log-in; try again' })));
      return { answer, committed: true };
    });
  }

  async moveSet(req: MoveSetRequest, idem?: Idem): Promise<Answer> {
    const now = this.deps.clock();
    const playerId = await this.deps.storage.lookup('moveCode', req.moveCode);
    if (playerId === undefined) return left(gameError('INVALID_MOVE_PARAMETERS', { reason: 'unknown code' }));
    const scoped = idem ? { ...idem, key: `move${playerId}:${idem.key}` } : undefined;
    return this.once(scoped, now, [`p:${playerId}`, `uuid:${req.uuid}`], async () => {
      const done = (answer: Answer) => ({ answer, committed: false });
      const state = await this.deps.storage.load(playerId);
      if (!state) return done(left(gameError('INVALID_MOVE_PARAMETERS', { reason: 'unknown code' })));
      const holder = await this.deps.storage.lookup('uuid', req.uuid);
      if (holder !== undefined && holder !== playerId) return done(left(gameError('PLAYER_ALREADY_EXISTS', {})));
      const accessToken = this.deps.newToken();
      // Hashed once here, so the log keeps the attempt without the password.
      const inputs = { moveCode: req.moveCode, uuid: req.uuid, platform: req.platform, tokenHash: tokenHash(accessToken), movePasswordHash: state.move ? moveAttemptHash(state, req.movePassword) : '' };
      const r = applyMove(this.master, state, inputs, now);
      const answer: Answer = r.error ?? E.right({ accessToken, playerId } satisfies ResponseOf<'setPlayerMove'>);
      if (r.state === state) return done(answer);
      // A failed try is kept too (it counts toward voiding the code).
      const next = { ...r.state, version: state.version + 1 };
      const log: LogEntry[] = [{ kind: 'moveSet', at: now, masterHash: this.masterHash, playerIds: [playerId], results: logResults([next], [state]), playerId, ...inputs }];
      const committed = await this.commit({ players: [{ state: next, expectedVersion: state.version }], idempotency: recordOf(scoped, answer, now), log });
      if (E.isLeft(committed)) return done(committed);
      if (!committed.right) return done(left(gameError('STATE_CONFLICT', { reason: 'the player changed during the move; try again' })));
      return { answer, committed: true };
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
          const next = { ...sendPresent(state, grant, { ...meta, source: 'operator' }, now).state, version: state.version + 1 };
          const log: LogEntry[] = [{ kind: 'admin.present', at: now, masterHash: this.masterHash, playerIds: [id], results: logResults([next], [state]), playerId: id, grant, meta }];
          const committed = await this.commit({ players: [{ state: next, expectedVersion: state.version }], log });
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
