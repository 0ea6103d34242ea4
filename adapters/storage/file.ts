// JSON-file storage, the embedded default, put together from its parts:
//   journal.ts     the append-only journal every commit is written to and fsynced
//                  before it is acknowledged (docs/journal-format.md: bytes, CRC,
//                  rotation, recovery), with deltas and list edits (journal-records.ts);
//   canonical.ts   the canonical JSON records and snapshots are written in, and a
//                  state's hash;
//   replay-log.ts  the replay log's entries (hashed here, inside commit);
//   oplog.ts       oplog.jsonl, where they are kept, with its index by player (oplog-index.ts),
//                  in segments kept for REPLAY_LOG_RETENTION_DAYS (oplog-segments.ts, oplog-archive.ts);
//   checkpoint.ts  snapshots, checkpoint.json and the index log of player keys and
//                  sessions (index-log.ts), which let the journal go;
//   kept-answers.ts, answer-files.ts  the answers kept for Idempotency-Keys, a
//                  bounded ring a caller, in memory while in use and a file each
//                  (file-answers.ts: a ring read from memory or its file, the files swept);
//   file-options.ts  the options and their defaults;
//   file-scans.ts  the operator API's searches over every player as stored;
//   file-recovery.ts  what open reads, and the journal's records it replays;
//   file-batch.ts  a batch of commits checked, encoded and written to the journal.
// This file holds what joins them: the commit queue (concurrent commits share one
// fsync: group commit), the indexes, the bounded cache of players (loaded lazily
// from their snapshots), and when to checkpoint.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DrawRecord, IndexName, PlayerState } from '../../core/state.js';
import type { IndexModel } from './index-model.js';
import { planCheckpoint, readSnapshot, writeCheckpoint } from './checkpoint.js';
import type { IndexLogState } from './index-log.js';
import type { FileOptions, FileStorageOptions } from './file-options.js';
import { eachDrawHistory, eachStored, playersNamed, type Scan } from './file-scans.js';
import { appendBatch, encodeBatch, holdBatch } from './file-batch.js';
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

interface Pending {
  readonly commit: Commit;
  readonly resolve: (r: CommitResult) => void;
  readonly reject: (e: unknown) => void;
}

export class FileStorage implements Storage {
  private readonly dirty = new Map<number, PlayerState>();
  private readonly cache: PlayerCache<PlayerState>;
  private readonly queue: Pending[] = [];
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

  private remember(id: number, s: PlayerState): void {
    this.cache.set(id, s);
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
      if (this.cache.has(playerId)) this.remember(playerId, mem);
      if (observe) this.observer.cache?.(true);
      return mem;
    }
    if (observe) this.observer.cache?.(false);
    const read = await readSnapshot(this.opts.dir, playerId);
    if (!read) return undefined;
    // A commit or checkpoint may have put a newer state here while we read.
    const now = this.dirty.get(playerId) ?? this.cache.get(playerId);
    if (now) return now;
    this.remember(playerId, read);
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

  commit(commit: Commit): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new StorageError('storage is closed'));
    if (this.opts.faults?.conflict?.(commit))
      return Promise.resolve({ ok: false, conflict: 'version', detail: 'a conflict injected by the faults option' });
    return new Promise<CommitResult>((resolve, reject) => {
      this.queue.push({ commit, resolve, reject });
      this.kick();
    });
  }

  /** Starts the writer unless it runs; when it stops, restarts it for commits queued as it finished. */
  private kick(): void {
    if (this.flushing || (this.queue.length === 0 && !this.due)) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0 || this.due) {
      const batch = this.opts.groupCommit ? this.queue.splice(0) : this.queue.splice(0, 1);
      if (batch.length > 0) {
        try {
          await this.writeBatch(batch);
        } catch (e) {
          for (const p of batch) p.reject(e);
        }
      }
      // The timer's turn: something to checkpoint (records, or states replayed at start); a checkpoint still writing waits for the next turn.
      const timely = this.due && (this.journal.size > 0 || this.dirty.size > 0 || this.answers.changed());
      this.due = false;
      if ((this.journal.size >= this.opts.checkpointBytes || timely) && !this.checkpointing && !this.closed) {
        try {
          const { rest } = await this.cut();
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

  /**
   * One journal write for a batch of commits: each is checked (versions, unique
   * keys) against the states before it, its log entry numbered and hashed from the
   * states it stores, and its record encoded (file-batch.ts); then one write and one fsync for all.
   */
  private async writeBatch(batch: Pending[]): Promise<void> {
    const commits = batch.map((p) => p.commit);
    const { loaded, rings } = await holdBatch(
      commits,
      (id) => this.held(id, false),
      (scope) => this.answerFiles.ring(scope),
    );
    const stored = (id: number) => this.dirty.get(id) ?? this.cache.get(id) ?? loaded.get(id);
    const { results, undos, lines, logged, overlay } = encodeBatch(commits, {
      index: this.index,
      answers: this.answers,
      rings,
      stored,
      seq: this.seq,
      logSeq: this.logSeq,
    });
    if (lines.length > 0) {
      const seconds = await appendBatch(this.journal, lines, undos, this.opts.log);
      this.observer.batch?.(lines.length, seconds);
      this.seq += lines.length;
      this.logSeq += logged.length;
      commits.forEach((c, i) => {
        if (c.erase && results[i]?.ok) this.erasing.add(c.erase.playerId);
      });
      for (const [id, s] of overlay) {
        this.dirty.set(id, s);
        this.cache.delete(id);
      }
      // Durable already (the journal holds them): a failed append is retried by the next batch or checkpoint.
      try {
        await this.oplog.add(logged);
      } catch (e) {
        this.opts.log?.('oplog.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) });
      }
    }
    batch.forEach((p, i) => p.resolve(results[i] as CommitResult));
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
          this.remember(id, st);
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
    if (this.closed) return 'the storage is closed';
    try {
      await writeFile(join(this.opts.dir, '.ready'), `${Date.now()}\n`);
      return null;
    } catch (e) {
      return `cannot write in ${this.opts.dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    while (this.flushing) await this.flushing;
    while (this.checkpointing) await this.checkpointing;
    if (this.dirty.size > 0 || this.answers.changed() || (await rotatedJournals(this.opts.dir)).length > 0)
      await this.checkpoint();
    await this.journal.close();
    await this.oplog.close();
    await letGoDir(this.opts.dir);
  }
}
