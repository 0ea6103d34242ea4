// The indexes every adapter keeps (uuid, myCode, move code → player; sessions),
// with the uniqueness check and an undo log so a failed write can be rolled back.
// The player keys are KeyIndex tables, outside the heap: every stored player has
// them (key-index.ts); sessions, which only players in use have, are a Map. The
// answers kept for Idempotency-Keys are not here: each store bounds them by scope
// (kept-answers.ts).
import { INDEX_NAMES, indexKeysOf, isDeleted, type IndexName, type PlayerState } from '../../core/state.js';
import { KeyIndex } from './key-index.js';
import { Pieces, type PieceValue } from './sealed-pieces.js';
import type { IndexLine } from './index-log.js';
import type { Commit, CommitResult, IdempotencyRecord, Session } from './storage.js';

type Undo = () => void;
/** What the undo log needs of a table: a Map's and a KeyIndex's. */
interface Table<K, V> {
  has(k: K): boolean;
  get(k: K): V | undefined;
  set(k: K, v: V): unknown;
  delete(k: K): boolean;
}
/** An index map as a checkpoint holds it. */
type Stored<V> = Array<[string, V]> | Record<string, V>;

const RECENT_KEEP = 200;

export class IndexModel {
  readonly maps: Record<IndexName, KeyIndex> = {
    uuid: new KeyIndex(),
    myCode: new KeyIndex(),
    moveCode: new KeyIndex(),
  };
  readonly sessions = new Map<string, Session>();
  /** Answers a checkpoint written before issue 36 held (checkpoint.json's `idempotency`): the store moves them to its own (kept-answers.ts) on open. */
  legacyAnswers: Array<[string, IdempotencyRecord]> = [];
  maxPlayerId = 0;
  /** Players by most recent commit, newest first, bounded (a technical bound, not a game rule). */
  private recent: number[] = [];

  recentlyActive(limit: number): number[] {
    return this.recent.slice(0, Math.max(0, limit));
  }

  /** A player's sessions, oldest first: a walk of every session (the operator's look-up is rare; no second index to keep). */
  sessionsOf(playerId: number): Array<{ key: string; session: Session }> {
    const out: Array<{ key: string; session: Session }> = [];
    for (const [key, session] of this.sessions) if (session.playerId === playerId) out.push({ key, session });
    return out.sort((a, b) => a.session.createdAt - b.session.createdAt || a.key.localeCompare(b.key));
  }

  /**
   * Checks a commit against current versions (`prev` gives each player's state
   * as stored, undefined if none) and unique keys; applies it to the indexes if it
   * passes, returning how to undo that.
   */
  apply(commit: Commit, prev: (id: number) => PlayerState | undefined): { result: CommitResult; undo: Undo } {
    for (const p of commit.players) {
      const old = prev(p.state.playerId);
      const have = old ? old.version : null;
      if (have !== p.expectedVersion) {
        return {
          result: {
            ok: false,
            conflict: 'version',
            detail: `player ${p.state.playerId} is at version ${have}, not ${p.expectedVersion}`,
          },
          undo: () => {},
        };
      }
    }
    for (const r of commit.reads ?? []) {
      const have = prev(r.playerId)?.version;
      if (have !== r.version)
        return {
          result: {
            ok: false,
            conflict: 'version',
            detail: `player ${r.playerId} (read) is at version ${have}, not ${r.version}`,
          },
          undo: () => {},
        };
    }
    for (const p of commit.players) {
      const keys = indexKeysOf(p.state);
      for (const name of INDEX_NAMES) {
        for (const k of keys[name]) {
          const owner = this.maps[name].get(k);
          if (owner !== undefined && owner !== p.state.playerId) {
            return {
              result: { ok: false, conflict: 'unique', detail: `${name} ${k} belongs to another player` },
              undo: () => {},
            };
          }
        }
      }
    }
    const undos: Undo[] = [];
    const set = <V>(m: Table<string, V>, k: string, v: V | undefined, mark: Set<string>) => {
      const had = m.has(k);
      const before = m.get(k);
      if (had && before === v) return;
      if (v === undefined) m.delete(k);
      else m.set(k, v);
      // Left marked by an undo too: the next index-log line then says what it holds (the same as before).
      mark.add(k);
      undos.push(() => {
        if (had) m.set(k, before as V);
        else m.delete(k);
      });
    };
    for (const p of commit.players) {
      const old = prev(p.state.playerId);
      const keys = indexKeysOf(p.state);
      if (old) {
        const oldKeys = indexKeysOf(old);
        for (const name of INDEX_NAMES) {
          for (const k of oldKeys[name]) {
            if (keys[name].includes(k)) continue;
            // Stryker disable next-line ConditionalExpression: equivalent (a key in the player's stored state is indexed to that player: every commit checks uniqueness)
            if (this.maps[name].get(k) === p.state.playerId) set(this.maps[name], k, undefined, this.marks[name]);
          }
        }
      }
      for (const name of INDEX_NAMES)
        for (const k of keys[name]) set(this.maps[name], k, p.state.playerId, this.marks[name]);
    }
    for (const s of commit.sessions ?? []) set(this.sessions, s.key, s.session ?? undefined, this.marks.sessions);
    const recentBefore = this.recent;
    const touched = commit.players.map((p) => p.state.playerId);
    // A deleted player is no one's guest: it leaves the list.
    const active = commit.players.filter((p) => !isDeleted(p.state)).map((p) => p.state.playerId);
    this.recent = [...active, ...this.recent.filter((id) => !touched.includes(id))].slice(0, RECENT_KEEP);
    undos.push(() => {
      this.recent = recentBefore;
    });
    const maxBefore = this.maxPlayerId;
    for (const p of commit.players) this.maxPlayerId = Math.max(this.maxPlayerId, p.state.playerId);
    if (this.maxPlayerId !== maxBefore)
      undos.push(() => {
        this.maxPlayerId = maxBefore;
      });
    return {
      result: { ok: true },
      undo: () => {
        for (const u of undos.reverse()) u();
      },
    };
  }

