// Per-key serialization: writes to one player run one at a time, different players
// in parallel. Several keys are taken in sorted order, so two operations on the
// same pair of players never deadlock.
export class KeyedLock {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(keys: ReadonlyArray<string>, f: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const releases: Array<() => void> = [];
    try {
      for (const k of sorted) releases.push(await this.acquire(k));
      return await f();
    } finally {
      for (const r of releases.reverse()) r();
    }
  }

  private async acquire(key: string): Promise<() => void> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const tail = prev.then(() => mine);
    this.tails.set(key, tail);
    await prev;
    return () => {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    };
  }
}
