// JSON-file storage, the embedded default, put together from its parts:
//   journal.ts     the append-only journal every commit is written to and fsynced
//                  before it is acknowledged (docs/journal-format.md: bytes, CRC,
//                  rotation, recovery), with deltas and list edits (journal-records.ts);
//   canonical.ts   the canonical JSON records and snapshots are written in, a state's hash;
//   replay-log.ts  the replay log's entries (hashed here, inside commit);
//   oplog.ts       oplog.jsonl, where they are kept, with its index by player (oplog-index.ts),
//                  in segments kept for REPLAY_LOG_RETENTION_DAYS (oplog-segments.ts, oplog-archive.ts);
//   checkpoint.ts  snapshots, checkpoint.json and the index log of player keys and
//                  sessions (index-log.ts), which let the journal go;
//   kept-answers.ts, answer-files.ts, file-answers.ts  the answers kept for Idempotency-Keys,
//                  a bounded ring a caller, in memory while in use and a file each;
//   file-options.ts  the options and their defaults;
//   file-scans.ts  the operator API's searches over every player as stored;
//   file-recovery.ts  what open reads, and the journal's records it replays;
//   file-batch.ts, file-pipeline.ts  commits checked and encoded as they come, and
//                  written in batches (one fsync each: group commit), pipelined.
// This file joins them: the indexes, the bounded cache of players (loaded lazily
// from their snapshots), and when to checkpoint.
import { cannotWrite } from './durable.js';
import type { DrawRecord, IndexName, PlayerState } from '../../core/state.js';
import type { IndexModel } from './index-model.js';
import { planCheckpoint, readSnapshot, writeCheckpoint } from './checkpoint.js';
import type { IndexLogState } from './index-log.js';
import type { FileOptions, FileStorageOptions } from './file-options.js';
import { eachDrawHistory, eachStored, playersNamed, type Scan } from './file-scans.js';
import { appendBatch, holdBatch } from './file-batch.js';
import { CommitPipeline, type PipelineStore } from './file-pipeline.js';
import { letGoDir, openFiles, recover } from './file-recovery.js';
import { KeptAnswers, scopeOf } from './kept-answers.js';
import { AnswerFiles } from './file-answers.js';
import { PlayerCache } from './player-cache.js';
import { rotatedJournals, type Journal } from './journal.js';
import type { ArchivedSegment } from './oplog-archive.js';
import type { OplogSegments } from './oplog-segments.js';
import type { StoredLogEntry } from './replay-log.js';
import {
  liveState,
  StorageError,
  type Accepted,
  type LogFilter,
  type Commit,
  type CommitResult,
  type IdempotencyRecord,
  type Session,
  type Storage,
  type StorageObserver,
  type StorageStats,
} from './storage.js';

export { parseJournal } from './journal.js';
export type { FileStorageOptions } from './file-options.js';

export class FileStorage implements Storage {
  private readonly dirty = new Map<number, PlayerState>();
  private readonly cache: PlayerCache<PlayerState>;
  /** Commits taken, not yet durable (file-pipeline.ts). */
  private pipe: CommitPipeline;
  private flushing: Promise<void> | null = null;
  /** A checkpoint writing its snapshots in the background while commits go on. */
  private checkpointing: Promise<void> | null = null;
  private closed = false;
  /** The checkpoint timer fired: the writer checkpoints at its next turn (CHECKPOINT_INTERVAL_SECONDS). */
  private due = false;
  private timer: NodeJS.Timeout | undefined;
  private reserved = 0;
  /** The index log checkpoint.json names (index-log.ts); undefined: the next checkpoint starts one. */
  private indexLog: IndexLogState | undefined;
  /** Where loads and fsync batches are reported (GET /metrics). */
  observer: StorageObserver = {};
  /** Players deleted since the last checkpoint that purged: the next one purges the replay log of them and writes the index log anew. */
  private readonly erasing = new Set<number>();
  /** The answers kept for Idempotency-Keys held in memory (the rest are in their files). */
  private readonly answers: KeptAnswers;
  /** Their files: a scope's ring read, the files swept (file-answers.ts). */
  private readonly answerFiles: AnswerFiles;

