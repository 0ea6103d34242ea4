// JSON-file storage, the embedded default. A commit is acknowledged only after its
// journal record is fsynced; concurrent commits share one fsync (group commit).
// Per-player snapshots are written at checkpoints by temp file + fsync + rename,
// then the journal is truncated. On start the journal is replayed; a torn last
// record is detected by its checksum and dropped, never half-applied. Players are
// loaded lazily and kept in a bounded cache. Replay-log entries ride in the
// journal records and are appended to oplog.jsonl, which is never truncated: it
// is fsynced before a checkpoint empties the journal, and on open the entries of
// the replayed journal that it lacks are appended.
import { mkdir, open, readdir, readFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import * as t from 'io-ts';
import { decodeState, STATE_FIELDS, type IndexName, type PlayerState } from '../../core/state.js';
import { IndexModel } from './index-model.js';
import { crc32 } from './crc32.js';
import { canonicalFields, canonicalJson, listEdit, parseLog, type LogEntry } from './log.js';
import { StorageError, type Commit, type CommitResult, type IdempotencyRecord, type Session, type Storage } from './storage.js';

export interface FileStorageOptions {
  readonly dir: string;
  /** Clean player states kept in memory. */
  readonly cacheSize?: number;
  /** Share one fsync among the commits waiting for it (default true). */
  readonly groupCommit?: boolean;
  /** Journal size that triggers a checkpoint. */
  readonly checkpointBytes?: number;
  /** Replaces the journal's write and sync, to simulate faults (a full disk) in tests. */
  readonly faults?: {
    readonly beforeWrite?: () => void;
    /** Runs before a checkpoint's background part (tests hold it open, or make it fail). */
    readonly beforeSnapshots?: () => Promise<void> | void;
  };
  /** Idempotency records older than this are dropped at checkpoints (ms; default a day). */
  readonly idempotencyTtlMs?: number;
  /** The clock used to age idempotency records. */
  readonly clock?: () => number;
  readonly log?: (event: string, data: Record<string, unknown>) => void;
}

interface JournalRecord {
  readonly seq: number;
  /** Whole states: new players (and every state in journals written before deltas). */
  readonly players: PlayerState[];
  /** The fields of a state that changed, from the version named `base` (a delta is a few kB where a state is tens). */
  readonly deltas?: Delta[];
  readonly sessions: Array<{ key: string; session: Session | null }>;
  readonly idempotency?: Array<{ key: string; record: IdempotencyRecord }>;
  readonly log?: LogEntry[];
}

interface Pending {
  readonly commit: Commit;
  readonly resolve: (r: CommitResult) => void;
  readonly reject: (e: unknown) => void;
}

type IndexJson = Parameters<typeof IndexModel.fromJSON>[0];
/** checkpoint.json: the last journal record it covers, the keys file, sessions and idempotency records. */
interface Checkpoint {
  readonly seq: number;
  readonly keysFile?: string;
  readonly index: Partial<IndexJson>;
}

const SHARDS = 256;
interface Delta {
  readonly playerId: number;
  readonly base: number;
  readonly set: Partial<PlayerState>;
  /** Lists as edits of the base state's (listEdit): `[from, count]` copies a run, an object is an element. */
  readonly edits?: Readonly<Record<string, ReadonlyArray<unknown>>>;
}

/** A state to journal: whole, or the fields changed since `base`. */
type Journaled =
  | { readonly kind: 'whole'; readonly state: PlayerState }
  | { readonly kind: 'delta'; readonly state: PlayerState; readonly before: PlayerState; readonly fields: ReadonlyArray<string> };

/** What a commit journals for a state, given the state it replaces (fields compared by identity: updates never mutate). */
const journaled = (state: PlayerState, before: PlayerState | undefined): Journaled => {
  if (!before) return { kind: 'whole', state };
  const fields: string[] = [];
  const was = before as unknown as Record<string, unknown>;
  // Every state has every field (its codec): a field is changed, never removed.
  for (const [k, v] of Object.entries(state)) if (was[k] !== v) fields.push(k);
  return { kind: 'delta', state, before, fields };
};

/** A record's line: its states whole or as deltas, in canonical JSON (reusing the JSON of unchanged parts). */
const encodeRecord = (r: Omit<JournalRecord, 'players' | 'deltas'>, states: ReadonlyArray<Journaled>): string => {
  const whole = states.filter((x) => x.kind === 'whole').map((x) => canonicalJson(x.state));
  const deltas = states.flatMap((x) => (x.kind === 'delta' ? [deltaJson(x.state, x.before, x.fields)] : []));
  const json = `{"players":[${whole.join(',')}],${deltas.length > 0 ? `"deltas":[${deltas.join(',')}],` : ''}${JSON.stringify(r).slice(1)}`;
  return `${crc32(Buffer.from(json, 'utf8')).toString(16).padStart(8, '0')} ${json}\n`;
};

/** A delta's JSON: changed lists as edits of the ones they replaced, other changed fields whole. */
const deltaJson = (state: PlayerState, before: PlayerState, fields: ReadonlyArray<string>): string => {
  const now = state as unknown as Record<string, unknown>;
  const was = before as unknown as Record<string, unknown>;
  const whole: string[] = [];
  const edits: string[] = [];
  for (const k of fields) {
    const v = now[k];
    const old = was[k];
    const edit = Array.isArray(v) && Array.isArray(old) ? listEdit(v, old) : undefined;
    if (edit === undefined) whole.push(k); else edits.push(`${JSON.stringify(k)}:${edit}`);
  }
  const set = canonicalFields(now, whole);
  return `{"base":${before.version},${edits.length > 0 ? `"edits":{${edits.join(',')}},` : ''}"playerId":${state.playerId},"set":${set}}`;
};

/** A list from an edit of the base state's list; undefined when the edit does not fit it. */
const editedList = (base: ReadonlyArray<unknown>, ops: ReadonlyArray<unknown>, element: t.Mixed): unknown[] | undefined => {
  const out: unknown[] = [];
  for (const op of ops) {
    if (Array.isArray(op)) {
      const [from, count] = op as unknown[];
      if (op.length !== 2 || !Number.isInteger(from) || !Number.isInteger(count)) return undefined;
      const f = from as number;
      const c = count as number;
      if (f < 0 || c < 1 || f + c > base.length) return undefined;
      for (let i = f; i < f + c; i++) out.push(base[i]);
    } else {
      const decoded = element.decode(op);
      if (decoded._tag === 'Left') return undefined;
      out.push(decoded.right);
    }
  }
  return out;
};

/** A state with a delta's fields, each decoded with the state's own codec for it (a list edit element by element). */
const applyDelta = (base: PlayerState, d: Delta, seq: number): PlayerState => {
  const next: Record<string, unknown> = { ...base };
  const bad = (k: string) => new StorageError(`journal record ${seq}: field ${k} of player ${d.playerId}'s delta does not decode`);
  for (const [k, v] of Object.entries(d.set)) {
    const codec = STATE_FIELDS[k];
    const decoded = codec?.decode(v);
    if (!decoded || decoded._tag === 'Left') throw bad(k);
    next[k] = decoded.right;
  }
  for (const [k, ops] of Object.entries(d.edits ?? {})) {
    const codec = STATE_FIELDS[k];
    const old = (base as unknown as Record<string, unknown>)[k];
    const list = codec instanceof t.ArrayType && Array.isArray(old) && Array.isArray(ops) ? editedList(old, ops, codec.type as t.Mixed) : undefined;
    if (list === undefined) throw bad(k);
    next[k] = list;
  }
  return next as unknown as PlayerState;
};

/** Parses journal bytes into whole records; `good` is the offset after the last whole one. */
export const parseJournal = (buf: Buffer): { records: JournalRecord[]; good: number } => {
  const records: JournalRecord[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(0x0a, pos);
    if (nl < 0) break; // no newline: the write was torn
    const line = buf.subarray(pos, nl);
    if (line.length < 10 || line[8] !== 0x20) break;
    const body = line.subarray(9);
    if (Number.parseInt(line.subarray(0, 8).toString('latin1'), 16) !== crc32(body)) break;
    try {
      records.push(JSON.parse(body.toString('utf8')) as JournalRecord);
    } catch {
      break;
    }
    pos = nl + 1;
  }
  return { records, good: pos };
};

/** Journals rotated by checkpoints (journal.<seq>.log), oldest first. */
const rotatedJournals = async (dir: string): Promise<Array<{ seq: number; path: string }>> =>
  (await readdir(dir))
    .map((f) => /^journal\.(\d+)\.log$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ seq: Number(m[1]), path: join(dir, m[0]) }))
    .sort((a, b) => a.seq - b.seq);

