// Group commit (issue 34): commits that arrive while earlier ones are being written are sent
// together, as one call. On PostgreSQL a call is a transaction, and a transaction's fixed
// cost (the protocol, its start, its commit record and the WAL flush waited for) is most
// of a small commit's: measured, a draw's commit took 380 µs of PostgreSQL's CPU alone and
// 200 µs each four to a call. Under light load nothing waits: a commit is sent at once
// while fewer than `inFlight` calls are out. Under load the queue fills while the calls are
// out, and the next call takes what has gathered.
//
// Two commits that share a player are never in one call: a call takes the queue in order
// and stops before the first commit that shares a player with one it has taken, so one
// player's commits are still sent, and settled, in the order they came.

export interface GroupCommitOptions {
  /** Commits in one call at most (1: each commit its own call). */
  readonly maxBatch: number;
  /** Calls out at once at most; a commit arriving when this many are out waits for one to end. */
  readonly inFlight: number;
}

interface Waiting<T, R> {
  readonly item: T;
  readonly players: ReadonlyArray<number>;
  readonly resolve: (r: R | PromiseLike<R>) => void;
  readonly reject: (e: unknown) => void;
}

export class GroupCommit<T, R> {
  private readonly queue: Array<Waiting<T, R>> = [];
  private out = 0;
  /** Calls sent and the commits they carried (the stats' mean batch). */
  calls = 0;
  items = 0;

  /**
   * `send` writes a batch and gives each item's result in the batch's order (a promise, for
   * one that may fail alone: settled before `send` ends), or throws for all of them.
   */
  constructor(
    private readonly send: (items: T[]) => Promise<ReadonlyArray<R | Promise<R>>>,
    private readonly opts: GroupCommitOptions,
  ) {}

  /** The result of `item`, written in some call with others that share none of its `players`. */
  submit(item: T, players: ReadonlyArray<number>): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.queue.push({ item, players, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.out < this.opts.inFlight && this.queue.length > 0) {
      const batch = this.take();
      this.out++;
      this.calls++;
      this.items += batch.length;
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

  /** The queue's head, as far as the batch's bound and no player twice. */
  private take(): Array<Waiting<T, R>> {
    const taken = new Set<number>();
    let n = 0;
    while (n < this.queue.length && n < this.opts.maxBatch) {
      const w = this.queue[n] as Waiting<T, R>;
      if (n > 0 && w.players.some((p) => taken.has(p))) break;
      for (const p of w.players) taken.add(p);
      n++;
    }
    return this.queue.splice(0, n);
  }
}