  private constructor(
    private readonly opts: FileOptions,
    private index: IndexModel,
    private readonly journal: Journal,
    /** The seq of the last journal record. */
    private seq: number,
    private readonly oplog: OplogSegments,
    /** The seq of the last log entry committed. */
    private logSeq: number,
  ) {
    this.answers = new KeptAnswers({
      perScope: opts.answersPerScope,
      ttlMs: opts.idempotencyTtlMs,
      cacheRecords: opts.answersCacheRecords,
    });
    this.answerFiles = new AnswerFiles(opts.dir, this.answers, opts.idempotencyTtlMs);
    this.cache = new PlayerCache(opts.cacheSize, opts.cacheIdleMs, opts.clock ?? Date.now);
    this.pipe = new CommitPipeline(this.pipeStore(), seq, logSeq);
  }

  static async open(o: FileStorageOptions): Promise<FileStorage> {
    const files = await openFiles(o);
    const { opts, index, seq, journal, oplog } = files;
    const store = new FileStorage(opts, index, journal, seq, oplog, oplog.seq);
    store.indexLog = files.indexLog;
    const { answers, dirty, cache } = store;
    store.seq = await recover(
      {
        index,
        answers,
        dirty,
        cache,
        load: (id, observe) => store.held(id, observe),
        erasing: store.erasing,
        ring: (scope) => store.answerFiles.ring(scope),
      },
      files,
    );
    store.logSeq = oplog.seq;
    store.pipe = new CommitPipeline(store.pipeStore(), store.seq, store.logSeq);
    if (opts.checkpointIntervalMs > 0) {
      // A record waits at most one interval (and the checkpoint's own time) for its snapshot.
      store.timer = setInterval(() => {
        if (!store.closed) {
          store.due = true;
          store.kick();
        }
      }, opts.checkpointIntervalMs);
      store.timer.unref();
    }
    return store;
  }

  async nextPlayerId(): Promise<number> {
    this.reserved = Math.max(this.reserved, this.index.maxPlayerId) + 1;
    return this.reserved;
  }

  async load(playerId: number): Promise<PlayerState | undefined> {
    return liveState(await this.held(playerId, true));
  }

  /** The state held for a player, a tombstone too. `observe`: false for the writer's own loads, which are not the cache's hits or misses. */
  private async held(playerId: number, observe: boolean): Promise<PlayerState | undefined> {
    const mem = this.dirty.get(playerId) ?? this.cache.get(playerId);
    if (mem) {
      if (this.cache.has(playerId)) this.cache.set(playerId, mem);
      if (observe) this.observer.cache?.(true);
      return mem;
    }
    if (observe) this.observer.cache?.(false);
    const read = await readSnapshot(this.opts.dir, playerId);
    if (!read) return undefined;
    // A commit or checkpoint may have put a newer state here while we read.
    const now = this.dirty.get(playerId) ?? this.cache.get(playerId);
    if (now) return now;
    this.cache.set(playerId, read);
    return read;
  }

  async lookup(index: IndexName, key: string): Promise<number | undefined> {
    return this.index.maps[index].get(key);
  }
  async getSession(key: string): Promise<Session | undefined> {
    return this.index.sessions.get(key);
  }
  async sessionsOf(playerId: number): Promise<Array<{ key: string; session: Session }>> {
    return this.index.sessionsOf(playerId);
  }
  async recentlyActive(limit: number): Promise<number[]> {
    return this.index.recentlyActive(limit);
  }
  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> {
    return (await this.answerFiles.ring(scopeOf(key))).find(([k]) => k === key)?.[1];
  }

  async playerIds(): Promise<number[]> {
    return [...new Set(this.index.maps.myCode.values())].sort((a, b) => a - b);
  }

  /** Waits for the commit to be durable (accept, then its batch's fsync). */
  async commit(commit: Commit): Promise<CommitResult> {
    const a = await this.accept(commit);
    await a.durable;
    return a.result;
  }

