// In-memory storage for tests and simulations: the same contract, nothing on disk.
import { isDeleted, type DrawRecord, type IndexName, type PlayerState } from '../../core/state.js';
import { IndexModel } from './index-model.js';
import { KEPT_PER_SCOPE, KeptAnswers, type KeptAnswersOptions } from './kept-answers.js';
import { scrubEntry, scrubRing } from './erase.js';
import {
  liveState,
  passesFilter,
  type Commit,
  type CommitResult,
  type IdempotencyRecord,
  type LogFilter,
  type Session,
  type Storage,
  type StorageStats,
} from './storage.js';
import { entryOf, type StoredLogEntry } from './replay-log.js';

export interface MemoryStorageOptions {
  /** Faults to simulate in tests. */
  readonly faults?: {
    /** Answers a commit with a version conflict when it returns true (a writer elsewhere got there first). */
    readonly conflict?: (commit: Commit) => boolean;
  };
  /** The answers kept per Idempotency-Key scope and for how long (kept-answers.ts). */
  readonly answers?: Partial<Pick<KeptAnswersOptions, 'perScope' | 'ttlMs'>>;
}

export class MemoryStorage implements Storage {
  private readonly states = new Map<number, PlayerState>();
  private readonly index = new IndexModel();
  private reserved = 0;
  private readonly log: StoredLogEntry[] = [];
  /** Nothing on disk: every ring is held (a scope not held has none). */
  private readonly answers: KeptAnswers;
  constructor(private readonly opts: MemoryStorageOptions = {}) {
    this.answers = new KeptAnswers({
      perScope: opts.answers?.perScope ?? KEPT_PER_SCOPE,
      ttlMs: opts.answers?.ttlMs ?? 86_400_000,
      cacheRecords: 0,
    });
  }

  async nextPlayerId(): Promise<number> {
    this.reserved = Math.max(this.reserved, this.index.maxPlayerId) + 1;
    return this.reserved;
  }
  async load(playerId: number): Promise<PlayerState | undefined> {
    return liveState(this.states.get(playerId));
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
  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> {
    return this.answers.get(key);
  }
  async playerIds(): Promise<number[]> {
    return [...this.states.values()]
      .filter((s) => !isDeleted(s))
      .map((s) => s.playerId)
      .sort((a, b) => a - b);
  }
  async recentlyActive(limit: number): Promise<number[]> {
    return this.index.recentlyActive(limit);
  }
  async commit(commit: Commit): Promise<CommitResult> {
    if (this.opts.faults?.conflict?.(commit))
      return { ok: false, conflict: 'version', detail: 'a conflict injected by the faults option' };
    const { result } = this.index.apply(commit, (id) => this.states.get(id));
    if (result.ok) {
      for (const r of commit.idempotency ?? []) this.answers.put(r.key, r.record);
      // The states replaced: a hint that lets the hash reuse their lists' digests (the hash is the same without it).
      // Stryker disable next-line ArrowFunction: equivalent (see above)
      const befores = commit.players.map((p) => this.states.get(p.state.playerId));
      for (const p of commit.players) this.states.set(p.state.playerId, p.state);
      if (commit.log)
        this.log.push({
          ...entryOf(
            commit.log,
            commit.players.map((p) => p.state),
            befores,
          ),
          seq: this.log.length + 1,
        });
      if (commit.erase) this.erase(commit.erase);
    }
    return result;
  }

  /** A deletion's purge, at once (nothing here outlives the process): its answers and its log entries. */
  private erase(e: NonNullable<Commit['erase']>): void {
    const ids = new Set([e.playerId]);
    for (const scope of e.drop) this.answers.replace(scope, []);
    for (const scope of e.scrub) {
      const held = this.answers.held(scope);
      if (held) this.answers.replace(scope, scrubRing(held, ids));
    }
    for (let i = 0; i < this.log.length; i++) this.log[i] = scrubEntry(this.log[i] as StoredLogEntry, ids);
  }
  async readLog(filter?: LogFilter): Promise<StoredLogEntry[]> {
    return this.log.filter((e) => passesFilter(e, filter));
  }
  async findByName(name: string, limit: number): Promise<number[]> {
    return [...this.states.values()]
      .filter((s) => s.name === name && !isDeleted(s))
      .map((s) => s.playerId)
      .sort((a, b) => a - b)
      .slice(0, limit);
  }
  async drawHistories(visit: (history: ReadonlyArray<DrawRecord>) => void): Promise<number> {
    let players = 0;
    for (const s of this.states.values())
      if (!isDeleted(s)) {
        visit(s.gachaHistory);
        players++;
      }
    return players;
  }
  stats(): StorageStats {
    return { playersInMemory: this.states.size, answersInMemory: this.answers.records().dirty };
  }
  async close(): Promise<void> {}
}
