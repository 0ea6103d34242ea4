// A commit on PostgreSQL as one call of commit_v4: its parts as the call's arrays, the conflicts
// the call raises as a commit's result, and the retries of a serialization failure or a deadlock.
import type { PlayerState } from '../../core/state.js';
import { recordJson } from './kept-answer-json.js';
import { KEPT_PER_SCOPE } from './kept-answers.js';
import type { PostgresOptions } from './postgres-options.js';
import { keyChanges, type Chain } from './postgres-rows.js';
import { entryOf } from './replay-log.js';
import { StorageError, type Commit, type CommitPlayer, type CommitResult } from './storage.js';

const RETRYABLE = new Set(['40001', '40P01']); // serialization failure, deadlock detected
const VERSION_CONFLICT = 'HK001';
const UNIQUE_CONFLICT = 'HK002';

/** What a commit writes of a state: a delta row, or the state whole (postgres-rows.ts encodeRow). */
export type RowOf = (
  state: PlayerState,
  before: PlayerState | undefined,
) => { json: string; delta: boolean; chain: Chain };

/** A commit as commit_v4's call: its players by id with the states they replace, what is written of each, and the call's values. */
export interface CommitCall {
  readonly order: ReadonlyArray<{ p: CommitPlayer; before: PlayerState | undefined }>;
  readonly rows: ReadonlyArray<{ json: string; delta: boolean; chain: Chain }>;
  readonly values: unknown[];
}

/**
 * commit_v4's values for a commit. `befores`: the states before, where this process
 * holds the version written over (the log's hashes and the key changes start from them).
 */
export const commitCall = (
  commit: Commit,
  befores: ReadonlyArray<PlayerState | undefined>,
  rowOf: RowOf,
  opts: PostgresOptions,
): CommitCall => {
  const entry =
    commit.log &&
    entryOf(
      commit.log,
      commit.players.map((p) => p.state),
      befores,
    );
  const order = commit.players
    .map((p, i) => ({ p, before: befores[i] }))
    .sort((a, b) => a.p.state.playerId - b.p.state.playerId);
  const keys = keyChanges(
    order.map(({ p, before }) => ({ state: p.state, before, isNew: p.expectedVersion === null })),
  );
  const sessions = commit.sessions ?? [];
  const idem = commit.idempotency ?? [];
  const ttl = opts.idempotencyTtlMs ?? 86_400_000;
  // A deletion writes each of its players whole: no delta row left that holds what the player was, or a friend's relation with it.
  const rows = order.map(({ p, before }) =>
    rowOf(p.state, p.expectedVersion === null || commit.erase ? undefined : before),
  );
  const erase = commit.erase;
  const erasedAt = commit.players.find((p) => p.state.playerId === erase?.playerId)?.state.account.deletedAt;
  const values = [
    // The states as one json array: a text[] parameter would have node-postgres escape every quote of every state.
    order.map(({ p }) => p.state.playerId),
    order.map(({ p }) => p.expectedVersion),
    order.map(({ p }) => p.state.version),
    `[${rows.map((r) => r.json).join(',')}]`,
    rows.map((r) => r.delta),
    (commit.reads ?? []).map((r) => r.playerId),
    (commit.reads ?? []).map((r) => r.version),
    keys.replace,
    keys.delNames,
    keys.delKeys,
    keys.insNames,
    keys.insKeys,
    keys.insOwners,
    sessions.map((x) => x.key),
    sessions.map((x) => (x.session === null ? null : JSON.stringify(x.session))),
    idem.map((x) => x.key),
    `[${idem.map((x) => recordJson(x.record)).join(',')}]`,
    idem.map((x) => x.record.createdAt),
    idem.length > 0 ? Math.min(...idem.map((x) => x.record.createdAt)) - ttl : 0,
    entry ? JSON.stringify(entry) : null,
    entry ? entry.playerIds : [],
    opts.answersPerScope ?? KEPT_PER_SCOPE,
    erase?.playerId ?? null,
    erasedAt ?? null,
    erase?.drop ?? [],
    erase?.scrub ?? [],
  ];
  return { order, rows, values };
};

/** A commit stored. */
export const COMMITTED: CommitResult = { ok: true };

/** Every player a commit writes or reads: two commits that share one are not sent in one call. */
export const playersOf = (commit: Commit): number[] => [
  ...commit.players.map((p) => p.state.playerId),
  ...(commit.reads ?? []).map((r) => r.playerId),
];

/**
 * The statement that calls commit_v5 `k` times, each with its 26 values after the one's
 * before: one statement, one transaction, every call stored or none.
 */
export const batchText = (s: string, k: number): string =>
  `SELECT ${Array.from({ length: k }, (_, j) => `${s}.commit_v5(${Array.from({ length: 26 }, (_, i) => `$${j * 26 + i + 1}`).join(', ')})`).join(', ')}`;

/** The calls of one statement in the order of their players (each has one, or none: postgres-commits.ts). */
export const byFirstPlayer = (a: { call: CommitCall }, b: { call: CommitCall }): number =>
  (a.call.order[0]?.p.state.playerId ?? 0) - (b.call.order[0]?.p.state.playerId ?? 0);

/** A failure after which nothing was kept and trying again may pass: a serialization failure or a deadlock. */
const retryable = (e: unknown): boolean => RETRYABLE.has((e as { code?: string }).code ?? '');

/** The result of a conflict commit_v3 raised (a version moved on, a unique key taken); undefined for any other failure. */
export const conflictOf = (e: unknown): CommitResult | undefined => {
  const code = (e as { code?: string }).code;
  if (code !== VERSION_CONFLICT && code !== UNIQUE_CONFLICT) return undefined;
  return { ok: false, conflict: code === VERSION_CONFLICT ? 'version' : 'unique', detail: (e as Error).message };
};

/** `once` tried up to `attempts` times while it meets a serialization failure or a deadlock; another failure thrown as a StorageError. */
export const retried = async (attempts: number, once: () => Promise<CommitResult>): Promise<CommitResult> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await once();
    } catch (e) {
      if (retryable(e) && attempt < attempts) continue;
      if (e instanceof StorageError) throw e;
      throw new StorageError(`PostgreSQL commit failed: ${(e as Error).message}`, e);
    }
  }
};
