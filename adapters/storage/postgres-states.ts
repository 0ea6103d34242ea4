// The player states a PostgreSQL store knows: those it keeps in memory (a commit checks the
// version each was read at), those just read, and what each one's row holds beyond its base.
import type { PlayerState } from '../../core/state.js';
import { PlayerCache } from './player-cache.js';
import { decodeRow, encodeRow, type Chain, type StoredRow } from './postgres-rows.js';

export class KnownStates {
  private readonly cache: PlayerCache<PlayerState>;
  /** States read from the database by a load not yet followed by a cache hit: current when read, so verify skips them. */
  private readonly justRead = new WeakSet<PlayerState>();
  /** Each state this process read or wrote: what its row holds beyond the base (a state it does not know is written whole). */
  private readonly chains = new WeakMap<PlayerState, Chain>();

  constructor(size: number, idleMs: number) {
    this.cache = new PlayerCache(size, idleMs, Date.now);
  }

  get count(): number {
    return this.cache.count;
  }

  /** A state held in memory: served without a round trip, it is no longer one just read. */
  hit(playerId: number): PlayerState | undefined {
    const cached = this.cache.get(playerId);
    // No round trip: a commit checks the version it was read at, and verify checks an answer made without one.
    if (cached) this.justRead.delete(cached);
    return cached;
  }

  /** A player's current state from its row: the base with its deltas applied (not kept in memory). */
  decode(playerId: number, row: StoredRow): PlayerState {
    const { state, chain } = decodeRow(playerId, row);
    this.chains.set(state, chain);
    return state;
  }

  /** A state a load read from the database: kept, and current when read. */
  loaded(state: PlayerState): void {
    this.remember(state);
    this.justRead.add(state);
  }

  /** Those of `states` not just read: verify asks the database about them. */
  unsure(states: ReadonlyArray<PlayerState>): PlayerState[] {
    return states.filter((s) => !this.justRead.has(s));
  }

  /** The state a commit writes over, where this process holds its version. */
  before(playerId: number, expectedVersion: number | null): PlayerState | undefined {
    const c = this.cache.get(playerId);
    return c !== undefined && c.version === expectedVersion ? c : undefined;
  }

  /** What a commit writes of a state: a delta row, or the state whole (postgres-rows.ts encodeRow). */
  rowOf(state: PlayerState, before: PlayerState | undefined): { json: string; delta: boolean; chain: Chain } {
    return encodeRow(state, before, before === undefined ? undefined : this.chains.get(before));
  }

  /** What a committed state's row holds beyond its base. */
  chained(state: PlayerState, chain: Chain): void {
    this.chains.set(state, chain);
  }

  remember(s: PlayerState): void {
    this.cache.set(s.playerId, s);
  }

  /** Drops a cached state (another process moved it on). */
  forget(playerId: number): void {
    this.cache.delete(playerId);
  }
}
