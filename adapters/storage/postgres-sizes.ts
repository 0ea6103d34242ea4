// The sizes PostgreSQL storage reports in its stats, the replay log's bytes and the kept answers',
// measured beside the scrapes once the last measurement is 30 s old (a scrape never waits for one).
import type { PostgresOptions } from './postgres-options.js';
import type { StorageStats } from './storage.js';

export class MeasuredSizes {
  /** The replay log's bytes as last measured, when the last measurement began, the one running, and whether the store is closed. */
  private logBytes: number | undefined;
  /** The kept answers' table as last measured (with the replay log). */
  private answerSize: { records: number; bytes: number } | undefined;
  private logMeasuredAt = Number.NEGATIVE_INFINITY;
  private measuring: Promise<void> | null = null;
  private closed = false;

  /** `replayLogSize` and `answersSize`: the store's measurements (not counted in its round trips). */
  constructor(
    private readonly replayLogSize: () => Promise<number>,
    private readonly answersSize: () => Promise<{ records: number; bytes: number }>,
    private readonly opts: PostgresOptions,
  ) {}

  /** The replay log's bytes as last measured (and the kept answers'); measured again beside the caller once that is 30 s old (a scrape never waits for it, nor asks at each scrape). */
  private replayLogBytes(): number | undefined {
    const now = Date.now();
    if (!this.closed && this.measuring === null && now - this.logMeasuredAt >= 30_000) {
      this.logMeasuredAt = now;
      this.measuring = this.replayLogSize()
        .then((bytes) => {
          this.logBytes = bytes;
          return this.answersSize();
        })
        .then(
          (answers) => {
            this.answerSize = answers;
          },
          (e: unknown) => {
            this.opts.log?.('postgres.measure_failed', { error: (e as Error).message });
          },
        )
        .finally(() => {
          this.measuring = null;
        });
    }
    return this.logBytes;
  }

  /** The stats' sizes, as last measured (none before the first measurement ends). */
  stats(): Pick<StorageStats, 'replayLogBytes' | 'answersStored'> {
    return {
      ...((bytes) => (bytes === undefined ? {} : { replayLogBytes: bytes }))(this.replayLogBytes()),
      ...(this.answerSize === undefined ? {} : { answersStored: this.answerSize }),
    };
  }

  /** No measurement starts any more; the one running is waited for. */
  async close(): Promise<void> {
    this.closed = true;
    await this.measuring;
  }
}