const syncDir = async (dir: string): Promise<void> => {
  const fh = await open(dir, 'r');
  try { await fh.sync(); } finally { await fh.close(); }
};

const writeAtomic = async (path: string, data: string): Promise<void> => {
  const tmp = `${path}.tmp`;
  const fh = await open(tmp, 'w');
  try {
    await fh.writeFile(data, 'utf8');
    await fh.datasync();
  } finally {
    await fh.close();
  }
  await rename(tmp, path);
};

const mapLimit = async <T>(xs: ReadonlyArray<T>, limit: number, f: (x: T) => Promise<void>): Promise<void> => {
  let i = 0;
  const worker = async () => { while (i < xs.length) await f(xs[i++] as T); };
  await Promise.all(Array.from({ length: Math.min(limit, xs.length) }, worker));
};

export class FileStorage implements Storage {
  private readonly dirty = new Map<number, PlayerState>();
  private readonly cache = new Map<number, PlayerState>();
  private readonly queue: Pending[] = [];
  private flushing: Promise<void> | null = null;
  /** A checkpoint writing its snapshots in the background while commits go on. */
  private checkpointing: Promise<void> | null = null;
  private closed = false;
  private reserved = 0;
  /** Log entries in the journal but not yet written to the oplog (a failed append is retried). */
  private backlog: LogEntry[] = [];
  /** The keys file checkpoint.json names, and the index's keysVersion it holds. */
  private keysWritten: { readonly version: number; readonly file: string } | undefined;

