// Making files durable: a directory's entries are fsynced after a rename or a new
// file, and a file that replaces another is written whole beside it (temp file,
// fsync, rename), so a crash leaves the old one or the new one, never half; and a
// file that may not be there yet is read as none.
import { open, readdir, readFile, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** A file's bytes, or undefined when there is no such file (any other error is thrown). */
export const readOrNone = async (path: string): Promise<Buffer | undefined> => {
  try {
    return await readFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
};

export const syncDir = async (dir: string): Promise<void> => {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
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

/** A directory's entries, or none when there is no such directory (any other error is thrown). */
export const listOrNone = async (dir: string): Promise<string[]> => {
  try {
    return await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
};

/** Lets the event loop run (timers, I/O, requests) before what follows. */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Turns of the event loop handed out one at a time: each call resolves a loop turn
 * after the one before it did, so work done right after awaiting one (an encode) has
 * the turn to itself, with the requests' I/O between two of them. (Workers that each
 * await setImmediate would all wake in the same turn.)
 */
export const loopTurns = (): (() => Promise<void>) => {
  let last = Promise.resolve();
  return () => (last = last.then(yieldToLoop));
};

/** Runs `f` on every element, at most `limit` at a time. */
export const mapLimit = async <T>(xs: ReadonlyArray<T>, limit: number, f: (x: T) => Promise<void>): Promise<void> => {
  let i = 0;
  const worker = async () => {
    while (i < xs.length) await f(xs[i++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, xs.length) }, worker));
};

/**
 * Writes all of `buf` at `position`. A write may be short (a nearly full disk)
 * without an error: it is continued until every byte is down, so a lack of space
 * surfaces as ENOSPC, not as a torn line with the writer counting it whole.
 */
export const writeWhole = async (fh: FileHandle, buf: Buffer, position: number, what: string): Promise<void> => {
  for (let done = 0; done < buf.length;) {
    const { bytesWritten } = await fh.write(buf, done, buf.length - done, position + done);
    if (bytesWritten <= 0) throw Object.assign(new Error(`the ${what} write made no progress`), { code: 'EIO' });
    done += bytesWritten;
  }
};

/** Null when a file can be written in `dir` now (GET /readyz), else why not (a full or read-only disk). */
export const cannotWrite = async (dir: string): Promise<string | null> => {
  try {
    await writeFile(join(dir, '.ready'), `${Date.now()}\n`);
    return null;
  } catch (e) {
    return `cannot write in ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`;
  }
};
