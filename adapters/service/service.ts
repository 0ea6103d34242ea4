// The game service: runs table entries against storage, every one the same way.
// One path from the request context to the commit:
//   find the player (the entry's `find`: by session, by uuid, by move code, new, by id)
//   → claim the Idempotency-Key, lock the player(s)
//   → load → derive the seed → execute (reducer, after-hooks, bump)
//   → commit the states, the sessions, the idempotency record and what ran (the
//     storage logs and hashes it) with the version check → on a conflict, again.
// Secrets (access tokens, session ids) are made here, at the edge, and passed in.
import type { GameError } from '../../core/errors.js';
import { gameError } from '../../core/errors.js';
import type { Master } from '../../core/master/index.js';
import { grantTargetExists } from '../../core/master/index.js';
import type { Grant } from '../../core/master/common.js';
import { requestError } from '../../core/codecs.js';
import { execute, findOf, type AnyOperation, type Issued, type OtherRef } from '../../core/operation.js';
import { entryByName } from '../../core/operations/table.js';
import type { PlayerState } from '../../core/state.js';
import { relatedPlayerIds } from '../../core/state/social.js';
import { lazyRng } from '../../core/rng.js';
import { unbornPlayer } from '../../core/account.js';
import { sha256, tokenHash } from '../../core/secret.js';
import { E } from '../../core/shared/result.js';
import type { Commit, CommitPlayer, IdempotencyRecord, Session, Storage } from '../storage/storage.js';
import { StorageError } from '../storage/storage.js';
import type { LogRun } from '../storage/replay-log.js';
import { masterHashOf } from '../master/load.js';
import { contextAt, type Idem, type RequestContext } from './context.js';
import { KeyedLock } from './locks.js';
import { deriveSeed } from './seed.js';

export type { Idem, RequestContext } from './context.js';

export interface ServiceDeps {
  readonly storage: Storage;
  readonly master: Master;
  /** The clock: the edge reads it once per request (RequestContext.now). */
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

export type Answer = E.Either<GameError, Record<string, unknown>>;

/** A live session: its storage key (the hash of its id) and what storage holds. */
export interface ResolvedSession {
  readonly key: string;
  readonly session: Session;
}

/** A session as the operator's console lists it: live, expired (unused too long) or voided (by an account move). */
export interface OperatorSession {
  readonly key: string;
  readonly session: Session;
  readonly status: 'live' | 'expired' | 'voided';
}

/** Commits tried before STATE_CONFLICT, unless the entry says otherwise. */
const MAX_ATTEMPTS = 5;
const CONFLICT = 'the player changed concurrently too often; try again';
/** A session's last-seen time is written at most this often (it bounds idle expiry's precision). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * How often a session's last-seen time is written: at most once a minute, and at
 * least four times per idle period. A session expires once its last-seen time is
 * the idle time plus this old, so a session used at intervals shorter than the idle
 * time never expires, whatever the setting (issue 18: a 30 s setting used to expire
 * busy sessions), and one left unused expires within idle + min(1 min, idle/4).
 */
export const touchIntervalMs = (sessionIdleMs: number): number => Math.min(TOUCH_INTERVAL_MS, Math.floor(sessionIdleMs / 4));

const left = (e: GameError): Answer => E.left(e);

const DAY_MS = 86_400_000;

/** A move's keys are the new device's: scoped by the uuid it claims (known before the code is looked up). */
const moveScope = (claims: string | undefined, playerId: number): string => (claims === undefined ? `move${playerId}` : `move/${claims}`);

/** The fields of an entry's answer that are secrets the edge made (never stored, never replayed). */
const secretsOf = (op: AnyOperation): ReadonlyArray<string> =>
  op.issues === 'accessToken' ? ['accessToken'] : op.issues === 'session' ? ['sessionId'] : [];

/**
 * The answer kept for an Idempotency-Key; transient failures are not kept (a retry
 * may succeed). A success that handed out a secret is kept without it, marked
 * withheld: its replay is refused (112), so whoever holds the key never gets it.
 */
const recordOf = (idem: Idem | undefined, answer: Answer, now: number, secrets: ReadonlyArray<string> = []): Commit['idempotency'] => {
  if (!idem) return [];
  if (E.isLeft(answer) && (answer.left.code === 'DB_ERROR' || answer.left.code === 'STATE_CONFLICT')) return [];
  const withheld = E.isRight(answer) ? secrets.filter((k) => k in answer.right) : [];
  const ok = E.isRight(answer) && withheld.length > 0 ? Object.fromEntries(Object.entries(answer.right).filter(([k]) => !withheld.includes(k))) : undefined;
  const record: IdempotencyRecord = {
    requestHash: idem.requestHash,
    answer: E.isLeft(answer) ? { error: { ...answer.left } } : { ok: ok ?? answer.right },
    createdAt: now,
    ...(withheld.length > 0 ? { withheld } : {}),
  };
  return [{ key: idem.key, record }];
};

/** A stored answer for a key: the answer itself for the same request, 422 for another, 112 for one whose secret was withheld. */
const storedAnswer = (prior: IdempotencyRecord, idem: Idem): Answer => {
  if (prior.requestHash !== idem.requestHash) return left(gameError('IDEMPOTENCY_KEY_REUSED', {}));
  if (prior.withheld && prior.withheld.length > 0) return left(gameError('ANSWER_WITHHELD', { fields: prior.withheld.join(', ') }));
  return 'ok' in prior.answer ? E.right(prior.answer.ok) : E.left(prior.answer.error as unknown as GameError);
};

/** Who an entry runs on, as its `find` found it before the locks: the player (or none yet), its locks and its idempotency scope. */
interface Found {
  /** The player's id; for a new player, allocated under the lock. */
  readonly playerId: number | undefined;
  readonly session?: ResolvedSession;
  readonly lockKeys: ReadonlyArray<string>;
  /** Keys are scoped by who the caller is: the player (and kind); a sign-up, by the uuid it signs up. */
  readonly scope: string | undefined;
  readonly otherIds: ReadonlyArray<number | undefined>;
}

export class GameService {
  private readonly locks = new KeyedLock();
  /** Idempotency keys whose first request is still running in this process (a shared storage also claims them for all processes). */
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

