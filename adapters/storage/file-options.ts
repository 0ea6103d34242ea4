// The JSON-file storage's options, and the defaults open fills in.
import { KEPT_PER_SCOPE } from './kept-answers.js';
import type { Commit } from './storage.js';

export interface FileStorageOptions {
  readonly dir: string;
  /** Clean player states kept in memory. */
  readonly cacheSize?: number;
  /** A clean player state unused this long leaves memory (ms; 0: only the size bounds them; CACHE_IDLE_SECONDS). */
  readonly cacheIdleMs?: number;
  /** Share one fsync among the commits waiting for it (default true). */
  readonly groupCommit?: boolean;
  /** Journal size that triggers a checkpoint. */
  readonly checkpointBytes?: number;
  /**
   * A checkpoint also comes this long after the journal's first record since the
   * last one (ms; 0: none), so the journal a start replays is bounded in time too
   * (CHECKPOINT_INTERVAL_SECONDS).
   */
  readonly checkpointIntervalMs?: number;
  /**
   * Replay-log segments whose newest entry is older than this leave the kept log for
   * oplog-archive/, from the checkpoints' background part (ms; 0, the default: kept
   * for ever; REPLAY_LOG_RETENTION_DAYS). Aged by `clock` (Date.now without one).
   */
  readonly replayLogRetentionMs?: number;
  /** The live oplog is sealed into oplog/ at a checkpoint once it holds this many bytes (with its index; default 64 MiB)… */
  readonly oplogSegmentBytes?: number;
  /** …or once its first entry is this old (ms; 0, the default: by size alone). */
  readonly oplogSegmentAgeMs?: number;
  /** Replaces the journal's write and sync, to simulate faults (a full disk) in tests. */
  readonly faults?: {
    readonly beforeWrite?: () => void;
    /** Wraps the journal's fsync of a batch (tests hold it back: no commit of the batch may resolve before it does). */
    readonly sync?: (datasync: () => Promise<void>) => Promise<void>;
    /** Answers a commit with a version conflict when it returns true (tests: a writer elsewhere got there first). */
    readonly conflict?: (commit: Commit) => boolean;
    /** Told of each commit taken into the store's order, before its batch is written (tests count them instead of waiting). */
    readonly accepted?: (commit: Commit) => void;
    /** Runs before a checkpoint's background part (tests hold it open, or make it fail). */
    readonly beforeSnapshots?: () => Promise<void> | void;
  };
  /** How long an Idempotency-Key's answer is kept (ms; default a day): older ones are dropped from their rings and their files swept. */
  readonly idempotencyTtlMs?: number;
  /** Answers kept per caller (scope), newest first out last (IDEMPOTENCY_KEYS_PER_SCOPE). */
  readonly answersPerScope?: number;
  /** Answers of unchanged rings kept in memory (the rest are read from their files when asked for). */
  readonly answersCacheRecords?: number;
  /** Sessions unused this long are dropped at checkpoints (ms; 0: kept; the service refuses them long before). */
  readonly sessionRetentionMs?: number;
  /** The clock used to age idempotency records and sessions. */
  readonly clock?: () => number;
  readonly log?: (event: string, data: Record<string, unknown>) => void;
}

/** The options as the store holds them: every default filled in (faults, log and clock stay optional). */
export type FileOptions = Required<Omit<FileStorageOptions, 'faults' | 'log' | 'clock'>> &
  Pick<FileStorageOptions, 'faults' | 'log' | 'clock'>;

/** The options with their defaults. */
export const withDefaults = (o: FileStorageOptions): FileOptions => ({
  cacheSize: 10_000,
  cacheIdleMs: 0,
  groupCommit: true,
  checkpointBytes: 64 * 1024 * 1024,
  checkpointIntervalMs: 0,
  idempotencyTtlMs: 86_400_000,
  replayLogRetentionMs: 0,
  oplogSegmentBytes: 64 * 1024 * 1024,
  oplogSegmentAgeMs: 0,
  answersPerScope: KEPT_PER_SCOPE,
  answersCacheRecords: 4_096,
  sessionRetentionMs: 0,
  ...o,
});
