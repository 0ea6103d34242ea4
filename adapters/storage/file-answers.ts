// The answers kept for Idempotency-Keys as JSON-file storage reads them: a scope's ring from
// memory or its file, and the answer files past the kept time swept by checkpoints.
import { readAnswers, sweepAnswers } from './answer-files.js';
import type { KeptAnswers, Ring } from './kept-answers.js';

export class AnswerFiles {
  /** The next shard of answer files a checkpoint sweeps, and the bytes each shard held when last swept. */
  private sweepShard = 0;
  private readonly shardBytes = new Map<number, number>();

  /** `answers`: those held in memory; `ttlMs`: how long an answer is kept. */
  constructor(
    private readonly dir: string,
    private readonly answers: KeptAnswers,
    private readonly ttlMs: number,
  ) {}

  /** A scope's kept answers: memory's, else its file's (read again when a checkpoint wrote rings meanwhile: memory may have let a newer one go). */
  async ring(scope: string): Promise<Ring> {
    for (;;) {
      const held = this.answers.held(scope);
      if (held) return held;
      const generation = this.answers.generation;
      const read = await readAnswers(this.dir, scope);
      if (this.answers.generation === generation) return this.answers.adopt(scope, read);
    }
  }

  /**
   * Sweeps the next 16 shards of answer files (a round every 16 checkpoints) of
   * files past the kept time, an hour's margin for the clock, and notes their bytes.
   */
  async sweep(now: number): Promise<number> {
    let removed = 0;
    for (let i = 0; i < 16; i++) {
      const shard = this.sweepShard;
      this.sweepShard = (shard + 1) % 256;
      const r = await sweepAnswers(this.dir, shard, now - this.ttlMs - 3_600_000);
      removed += r.removed;
      this.shardBytes.set(shard, r.bytes);
    }
    return removed;
  }

  /** The answer files' bytes, each shard's as last swept. */
  get bytes(): number {
    let bytes = 0;
    for (const b of this.shardBytes.values()) bytes += b;
    return bytes;
  }
}