  private constructor(
    private readonly opts: Required<Omit<FileStorageOptions, 'faults' | 'log' | 'clock'>> & Pick<FileStorageOptions, 'faults' | 'log' | 'clock'>,
    private index: IndexModel,
    private journal: FileHandle,
    private journalSize: number,
    private seq: number,
    private readonly oplog: FileHandle,
    private oplogSize: number,
    /** The seq of the last log entry committed. */
    private logSeq: number,
  ) {}

  static async open(o: FileStorageOptions): Promise<FileStorage> {
    const opts = { cacheSize: 10_000, groupCommit: true, checkpointBytes: 64 * 1024 * 1024, idempotencyTtlMs: 86_400_000, ...o };
    await mkdir(join(opts.dir, 'players'), { recursive: true });
    let index = new IndexModel();
    let seq = 0;
    let keysFile: string | undefined;
    try {
      const cp = JSON.parse(await readFile(join(opts.dir, 'checkpoint.json'), 'utf8')) as Checkpoint;
      // The player keys in a file of their own (written when they change); before, in checkpoint.json.
      const keys = cp.keysFile === undefined ? {} : JSON.parse(await readFile(join(opts.dir, cp.keysFile), 'utf8')) as object;
      index = IndexModel.fromJSON({ ...keys, ...cp.index } as IndexJson);
      seq = cp.seq;
      keysFile = cp.keysFile;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new StorageError(`cannot read ${join(opts.dir, 'checkpoint.json')}`, e);
    }
    // The keys file the last checkpoint named holds the keys as of now (before the journal replays).
    const keysWritten = keysFile === undefined ? undefined : { version: index.keysVersion, file: keysFile };
    const journalPath = join(opts.dir, 'journal.log');
    const created = await open(journalPath, 'a');
    await created.close();
    const journal = await open(journalPath, 'r+');
    const bytes = await readFile(journalPath);
    const current = parseJournal(bytes);
    const good = current.good;
    // Journals rotated by checkpoints that had not finished: whole files, older than journal.log.
    const records: JournalRecord[] = [];
    for (const f of await rotatedJournals(opts.dir)) records.push(...parseJournal(await readFile(f.path)).records);
    records.push(...current.records);
    const oplogPath = join(opts.dir, 'oplog.jsonl');
    const oplogCreated = await open(oplogPath, 'a');
    await oplogCreated.close();
    const oplog = await open(oplogPath, 'r+');
    const logBytes = await readFile(oplogPath);
    const parsedLog = parseLog(logBytes);
    if (parsedLog.good < logBytes.length) {
      // A torn oplog line: its entry is still in the journal and is appended again below.
      await oplog.truncate(parsedLog.good);
      await oplog.datasync();
    }
    const lastLogged = parsedLog.entries.at(-1)?.seq ?? 0;
    const store = new FileStorage(opts, index, journal, good, seq, oplog, parsedLog.good, lastLogged);
    store.keysWritten = keysWritten;
    if (good < bytes.length) {
      // A torn tail from a crash mid-write: never acknowledged, so dropped whole.
      opts.log?.('journal.torn', { dropped: bytes.length - good });
      await journal.truncate(good);
      await journal.datasync();
    }
    await syncDir(opts.dir);
    for (const r of records) {
      if (r.seq <= seq) continue;
      const states = r.players.map((p) => {
        const d = decodeState(p);
        if (d._tag === 'Left') throw new StorageError(`journal record ${r.seq}: a player state does not decode`);
        return d.right;
      });
      for (const s of states) await store.load(s.playerId);
      for (const d of r.deltas ?? []) {
        const base = await store.load(d.playerId);
        // A snapshot from a checkpoint that did not finish may already be past this record.
        if (base && base.version >= d.base + 1) continue;
        if (!base || base.version !== d.base) throw new StorageError(`journal record ${r.seq}: player ${d.playerId}'s delta is from version ${d.base}, the state is at ${base?.version ?? 'none'}`);
        states.push(applyDelta(base, d, r.seq));
      }
      store.index.replay(states, r.sessions, (id) => store.dirty.get(id) ?? store.cache.get(id), r.idempotency ?? []);
      for (const s of states) { store.dirty.set(s.playerId, s); store.cache.delete(s.playerId); }
      store.seq = r.seq;
    }
    // Every logged entry still in the journal (a checkpoint fsyncs the oplog before emptying it).
    for (const r of records) for (const e of r.log ?? []) if ((e.seq ?? 0) > store.logSeq) { store.backlog.push(e); store.logSeq = e.seq ?? store.logSeq; }
    if (store.backlog.length > 0) {
      await store.appendLog();
      await store.oplog.datasync();
    }
    opts.log?.('storage.open', { dir: opts.dir, replayed: records.filter((r) => r.seq > seq).length, players: index.maxPlayerId });
    return store;
  }

