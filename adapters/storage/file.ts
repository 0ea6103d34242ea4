// JSON-file storage, the embedded default, put together from its parts:
//   journal.ts     the append-only journal every commit is written to and fsynced
//                  before it is acknowledged (docs/journal-format.md: bytes, CRC,
//                  rotation, recovery), with deltas and list edits;
//   canonical.ts   the canonical JSON records and snapshots are written in, and a
//                  state's hash;
//   replay-log.ts  the replay log's entries (hashed here, inside commit);
//   oplog.ts       oplog.jsonl, where they are kept, with its index by player (oplog-index.ts),
//                  in segments kept for REPLAY_LOG_RETENTION_DAYS (oplog-segments.ts, oplog-archive.ts);
//   checkpoint.ts  snapshots, checkpoint.json and the index log of player keys and
//                  sessions (index-log.ts), which let the journal go;
//   kept-answers.ts, answer-files.ts  the answers kept for Idempotency-Keys, a
//                  bounded ring a caller, in memory while in use and a file each.
//   file-options.ts  the options and their defaults;
//   file-scans.ts  the operator API's searches over every player as stored.
// This file holds what joins them: the commit queue (concurrent commits share one
// fsync: group commit), the indexes, the bounded cache of players (loaded lazily
// from their snapshots), and when to checkpoint.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeState, type DrawRecord, type IndexName, type PlayerState } from '../../core/state.js';
import type { IndexModel } from './index-model.js';
import { planCheckpoint, readCheckpoint, readSnapshot, writeCheckpoint } from './checkpoint.js';
import type { IndexLogState } from './index-log.js';
import { withDefaults, type FileOptions, type FileStorageOptions } from './file-options.js';
import { eachDrawHistory, eachStored, playersNamed, type Scan } from './file-scans.js';
import { KeptAnswers, scopeOf, type Ring } from './kept-answers.js';
import { readAnswers, sweepAnswers } from './answer-files.js';
import { PlayerCache } from './player-cache.js';
import { applyDelta, encodeRecord, Journal, journaled, rotatedJournals } from './journal.js';
import type { ArchivedSegment } from './oplog-archive.js';
import { OplogSegments } from './oplog-segments.js';
import { entryOf, type LogEntry, type StoredLogEntry } from './replay-log.js';
import { StorageError, type LogFilter, type Commit, type CommitResult, type IdempotencyRecord, type Session, type Storage, type StorageObserver, type StorageStats } from './storage.js';

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
  /** The answers kept for Idempotency-Keys held in memory (the rest are in their files). */
  private readonly answers: KeptAnswers;
  /** The next shard of answer files a checkpoint sweeps, and the bytes each shard held when last swept. */
  private sweepShard = 0;
  private readonly shardBytes = new Map<number, number>();

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
    this.answers = new KeptAnswers({ perScope: opts.answersPerScope, ttlMs: opts.idempotencyTtlMs, cacheRecords: opts.answersCacheRecords });
    this.cache = new PlayerCache(opts.cacheSize, opts.cacheIdleMs, opts.clock ?? Date.now);
  }

  static async open(o: FileStorageOptions): Promise<FileStorage> {
    const opts = withDefaults(o);
    await mkdir(join(opts.dir, 'players'), { recursive: true });
    const { index, seq, indexLog } = await readCheckpoint(opts.dir);
    // Damage a crash cannot explain throws here (JournalDamaged), before any file is changed.
    const { journal, records, torn } = await Journal.open(opts.dir, opts.faults, seq);
    // A torn tail from a crash mid-write: never acknowledged, so dropped whole.
    if (torn > 0) opts.log?.('journal.torn', { dropped: torn });
    const oplog = await OplogSegments.open(opts.dir, opts.log);
    const store = new FileStorage(opts, index, journal, seq, oplog, oplog.seq);
    store.indexLog = indexLog;
    // A checkpoint written before issue 36 held the answers itself: they move to their rings (written by the next checkpoint).
    for (const [key, record] of index.legacyAnswers) store.answers.put(key, record, await store.ring(scopeOf(key)));
    index.legacyAnswers = [];
    for (const r of records) {
      if (r.seq <= seq) continue;
      const states = r.players.map((p) => {
        const d = decodeState(p);
        if (d._tag === 'Left') throw new StorageError(`journal record ${r.seq}: a player state does not decode`);
        return d.right;
      });
      // Stryker disable next-line BooleanLiteral: equivalent (the observer is set after open returns: during the replay it is {}, so no load is reported either way)
      for (const s of states) await store.load(s.playerId, false);
      for (const d of r.deltas ?? []) {
        // Stryker disable next-line BooleanLiteral: equivalent (as above: no observer during the replay)
        const base = await store.load(d.playerId, false);
        // A snapshot from a checkpoint that did not finish may already be past this record.
        if (base && base.version >= d.base + 1) continue;
        if (!base || base.version !== d.base) throw new StorageError(`journal record ${r.seq}: player ${d.playerId}'s delta is from version ${d.base}, the state is at ${base?.version ?? 'none'}`);
        states.push(applyDelta(base, d, `journal record ${r.seq}`));
      }
      store.index.replay(states, r.sessions, (id) => store.dirty.get(id) ?? store.cache.get(id));
      for (const x of r.idempotency ?? []) store.answers.put(x.key, x.record, await store.ring(scopeOf(x.key)));
      for (const s of states) { store.dirty.set(s.playerId, s); store.cache.delete(s.playerId); }
      store.seq = r.seq;
    }
    // Every logged entry still in the journal (a checkpoint syncs the oplog before it lets the journal go).
    await oplog.catchUp(records.flatMap((r) => r.log ?? []));
    store.logSeq = oplog.seq;
    opts.log?.('storage.open', { dir: opts.dir, replayed: records.filter((r) => r.seq > seq).length, players: index.maxPlayerId });
    if (opts.checkpointIntervalMs > 0) {
      // A record waits at most one interval (and the checkpoint's own time) for its snapshot.
      store.timer = setInterval(() => { if (!store.closed) { store.due = true; store.kick(); } }, opts.checkpointIntervalMs);
      store.timer.unref();
    }
    return store;
  }

  private remember(id: number, s: PlayerState): void { this.cache.set(id, s); }

  async nextPlayerId(): Promise<number> {
    this.reserved = Math.max(this.reserved, this.index.maxPlayerId) + 1;
    return this.reserved;
  }

  /** `observe`: false for the writer's own loads, which are not the cache's hits or misses. */
  async load(playerId: number, observe = true): Promise<PlayerState | undefined> {
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

  async lookup(index: IndexName, key: string): Promise<number | undefined> { return this.index.maps[index].get(key); }
  async getSession(key: string): Promise<Session | undefined> { return this.index.sessions.get(key); }
  async sessionsOf(playerId: number): Promise<Array<{ key: string; session: Session }>> { return this.index.sessionsOf(playerId); }
  async recentlyActive(limit: number): Promise<number[]> { return this.index.recentlyActive(limit); }
  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> {
    return (await this.ring(scopeOf(key))).find(([k]) => k === key)?.[1];
  }

  /** A scope's kept answers: memory's, else its file's (read again when a checkpoint wrote rings meanwhile: memory may have let a newer one go). */
  private async ring(scope: string): Promise<Ring> {
    for (;;) {
      const held = this.answers.held(scope);
      if (held) return held;
      const generation = this.answers.generation;
      const read = await readAnswers(this.opts.dir, scope);
      if (this.answers.generation === generation) return this.answers.adopt(scope, read);
    }
  }
  async playerIds(): Promise<number[]> { return [...new Set(this.index.maps.myCode.values())].sort((a, b) => a - b); }

  commit(commit: Commit): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new StorageError('storage is closed'));
    if (this.opts.faults?.conflict?.(commit)) return Promise.resolve({ ok: false, conflict: 'version', detail: 'a conflict injected by the faults option' });
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
            .finally(() => { this.checkpointing = null; });
        } catch (e) {
          this.opts.log?.('checkpoint.failed', { error: String(e) });
        }
      }
    }
  }

  /**
   * One journal write for a batch of commits: each is checked (versions, unique
   * keys) against the states before it, its log entry numbered and hashed from the
   * states it stores, and its record encoded; then one write and one fsync for all.
   */
  private async writeBatch(batch: Pending[]): Promise<void> {
    // Held here too: with a small cache, loading one player of the batch may evict another.
    const loaded = new Map<number, PlayerState | undefined>();
    for (const p of batch) for (const c of p.commit.players) loaded.set(c.state.playerId, await this.load(c.state.playerId, false));
    // The rings the batch adds to, as stored (held here: the cache may let one go while another is read).
    const rings = new Map<string, Ring>();
    for (const p of batch) for (const x of p.commit.idempotency ?? []) { const sc = scopeOf(x.key); rings.set(sc, await this.ring(sc)); }
    const overlay = new Map<number, PlayerState>();
    const prev = (id: number) => overlay.get(id) ?? this.dirty.get(id) ?? this.cache.get(id) ?? loaded.get(id);
    const results: CommitResult[] = [];
    const undos: Array<() => void> = [];
    const lines: string[] = [];
    const logged: LogEntry[] = [];
    for (const p of batch) {
      const { result, undo } = this.index.apply(p.commit, prev);
      results.push(result);
      if (!result.ok) continue;
      undos.push(undo);
      for (const x of p.commit.idempotency ?? []) undos.push(this.answers.put(x.key, x.record, rings.get(scopeOf(x.key))));
      const befores = p.commit.players.map((c) => prev(c.state.playerId));
      const states = p.commit.players.map((c, i) => journaled(c.state, befores[i]));
      const run = p.commit.log;
      const log = run === undefined ? [] : [{ ...entryOf(run, p.commit.players.map((c) => c.state), befores), seq: this.logSeq + logged.length + 1 }];
      for (const c of p.commit.players) overlay.set(c.state.playerId, c.state);
      logged.push(...log);
      lines.push(encodeRecord({ seq: this.seq + lines.length + 1, sessions: [...(p.commit.sessions ?? [])], idempotency: [...(p.commit.idempotency ?? [])], ...(log.length > 0 ? { log } : {}) }, states));
    }
    if (lines.length > 0) {
      const buf = Buffer.from(lines.join(''), 'utf8');
      const started = performance.now();
      try {
        await this.journal.append(buf);
      } catch (e) {
        // Nothing of this batch happened: undo the indexes (the journal cut its partial bytes off).
        for (const u of undos.reverse()) u();
        this.opts.log?.('journal.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) });
        throw new StorageError('the journal write failed', e);
      }
      this.observer.batch?.(lines.length, (performance.now() - started) / 1000);
      this.seq += lines.length;
      this.logSeq += logged.length;
      for (const [id, s] of overlay) { this.dirty.set(id, s); this.cache.delete(id); }
      // Durable already (the journal holds them): a failed append is retried by the next batch or checkpoint.
      try { await this.oplog.add(logged); } catch (e) { this.opts.log?.('oplog.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) }); }
    }
    batch.forEach((p, i) => p.resolve(results[i] as CommitResult));
  }

  async readLog(filter?: LogFilter): Promise<StoredLogEntry[]> { return this.oplog.read(filter); }

  /** Archives the replay log's segments past the retention now (checkpoints start it themselves): what it moved. */
  async archiveLog(now = this.opts.clock?.() ?? Date.now()): Promise<ArchivedSegment[]> {
    return this.opts.replayLogRetentionMs > 0 ? this.oplog.archive(now - this.opts.replayLogRetentionMs) : [];
  }

  /** A whole checkpoint, waited for (on close): the cut, then its snapshots. */
  private async checkpoint(): Promise<void> {
    while (this.checkpointing) await this.checkpointing;
    await (await this.cut()).rest;
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
    await this.oplog.rotate(at, { bytes: this.opts.oplogSegmentBytes, ageMs: this.opts.oplogSegmentAgeMs });
    const entries = [...this.dirty];
    const now = this.opts.clock?.();
    if (now !== undefined && this.opts.sessionRetentionMs > 0) this.index.pruneSessions(now - this.opts.sessionRetentionMs);
    const plan = planCheckpoint(this.index, this.seq, this.indexLog, entries, this.answers.take(now === undefined ? undefined : now - this.opts.idempotencyTtlMs));
    // Until this one is written, the next checkpoint starts a new log: the changes it took are in no other line.
    this.indexLog = undefined;
    await this.journal.rotate(plan.seq);
    // Wrapped, so that awaiting the cut does not wait for the rest.
    const rest = (async () => {
      await this.opts.faults?.beforeSnapshots?.();
      this.indexLog = await writeCheckpoint(this.opts.dir, plan);
      // Not waited for: a long archiving run never holds the next checkpoint back.
      if (this.opts.replayLogRetentionMs > 0 && !this.closed) this.oplog.retain(at - this.opts.replayLogRetentionMs);
      this.answers.written(plan.answers);
      for (const [id, st] of entries) {
        if (this.dirty.get(id) === st) { this.dirty.delete(id); this.remember(id, st); }
      }
      const swept = now === undefined ? 0 : await this.sweep(now);
      this.opts.log?.('checkpoint', { players: entries.length, answers: plan.answers.length, swept, seq: plan.seq });
    })();
    return { rest };
  }

  /**
   * Sweeps the next 16 shards of answer files (a round every 16 checkpoints) of
   * files past the kept time, an hour's margin for the clock, and notes their bytes.
   */
  private async sweep(now: number): Promise<number> {
    let removed = 0;
    for (let i = 0; i < 16; i++) {
      const shard = this.sweepShard;
      this.sweepShard = (shard + 1) % 256;
      const r = await sweepAnswers(this.opts.dir, shard, now - this.opts.idempotencyTtlMs - 3_600_000);
      removed += r.removed;
      this.shardBytes.set(shard, r.bytes);
    }
    return removed;
  }

  /** Each player as stored, none of them kept (file-scans.ts eachStored). */
  private readonly scan: Scan = async (visit, done) => eachStored(this.opts.dir, await this.playerIds(), (id) => this.dirty.get(id) ?? this.cache.get(id), visit, done);

  async findByName(name: string, limit: number): Promise<number[]> { return playersNamed(this.scan, name, limit); }

  async drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number> { return eachDrawHistory(this.scan, visit); }

  stats(): StorageStats {
    const held = this.answers.records();
    let bytes = 0;
    for (const b of this.shardBytes.values()) bytes += b;
    return { playersInMemory: this.dirty.size + this.cache.count, journalBytes: this.journal.size, answersInMemory: held.dirty + held.clean, answersStored: { bytes }, replayLogBytes: this.oplog.bytes, replayLogEntries: this.oplog.entries };
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
    if (this.dirty.size > 0 || this.answers.changed() || (await rotatedJournals(this.opts.dir)).length > 0) await this.checkpoint();
    await this.journal.close();
    await this.oplog.close();
  }
}
