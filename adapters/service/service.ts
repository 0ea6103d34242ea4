// The game service: runs table entries against storage, every one the same way, in
// flat steps (see serve):
//   locate the player (the entry's `find`) → lock it → load it once and check the
//   session's epoch → claim the Idempotency-Key (a stored answer ends here) →
//   execute (reducer, after-hooks, bump) → plan the commit (a value) → commit it once
//   with the version check → on a conflict, again on the fresh state.
// Secrets (access tokens, session ids) are made here, at the edge, and passed in.
import { gameError, type GameError } from '../../core/errors.js';
import type { Master } from '../../core/master/index.js';
import { requestError } from '../../core/codecs.js';
import { execute, findOf, type AnyOperation, type Issued } from '../../core/operation.js';
import type { PlayerState } from '../../core/state.js';
import { lazyRng } from '../../core/rng.js';
import { unbornPlayer } from '../../core/account.js';
import { sha256, tokenHash } from '../../core/secret.js';
import { E } from '../../core/shared/result.js';
import type { Commit, Storage } from '../storage/storage.js';
import { StorageError } from '../storage/storage.js';
import { masterHashOf } from '../master/load.js';
import { MasterBook, type MasterInForce } from '../master/book.js';
import { MemoryMasterRegistry } from '../master/registry.js';
import { contextAt, type Idem, type RequestContext } from './context.js';
import { KeyedLock } from './locks.js';
import { Awaiting, orDbError, whenDurable } from './pipelined.js';
import { deriveSeed } from './seed.js';
import { left, recordOf, scopedKey, secretsOf, storedAnswer, type Answer } from './answers.js';
import { locate, missingOf, resolveOthers, unlocated, type Located } from './locate.js';
import { planOf, type Plan } from './plan.js';
import { resolveSession, sessionWrites, type ResolvedSession } from './sessions.js';
import { withErasure } from './erasure.js';
import { answerNoOne, type NoOneEnv } from './no-one.js';
import { storageDefaults, type StorageDefaults } from './storage-defaults.js';
import { OperatorService } from './operator.js';
import { LiveOps } from '../liveops/board.js';
import { MemoryLiveOpsRecords } from '../liveops/records.js';
import { closedBy, closedTo, maintenanceError, suspendedError } from './gates.js';

export type { Idem, RequestContext } from './context.js';
export type { Answer } from './answers.js';

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
  /**
   * The game data's versions and their schedule: each request is served with the
   * version in force at its `now` (default: a book in memory, starting with `master`).
   */
  readonly book?: MasterBook;
  /** The operator's maintenance window and notices (default: kept in memory). */
  readonly liveOps?: LiveOps;
}

/** Commits tried before STATE_CONFLICT, unless the entry says otherwise. */
const MAX_ATTEMPTS = 5;
const CONFLICT = 'the player changed concurrently too often; try again';
const DAY_MS = 86_400_000;
/** A run whose states went stale before it committed: run again on fresh ones. */
const RETRY = Symbol('retry');

/** One request on its way through: the entry, its decoded request and what was found for it. */
interface Run {
  readonly op: AnyOperation;
  readonly ctx: RequestContext;
  readonly request: unknown;
  readonly located: Located;
  /** The Idempotency-Key scoped by who the caller is; none when the request gave none. */
  readonly idem: Idem | undefined;
  readonly issued: Issued | undefined;
}

export class GameService {
  private readonly locks = new KeyedLock();
  /** Idempotency keys whose first request is still running in this process (a shared storage also claims them for all processes). */
  private readonly inFlight = new Set<string>();
  private readonly store: Storage;
  private readonly defaults: StorageDefaults;
  /** The operator's reads and writes (the admin API). */
  readonly operator: OperatorService;
  /** The maintenance window, notices, present sends and operators (the operator's records). */
  readonly liveOps: LiveOps;

  constructor(private readonly deps: ServiceDeps) {
    this.store = deps.storage;
    this.liveOps = deps.liveOps ?? new LiveOps(new MemoryLiveOpsRecords());
    this.defaults = storageDefaults(deps.storage);
    this.operator = new OperatorService({
      storage: this.store,
      defaults: this.defaults,
      masterAt: (now) => this.masterAt(now).master,
      sessionIdleMs: deps.sessionIdleMs,
      context: () => this.context(),
      runDecoded: (op, ctx, request) => this.runDecoded(op, ctx, request, undefined),
      exclusive: (keys, f) => this.locks.run(keys, f),
      commit: (c) => this.commit(c),
      liveOps: this.liveOps,
    });
  }