  private snapshotPath(id: number): string {
    return join(this.opts.dir, 'players', String(id % SHARDS), `${id}.json`);
  }

  private remember(id: number, s: PlayerState): void {
    this.cache.delete(id);
    this.cache.set(id, s);
    if (this.cache.size > this.opts.cacheSize) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
  }

  async nextPlayerId(): Promise<number> {
    this.reserved = Math.max(this.reserved, this.index.maxPlayerId) + 1;
    return this.reserved;
  }

  async load(playerId: number): Promise<PlayerState | undefined> {
    const mem = this.dirty.get(playerId) ?? this.cache.get(playerId);
    if (mem) {
      if (this.cache.has(playerId)) this.remember(playerId, mem);
      return mem;
    }
    let text: string;
    try {
      text = await readFile(this.snapshotPath(playerId), 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new StorageError(`cannot read player ${playerId}`, e);
    }
    const d = decodeState(JSON.parse(text));
    if (d._tag === 'Left') throw new StorageError(`player ${playerId}'s snapshot does not decode`);
    // A commit or checkpoint may have put a newer state here while we read.
    const now = this.dirty.get(playerId) ?? this.cache.get(playerId);
    if (now) return now;
    this.remember(playerId, d.right);
    return d.right;
  }

  async lookup(index: IndexName, key: string): Promise<number | undefined> { return this.index.maps[index].get(key); }
  async getSession(key: string): Promise<Session | undefined> { return this.index.sessions.get(key); }
  async recentlyActive(limit: number): Promise<number[]> { return this.index.recentlyActive(limit); }
  async getIdempotency(key: string): Promise<IdempotencyRecord | undefined> { return this.index.idempotency.get(key); }
  async playerIds(): Promise<number[]> { return [...new Set(this.index.maps.myCode.values())].sort((a, b) => a - b); }

  commit(commit: Commit): Promise<CommitResult> {
    if (this.closed) return Promise.reject(new StorageError('storage is closed'));
    return new Promise<CommitResult>((resolve, reject) => {
      this.queue.push({ commit, resolve, reject });
      this.kick();
    });
  }

  /** Starts the writer unless it runs; when it stops, restarts it for commits queued as it finished. */
  private kick(): void {
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = this.flush().finally(() => {
      this.flushing = null;
      this.kick();
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.opts.groupCommit ? this.queue.splice(0) : this.queue.splice(0, 1);
      try {
        await this.writeBatch(batch);
      } catch (e) {
        for (const p of batch) p.reject(e);
      }
      if (this.journalSize >= this.opts.checkpointBytes && !this.checkpointing) {
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

  private async writeBatch(batch: Pending[]): Promise<void> {
    // Held here too: with a small cache, loading one player of the batch may evict another.
    const loaded = new Map<number, PlayerState | undefined>();
    for (const p of batch) for (const c of p.commit.players) loaded.set(c.state.playerId, await this.load(c.state.playerId));
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
      const states = p.commit.players.map((c) => journaled(c.state, prev(c.state.playerId)));
      for (const c of p.commit.players) overlay.set(c.state.playerId, c.state);
      const log = (p.commit.log ?? []).map((e) => ({ ...e, seq: this.logSeq + logged.length + 1 }));
      logged.push(...log);
      lines.push(encodeRecord({ seq: this.seq + lines.length + 1, sessions: [...(p.commit.sessions ?? [])], idempotency: [...(p.commit.idempotency ?? [])], ...(log.length > 0 ? { log } : {}) }, states));
    }
    if (lines.length > 0) {
      const buf = Buffer.from(lines.join(''), 'utf8');
      try {
        this.opts.faults?.beforeWrite?.();
        // A write may be short (a nearly full disk) without an error: write on until all is down,
        // so that a lack of space surfaces as ENOSPC instead of a silently torn record.
        for (let done = 0; done < buf.length;) {
          const { bytesWritten } = await this.journal.write(buf, done, buf.length - done, this.journalSize + done);
          if (bytesWritten <= 0) throw Object.assign(new Error('the journal write made no progress'), { code: 'EIO' });
          done += bytesWritten;
        }
        await this.journal.datasync();
      } catch (e) {
        // Nothing of this batch happened: undo the indexes and cut off any partial bytes.
        for (const u of undos.reverse()) u();
        try { await this.journal.truncate(this.journalSize); } catch { /* the next write overwrites from journalSize */ }
        this.opts.log?.('journal.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) });
        throw new StorageError('the journal write failed', e);
      }
      this.journalSize += buf.length;
      this.seq += lines.length;
      this.logSeq += logged.length;
      for (const [id, s] of overlay) { this.dirty.set(id, s); this.cache.delete(id); }
      this.backlog.push(...logged);
      // Durable already (the journal holds them): a failed append is retried by the next batch or checkpoint.
      try { await this.appendLog(); } catch (e) { this.opts.log?.('oplog.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) }); }
    }
    batch.forEach((p, i) => p.resolve(results[i] as CommitResult));
  }

  /** Appends the backlog to the oplog (not synced: the journal keeps the entries until a checkpoint syncs it). */
  private async appendLog(): Promise<void> {
    if (this.backlog.length === 0) return;
    const buf = Buffer.from(this.backlog.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
    try {
      await this.oplog.write(buf, 0, buf.length, this.oplogSize);
    } catch (e) {
      try { await this.oplog.truncate(this.oplogSize); } catch { /* the next append overwrites from oplogSize */ }
      throw e;
    }
    this.oplogSize += buf.length;
    this.backlog = [];
  }

  async readLog(): Promise<LogEntry[]> {
    const buf = Buffer.alloc(this.oplogSize);
    if (this.oplogSize > 0) await this.oplog.read(buf, 0, this.oplogSize, 0);
    return [...parseLog(buf).entries, ...this.backlog];
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
   * once). Returns the rest, which runs beside the commits: each captured player's
   * snapshot (temp file, fsync, rename), then checkpoint.json, then the rotated
   * journals it covers are removed. A crash or failure before the end leaves the
   * rotated journal, which the next start replays, or the next checkpoint covers.
   */
  private async cut(): Promise<{ readonly rest: Promise<void> }> {
    await this.appendLog();
    await this.oplog.datasync();
    const entries = [...this.dirty];
    if (this.opts.clock) this.index.pruneIdempotency(this.opts.clock() - this.opts.idempotencyTtlMs);
    const seq = this.seq;
    // The player keys are encoded only when they changed since the checkpoint that wrote them.
    const keys = this.keysWritten?.version === this.index.keysVersion
      ? { written: this.keysWritten, json: undefined }
      : { written: { version: this.index.keysVersion, file: `keys.${seq}.json` }, json: JSON.stringify(this.index.keysJSON()) };
    const checkpoint: Checkpoint = { seq, keysFile: keys.written.file, index: this.index.restJSON() };
    const index = JSON.stringify(checkpoint);
    if (this.journalSize > 0) {
      const rotated = join(this.opts.dir, `journal.${seq}.log`);
      await this.journal.close();
      await rename(join(this.opts.dir, 'journal.log'), rotated);
      this.journal = await open(join(this.opts.dir, 'journal.log'), 'w+');
      this.journalSize = 0;
      await syncDir(this.opts.dir);
    }
    // Wrapped, so that awaiting the cut does not wait for the rest.
    const rest = (async () => {
      await this.opts.faults?.beforeSnapshots?.();
      const shards = new Set<number>();
      for (const [id] of entries) shards.add(id % SHARDS);
      await mapLimit([...shards], 16, (sh) => mkdir(join(this.opts.dir, 'players', String(sh)), { recursive: true }).then(() => undefined));
      await mapLimit(entries, 16, ([id, st]) => writeAtomic(this.snapshotPath(id), canonicalJson(st)));
      await mapLimit([...shards], 16, (sh) => syncDir(join(this.opts.dir, 'players', String(sh))));
      if (keys.json !== undefined) await writeAtomic(join(this.opts.dir, keys.written.file), keys.json);
      await writeAtomic(join(this.opts.dir, 'checkpoint.json'), index);
      await syncDir(this.opts.dir);
      this.keysWritten = keys.written;
      for (const f of await rotatedJournals(this.opts.dir)) if (f.seq <= seq) await unlink(f.path);
      for (const f of await readdir(this.opts.dir)) if (/^keys\.\d+\.json$/.test(f) && f !== keys.written.file) await unlink(join(this.opts.dir, f));
      await syncDir(this.opts.dir);
      for (const [id, st] of entries) {
        if (this.dirty.get(id) === st) { this.dirty.delete(id); this.remember(id, st); }
      }
      this.opts.log?.('checkpoint', { players: entries.length, seq });
    })();
    return { rest };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.flushing) await this.flushing;
    while (this.checkpointing) await this.checkpointing;
    if (this.dirty.size > 0 || (await rotatedJournals(this.opts.dir)).length > 0) await this.checkpoint();
    await this.journal.close();
    await this.oplog.close();
  }
}
