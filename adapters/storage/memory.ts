// In-memory storage for tests and simulations: the same contract, nothing on disk.
import type { IndexName, PlayerState } from '../../core/state.js';
import { IndexModel } from './index-model.js';
import type { Commit, CommitResult, IdempotencyRecord, Session, Storage } from './storage.js';
import type { LogEntry } from './log.js';

export class MemoryStorage implements Storage {
  private readonly states = new Map<number, PlayerState>();
  private readonly index = new IndexModel();
  private reserved = 0;
  private readonly log: LogEntry[] = [];

  async nextPlayerId(): Promise<number> {
    this.reserved = Math.max(this.reserved, this.index.maxPlayerId) + 1;
    return this.reserved;
  }
  async load(playerId: number): Promise<PlayerState | undefined> { return this.states.get(playerId); }
  async lookup(index: IndexName, key: string): Promise<number | undefined> { return this.index.maps[index].get(key); }
  async getSession(key: string): Promise<Session | undefined> { return this.index.sessions.get(key); }
  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> { return this.index.idempotency.get(key); }
  async playerIds(): Promise<number[]> { return [...this.states.keys()].sort((a, b) => a - b); }
  async recentlyActive(limit: number): Promise<number[]> { return this.index.recentlyActive(limit); }
  async commit(commit: Commit): Promise<CommitResult> {
    const { result } = this.index.apply(commit, (id) => this.states.get(id));
    if (result.ok) {
      for (const p of commit.players) this.states.set(p.state.playerId, p.state);
      for (const e of commit.log ?? []) this.log.push({ ...e, seq: this.log.length + 1 });
    }
    return result;
  }
  async readLog(): Promise<LogEntry[]> { return [...this.log]; }
  async close(): Promise<void> {}
}