  /**
   * The game data a request is served with: the version in force at its `now` (the
   * book's schedule), else the one the service was started with.
   */
  masterAt(now: number): MasterInForce {
    return this.book.at(now);
  }

  /** The game data's versions and schedule (publish, schedule, cancel: the operator's). */
  get book(): MasterBook {
    return (this.ownBook ??=
      this.deps.book ??
      new MasterBook({ master: this.deps.master, version: this.masterHash }, new MemoryMasterRegistry()));
  }
  private ownBook: MasterBook | undefined;

  private noOneEnv(now: number): NoOneEnv {
    return {
      seedSecret: this.deps.seedSecret,
      master: this.masterAt(now).master,
      notices: this.liveOps.noticesAt(now),
    };
  }

  /** The clock, read once per request by the edge. */
  now(): number {
    return this.deps.clock();
  }

  /** Null when the storage takes writes now, else why not (GET /readyz). */
  async storageProblem(): Promise<string | null> {
    return (await this.store.check?.()) ?? null;
  }

  /** The storage's token buckets when it is shared by several processes (rate limits hold across them); else none. */
  get sharedBuckets(): Storage['takeTokens'] {
    return this.store.takeTokens?.bind(this.store);
  }

  private knownMasterHash: string | undefined;
  /** Names the master data the service was started with (replay-log entries name the version they ran with). */
  get masterHash(): string {
    return (this.knownMasterHash ??=
      this.deps.masterHash ??
      masterHashOf(this.deps.master) ??
      sha256(JSON.stringify(this.deps.master, (_k, v: unknown) => (v instanceof Map ? [...v] : v))));
  }

  /** A context for a caller that is not a request (tools, tests): the clock read once. */
  context(extra: Partial<Omit<RequestContext, 'now'>> = {}): RequestContext {
    return contextAt(this.deps.clock(), extra);
  }

  /**
   * Serves a table entry: `input` is the request as received (decoded here with the
   * entry's codec). An entry found by session checks the session first, so an
   * anonymous caller learns nothing about request shapes.
   */
  async run(op: AnyOperation, ctx: RequestContext, input: unknown): Promise<Answer> {
    try {
      // In a maintenance window only its allowed players pass: a caller with no player never does.
      const closed = closedBy(this.liveOps, op, ctx.now);
      if (closed && closed.allowPlayerIds.length === 0) return left(maintenanceError(closed));
      let session: ResolvedSession | undefined;
      if (findOf(op).by === 'session') {
        const auth = await resolveSession(this.store, ctx.session, ctx.now, this.deps.sessionIdleMs);
        if (E.isLeft(auth)) return closed ? left(maintenanceError(closed)) : auth;
        session = auth.right;
      }
      const decoded = op.request.decode(input);
      if (decoded._tag === 'Left') return left(requestError(decoded.left));
      return await this.runDecoded(op, ctx, decoded.right, session);
    } catch (e) {
      // A read the storage could not serve (a damaged snapshot, an I/O error): 105, never a 500, never the data.
      if (e instanceof StorageError) return left(gameError('DB_ERROR', { reason: e.message }));
      throw e;
    }
  }

  /** The commit path of a decoded request: locate → (no one: answer) → exclusive → under the lock. */
  private async runDecoded(
    op: AnyOperation,
    ctx: RequestContext,
    request: unknown,
    session: ResolvedSession | undefined,
  ): Promise<Answer> {
    const located = await locate(this.store, op, request, session);
    const closed = closedTo(this.liveOps, op, ctx.now, E.isRight(located) ? located.right.playerId : undefined);
    if (closed) return left(closed);
    if (E.isLeft(located)) return unlocated(this.store, { op, ctx, request, ttl: this.idemTtl }, located.left);
    if (findOf(op).by === 'none') return answerNoOne(op, request, ctx.now, this.noOneEnv(ctx.now));
    const run: Run = {
      op,
      ctx,
      request,
      located: located.right,
      idem: scopedKey(ctx.idempotencyKey, located.right.scope),
      issued: this.issuedFor(op),
    };
    if (run.idem && this.inFlight.has(run.idem.key)) return left(gameError('REQUEST_IN_PROGRESS', {}));
    if (run.idem) this.inFlight.add(run.idem.key);
    try {
      // The lock is let go once the commit is taken; the answer waits for it to be durable (pipelined.ts).
      return await whenDurable(await this.locks.run(run.located.lockKeys, () => this.underLock(run)));
    } finally {
      if (run.idem) this.inFlight.delete(run.idem.key);
    }
  }