  /** A context for a caller that is not a request (tools, tests): the clock read once. */
  context(extra: Partial<Omit<RequestContext, 'now'>> = {}): RequestContext { return contextAt(this.deps.clock(), extra); }

  /**
   * Serves a table entry: `input` is the request as received (decoded here with the
   * entry's codec). An entry found by session checks the session first, so an
   * anonymous caller learns nothing about request shapes.
   */
  async run(op: AnyOperation, ctx: RequestContext, input: unknown): Promise<Answer> {
    try {
      return await this.runChecked(op, ctx, input);
    } catch (e) {
      // A read the storage could not serve (a damaged snapshot, an I/O error): 105, never a 500, never the data.
      if (e instanceof StorageError) return left(gameError('DB_ERROR', { reason: e.message }));
      throw e;
    }
  }

  private async runChecked(op: AnyOperation, ctx: RequestContext, input: unknown): Promise<Answer> {
    let session: ResolvedSession | undefined;
    if (findOf(op).by === 'session') {
      if (!op.reduce) return left(gameError('NOT_IMPLEMENTED', { operation: op.name }));
      const auth = await this.resolveSession(ctx.session, ctx.now);
      if (E.isLeft(auth)) return auth;
      session = auth.right;
    }
    const decoded = op.request.decode(input);
    if (decoded._tag === 'Left') return left(requestError(decoded.left));
    return this.commitPath(op, ctx, decoded.right, session);
  }

