// The replay log: one entry per committed state change, holding exactly the
// inputs needed to run it again through `execute` (the operation, the player, the
// request as logged, the seed, now, the master data's hash, the other players, the
// hashes of secrets the edge made) and the hash of every resulting state, so a
// replay can say where it first differs. One kind of entry for every operation.
//
// The service hands the storage what ran (a LogRun); the storage numbers the entry
// and hashes the states it stores, inside `commit` (entryOf), so an entry is kept
// or dropped with its commit and its hashes are of what was stored.
//
// The file adapter keeps the entries in DATA_DIR/oplog.jsonl (OplogFile below),
// one JSON entry a line, never truncated.
import { open, readFile, type FileHandle } from 'node:fs/promises';
import type { Grant } from '../../core/master/common.js';
import type { PlayerState } from '../../core/state.js';
import { stateHash } from './canonical.js';

/** A state a log entry produced: its player, version and stateHash. */
export interface LogResult {
  readonly playerId: number;
  readonly version: number;
  readonly stateHash: string;
}

/** What ran: what the service puts in a commit; the storage adds the results (entryOf). */
export interface LogRun {
  readonly kind: 'op';
  /** The instant read once for the request at the edge (epoch ms). */
  readonly at: number;
  /** sha256 of the master data the entry ran with (see adapters/master/load.ts). */
  readonly masterHash: string;
  /** The table entry's name (core/operations/table.ts entryByName). */
  readonly op: string;
  /** The player it ran on (a new player's id for a sign-up). */
  readonly playerId: number;
  /** The decoded request, as the entry logs it (`logged`: a secret replaced by its hash). */
  readonly request: unknown;
  readonly seed: string;
  /** The other players it named, resolved (null: none existed). */
  readonly others: ReadonlyArray<number | null>;
  /** Hashes of the secrets the edge made for it (a new access token's); the secrets themselves are never logged. */
  readonly issued?: { readonly accessTokenHash: string };
}

export interface LogEntry extends LogRun {
  /** The players whose states changed, in results order. */
  readonly playerIds: ReadonlyArray<number>;
  readonly results: ReadonlyArray<LogResult>;
  /** Position in the whole log (1, 2, …), given by the storage when it commits the entry. */
  readonly seq?: number;
  /**
   * Only in getPlayerMove entries written before issue 16: the hash the state kept,
   * the request lacking the password. Read as the request's passwordHash.
   */
  readonly movePasswordHash?: string;
}

// ---- entries written before issue 16: kinds of their own, read by adapters/service/replay.ts ----

interface LegacyBase {
  readonly seq?: number;
  readonly at: number;
  readonly masterHash: string;
  readonly playerIds: ReadonlyArray<number>;
  readonly results: ReadonlyArray<LogResult>;
  readonly playerId: number;
}
/** A sign-up: createPlayer's inputs, the access token as its hash. */
export interface LegacySignupEntry extends LegacyBase {
  readonly kind: 'signup';
  readonly uuid: string; readonly platform: number; readonly name: string; readonly stepCode: number;
  readonly tokenHash: string; readonly seed: string;
}
/** A log-in (its token was checked when it ran). */
export interface LegacyLoginEntry extends LegacyBase { readonly kind: 'login' }
/** A move, also a failed try: the new token's hash and the password tried, hashed with the code's salt. */
export interface LegacyMoveSetEntry extends LegacyBase {
  readonly kind: 'moveSet';
  readonly moveCode: string; readonly uuid: string; readonly platform: number;
  readonly tokenHash: string; readonly movePasswordHash: string;
}
/** An operator's present to one player. */
export interface LegacyAdminPresentEntry extends LegacyBase {
  readonly kind: 'admin.present';
  readonly grant: Grant;
  readonly meta: { readonly title: string; readonly message: string; readonly deadline: number | null };
}
export type LegacyEntry = LegacySignupEntry | LegacyLoginEntry | LegacyMoveSetEntry | LegacyAdminPresentEntry;

/** What a storage's log holds: entries, and in logs begun before issue 16 the old kinds too. */
export type StoredLogEntry = LogEntry | LegacyEntry;

