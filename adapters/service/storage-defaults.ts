// The storage as the service uses it: the optional methods a store may leave out
// (those only a store shared by several processes needs) given their single-process
// meaning once, here, so the commit path never branches on them.
import type { PlayerState } from '../../core/state.js';
import type { Accepted, Commit, IdempotencyClaim, Storage } from '../storage/storage.js';

export interface StorageDefaults {
  /** True when each state is still its player's current one; a store whose loads are never stale: always. */
  readonly verify: (states: ReadonlyArray<PlayerState>) => Promise<boolean>;
  /** Claims a key for every process; used by one process, the service's in-flight set is the claim: its record, claimed. */
  readonly claimIdempotency: (key: string, now: number) => Promise<IdempotencyClaim>;
  /** Releases a claim not released by a commit; nothing to do for a single process. */
  readonly releaseIdempotency: (key: string) => Promise<void>;
  /** A commit taken into the store's order; a store without pipelining commits it, durable when answered. */
  readonly accept: (commit: Commit) => Promise<Accepted>;
  /** The player with the commits taken but not yet durable; without pipelining, as stored. */
  readonly loadLatest: (playerId: number) => Promise<PlayerState | undefined>;
  /** Once these states are durable; without pipelining they are when loaded. */
  readonly durable: (states: ReadonlyArray<PlayerState>) => Promise<void>;
  /** Player ids with this name (at most `limit`); a store without an index reads every player. */
  readonly findByName: (name: string, limit: number) => Promise<number[]>;
}

const DONE: Promise<void> = Promise.resolve();

/** Every player's id with this name, reading each player: for a store with no index by name. */
const scanByName =
  (s: Storage) =>
  async (name: string, limit: number): Promise<number[]> => {
    const ids: number[] = [];
    for (const id of await s.playerIds()) {
      if (ids.length >= limit) break;
      if ((await s.load(id))?.name === name) ids.push(id);
    }
    return ids;
  };

export const storageDefaults = (s: Storage): StorageDefaults => ({
  verify: s.verify?.bind(s) ?? (async () => true),
  claimIdempotency:
    s.claimIdempotency?.bind(s) ?? (async (key) => ({ claimed: true, record: await s.getIdempotency(key) })),
  releaseIdempotency: s.releaseIdempotency?.bind(s) ?? (async () => undefined),
  findByName: s.findByName?.bind(s) ?? scanByName(s),
  accept: s.accept?.bind(s) ?? (async (c) => ({ result: await s.commit(c), durable: DONE })),
  loadLatest: s.loadLatest?.bind(s) ?? s.load.bind(s),
  durable: s.durable?.bind(s) ?? (() => DONE),
});
