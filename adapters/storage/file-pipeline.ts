// Pipelined commits on JSON-file storage (issue 34). A commit is checked and encoded
// when it arrives, against the states of the commits taken before it (written or
// not), and joins the open batch: its caller learns the result at once (the service
// lets go of the player's lock, so the player's next commit is built on this one's
// state) and learns that it is durable only after the fsync of the batch holding it.
// A batch that fails fails every commit taken after it too (any may be built on its
// states): their changes to the indexes and kept answers undone newest first, the
// states not yet durable dropped (loads answer what is durable again), and the
// numbering back to the last durable record.
import type { PlayerState } from '../../core/state.js';
import { encodeBatch, type BatchBase } from './file-batch.js';
import type { LogEntry } from './replay-log.js';
import type { Accepted, Commit, CommitResult } from './storage.js';

/** A commit that passed, encoded, waiting for its batch to be written. */
export interface Entry {
  readonly line: string;
  readonly undos: ReadonlyArray<() => void>;
  readonly logged: ReadonlyArray<LogEntry>;
  /** Each player's state after it. */
  readonly overlay: ReadonlyMap<number, PlayerState>;
  /** The player it deletes, if any. */
  readonly erased: number | undefined;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

/** What the pipeline asks of the store. */
export interface PipelineStore {
  /** What a commit is checked against (the durable states; the pending ones are the pipeline's). */
  base(commit: Commit): Promise<Omit<BatchBase, 'seq' | 'logSeq'>>;
  /** Told of each commit taken (FileStorageOptions.faults.accepted), and the writer started. */
  taken(commit: Commit): void;
  /** One journal write and fsync of these lines: the seconds it took (throws StorageError). */
  append(lines: ReadonlyArray<string>): Promise<number>;
  /** The batch is durable: the store holds its states and logs its entries. */
  stored(batch: ReadonlyArray<Entry>, seconds: number): Promise<void>;
  /** The seqs of the last durable journal record and replay-log entry. */
  durableSeqs(): { readonly seq: number; readonly logSeq: number };
}

const DONE: Promise<void> = Promise.resolve();

export class CommitPipeline {
  /** The newest state of each player whose commit is taken but not yet durable. */
  readonly pending = new Map<number, PlayerState>();
  /** Each state not yet durable when taken: when it is (states are never mutated, so identity names it). */
  private readonly durability = new WeakMap<PlayerState, Promise<void>>();
  /** Taken, not yet being written (the open batch). */
  private open: Entry[] = [];
  /** Being written now (taken from `open`). */
  private writing: ReadonlyArray<Entry> = [];
  /** The tail of the commits being taken, one at a time in arrival order. */
  private taking: Promise<unknown> = DONE;
  /** Set while a checkpoint's cut runs: commits wait for it before they are taken. */
  private gate: Promise<void> | null = null;

  constructor(
    private readonly store: PipelineStore,
    /** The seq of the last journal record taken. */
    private seq: number,
    /** The seq of the last replay-log entry taken. */
    private logSeq: number,
  ) {}

  /** Commits taken and not yet being written. */
  get waiting(): number {
    return this.open.length;
  }

  /** Takes a commit after those before it: its result, and when it is durable. */
  accept(commit: Commit): Promise<Accepted> {
    const taken = this.taking.then(() => this.take(commit));
    this.taking = taken.catch(() => undefined);
    return taken;
  }

  /** Every commit asked for so far taken (closing). */
  async drained(): Promise<void> {
    await this.taking;
  }

  private async take(commit: Commit): Promise<Accepted> {
    let base: Omit<BatchBase, 'seq' | 'logSeq'>;
    // Read again when a cut began meanwhile: it may have let go of what was read.
    do {
      while (this.gate) await this.gate;
      base = await this.store.base(commit);
    } while (this.gate);
    const enc = encodeBatch([commit], {
      ...base,
      stored: (id) => this.pending.get(id) ?? base.stored(id),
      seq: this.seq,
      logSeq: this.logSeq,
    });
    const result = enc.results[0] as CommitResult;
    const line = enc.lines[0];
    if (!result.ok || line === undefined) return { result, durable: DONE };
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const durable = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Awaited by the committer; the copy kept here must not count as unhandled.
    durable.catch(() => undefined);
    this.seq += 1;
    this.logSeq += enc.logged.length;
    for (const [id, s] of enc.overlay) {
      this.pending.set(id, s);
      this.durability.set(s, durable);
    }
    const erased = commit.erase?.playerId;
    this.open.push({ line, undos: enc.undos, logged: enc.logged, overlay: enc.overlay, erased, resolve, reject });
    this.store.taken(commit);
    return { result, durable };
  }

  /**
   * Writes the next batch, every commit waiting (or the first alone: `all` false),
   * in one write and one fsync. A failure fails it and every commit taken after it.
   */
  async write(all: boolean): Promise<void> {
    const batch = all ? this.open.splice(0) : this.open.splice(0, 1);
    this.writing = batch;
    let seconds: number;
    try {
      seconds = await this.store.append(batch.map((e) => e.line));
    } catch (e) {
      this.failed(e);
      return;
    }
    await this.store.stored(batch, seconds);
    for (const e of batch) for (const [id, s] of e.overlay) if (this.pending.get(id) === s) this.pending.delete(id);
    this.writing = [];
    for (const e of batch) e.resolve();
  }

  /**
   * Runs `cut` once every commit taken is written, with no commit taken meanwhile
   * (a checkpoint's indexes and answers must be the durable ones).
   */
  async quiet<T>(all: boolean, cut: () => Promise<T>): Promise<T> {
    let open!: () => void;
    this.gate = new Promise<void>((r) => {
      open = r;
    });
    try {
      while (this.open.length > 0) await this.write(all);
      return await cut();
    } finally {
      this.gate = null;
      open();
    }
  }

  /** The batch being written failed: it and every commit taken after it fail, their changes undone newest first. */
  private failed(error: unknown): void {
    const failed = [...this.writing, ...this.open];
    this.writing = [];
    this.open = [];
    for (let i = failed.length - 1; i >= 0; i--) {
      const undos = (failed[i] as Entry).undos;
      for (let j = undos.length - 1; j >= 0; j--) (undos[j] as () => void)();
    }
    this.pending.clear();
    ({ seq: this.seq, logSeq: this.logSeq } = this.store.durableSeqs());
    for (const e of failed) e.reject(error);
  }

  /** Resolves once every one of these states is durable; rejects when one of them never will be. */
  async durable(states: ReadonlyArray<PlayerState>): Promise<void> {
    for (const s of states) await (this.durability.get(s) ?? DONE);
  }
}
