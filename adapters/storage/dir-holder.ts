// Which process holds a JSON-file data directory (issue 33): DATA_DIR/server.pid names it,
// written when a store opens the directory (file-recovery.ts openFiles) and removed when it
// closes. The operator's tools that change a stopped server's files (storage:check
// --truncate-at, storage:repair) refuse a directory a live process still holds, and change
// nothing. A file left by a crash names a process that is gone: not held.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtomic } from './durable.js';

export const HOLDER_FILE = 'server.pid';

/** A tool refused a directory a running process holds. */
export class DirHeld extends Error {
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

/** Marks the directory as this process's (a store opened it). */
export const holdDir = (dir: string): Promise<void> => writeAtomic(join(dir, HOLDER_FILE), `${process.pid}\n`);

/** Removes the mark, if it is still this process's (a store closed). */
export const letGoDir = async (dir: string): Promise<void> => {
  if ((await holderOf(dir)) === process.pid) await rm(join(dir, HOLDER_FILE), { force: true });
};

/** The pid the directory's holder file names (undefined: none, or not a pid). */
const holderOf = async (dir: string): Promise<number | undefined> => {
  let text: string;
  try {
    text = await readFile(join(dir, HOLDER_FILE), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
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
 * never opens the store itself before asking, so its own pid there is a crashed server's, reused.
 */
export const heldBy = async (dir: string): Promise<number | undefined> => {
  const pid = await holderOf(dir);
  return pid !== undefined && pid !== process.pid && alive(pid) ? pid : undefined;
};

/** Throws DirHeld when a running process holds the directory; `what`: what the tool was about to do. */
export const refuseHeld = async (dir: string, what: string): Promise<void> => {
  const pid = await heldBy(dir);
  if (pid !== undefined) throw new DirHeld(dir, pid, what);
};