  /**
   * Under the locks: the player loaded once and its session's epoch checked (a moved
   * account's old session is 203, never a stored answer), then the key claimed for
   * every process (its stored answer, or 409 while another runs it), then the attempts.
   */
  private async underLock(run: Run): Promise<Answer | Awaiting> {
    const first = await this.loadChecked(run, run.located.playerId);
    if (E.isLeft(first)) return first;
    if (!run.idem) return this.attempts(run, first.right);
    const claim = await this.defaults.claimIdempotency(run.idem.key, run.ctx.now);
    if (claim.record && run.ctx.now - claim.record.createdAt < this.idemTtl)
      return storedAnswer(claim.record, run.idem);
    if (!claim.claimed) return left(gameError('REQUEST_IN_PROGRESS', {}));
    try {
      return await this.attempts(run, first.right);
    } finally {
      // Released by the commit that kept the answer; otherwise here (a failure kept nothing).
      await this.defaults.releaseIdempotency(run.idem.key).catch(() => undefined);
    }
  }

  /**
   * The player as stored now, checked: there (else the entry's `missing`), still the
   * session's (its epoch), and its claimed uuid free or its own. A new player, and an
   * entry on no one, load nothing (undefined).
   */
  private async loadChecked(run: Run, id: number | undefined): Promise<E.Either<GameError, PlayerState | undefined>> {
    if (id === undefined || findOf(run.op).by === 'new') return E.right(undefined);
    // On the commits taken before it, durable or not: its answer waits until they are (settle).
    const state = await this.defaults.loadLatest(id);
    const session = run.located.session?.session;
    // A suspension ends the sessions (raises the epoch); their requests answer 204 until it ends, then 203.
    const suspended = state && suspendedError(run.op, state, run.ctx.now);
    if (suspended) return E.left(suspended);
    if (!state || (session && state.account.sessionEpoch !== session.epoch)) return E.left(missingOf(run.op));
    const find = findOf(run.op);
    const claims = 'claims' in find ? find.claims?.(run.request) : undefined;
    const holder = claims === undefined ? undefined : await this.store.lookup('uuid', claims);
    if (holder !== undefined && holder !== id) return E.left(gameError('PLAYER_ALREADY_EXISTS', {}));
    return E.right(state);
  }

  /** A new player's id: its uuid must be free (checked under its lock, before an id is spent). */
  private async allocate(run: Run): Promise<E.Either<GameError, number>> {
    const find = findOf(run.op);
    if (find.by !== 'new') return E.right(run.located.playerId as number);
    if ((await this.store.lookup('uuid', find.claims(run.request))) !== undefined)
      return E.left(gameError('PLAYER_ALREADY_EXISTS', {}));
    return E.right(await this.store.nextPlayerId());
  }