  /** The session's player, or 203. A move raises the player's epoch and voids older sessions. */
  private async resolveSession(sessionId: string | undefined, now: number): Promise<E.Either<GameError, ResolvedSession>> {
    if (!sessionId) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
    const key = sha256(`session:${sessionId}`);
    const expired = (s: Session | undefined) => !s || now - s.lastSeenAt >= this.deps.sessionIdleMs + touchIntervalMs(this.deps.sessionIdleMs);
    let session = await this.deps.storage.getSession(key);
    // A store that keeps sessions in memory is asked again before a refusal: another process may have used it since.
    if (expired(session)) session = await this.deps.storage.getSession(key, true);
    if (!session || expired(session)) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
    // Checked whole before anything answers from the idempotency store: a moved account's old
    // session is 203, never a stored answer (the epoch is checked again under the lock).
    const me = await this.deps.storage.load(session.playerId);
    if (!me || me.account.sessionEpoch !== session.epoch) return E.left(gameError('PLAYER_SESSION_EXPIRED', {}));
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

  /** The entry's `find`, before any lock: the player, or the answer when there is none. */
  private async find(op: AnyOperation, request: unknown, session: ResolvedSession | undefined): Promise<E.Either<GameError, Found>> {
    const find = findOf(op);
    switch (find.by) {
      case 'session': {
        const playerId = (session as ResolvedSession).session.playerId;
        const otherIds = await this.resolveOthers(op.touches?.(request) ?? [], playerId);
        const others = otherIds.filter((x): x is number => x !== undefined && x !== playerId);
        // Reads of another player need no lock on it; writes to several players lock them all.
        const lockKeys = [playerId, ...(op.readOnly ? [] : others)].map((id) => `p:${id}`);
        return E.right({ playerId, session, lockKeys, scope: `p${playerId}`, otherIds });
      }
      case 'new':
        // Keys are the caller's own: scoped by the uuid it signs up (another caller's same key is another key).
        return E.right({ playerId: undefined, lockKeys: [`uuid:${find.claims(request)}`], scope: `signup/${find.claims(request)}`, otherIds: [] });
      case 'uuid':
      case 'moveCode': {
        const playerId = await this.deps.storage.lookup(find.by, find.key(request));
        if (playerId === undefined) {
          find.whenMissing?.(request);
          return E.left(find.missing);
        }
        const claims = find.claims?.(request);
        return E.right({
          playerId, lockKeys: [`p:${playerId}`, ...(claims === undefined ? [] : [`uuid:${claims}`])],
          scope: find.by === 'uuid' ? `login${playerId}` : moveScope(claims, playerId), otherIds: [],
        });
      }
      case 'playerId': {
        const playerId = find.key(request);
        return E.right({ playerId, lockKeys: [`p:${playerId}`], scope: undefined, otherIds: [] });
      }
      case 'none':
        return E.right({ playerId: 0, lockKeys: [], scope: undefined, otherIds: [] });
    }
  }

  /**
   * Runs `f` under the locks once per Idempotency-Key. The key is claimed before
   * the locks are taken, so a second request with it while the first still runs is
   * 409 at once; a key already answered returns its stored answer (or 422 when the
   * request differs). `f` commits the record with its own changes; answers that
   * commit nothing commit the record alone.
   */
  private async once(idem: Idem | undefined, now: number, lockKeys: ReadonlyArray<string>, f: () => Promise<{ answer: Answer; committed: boolean }>, secrets: ReadonlyArray<string> = []): Promise<Answer> {
    if (!idem) return this.locks.run(lockKeys, async () => (await f()).answer);
    if (this.inFlight.has(idem.key)) return left(gameError('REQUEST_IN_PROGRESS', {}));
    this.inFlight.add(idem.key);
    const storage = this.deps.storage;
    let claimed = false;
    try {
      return await this.locks.run(lockKeys, async () => {
        // A storage shared by several processes claims the key for all of them, reading its answer in the same step.
        const claim = storage.claimIdempotency ? await storage.claimIdempotency(idem.key, now) : { claimed: true, record: await storage.getIdempotency(idem.key) };
        const prior = claim.record;
        if (prior && now - prior.createdAt < this.idemTtl) return storedAnswer(prior, idem);
        if (!claim.claimed) return left(gameError('REQUEST_IN_PROGRESS', {}));
        claimed = storage.claimIdempotency !== undefined;
        const { answer, committed } = await f();
        const rec = recordOf(idem, answer, now, secrets);
        if (!committed && rec && rec.length > 0) {
          const c = await this.commit({ players: [], idempotency: rec });
          if (E.isLeft(c)) return c;
        }
        return answer;
      });
    } finally {
      this.inFlight.delete(idem.key);
      // Released by the commit that kept the answer; otherwise here (a failure kept nothing).
      if (claimed) await storage.releaseIdempotency?.(idem.key).catch(() => undefined);
    }
  }

  /** Secrets the entry needs, made on first use (a request that fails before needs none), once per request. */
  private issuedFor(op: AnyOperation): Issued | undefined {
    if (!op.issues) return undefined;
    const newToken = this.deps.newToken;
    let token: string | undefined;
    let sessionId: string | undefined;
    return {
      get accessToken() { return (token ??= newToken()); },
      get accessTokenHash() { return tokenHash(this.accessToken); },
      get sessionId() { return (sessionId ??= newToken()); },
    };
  }

  /**
   * The one commit path: find → lock → load → reduce (execute: reducer, after-hooks,
   * bump) → commit with the version check and what ran for the log → on a conflict,
   * again on the fresh state, up to the entry's attempts.
   */
  private async commitPath(op: AnyOperation, ctx: RequestContext, request: unknown, session: ResolvedSession | undefined): Promise<Answer> {
    const find = findOf(op);
    const found = await this.find(op, request, session);
    if (E.isLeft(found)) {
      // A retried move whose first request used the code up: its stored answer (112), not "unknown code".
      const claims = find.by === 'moveCode' ? find.claims?.(request) : undefined;
      const prior = ctx.idempotencyKey && claims !== undefined ? await this.deps.storage.getIdempotency(`${moveScope(claims, 0)}:${ctx.idempotencyKey.key}`) : undefined;
      if (prior && ctx.idempotencyKey && ctx.now - prior.createdAt < this.idemTtl) return storedAnswer(prior, ctx.idempotencyKey);
      return found;
    }
    const { otherIds } = found.right;
    const idem = ctx.idempotencyKey;
    const scoped = idem && found.right.scope !== undefined ? { ...idem, key: `${found.right.scope}:${idem.key}` } : undefined;
    const now = ctx.now;
    const attempts = 'attempts' in find ? find.attempts : MAX_ATTEMPTS;
    const issued = this.issuedFor(op);
    const done = (answer: Answer) => ({ answer, committed: false });
    if (find.by === 'none') {
      // No player: the reducer answers from the request and master data; nothing to lock or commit.
      const r = execute(op, unbornPlayer(0), request, lazyRng(() => deriveSeed(this.deps.seedSecret, 'none', now)), now, { master: this.master, others: [] });
      return E.isLeft(r) ? r : E.right(r.right.response);
    }
    return this.once(scoped, now, found.right.lockKeys, async () => {
      let playerId = found.right.playerId;
      if (find.by === 'new') {
        // The uuid it binds must be free: checked under its lock, before an id is spent.
        if ((await this.deps.storage.lookup('uuid', find.claims(request))) !== undefined) return done(left(gameError('PLAYER_ALREADY_EXISTS', {})));
        playerId = await this.deps.storage.nextPlayerId();
      }
      const id = playerId as number;
      ctx.onPlayer?.(id);
      for (let attempt = 0; attempt < attempts; attempt++) {
        // The player as stored now (a new one: unborn, version −1).
        let state: PlayerState;
        if (find.by === 'new') state = unbornPlayer(id);
        else {
          const loaded = await this.deps.storage.load(id);
          if (find.by === 'session') {
            if (!loaded || loaded.account.sessionEpoch !== found.right.session?.session.epoch) return done(left(gameError('PLAYER_SESSION_EXPIRED', {})));
          } else if (!loaded) return done(left(find.missing));
          state = loaded as PlayerState;
          const claims = 'claims' in find ? find.claims?.(request) : undefined;
          if (claims !== undefined) {
            const holder = await this.deps.storage.lookup('uuid', claims);
            if (holder !== undefined && holder !== id) return done(left(gameError('PLAYER_ALREADY_EXISTS', {})));
          }
        }
        const others = await Promise.all(otherIds.map((o) => (o === undefined ? Promise.resolve(undefined) : o === id ? Promise.resolve(state) : this.deps.storage.load(o))));
        // Derived only when used (a draw, or a commit's log entry): reads skip the HMAC and the rng set-up.
        let seedMemo: string | undefined;
        const seedOf = () => (seedMemo ??= find.by === 'new' ? deriveSeed(this.deps.seedSecret, 'signup', id, attempt) : deriveSeed(this.deps.seedSecret, id, state.version, attempt));
        const r = execute(op, state, request, lazyRng(seedOf), now, { master: this.master, others, ...(issued ? { issued } : {}) });
        // What the run read: the player (a new one aside) and the others it named.
        const read = [...(find.by === 'new' ? [] : [state]), ...others.filter((o): o is PlayerState => o !== undefined && o.playerId !== id)];
        // An answer that commits nothing, from states a shared store may have served stale: given only when they are current.
        const current = async () => !this.deps.storage.verify || this.deps.storage.verify(read);
        if (E.isLeft(r)) {
          if (await current()) return done(r);
          continue;
        }
        const next = r.right.state;
        const answer: Answer = r.right.refused ? left(r.right.refused) : E.right(r.right.response);
        const sessions = this.sessionsOf(op, found.right.session, next, now, issued);
        if (!r.right.changed && sessions.length === 0) {
          if (await current()) return done(answer);
          continue;
        }
        const players: CommitPlayer[] = [];
        if (next !== state) players.push({ state: next, expectedVersion: find.by === 'new' ? null : state.version });
        r.right.others.forEach((o, i) => {
          const before = others[i];
          if (o && before && o !== before && o.playerId !== id) players.push({ state: o, expectedVersion: before.version });
        });
        const written = new Set(players.map((p) => p.state.playerId));
        const reads = read.filter((x) => !written.has(x.playerId)).map((x) => ({ playerId: x.playerId, version: x.version }));
        const log: LogRun | undefined = players.length === 0 ? undefined : {
          kind: 'op', at: now, masterHash: this.masterHash, op: op.name, playerId: id,
          request: op.logged ? op.logged(request, state, next) : request, seed: seedOf(), others: otherIds.map((o) => o ?? null),
          ...(op.issues === 'accessToken' && issued ? { issued: { accessTokenHash: issued.accessTokenHash } } : {}),
        };
        const committed = await this.commit({ players, sessions, idempotency: recordOf(scoped, answer, now, secretsOf(op)), ...(log ? { log } : {}), ...(reads.length > 0 ? { reads } : {}) });
        if (E.isLeft(committed)) return done(committed);
        if (committed.right) return { answer, committed: true };
        // Another process may have answered the same key meanwhile (shared storage): that answer stands.
        const prior = scoped ? await this.deps.storage.getIdempotency(scoped.key) : undefined;
        if (scoped && prior) return { answer: storedAnswer(prior, scoped), committed: true };
        // A conflict: the next attempt runs on the fresh state (a new player draws another friend code).
      }
      return done(left(gameError('STATE_CONFLICT', { reason: 'conflict' in find ? find.conflict : CONFLICT })));
    }, secretsOf(op));
  }

  /** Sessions the commit writes: a log-in's new one, or the caller's last-seen time (at most once a minute). */
  private sessionsOf(op: AnyOperation, found: ResolvedSession | undefined, next: PlayerState, now: number, issued: Issued | undefined): Array<{ key: string; session: Session }> {
    if (op.issues === 'session' && issued) {
      return [{ key: sha256(`session:${issued.sessionId}`), session: { playerId: next.playerId, epoch: next.account.sessionEpoch, createdAt: now, lastSeenAt: now } }];
    }
    if (found && now - found.session.lastSeenAt > touchIntervalMs(this.deps.sessionIdleMs)) return [{ key: found.key, session: { ...found.session, lastSeenAt: now } }];
    return [];
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

  // ---- operators ----

  /** The player as stored now (a state another process has moved on is read again). */
  async readPlayer(playerId: number): Promise<PlayerState | undefined> {
    const s = await this.deps.storage.load(playerId);
    if (!s || !this.deps.storage.verify || (await this.deps.storage.verify([s]))) return s;
    return this.deps.storage.load(playerId);
  }

  /** A player's sessions as the operator sees them: live, or why not (idle too long, voided by an account move). */
  async sessionsOfPlayer(playerId: number, now: number): Promise<E.Either<GameError, OperatorSession[]>> {
    const state = await this.deps.storage.load(playerId);
    if (!state) return E.left(gameError('PLAYER_NOT_FOUND', {}));
    const idle = this.deps.sessionIdleMs + touchIntervalMs(this.deps.sessionIdleMs);
    return E.right((await this.deps.storage.sessionsOf(playerId)).map(({ key, session }) => ({
      key, session,
      status: session.epoch !== state.account.sessionEpoch ? 'voided' : now - session.lastSeenAt >= idle ? 'expired' : 'live',
    })));
  }

  /**
   * Ends sessions of a player (each by its key, or all of them): removed, so their
   * next request is 203. Under the player's lock, like every change to the player.
   */
  async endSessions(playerId: number, keys: ReadonlyArray<string> | 'all'): Promise<E.Either<GameError, { ended: number }>> {
    return this.locks.run([`p:${playerId}`], async () => {
      if (!(await this.deps.storage.load(playerId))) return E.left(gameError('PLAYER_NOT_FOUND', {}));
      const held = new Set((await this.deps.storage.sessionsOf(playerId)).map((x) => x.key));
      const unknown = keys === 'all' ? undefined : keys.find((k) => !held.has(k));
      if (unknown !== undefined) return E.left(gameError('NOT_FOUND', { entity: `session of player ${playerId}`, id: unknown }));
      const ending = keys === 'all' ? [...held] : [...new Set(keys)];
      if (ending.length === 0) return E.right({ ended: 0 });
      const c = await this.commit({ players: [], sessions: ending.map((key) => ({ key, session: null })) });
      return E.isLeft(c) ? c : E.right({ ended: ending.length });
    });
  }

  /**
   * What a present to these players would reach, before it is sent: the players
   * named (or every player), those found, and of them those whose present box is
   * full (skipped by a list or a broadcast).
   */
  async presentReach(target: ReadonlyArray<number> | 'all', now: number): Promise<{ players: number; reaches: number; boxFull: number; notFound: number }> {
    const ids = target === 'all' ? await this.deps.storage.playerIds() : [...new Set(target)];
    const max = this.master.game.presents.boxMax;
    let found = 0;
    let boxFull = 0;
    for (const id of ids) {
      const s = await this.deps.storage.load(id);
      if (!s) continue;
      found++;
      // Presents past their deadline make room (grant.ts sendPresent drops them as it adds one).
      if (s.presents.filter((p) => p.deadline === null || p.deadline > now).length >= max) boxFull++;
    }
    return { players: ids.length, reaches: found - boxFull, boxFull, notFound: ids.length - found };
  }

  /**
   * Sends a present to one player, a list of players or every player (the operator
   * entry adminSendPresent, once per player, on the commit path); returns how many received it.
   */
  async sendPresents(target: number | ReadonlyArray<number> | 'all', grant: Grant, meta: { title: string; message: string; deadline: number | null }, ctx: RequestContext = this.context()): Promise<E.Either<GameError, { sent: number }>> {
    // Checked once before a broadcast walks the players (the entry checks it again for each).
    if (!grantTargetExists(this.master, grant)) return E.left(gameError('NOT_FOUND', { entity: grant.kind, id: grant.objectId }));
    const op = entryByName('adminSendPresent') as AnyOperation;
    const one = typeof target === 'number';
    const ids = target === 'all' ? await this.deps.storage.playerIds() : one ? [target] : [...new Set(target)];
    let sent = 0;
    for (const playerId of ids) {
      const r = await this.commitPath(op, { ...ctx, idempotencyKey: undefined }, { playerId, grant, ...meta }, undefined);
      if (E.isLeft(r)) {
        // A player gone from a list or broadcast is skipped, as is one whose present box is full (not
        // counted in `sent`); a single named one that does not exist is 202, one with a full box 313.
        if ((r.left.code === 'PLAYER_NOT_FOUND' || r.left.code === 'PRESENT_LIMIT') && !one) continue;
        return r as E.Either<GameError, never>;
      }
      sent++;
    }
    return E.right({ sent });
  }
}