  /** Re-applies a journal record whose validity was checked when it was written. */
  replay(
    states: ReadonlyArray<PlayerState>,
    sessions: ReadonlyArray<{ key: string; session: Session | null }>,
    prev: (id: number) => PlayerState | undefined,
  ): void {
    const commit: Commit = {
      players: states.map((s) => ({ state: s, expectedVersion: prev(s.playerId)?.version ?? null })),
      sessions,
    };
    this.apply(commit, prev);
  }

  /** Drops sessions last used before an instant (long expired: the service refuses them already). */
  pruneSessions(olderThan: number): number {
    let dropped = 0;
    for (const [k, s] of this.sessions)
      if (s.lastSeenAt < olderThan) {
        this.sessions.delete(k);
        this.marks.sessions.add(k);
        dropped++;
      }
    return dropped;
  }

  /** Keys and sessions changed since the last line was taken (changes or full), by table. */
  private marks: Record<IndexName | 'sessions', Set<string>> = {
    uuid: new Set(),
    myCode: new Set(),
    moveCode: new Set(),
    sessions: new Set(),
  };

  private unmark(): void {
    this.marks = { uuid: new Set(), myCode: new Set(), moveCode: new Set(), sessions: new Set() };
  }

  /** The index-log line of what changed since the last line was taken (index-log.ts), with what each now holds; a cost of the changes. */
  changes(): IndexLine {
    const of = (name: IndexName) =>
      [...this.marks[name]].map((k): [string, number | null] => [k, this.maps[name].get(k) ?? null]);
    const line: IndexLine = {
      full: false,
      maxPlayerId: this.maxPlayerId,
      uuid: of('uuid'),
      myCode: of('myCode'),
      moveCode: of('moveCode'),
      sessions: [...this.marks.sessions].map((k): [string, Session | null] => [k, this.sessions.get(k) ?? null]),
    };
    this.unmark();
    return line;
  }

  /** The full line, as its content is now (copies: frozen), to be written in pieces. */
  full(): PieceValue {
    const { keys, rest } = this.frozen();
    this.unmark();
    return { full: true, ...keys, ...rest };
  }

  /** The indexes an index log's lines make: the full line, then each line's changes in order. */
  static fromLog(lines: ReadonlyArray<IndexLine>): IndexModel {
    const m = new IndexModel();
    for (const line of lines) {
      m.maxPlayerId = line.maxPlayerId;
      for (const name of INDEX_NAMES) {
        for (const [k, v] of line[name])
          if (v === null) m.maps[name].delete(k);
          else m.maps[name].set(k, v);
      }
      for (const [k, v] of line.sessions)
        if (v === null) m.sessions.delete(k);
        else m.sessions.set(k, v);
    }
    return m;
  }

  // Maps are written as [key, value] pairs: with 100,000 players, objects of that many
  // keys made parsing and rebuilding the index most of the start-up (~0.9 s).
  toJSON() {
    return { ...this.keysJSON(), ...this.restJSON() };
  }

  /** The player keys: large, and they change only with new players, moves and friend codes. */
  keysJSON() {
    return {
      maxPlayerId: this.maxPlayerId,
      uuid: [...this.maps.uuid],
      myCode: [...this.maps.myCode],
      moveCode: [...this.maps.moveCode],
    };
  }

  /** Sessions: every checkpoint writes them (pruned of long-expired ones first). */
  restJSON() {
    return { sessions: [...this.sessions] };
  }

  /**
   * The keys and the sessions as they are now, for a checkpoint to write in pieces
   * while commits go on (sealed-pieces.ts): the key tables copied whole (a memcpy),
   * the sessions' entries copied into a list (their values are never changed in place).
   */
  frozen(): {
    keys: { maxPlayerId: number; uuid: Pieces; myCode: Pieces; moveCode: Pieces };
    rest: { sessions: Pieces };
  } {
    return {
      keys: {
        maxPlayerId: this.maxPlayerId,
        uuid: new Pieces(this.maps.uuid.frozen()),
        myCode: new Pieces(this.maps.myCode.frozen()),
        moveCode: new Pieces(this.maps.moveCode.frozen()),
      },
      rest: { sessions: new Pieces([...this.sessions]) },
    };
  }

  /** Reads either form: pairs, or the objects checkpoints were written with before. */
  static fromJSON(j: {
    maxPlayerId: number;
    uuid: Stored<number>;
    myCode: Stored<number>;
    moveCode: Stored<number>;
    sessions: Stored<Session>;
    idempotency?: Stored<IdempotencyRecord>;
  }): IndexModel {
    const entries = <V>(x: Stored<V> | undefined): Iterable<[string, V]> =>
      x === undefined ? [] : Array.isArray(x) ? x : Object.entries(x);
    const m = new IndexModel();
    m.maxPlayerId = j.maxPlayerId;
    for (const name of INDEX_NAMES) for (const [k, v] of entries(j[name])) m.maps[name].set(k, v);
    for (const [k, v] of entries(j.sessions)) m.sessions.set(k, v);
    m.legacyAnswers = [...entries(j.idempotency)];
    return m;
  }
}
