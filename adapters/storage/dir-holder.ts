// Which process holds a JSON-file data directory (issue 33): DATA_DIR/server.pid names it,
// written when a store opens the directory (file-recovery.ts openFiles) and removed when it
// closes. A second store (a second server started on the same directory) and the operator's
// tools that change a stopped server's files (storage:check --truncate-at, storage:repair)
// refuse a directory a live process still holds, and change nothing: two writers would
// interleave their journals. A file left by a crash names a process that is gone, or (its pid
// taken since by another process) one that started at another time: not held.
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
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

/**
 * Marks the directory as this process's (a store opened it), or throws DirHeld. The mark is
 * created exclusively: of two stores opening the directory at once, one makes it and the other
 * finds it held. A mark already there is taken over only when it holds nothing (a crash's, or
 * this process's own). Not synced: a mark a power cut left empty holds nothing either.
 */
export const holdDir = async (dir: string): Promise<void> => {
  const path = join(dir, HOLDER_FILE);
  const text = holderText(process.pid, startOf(process.pid));
  for (let tries = 0; tries < 3; tries++) {
    try {
      await writeFile(path, text, { flag: 'wx' });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    await refuseHeld(dir, 'opening it again');
    await rm(path, { force: true });
  }
  throw new StorageError(`${path} was made again each time it was taken over`);
};

/** Removes the mark, if it is still this process's (a store closed). */
export const letGoDir = async (dir: string): Promise<void> => {
  if ((await holderOf(dir))?.pid === process.pid) await rm(join(dir, HOLDER_FILE), { force: true });
};

/** The process the directory's holder file names (undefined: none, or not a pid); its start time when written. */
const holderOf = async (dir: string): Promise<{ pid: number; start?: string } | undefined> => {
  let text: string;
  try {
    text = await readFile(join(dir, HOLDER_FILE), 'utf8');
  } catch {
    return undefined;
  }
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
 * The live process other than this one that holds the directory (undefined: none). A tool
 * never opens the store itself before asking, so its own pid there is a crashed server's,
 * reused; a live process that started at another time than the mark says has reused it too.
 */
const heldBy = async (dir: string): Promise<number | undefined> => {
  const h = await holderOf(dir);
  if (h === undefined || h.pid === process.pid || !alive(h.pid)) return undefined;
  const now = h.start === undefined ? undefined : startOf(h.pid);
  return now !== undefined && now !== h.start ? undefined : h.pid;
};

/** Throws DirHeld when a running process holds the directory; `what`: what the tool was about to do. */
export const refuseHeld = async (dir: string, what: string): Promise<void> => {
  const pid = await heldBy(dir);
  if (pid !== undefined) throw new DirHeld(dir, pid, what);
};