  /**
   * Takes a commit into the store's order (file-pipeline.ts): checked against the
   * commits taken before it, durable or not, and answered at once; `durable` settles
   * after its batch's fsync. Commits are taken one at a time in arrival order.
   */
  accept(commit: Commit): Promise<Accepted> {
    if (this.closed) return Promise.reject(new StorageError('storage is closed'));
    if (this.opts.faults?.conflict?.(commit)) {
      const detail = 'a conflict injected by the faults option';
      return Promise.resolve({ result: { ok: false, conflict: 'version', detail }, durable: Promise.resolve() });
    }
    return this.pipe.accept(commit);
  }

  /** The store's side of the pipeline: what a commit is checked against, the journal, the states it holds. */
  private pipeStore(): PipelineStore {
    return {
      base: async (commit) => {
        const { loaded, rings } = await holdBatch(
          [commit],
          (id) => this.held(id, false),
          (scope) => this.answerFiles.ring(scope),
        );
        const stored = (id: number) => this.dirty.get(id) ?? this.cache.get(id) ?? loaded.get(id);
        return { index: this.index, answers: this.answers, rings, stored };
      },
      taken: (commit) => {
        this.opts.faults?.accepted?.(commit);
        this.kick();
      },
      append: (lines) => appendBatch(this.journal, lines, this.opts.log),
      durableSeqs: () => ({ seq: this.seq, logSeq: this.logSeq }),
      stored: async (batch, seconds) => {
        this.observer.batch?.(batch.length, seconds);
        const logged = batch.flatMap((e) => e.logged);
        this.seq += batch.length;
        this.logSeq += logged.length;
        for (const e of batch) {
          if (e.erased !== undefined) this.erasing.add(e.erased);
          for (const [id, s] of e.overlay) {
            this.dirty.set(id, s);
            this.cache.delete(id);
          }
        }
        // Durable already (the journal holds them): a failed append is retried by the next batch or checkpoint.
        try {
          await this.oplog.add(logged);
        } catch (e) {
          this.opts.log?.('oplog.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) });
        }
      },
    };
  }

  /** The player's state with the commits taken but not yet durable: what its next commit is built on. */
  async loadLatest(playerId: number): Promise<PlayerState | undefined> {
    const p = this.pipe.pending.get(playerId);
    return p ? liveState(p) : this.load(playerId);
  }

  /** Once every one of these states is durable (rejected when one never will be: its batch failed). */
  durable(states: ReadonlyArray<PlayerState>): Promise<void> {
    return this.pipe.durable(states);
  }

  /** Starts the writer unless it runs; when it stops, restarts it for commits taken as it finished. */
  private kick(): void {
    if (this.flushing || (this.pipe.waiting === 0 && !this.due)) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.pipe.waiting > 0 || this.due) {
      // Commits that came while the last fsync ran join this batch once taken (a cold player's is read first).
      if (this.pipe.waiting > 0) await this.pipe.drained().then(() => this.pipe.write(this.opts.groupCommit));
      // The timer's turn: something to checkpoint (records, or states replayed at start); a checkpoint still writing waits for the next turn.
      const timely = this.due && (this.journal.size > 0 || this.dirty.size > 0 || this.answers.changed());
      this.due = false;
      if ((this.journal.size >= this.opts.checkpointBytes || timely) && !this.checkpointing && !this.closed) {
        try {
          const { rest } = await this.pipe.quiet(this.opts.groupCommit, () => this.cut());
          this.checkpointing = rest
            .catch((e: unknown) => this.opts.log?.('checkpoint.failed', { error: String(e) }))
            .finally(() => {
              this.checkpointing = null;
            });
        } catch (e) {
          this.opts.log?.('checkpoint.failed', { error: String(e) });
        }
      }
    }
  }

  async readLog(filter?: LogFilter): Promise<StoredLogEntry[]> {
    return this.oplog.read(filter);
  }

  /** Archives the replay log's segments past the retention now (checkpoints start it themselves): what it moved. */
  async archiveLog(now = this.opts.clock?.() ?? Date.now()): Promise<ArchivedSegment[]> {
    return this.opts.replayLogRetentionMs > 0 ? this.oplog.archive(now - this.opts.replayLogRetentionMs) : [];
  }

  /** A whole checkpoint, waited for (on close): the cut, then its snapshots. */
  private async checkpoint(): Promise<void> {
    while (this.checkpointing) await this.checkpointing;
    await (
      await this.cut()
    ).rest;
  }

