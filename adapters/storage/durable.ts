// Making files durable: a directory's entries are fsynced after a rename or a new
// file, and a file that replaces another is written whole beside it (temp file,
// fsync, rename), so a crash leaves the old one or the new one, never half.
import { open, rename } from 'node:fs/promises';

export const syncDir = async (dir: string): Promise<void> => {
  const fh = await open(dir, 'r');
  try { await fh.sync(); } finally { await fh.close(); }
};

export const writeAtomic = async (path: string, data: string): Promise<void> => {
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

/** Runs `f` on every element, at most `limit` at a time. */
export const mapLimit = async <T>(xs: ReadonlyArray<T>, limit: number, f: (x: T) => Promise<void>): Promise<void> => {
  let i = 0;
  const worker = async () => { while (i < xs.length) await f(xs[i++] as T); };
  await Promise.all(Array.from({ length: Math.min(limit, xs.length) }, worker));
};
