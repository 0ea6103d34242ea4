// Which process holds a JSON-file data directory (issue 33): DATA_DIR/server.pid names it,
// written when a store opens the directory (file-recovery.ts openFiles) and removed when it
// closes. A second store (a second server started on the same directory) and the operator's
// tools that change a stopped server's files (storage:check --truncate-at, storage:repair)
// refuse a directory a live process still holds, and change nothing: two writers would
// interleave their journals. A file left by a crash names a process that is gone, or (its pid
// taken since by another process) one that started at another time: not held.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StorageError } from './storage.js';

const HOLDER_FILE = 'server.pid';

/** A store or a tool refused a directory a running process holds. */
export class DirHeld extends StorageError {
  constructor(
    readonly dir: string,
    readonly pid: number,
    what: string,
  ) {
    super(
      `${dir} is held by a running process (${pid}, named in ${join(dir, HOLDER_FILE)}): stop the server before ${what}; nothing was changed. (If process ${pid} is not a server on this directory, the file is stale: delete it.)`,
    );
    this.name = 'DirHeld';
  }
}

/**
 * When a process started (/proc/PID/stat's starttime, clock ticks since boot): with its pid it
 * names the process, where a pid alone is reused. Undefined where /proc does not tell.
 */
export const startOf = (pid: number): string | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces and parentheses): starttime is the 22nd.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
};

/** The mark's text: the pid, and its start time where known. */
export const holderText = (pid: number, start: string | undefined): string =>
  `${start === undefined ? pid : `${pid} ${start}`}\n`;

/** Test seams of holdDir: `beforeTakeover` runs between judging a mark to hold nothing and taking it over. */
export interface HoldSeams {
  readonly beforeTakeover?: () => Promise<void>;
}

/**
 * Marks the directory as this process's (a store opened it), or throws DirHeld. The mark is
 * created exclusively: of two stores opening the directory at once, one makes it and the other
 * finds it held. A mark already there is taken over only when it holds nothing (a crash's, or
 * this process's own), and only that mark (takeOver): of two stores taking over one crash's
 * mark at once, one holds the directory and the other finds it held. Not synced: a mark a
 * power cut left empty holds nothing either.
 */
export const holdDir = async (dir: string, seams: HoldSeams = {}): Promise<void> => {
  const path = join(dir, HOLDER_FILE);
  const text = holderText(process.pid, startOf(process.pid));
  for (let tries = 0; tries < 3; tries++) {
    try {
      await writeFile(path, text, { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const seen = await markText(path);
    // Gone since (its store closed): make ours.
    if (seen === undefined) continue;
    const pid = heldByMark(seen);
    if (pid !== undefined) throw new DirHeld(dir, pid, 'opening it again');
    await seams.beforeTakeover?.();
    await takeOver(path, seen);
  }
  throw new StorageError(`${path} was made again each time it was taken over`);
};

/**
 * Removes the mark judged to hold nothing (`seen`), and no other. Removing by name would
 * remove a mark another store made after taking the same crash's mark over first, and both
 * would then hold the directory. So the mark is moved aside (a rename: of two, one moves it
 * and the other finds it gone) and read there: the crash's is dropped; any other is put
 * back, made exclusively (a mark made meanwhile is left as it is), and the next try judges it.
 */
const takeOver = async (path: string, seen: string): Promise<void> => {
  const aside = `${path}.${randomUUID()}`;
  try {
    await rename(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    const moved = await readFile(aside, 'utf8');
    if (moved === seen) return;
    await writeFile(path, moved, { flag: 'wx' }).catch((e: unknown) => {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    });
  } finally {
    await rm(aside, { force: true });
  }
};

/** The mark's text (undefined: there is none). */
const markText = async (path: string): Promise<string | undefined> => {
  try {
    return await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
};

/** The directory's mark as a tool or a closing store reads it: one it cannot read is none. */
const markIn = (dir: string): Promise<string | undefined> => markText(join(dir, HOLDER_FILE)).catch(() => undefined);

/** Removes the mark, if it is still this process's (a store closed). */
export const letGoDir = async (dir: string): Promise<void> => {
  const text = await markIn(dir);
  if (text !== undefined && holderOf(text)?.pid === process.pid) await rm(join(dir, HOLDER_FILE), { force: true });
};

/** The process a holder file's text names (undefined: not a pid); its start time when written. */
const holderOf = (text: string): { pid: number; start?: string } | undefined => {
  const [p, start] = text.trim().split(' ');
  const pid = Number.parseInt(p ?? '', 10);
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  return start === undefined ? { pid } : { pid, start };
};

/** Whether a process is alive (signal 0 checks without sending; EPERM: alive, another user's). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * The live process other than this one that a mark's text names (undefined: none). A tool
 * never opens the store itself before asking, so its own pid there is a crashed server's,
 * reused; a live process that started at another time than the mark says has reused it too.
 */
const heldByMark = (text: string): number | undefined => {
  const h = holderOf(text);
  if (h === undefined || h.pid === process.pid || !alive(h.pid)) return undefined;
  const now = h.start === undefined ? undefined : startOf(h.pid);
  return now !== undefined && now !== h.start ? undefined : h.pid;
};

/** Throws DirHeld when a running process holds the directory; `what`: what the tool was about to do. */
export const refuseHeld = async (dir: string, what: string): Promise<void> => {
  const text = await markIn(dir);
  const pid = text === undefined ? undefined : heldByMark(text);
  if (pid !== undefined) throw new DirHeld(dir, pid, what);
};
