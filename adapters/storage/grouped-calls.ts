// Calls grouped (issue 34): items that arrive while earlier calls are out go together, as
// one call. On PostgreSQL a call is a round trip and a transaction, whose fixed cost (the
// protocol, its start, its commit record and the WAL flush waited for) is most of a small
// commit's or a one-row read's: measured, a draw's commit took 380 µs of PostgreSQL's CPU
// alone and 200 µs each four to a call. Under light load nothing waits: an item is sent at
// once while fewer than `inFlight` calls are out. Under load the queue fills while the
// calls are out, and the next call takes what has gathered.
//
// Two items that share a player are never in one call: a call takes the queue in order and
// stops before the first item that shares a player with one it has taken, so one player's
// commits are still sent, and settled, in the order they came. Reads name no players. An
// item submitted `alone` goes in a call of its own. What an item names may be a player's
// id or any other key (an Idempotency-Key's claim names its key: one call claims a key once).

/** What an item names, that no other item of its call may name. */
type Names = ReadonlyArray<number | string>;
/** What a read names: no players, so any two reads may share a call. */
const NO_PLAYERS: Names = [];

export interface GroupedCallsOptions {
  /** Items in one call at most (1: each its own call). */
  readonly maxBatch: number;
  /** Calls out at once at most; an item arriving when this many are out waits for one to end. */
  readonly inFlight: number;
}

interface Waiting<T, R> {
  readonly item: T;
  readonly players: Names;
  readonly alone: boolean;
  readonly resolve: (r: R | PromiseLike<R>) => void;
  readonly reject: (e: unknown) => void;
}

export class GroupedCalls<T, R> {
  private readonly queue: Array<Waiting<T, R>> = [];
  private out = 0;

  /**
   * `send` writes a batch and gives each item's result in the batch's order (a promise, for
   * one that may fail alone: settled before `send` ends), or throws for all of them.
   */
  constructor(
    private readonly send: (items: T[]) => Promise<ReadonlyArray<R | Promise<R>>>,
    private readonly opts: GroupedCallsOptions,
  ) {}

  /** The result of `item`, sent in some call with others that share none of its `players` (`alone`: in a call of its own). */
  submit(item: T, players: Names = NO_PLAYERS, alone = false): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, players, alone, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.out < this.opts.inFlight && this.queue.length > 0) {
      const batch = this.take();
      this.out++;
      void this.send(batch.map((w) => w.item)).then(
        (results) => this.settle(batch, (w, i) => w.resolve(results[i] as R | Promise<R>)),
        (e: unknown) => this.settle(batch, (w) => w.reject(e)),
      );
    }
  }

  private settle(batch: Array<Waiting<T, R>>, each: (w: Waiting<T, R>, i: number) => void): void {
    this.out--;
    batch.forEach(each);
    this.pump();
  }

  /** The queue's head, as far as the batch's bound, no player twice and no item that goes alone with another. */
  private take(): Array<Waiting<T, R>> {
    const taken = new Set<number | string>();
    let n = 0;
    while (n < this.queue.length && n < this.opts.maxBatch) {
      const w = this.queue[n] as Waiting<T, R>;
      if (n > 0 && (w.alone || w.players.some((p) => taken.has(p)))) break;
      for (const p of w.players) taken.add(p);
      n++;
      if (w.alone) break;
    }
    return this.queue.splice(0, n);
  }
}

/**
 * Each item's result asked alone, as a call's results (`send`'s), all settled before it
 * ends: after a call PostgreSQL answered with an error (rolled back, nothing kept), each
 * item gets the answer it would have had alone, a failure only its own.
 */
export const eachAlone = async <T, R>(
  items: ReadonlyArray<T>,
  alone: (item: T) => Promise<R>,
): Promise<Array<Promise<R>>> => {
  const results = items.map(alone);
  await Promise.allSettled(results);
  return results;
};