  /** Runs and commits, again on fresh states after a conflict, up to the entry's attempts. */
  private async attempts(run: Run, first: PlayerState | undefined): Promise<Answer | Awaiting> {
    const id = await this.allocate(run);
    if (E.isLeft(id)) return this.settleAlone(run, left(id.left));
    run.ctx.onPlayer?.(id.right);
    const find = findOf(run.op);
    const attempts = 'attempts' in find ? find.attempts : MAX_ATTEMPTS;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const loaded = attempt === 0 ? E.right(first) : await this.loadChecked(run, id.right);
      if (E.isLeft(loaded)) return this.settleAlone(run, left(loaded.left));
      const settled = await this.settle(
        run,
        await this.attemptOn(run, id.right, attempt, loaded.right ?? unbornPlayer(id.right)),
      );
      if (settled !== RETRY) return settled;
      // Another process may have answered the same key meanwhile (shared storage): that answer stands.
      const prior = run.idem ? await this.store.getIdempotency(run.idem.key) : undefined;
      if (run.idem && prior) return storedAnswer(prior, run.idem);
    }
    return left(gameError('STATE_CONFLICT', { reason: 'conflict' in find ? find.conflict : CONFLICT }));
  }

  /** One attempt: the others the request names, then execute, then the plan of what to commit. */
  private async attemptOn(run: Run, id: number, attempt: number, state: PlayerState): Promise<Plan> {
    const isNew = findOf(run.op).by === 'new';
    // Most entries name no one else: then nothing is awaited for them (a read's path).
    const refs = run.op.touches?.(run.request) ?? [];
    const otherIds = refs.length === 0 ? [] : await resolveOthers(this.store, refs, state);
    const others = await Promise.all(
      otherIds.map((o) => (o === undefined ? undefined : o === id ? state : this.defaults.loadLatest(o))),
    );
    // Derived only when used (a draw, or a commit's log entry): reads skip the HMAC and the rng set-up.
    let seedMemo: string | undefined;
    const seed = () =>
      (seedMemo ??= isNew
        ? deriveSeed(this.deps.seedSecret, 'signup', id, attempt)
        : deriveSeed(this.deps.seedSecret, id, state.version, attempt));
    const now = run.ctx.now;
    const inForce = this.masterAt(now);
    const executed = execute(run.op, state, run.request, lazyRng(seed), now, {
      master: inForce.master,
      others,
      ...(run.issued ? { issued: run.issued } : {}),
    });
    const { sessions, erase } = E.isRight(executed)
      ? await withErasure(
          this.store,
          state,
          executed.right.state,
          sessionWrites(run.op, run.located.session, executed.right.state, now, run.issued, this.deps.sessionIdleMs),
          now,
          this.idemTtl,
        )
      : { sessions: [] };
    return planOf({
      op: run.op,
      request: run.request,
      now,
      state,
      isNew,
      otherIds,
      others,
      executed,
      sessions,
      masterHash: inForce.version,
      seed,
      issued: run.issued,
      ...(erase ? { erase } : {}),
    });
  }

  /**
   * Commits a plan once, with the key's record in the same commit. A plan that writes
   * nothing (no key either) commits nothing: its answer stands when the states it read
   * are still current. RETRY when they are not, or the commit met a newer version.
   */
  private async settle(run: Run, plan: Plan): Promise<Answer | Awaiting | typeof RETRY> {
    // A read's answer is not kept: it changed nothing, so a retry may run it again, and it
    // would keep other players' names (a friend list, a search) in the caller's answers.
    const idempotency = run.op.readOnly ? [] : recordOf(run.idem, plan.answer, run.ctx.now, secretsOf(run.op));
    const c: Commit = idempotency.length > 0 ? { ...plan.commit, idempotency } : plan.commit;
    if (c.players.length === 0 && (c.sessions ?? []).length === 0 && idempotency.length === 0) {
      // Answered once the states it read are durable (a write may read a commit not yet written).
      return (await this.defaults.verify(plan.read))
        ? new Awaiting(plan.answer, this.defaults.durable(plan.read))
        : RETRY;
    }
    const taken = await orDbError(() => this.defaults.accept(c));
    if (E.isLeft(taken)) return taken;
    return taken.right.result.ok ? new Awaiting(plan.answer, taken.right.durable) : RETRY;
  }

  /** A refusal made before anything ran (the uuid taken, the player gone): kept for its key, nothing else written. */
  private async settleAlone(run: Run, answer: Answer): Promise<Answer | Awaiting> {
    const settled = await this.settle(run, { answer, commit: { players: [] }, read: [] });
    return settled === RETRY ? answer : settled;
  }

  /** Secrets the entry needs, made on first use (a request that fails before needs none), once per request. */
  private issuedFor(op: AnyOperation): Issued | undefined {
    if (!op.issues) return undefined;
    const newToken = this.deps.newToken;
    let token: string | undefined;
    let sessionId: string | undefined;
    return {
      get accessToken() {
        return (token ??= newToken());
      },
      get accessTokenHash() {
        return tokenHash(this.accessToken);
      },
      get sessionId() {
        return (sessionId ??= newToken());
      },
    };
  }

  private get idemTtl(): number {
    return this.deps.idempotencyTtlMs ?? DAY_MS;
  }

  /** Commits; Right(false) means a conflict worth retrying, Left a storage failure. */
  private async commit(c: Commit): Promise<E.Either<GameError, boolean>> {
    const r = await orDbError(() => this.store.commit(c));
    return E.isLeft(r) ? r : E.right(r.right.ok);
  }
}
