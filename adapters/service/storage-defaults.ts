// The storage as the service uses it: the optional methods a store may leave out
// (those only a store shared by several processes needs) given their single-process
// meaning once, here, so the commit path never branches on them.
import type { PlayerState } from '../../core/state.js';
import type { IdempotencyClaim, Storage } from '../storage/storage.js';

export interface StorageDefaults {
  /** True when each state is still its player's current one; a store whose loads are never stale: always. */
  readonly verify: (states: ReadonlyArray<PlayerState>) => Promise<boolean>;
  /** Claims a key for every process; used by one process, the service's in-flight set is the claim: its record, claimed. */
  readonly claimIdempotency: (key: string, now: number) => Promise<IdempotencyClaim>;
  /** Releases a claim not released by a commit; nothing to do for a single process. */
  readonly releaseIdempotency: (key: string) => Promise<void>;
  /** Player ids with this name (at most `limit`); a store without an index reads every player. */
  readonly findByName: (name: string, limit: number) => Promise<number[]>;
}

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
});
