// The player states a store keeps in memory: the most recently used, at most `size`,
// and none left unused for `idleMs` (CACHE_IDLE_SECONDS). Issue 36: a cache bounded
// by count alone held every player loaded since the start, up to 10,000, so a live
// game's memory grew with each sign-up, played once and never again, for hours;
// memory should follow the players in use. Least recently used first out, by a
// Map's insertion order (a use moves a player to the end); the idle ones are at the
// start, so each use drops those there in passing.

export class PlayerCache<T> {
  private readonly states = new Map<number, T>();
  private readonly usedAt = new Map<number, number>();

  constructor(
    private readonly size: number,
    private readonly idleMs: number,
    private readonly clock: () => number,
  ) {}

  get count(): number {
    return this.states.size;
  }

  get(id: number): T | undefined {
    return this.states.get(id);
  }

  has(id: number): boolean {
    return this.states.has(id);
  }

  delete(id: number): void {
    this.states.delete(id);
    this.usedAt.delete(id);
  }

  /** Keeps (or touches) a state as used now, and lets go of the least recently used past the bounds. */
  set(id: number, state: T): void {
    if (this.size <= 0) return;
    const now = this.clock();
    this.states.delete(id);
    this.states.set(id, state);
    this.usedAt.set(id, now);
    for (const oldest of this.states.keys()) {
      const idle = this.idleMs > 0 && (this.usedAt.get(oldest) ?? now) <= now - this.idleMs;
      if (this.states.size <= this.size && !idle) break;
      this.delete(oldest);
    }
  }
}
