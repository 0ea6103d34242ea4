// A batch of commits on JSON-file storage: what it reads held, each commit checked against the states
// before it, its log entry numbered and hashed, its record encoded, and the batch's one journal write.
import type { PlayerState } from '../../core/state.js';
import type { FileOptions } from './file-options.js';
import type { IndexModel } from './index-model.js';
import type { Journal } from './journal.js';
import { encodeRecord, journaled } from './journal-records.js';
import { scopeOf, type KeptAnswers, type Ring } from './kept-answers.js';
import { entryOf, type LogEntry } from './replay-log.js';
import { StorageError, type Commit, type CommitResult, type Erasure } from './storage.js';
import { scrubRing } from './erase.js';

/** What a batch reads, held for it while it is checked. */
export interface HeldBatch {
  /** Each player a commit of the batch writes, as loaded (undefined: none stored). */
  readonly loaded: Map<number, PlayerState | undefined>;
  /** The rings the batch adds to, as stored. */
  readonly rings: Map<string, Ring>;
}

/** Loads what a batch reads: the players its commits write and the rings their answers go to. */
export const holdBatch = async (
  commits: ReadonlyArray<Commit>,
  load: (playerId: number) => Promise<PlayerState | undefined>,
  ring: (scope: string) => Promise<Ring>,
): Promise<HeldBatch> => {
  // Held here too: with a small cache, loading one player of the batch may evict another.
  const loaded = new Map<number, PlayerState | undefined>();
  for (const commit of commits)
    for (const c of commit.players) loaded.set(c.state.playerId, await load(c.state.playerId));
  // The rings the batch adds to, as stored (held here: the cache may let one go while another is read).
  const rings = new Map<string, Ring>();
  for (const commit of commits)
    for (const sc of [...(commit.idempotency ?? []).map((x) => scopeOf(x.key)), ...(commit.erase?.scrub ?? [])])
      rings.set(sc, await ring(sc));
  return { loaded, rings };
};

/** What a batch is checked against, and the seqs it numbers from. */
export interface BatchBase {
  readonly index: IndexModel;
  readonly answers: KeptAnswers;
  readonly rings: ReadonlyMap<string, Ring>;
  /** A player's state before the batch: the store's, else as loaded for the batch. */
  readonly stored: (playerId: number) => PlayerState | undefined;
  /** The seq of the last journal record. */
  readonly seq: number;
  /** The seq of the last log entry committed. */
  readonly logSeq: number;
}

/** A batch checked and encoded, not yet written. */
export interface EncodedBatch {
  /** Each commit's result, in the batch's order. */
  readonly results: CommitResult[];
  /** Undo what the commits that passed did to the indexes and the answers (in reverse: the write failed). */
  readonly undos: Array<() => void>;
  /** The journal's lines, one a commit that passed. */
  readonly lines: string[];
  /** The log entries, numbered. */
  readonly logged: LogEntry[];
  /** Each player's state after the batch. */
  readonly overlay: Map<number, PlayerState>;
}

/**
 * Each commit checked (versions, unique keys) against the states before it (the
 * batch's earlier commits included), its log entry numbered and hashed from the
 * states it stores, and its record encoded.
 */
export const encodeBatch = (commits: ReadonlyArray<Commit>, base: BatchBase): EncodedBatch => {
  const overlay = new Map<number, PlayerState>();
  const prev = (id: number) => overlay.get(id) ?? base.stored(id);
  const results: CommitResult[] = [];
  const undos: Array<() => void> = [];
  const lines: string[] = [];
  const logged: LogEntry[] = [];
  for (const commit of commits) {
    const { result, undo } = base.index.apply(commit, prev);
    results.push(result);
    if (!result.ok) continue;
    undos.push(undo);
    for (const x of commit.idempotency ?? [])
      undos.push(base.answers.put(x.key, x.record, base.rings.get(scopeOf(x.key))));
    const befores = commit.players.map((c) => prev(c.state.playerId));
    const states = commit.players.map((c, i) => journaled(c.state, befores[i]));
    const run = commit.log;
    const log =
      run === undefined
        ? []
        : [
            {
              ...entryOf(
                run,
                commit.players.map((c) => c.state),
                befores,
              ),
              seq: base.logSeq + logged.length + 1,
            },
          ];
    if (commit.erase) undos.push(...eraseAnswers(commit.erase, base));
    for (const c of commit.players) overlay.set(c.state.playerId, c.state);
    logged.push(...log);
    lines.push(
      encodeRecord(
        {
          seq: base.seq + lines.length + 1,
          sessions: [...(commit.sessions ?? [])],
          idempotency: [...(commit.idempotency ?? [])],
          ...(log.length > 0 ? { log } : {}),
          ...(commit.erase ? { erase: commit.erase } : {}),
        },
        states,
      ),
    );
  }
  return { results, undos, lines, logged, overlay };
};

/** A deletion's kept answers: its own scopes emptied, the others' scrubbed of it (what undoes each). */
export const eraseAnswers = (e: Erasure, base: Pick<BatchBase, 'answers' | 'rings'>): Array<() => void> => {
  const ids = new Set([e.playerId]);
  const undos = e.drop.map((scope) => base.answers.replace(scope, []));
  for (const scope of e.scrub) {
    const ring = base.answers.held(scope) ?? base.rings.get(scope) ?? [];
    const scrubbed = scrubRing(ring, ids);
    if (scrubbed !== ring) undos.push(base.answers.replace(scope, scrubbed));
  }
  return undos;
};

/**
 * The batch's lines in one journal write and one fsync: the seconds it took. On a
 * failure the journal cut its partial bytes off; the failure is logged and thrown as
 * a StorageError (the caller undoes what the batch's commits, and those after it, did).
 */
export const appendBatch = async (
  journal: Journal,
  lines: ReadonlyArray<string>,
  log: FileOptions['log'],
): Promise<number> => {
  const buf = Buffer.from(lines.length === 1 ? (lines[0] as string) : lines.join(''), 'utf8');
  const started = performance.now();
  try {
    await journal.append(buf);
  } catch (e) {
    log?.('journal.write_failed', { error: (e as NodeJS.ErrnoException).code ?? String(e) });
    throw new StorageError('the journal write failed', e);
  }
  return (performance.now() - started) / 1000;
};
