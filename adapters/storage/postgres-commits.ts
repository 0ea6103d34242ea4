// PostgreSQL's commits: each one call of commit_v5, and under load several to a call (group
// commit, grouped-calls.ts). A call of several is one statement calling commit_v5 once for
// each, so one transaction: all are stored or none. When PostgreSQL answers it with an
// error (a conflict, a serialization failure, a timeout, a check), nothing of it was kept,
// and each commit is sent again alone: the one that fails is answered with its own failure
// and the others are stored. A call whose answer never came (the connection lost) may have
// been stored: sending it again could store a write twice, so it is every commit's failure,
// as it would have been for a commit alone.
import type pg from 'pg';
import type { PlayerState } from '../../core/state.js';
import { eachAlone, GroupedCalls } from './grouped-calls.js';
import {
  batchText,
  byFirstPlayer,
  COMMITTED,
  commitCall,
  conflictOf,
  playersOf,
  retried,
  type CommitCall,
} from './postgres-commit.js';
import type { IdempotencyRows } from './postgres-idempotency.js';
import type { PostgresOptions } from './postgres-options.js';
import { answeredFailure } from './postgres-query.js';
import type { Chain } from './postgres-rows.js';
import type { SessionReads } from './postgres-sessions.js';
import type { KnownStates } from './postgres-states.js';
import { StorageError, type Commit, type CommitResult, type StorageObserver } from './storage.js';

/** What the store lends its commits: what it knows of states, sessions and answers, and where to tell of a call. */
export interface CommitDeps {
  readonly states: KnownStates;
  readonly sessions: SessionReads;
  readonly idempotency: IdempotencyRows;
  readonly observer: () => StorageObserver;
  /** A round trip sent. */
  readonly sent: () => void;
  /** A deletion stored: its purge is to start. */
  readonly erased: () => void;
}

export class PostgresCommits {
  private readonly batches: GroupedCalls<Commit, CommitResult>;

  constructor(
    private readonly pool: pg.Pool,
    private readonly s: string,
    private readonly one: string,
    private readonly opts: PostgresOptions,
    private readonly deps: CommitDeps,
  ) {
    this.batches = new GroupedCalls((commits) => this.send(commits), {
      maxBatch: opts.commitBatch ?? 32,
      inFlight: opts.commitCallsInFlight ?? 1,
    });
  }

  /**
   * A commit of one player goes with others; one that writes or reads several goes alone.
   * A call's commits then each lock one row, in the order of their players, so two
   * processes' calls take their locks in the same order and cannot deadlock each other.
   */
  commit(commit: Commit): Promise<CommitResult> {
    const players = playersOf(commit);
    return this.batches.submit(commit, players, players.length > 1);
  }

  /** The commits the queue gave, as one call; each one's result. */
  private async send(commits: Commit[]): Promise<ReadonlyArray<CommitResult | Promise<CommitResult>>> {
    const started = performance.now();
    const results = commits.length === 1 ? [await this.alone(commits[0] as Commit)] : await this.together(commits);
    this.deps.observer().batch?.(commits.length, (performance.now() - started) / 1000);
    return results;
  }

  private async together(commits: Commit[]): Promise<ReadonlyArray<CommitResult | Promise<CommitResult>>> {
    const calls = commits.map((commit) => ({ commit, call: this.callOf(commit) })).sort(byFirstPlayer);
    this.deps.sent();
    try {
      await this.pool.query({
        name: `${this.s}.commit${calls.length}`,
        text: this.textOf(calls.length),
        values: calls.flatMap((x) => x.call.values),
      });
    } catch (e) {
      if (!answeredFailure(e)) throw new StorageError(`PostgreSQL commit failed: ${(e as Error).message}`, e);
      // Each one's own result, its failure too; the call is out until all are settled.
      return eachAlone(commits, (c) => this.alone(c));
    }
    for (const x of calls) this.committed(x.commit, x.call);
    return commits.map(() => COMMITTED);
  }

  /** The statement of `k` commits, made once per size: it is ~100 bytes a commit. */
  private readonly texts = new Map<number, string>();
  private textOf(k: number): string {
    let text = this.texts.get(k);
    if (text === undefined) {
      text = batchText(this.s, k);
      this.texts.set(k, text);
    }
    return text;
  }

  private alone(commit: Commit): Promise<CommitResult> {
    return retried(this.opts.retries ?? 5, () => this.once(commit));
  }

  /** One round trip: commit_v5 with the commit's parts as arrays (postgres-commit.ts). */
  private async once(commit: Commit): Promise<CommitResult> {
    const call = this.callOf(commit);
    this.deps.sent();
    try {
      await this.pool.query({ name: `${this.s}.commit`, text: this.one, values: call.values });
    } catch (e) {
      const conflict = conflictOf(e);
      if (conflict === undefined) throw e;
      // What this process holds of the players involved may be stale: read them again on the retry.
      for (const p of commit.players) this.deps.states.forget(p.state.playerId);
      for (const r of commit.reads ?? []) this.deps.states.forget(r.playerId);
      return conflict;
    }
    this.committed(commit, call);
    return COMMITTED;
  }

  /** A commit as commit_v5's values; the states before are those this process holds at the versions written over. */
  private callOf(commit: Commit): CommitCall {
    const befores = commit.players.map((p) => this.deps.states.before(p.state.playerId, p.expectedVersion));
    return commitCall(
      commit,
      befores,
      (state: PlayerState, before) => this.deps.states.rowOf(state, before),
      this.opts,
    );
  }

  /** What this process learns of a commit stored: the states, their rows' chains, the sessions and answers written. */
  private committed(commit: Commit, { order, rows }: CommitCall): void {
    const { states, sessions, idempotency } = this.deps;
    for (const p of commit.players) states.remember(p.state);
    order.forEach(({ p }, i) => states.chained(p.state, (rows[i] as { chain: Chain }).chain));
    const now = Date.now();
    for (const x of commit.sessions ?? []) sessions.keep(x.key, x.session, now);
    for (const x of commit.idempotency ?? []) idempotency.written(x.key);
    if (commit.erase) this.deps.erased();
  }
}
