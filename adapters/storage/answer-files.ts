// The JSON-file store's kept answers on disk (kept-answers.ts): a file a scope,
// idempotency/<shard>/<name>.json, the scope's ring (its newest answers) as sealed
// JSON (sealed.ts), written whole (temp file, fsync, rename) by the checkpoint that
// follows a change, as a player's snapshot is. The name is a hash of the scope (a
// scope holds a client's uuid), the file holds the scope itself, so a name shared
// by two scopes reads as none. A file older than the kept time holds only answers
// past it: checkpoints sweep one shard each, a whole round every 256 checkpoints.
import { mkdir, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { IdempotencyRecordCodec, type IdempotencyRecord } from './storage.js';
import { sha256 } from '../../core/secret.js';
import { listOrNone, loopTurns, mapLimit, readOrNone, syncDir, writeAtomic } from './durable.js';
import { FileDamaged, seal, unseal } from './sealed.js';
import type { Ring } from './kept-answers.js';

export const ANSWERS_DIR = 'idempotency';
const SHARDS = 256;

const nameOf = (scope: string): { shard: string; file: string } => {
  const h = sha256(`scope:${scope}`);
  return { shard: String(Number.parseInt(h.slice(0, 2), 16) % SHARDS), file: `${h.slice(2, 34)}.json` };
};

export const answersPath = (dir: string, scope: string): string => {
  const { shard, file } = nameOf(scope);
  return join(dir, ANSWERS_DIR, shard, file);
};

const isRecord = (x: unknown): x is IdempotencyRecord => IdempotencyRecordCodec.is(x);

/** A scope's ring as written (none: empty). Throws FileDamaged naming a file that is not one. */
export const readAnswers = async (dir: string, scope: string): Promise<Ring> => {
  const path = answersPath(dir, scope);
  const bytes = await readOrNone(path);
  if (bytes === undefined) return [];
  const j = unseal(bytes, path) as { scope?: unknown; answers?: unknown };
  if (typeof j !== 'object' || j === null || !Array.isArray(j.answers))
    throw new FileDamaged(path, 'it does not hold kept answers');
  if (j.scope !== scope) return [];
  const ring: Array<readonly [string, IdempotencyRecord]> = [];
  for (const x of j.answers as unknown[]) {
    if (!Array.isArray(x) || typeof x[0] !== 'string' || !isRecord(x[1]))
      throw new FileDamaged(path, 'a kept answer does not decode');
    ring.push([x[0], x[1]]);
  }
  return ring;
};

/** Writes rings whole (an empty one removes its file), then syncs the shards' directories. */
export const writeAnswers = async (dir: string, rings: ReadonlyArray<readonly [string, Ring]>): Promise<void> => {
  if (rings.length === 0) return;
  const shards = new Set(rings.map(([scope]) => nameOf(scope).shard));
  await mapLimit([...shards], 16, (sh) => mkdir(join(dir, ANSWERS_DIR, sh), { recursive: true }).then(() => undefined));
  // One ring encoded a turn of the event loop (as snapshots are, checkpoint.ts).
  const turn = loopTurns();
  await mapLimit(rings, 16, async ([scope, ring]) => {
    await turn();
    const path = answersPath(dir, scope);
    if (ring.length === 0)
      await unlink(path).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    else await writeAtomic(path, seal(JSON.stringify({ scope, answers: ring })));
  });
  await mapLimit([...shards], 16, (sh) => syncDir(join(dir, ANSWERS_DIR, sh)));
};

/**
 * Removes a shard's files last written before `olderThan` (every answer in them is
 * past its time) and answers how many, and the bytes of those left. A ring changed
 * since is in memory and is written again by its checkpoint, so nothing kept is lost.
 */
export const sweepAnswers = async (
  dir: string,
  shard: number,
  olderThan: number,
): Promise<{ removed: number; bytes: number }> => {
  const sub = join(dir, ANSWERS_DIR, String(shard % SHARDS));
  const names = await listOrNone(sub);
  let removed = 0;
  let bytes = 0;
  await mapLimit(
    names.filter((n) => n.endsWith('.json')),
    16,
    async (n) => {
      const path = join(sub, n);
      const s = await stat(path).catch(() => undefined);
      if (s === undefined) return;
      if (s.mtimeMs >= olderThan) {
        bytes += s.size;
        return;
      }
      await unlink(path).catch(() => undefined);
      removed++;
    },
  );
  return { removed, bytes };
};
