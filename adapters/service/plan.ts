// What a run commits, as a value: from the states it read and what the reducer made,
// the players to write with the versions they were read at, the players read but not
// written (checked by the commit), the sessions and the replay log's entry.
import type { Executed, Issued } from '../../core/operation.js';
import type { AnyOperation } from '../../core/operation.js';
import { E, type Result } from '../../core/shared/result.js';
import type { PlayerState } from '../../core/state.js';
import type { Commit, CommitPlayer, Erasure } from '../storage/storage.js';
import type { LogRun } from '../storage/replay-log.js';
import type { Answer } from './answers.js';
import type { SessionWrite } from './sessions.js';

/** One run of an entry: what it was given and what execute made of it. */
export interface Ran {
  readonly op: AnyOperation;
  readonly request: unknown;
  readonly now: number;
  /** The player it ran on; `isNew` when the commit creates it. */
  readonly state: PlayerState;
  readonly isNew: boolean;
  readonly otherIds: ReadonlyArray<number | undefined>;
  readonly others: ReadonlyArray<PlayerState | undefined>;
  readonly executed: Result<Executed>;
  readonly sessions: ReadonlyArray<SessionWrite>;
  readonly masterHash: string;
  /** The run's seed (derived only when a commit logs it: reads skip the HMAC). */
  readonly seed: () => string;
  readonly issued: Issued | undefined;
  /** A deletion's erasure (erasure.ts), committed with it. */
  readonly erase?: Erasure;
}

/** The answer and what to commit for it; `read` are the states it was made from (checked when nothing is committed). */
export interface Plan {
  readonly answer: Answer;
  readonly commit: Commit;
  readonly read: ReadonlyArray<PlayerState>;
}

/** What the run read: the player (a new one aside) and the others it named. */
const readOf = (r: Ran): PlayerState[] => [
  ...(r.isNew ? [] : [r.state]),
  ...r.others.filter((o): o is PlayerState => o !== undefined && o.playerId !== r.state.playerId),
];

/** The players a run changed, each with the version it was read at (a new player: none). */
const writesOf = (r: Ran, ex: Executed): CommitPlayer[] => {
  const players: CommitPlayer[] = [];
  if (ex.state !== r.state) players.push({ state: ex.state, expectedVersion: r.isNew ? null : r.state.version });
  ex.others.forEach((o, i) => {
    const before = r.others[i];
    if (o && before && o !== before && o.playerId !== r.state.playerId)
      players.push({ state: o, expectedVersion: before.version });
  });
  return players;
};

const logOf = (r: Ran, next: PlayerState): LogRun => ({
  kind: 'op',
  at: r.now,
  masterHash: r.masterHash,
  op: r.op.name,
  playerId: r.state.playerId,
  request: r.op.logged ? r.op.logged(r.request, r.state, next) : r.request,
  seed: r.seed(),
  others: r.otherIds.map((o) => o ?? null),
  ...(r.op.issues === 'accessToken' && r.issued ? { issued: { accessTokenHash: r.issued.accessTokenHash } } : {}),
});

/** The plan of a run: a refusal commits only the checks of what it read; a change, its players, sessions and log entry. */
export const planOf = (r: Ran): Plan => {
  const read = readOf(r);
  const ex = E.isRight(r.executed) ? r.executed.right : undefined;
  const players = ex ? writesOf(r, ex) : [];
  const written = new Set(players.map((p) => p.state.playerId));
  const reads = read.filter((x) => !written.has(x.playerId)).map((x) => ({ playerId: x.playerId, version: x.version }));
  const answer: Answer = E.isLeft(r.executed)
    ? r.executed
    : ex?.refused
      ? E.left(ex.refused)
      : E.right((ex as Executed).response);
  const commit: Commit = {
    players,
    ...(r.sessions.length > 0 ? { sessions: r.sessions } : {}),
    ...(ex && players.length > 0 ? { log: logOf(r, ex.state) } : {}),
    ...(reads.length > 0 ? { reads } : {}),
    ...(ex && r.erase ? { erase: r.erase } : {}),
  };
  return { answer, commit, read };
};
