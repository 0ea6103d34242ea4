// For the durability tests of the JSON-file store: a temporary directory, and a
// record of what the store does to the files in it (opens, writes, fsyncs, closes,
// renames, removals), in the order each call completed. An fsync leaves nothing a
// test could read back short of a power cut, so the tests check that it is made,
// on which file, and before what (a rename, the next file).
//
// The spy replaces `open`, `rename`, `unlink`, `readFile` and `writeFile` of
// node:fs/promises for the time of a test (module.syncBuiltinESMExports: the modules'
// named imports see the change), and wraps the methods of each file handle opened
// under the directory. Calls under other directories pass through unrecorded, so
// tests running beside it are not seen. It can also put faults into one file's
// reads and writes (FileFaults): a full disk, a short write, a bad sector, a slow read.
import type { ExecutionContext } from 'ava';
import { fstatSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory, removed when the test ends. */
export const tempDir = (t: ExecutionContext, prefix = 'hoshi-fs-'): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

type Fsp = typeof import('node:fs/promises');
const fsp = createRequire(import.meta.url)('node:fs/promises') as Fsp;
const original = {
  open: fsp.open,
  rename: fsp.rename,
  unlink: fsp.unlink,
  readFile: fsp.readFile,
  writeFile: fsp.writeFile,
};

const HANDLE_OPS = ['write', 'writeFile', 'truncate', 'sync', 'datasync', 'close'] as const;

/**
 * Faults put into one file under the directory (`file`, relative to it). Its writes
 * (FileHandle.write), as a nearly full disk makes them: each puts down at most
 * `writeAtMost` bytes (0: none, with no error), and once `failAfterBytes` bytes are
 * down a write fails with ENOSPC. Read at each call, so a test can set them at any point.
 */
export interface FileFaults {
  file?: string;
  writeAtMost?: number;
  failAfterBytes?: number;
  /** readFile of the file fails with this code (EIO: a bad sector). */
  readError?: string;
  /** writeFile of the file fails with this code (ENOSPC: a full disk). */
  writeError?: string;
  /** readFile of the file waits for this promise (taken when the read starts), after calling `onReadHeld`. */
  readGate?: Promise<void>;
  onReadHeld?: () => void;
}

interface Listener {
  readonly dir: string;
  readonly events: string[];
  readonly faults: FileFaults;
}
const listeners = new Set<Listener>();

/** `path` relative to a listener's directory ('.' for the directory itself), for each listener it is under. */
const note = (op: string, ...paths: string[]): void => {
  for (const l of listeners) {
    const rel = paths.map((p) =>
      p === l.dir ? '.' : p.startsWith(`${l.dir}/`) ? p.slice(l.dir.length + 1) : undefined,
    );
    if (rel.every((r) => r !== undefined)) l.events.push([op, ...rel].join(' '));
  }
};
const watched = (path: string): boolean => [...listeners].some((l) => path === l.dir || path.startsWith(`${l.dir}/`));

/** The faults set for `path`, if any. */
const faultsOf = (path: string): FileFaults | undefined =>
  [...listeners].find((l) => l.faults.file !== undefined && path === join(l.dir, l.faults.file))?.faults;

const wrapHandle = (fh: FileHandle, path: string): FileHandle => {
  const methods = fh as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  let written = 0;
  for (const op of HANDLE_OPS) {
    const call = methods[op];
    if (call === undefined) continue;
    methods[op] = async (...args: unknown[]) => {
      const f = op === 'write' ? faultsOf(path) : undefined;
      // write(buffer, offset, length, position), the form the journal uses.
      if (f !== undefined && Buffer.isBuffer(args[0]) && typeof args[2] === 'number') {
        if (f.failAfterBytes !== undefined && written >= f.failAfterBytes) {
          throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
        }
        if (f.writeAtMost === 0) return { bytesWritten: 0, buffer: args[0] };
        if (f.writeAtMost !== undefined) args[2] = Math.min(args[2], f.writeAtMost);
      }
      const r = await call.apply(fh, args);
      if (op === 'write') written += (r as { bytesWritten: number }).bytesWritten;
      note(op, path);
      return r;
    };
  }
  return fh;
};

const spies: Pick<Fsp, 'open' | 'rename' | 'unlink' | 'readFile' | 'writeFile'> = {
  readFile: (async (...args: Parameters<Fsp['readFile']>) => {
    const path = String(args[0]);
    const f = faultsOf(path);
    if (f?.readError !== undefined)
      throw Object.assign(new Error(`${f.readError}: the read failed`), { code: f.readError });
    if (f?.readGate !== undefined) {
      const gate = f.readGate;
      f.onReadHeld?.();
      await gate;
    }
    const r = await original.readFile(...args);
    note('readFile', path);
    return r;
  }) as Fsp['readFile'],
  writeFile: (async (...args: Parameters<Fsp['writeFile']>) => {
    const path = String(args[0]);
    const code = faultsOf(path)?.writeError;
    if (code !== undefined) throw Object.assign(new Error(`${code}: the write failed`), { code });
    await original.writeFile(...args);
    note('writeFile', path);
  }) as Fsp['writeFile'],
  open: (async (...args: Parameters<Fsp['open']>) => {
    const fh = await original.open(...args);
    const path = String(args[0]);
    if (!watched(path)) return fh;
    note(`open(${String(args[1] ?? 'r')})`, path);
    return wrapHandle(fh, path);
  }) as Fsp['open'],
  rename: (async (from: Parameters<Fsp['rename']>[0], to: Parameters<Fsp['rename']>[1]) => {
    await original.rename(from, to);
    note('rename', String(from), String(to));
  }) as Fsp['rename'],
  unlink: (async (path: Parameters<Fsp['unlink']>[0]) => {
    await original.unlink(path);
    note('unlink', String(path));
  }) as Fsp['unlink'],
};

const install = (on: boolean): void => {
  Object.assign(fsp, on ? spies : original);
  syncBuiltinESMExports();
};

/**
 * Records the file calls under `dir` until the test ends: each entry is the call and
 * the paths relative to `dir`, e.g. `open(w) players/1/1.json.tmp`, `datasync players/1/1.json.tmp`,
 * `rename players/1/1.json.tmp players/1/1.json`, `sync .` (the directory itself).
 * Only handles opened after the call are followed.
 */
export const spyFiles = (t: ExecutionContext, dir: string, faults: FileFaults = {}): string[] => {
  const l: Listener = { dir, events: [], faults };
  if (listeners.size === 0) install(true);
  listeners.add(l);
  t.teardown(() => {
    listeners.delete(l);
    if (listeners.size === 0) install(false);
  });
  return l.events;
};

// Reads through a file handle (FileHandle.read) are not among the calls above: a
// test that checks which bytes a reader reads (the oplog through its index) records
// them with spyReads. FileHandle.prototype.read is wrapped for the test's length;
// each read of the named file (matched by device and inode, so any handle of it) is
// noted as its position and length, in the order they were made.
export interface Read {
  readonly position: number | null;
  readonly length: number;
}
type ReadMethod = (this: FileHandle, ...args: unknown[]) => Promise<unknown>;
const handleProto: { read: ReadMethod } = await (async () => {
  const probe = await original.open(process.execPath, 'r');
  try {
    return Object.getPrototypeOf(probe) as { read: ReadMethod };
  } finally {
    await probe.close();
  }
})();
const originalRead = handleProto.read;
const readSpies = new Set<{ readonly path: string; readonly reads: Read[] }>();
const spyingRead: ReadMethod = async function (this: FileHandle, ...args: unknown[]) {
  if (typeof args[2] === 'number') {
    const fd = fstatSync(this.fd);
    for (const s of readSpies) {
      let st;
      try {
        st = statSync(s.path);
      } catch {
        continue;
      }
      if (st.ino === fd.ino && st.dev === fd.dev) s.reads.push({ position: args[3] as number | null, length: args[2] });
    }
  }
  return originalRead.apply(this, args);
};
/** The reads made through file handles of `path` from now until the test ends. */
export const spyReads = (t: ExecutionContext, path: string): Read[] => {
  const s = { path, reads: [] as Read[] };
  if (readSpies.size === 0) handleProto.read = spyingRead;
  readSpies.add(s);
  t.teardown(() => {
    readSpies.delete(s);
    if (readSpies.size === 0) handleProto.read = originalRead;
  });
  return s.reads;
};