/**
 * The entry of a commit: what ran, with the results hashed from the states the
 * commit stores (`befores[i]`, the state `states[i]` replaced, is stateHash's hint:
 * the digests of its lists' unchanged elements are reused). Keys in the order
 * entries have always been written.
 */
export const entryOf = (run: LogRun, states: ReadonlyArray<PlayerState>, befores: ReadonlyArray<PlayerState | undefined>): LogEntry => {
  const { kind, at, masterHash, ...rest } = run;
  return {
    kind, at, masterHash,
    playerIds: states.map((s) => s.playerId),
    results: states.map((s, i) => ({ playerId: s.playerId, version: s.version, stateHash: stateHash(s, befores[i]) })),
    ...rest,
  };
};

/** Parses oplog bytes (one JSON entry a line); `good` is the offset after the last whole line (a torn tail is left out). */
export const parseLog = (buf: Buffer): { entries: StoredLogEntry[]; good: number } => {
  const entries: StoredLogEntry[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break;
    const line = buf.subarray(pos, nl).toString('utf8');
    try {
      if (line.trim() !== '') entries.push(JSON.parse(line) as StoredLogEntry);
    } catch {
      break;
    }
    pos = nl + 1;
  }
  return { entries, good: pos };
};

/**
 * oplog.jsonl: appended after the journal record that holds the same entries is
 * fsynced, so an append need not be synced (a crash loses only lines the journal
 * still has, which the next open appends again); a checkpoint syncs it before it
 * lets the journal go. A failed append is cut back and retried with the next.
 */
export class OplogFile {
  /** Entries in the journal but not yet written here (a failed append is retried). */
  private backlog: StoredLogEntry[] = [];

  private constructor(private readonly fh: FileHandle, private size: number, private lastSeq: number) {}

  /** Opens (creating) the file; a torn last line, never acknowledged as a line, is cut off. */
  static async open(path: string): Promise<OplogFile> {
    const created = await open(path, 'a');
    await created.close();
    const fh = await open(path, 'r+');
    const bytes = await readFile(path);
    const parsed = parseLog(bytes);
    if (parsed.good < bytes.length) {
      // A torn oplog line: its entry is still in the journal and is appended again (catchUp).
      await fh.truncate(parsed.good);
      await fh.datasync();
    }
    return new OplogFile(fh, parsed.good, parsed.entries.at(-1)?.seq ?? 0);
  }

  /** The seq of the last entry given to this file. */
  get seq(): number { return this.lastSeq; }

  /** Entries of a replayed journal that the file lacks (a crash before their append): appended and synced. */
  async catchUp(fromJournal: ReadonlyArray<StoredLogEntry>): Promise<void> {
    for (const e of fromJournal) if ((e.seq ?? 0) > this.lastSeq) { this.backlog.push(e); this.lastSeq = e.seq ?? this.lastSeq; }
    if (this.backlog.length > 0) {
      await this.flush();
      await this.fh.datasync();
    }
  }

  /** Takes entries a journal write made durable and appends them; an append that fails is kept for the next. */
  async add(entries: ReadonlyArray<LogEntry>): Promise<void> {
    this.backlog.push(...entries);
    const last = entries.at(-1)?.seq;
    if (last !== undefined) this.lastSeq = last;
    await this.flush();
  }

  /** Appends the backlog (not synced: the journal keeps the entries until a checkpoint syncs this file). */
  async flush(): Promise<void> {
    if (this.backlog.length === 0) return;
    const buf = Buffer.from(this.backlog.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
    try {
      await this.fh.write(buf, 0, buf.length, this.size);
    } catch (e) {
      try { await this.fh.truncate(this.size); } catch { /* the next append overwrites from size */ }
      throw e;
    }
    this.size += buf.length;
    this.backlog = [];
  }

  /** Makes the file whole on disk: what a checkpoint does before it lets the journal go. */
  async sync(): Promise<void> {
    await this.flush();
    await this.fh.datasync();
  }

  /** The whole log: the file's entries and any not appended yet. */
  async read(): Promise<StoredLogEntry[]> {
    const buf = Buffer.alloc(this.size);
    if (this.size > 0) await this.fh.read(buf, 0, this.size, 0);
    return [...parseLog(buf).entries, ...this.backlog];
  }

  async close(): Promise<void> { await this.fh.close(); }
}