  /**
   * The writer's part of a checkpoint, between two batches: the oplog made whole on
   * disk, the changed states and the indexes captured as of the last record, and the
   * journal rotated to journal.<seq>.log (commits go on in a fresh journal.log at
   * once). Returns the rest, which runs beside the commits (checkpoint.ts
   * writeCheckpoint), then lets go of the states it wrote.
   */
  private async cut(): Promise<{ readonly rest: Promise<void> }> {
    await this.oplog.sync();
    const at = this.opts.clock?.() ?? Date.now();
    const erasing = new Set(this.erasing);
    // A deleted player's entries all sealed (the live segment is never rewritten), and no index line left naming its keys.
    const purge = erasing.size > 0;
    await this.oplog.rotate(
      at,
      purge ? { bytes: 0, ageMs: 0 } : { bytes: this.opts.oplogSegmentBytes, ageMs: this.opts.oplogSegmentAgeMs },
    );
    const entries = [...this.dirty];
    const now = this.opts.clock?.();
    if (now !== undefined && this.opts.sessionRetentionMs > 0)
      this.index.pruneSessions(now - this.opts.sessionRetentionMs);
    const plan = planCheckpoint(
      this.index,
      this.seq,
      purge ? undefined : this.indexLog,
      entries,
      this.answers.take(now === undefined ? undefined : now - this.opts.idempotencyTtlMs),
    );
    // Until this one is written, the next checkpoint starts a new log: the changes it took are in no other line.
    this.indexLog = undefined;
    await this.journal.rotate(plan.seq);
    // Wrapped, so that awaiting the cut does not wait for the rest.
    const rest = (async () => {
      await this.opts.faults?.beforeSnapshots?.();
      // Before the journal goes: a purge that fails fails the checkpoint, and the next one tries again.
      if (purge) await this.oplog.erase(erasing);
      this.indexLog = await writeCheckpoint(this.opts.dir, plan);
      for (const id of erasing) this.erasing.delete(id);
      // Not waited for: a long archiving run never holds the next checkpoint back.
      if (this.opts.replayLogRetentionMs > 0 && !this.closed) this.oplog.retain(at - this.opts.replayLogRetentionMs);
      this.answers.written(plan.answers);
      for (const [id, st] of entries) {
        if (this.dirty.get(id) === st) {
          this.dirty.delete(id);
          this.cache.set(id, st);
        }
      }
      const swept = now === undefined ? 0 : await this.answerFiles.sweep(now);
      this.opts.log?.('checkpoint', {
        players: entries.length,
        answers: plan.answers.length,
        swept,
        seq: plan.seq,
        ...(purge ? { erased: erasing.size } : {}),
      });
    })();
    return { rest };
  }

  /** Each player as stored, none of them kept (file-scans.ts eachStored). */
  private readonly scan: Scan = async (visit, done) =>
    eachStored(this.opts.dir, await this.playerIds(), (id) => this.dirty.get(id) ?? this.cache.get(id), visit, done);

  async findByName(name: string, limit: number): Promise<number[]> {
    return playersNamed(this.scan, name, limit);
  }

  async drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number> {
    return eachDrawHistory(this.scan, visit);
  }

  stats(): StorageStats {
    const held = this.answers.records();
    return {
      playersInMemory: this.dirty.size + this.cache.count,
      journalBytes: this.journal.size,
      answersInMemory: held.dirty + held.clean,
      answersStored: { bytes: this.answerFiles.bytes },
      replayLogBytes: this.oplog.bytes,
      replayLogEntries: this.oplog.entries,
    };
  }

  /** Open, and a file can be written in the data directory (a full or read-only disk is not ready). */
  async check(): Promise<string | null> {
    return this.closed ? 'the storage is closed' : cannotWrite(this.opts.dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.pipe.drained();
    while (this.flushing) await this.flushing;
    while (this.checkpointing) await this.checkpointing;
    if (this.dirty.size > 0 || this.answers.changed() || (await rotatedJournals(this.opts.dir)).length > 0)
      await this.checkpoint();
    await this.journal.close();
    await this.oplog.close();
    await letGoDir(this.opts.dir);
  }
}
