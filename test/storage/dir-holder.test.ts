// One writer a JSON-file data directory: a store (a second server started on the same
// DATA_DIR) refuses a directory a live process holds (DATA_DIR/server.pid), before it
// changes any file; a mark a crash left (its process gone, or its pid since taken by a
// process that started at another time) does not hold it.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirHeld, holdDir, holderText, startOf } from '../../adapters/storage/dir-holder.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { StorageError } from '../../adapters/storage/storage.js';
import { startChild } from '../_support/child.js';

const dirFor = (t: { teardown: (f: () => void) => void }): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-held-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** Every file under the directory, with its bytes. */
const files = (dir: string): Record<string, string> =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => statSync(join(dir, f)).isFile())
      .map((f) => [f, readFileSync(join(dir, f)).toString('hex')]),
  );

/** A live process other than this one (a sleeping node), gone at the test's end. */
const otherProcess = (t: { teardown: (f: () => void) => void }): ChildProcess => {
  const p = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  t.teardown(() => {
    p.kill('SIGKILL');
  });
  return p;
};
const exited = (p: ChildProcess): Promise<void> => new Promise((resolve) => p.once('exit', () => resolve()));

/** A directory with a store's files (a store opened and closed on it). */
const storeDir = async (t: { teardown: (f: () => void) => void }): Promise<string> => {
  const dir = dirFor(t);
  await (await FileStorage.open({ dir })).close();
  return dir;
};

test('a store refuses a directory another live process holds, naming it, and changes no file', async (t) => {
  const dir = await storeDir(t);
  const other = otherProcess(t);
  const pid = other.pid as number;
  writeFileSync(join(dir, 'server.pid'), holderText(pid, startOf(pid)));
  const before = files(dir);
  const err = await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: DirHeld });
  t.true(err instanceof StorageError, 'a storage failure, as a damaged directory is');
  t.true(err.message.includes(`${dir} is held by a running process (${pid}`), err.message);
  t.deepEqual(files(dir), before, 'nothing changed');
  // A mark written before the start time was kept (the pid alone) holds it too.
  writeFileSync(join(dir, 'server.pid'), `${pid}\n`);
  await t.throwsAsync(FileStorage.open({ dir }), { instanceOf: DirHeld });
});

test("a crashed holder's mark does not hold the directory: its process gone, or its pid taken by a process started at another time", async (t) => {
  const dir = await storeDir(t);
  const other = otherProcess(t);
  const pid = other.pid as number;
  const start = startOf(pid);
  // Another process that now has the pid: the mark's start time is not its.
  writeFileSync(join(dir, 'server.pid'), holderText(pid, start === undefined ? undefined : `${start}0`));
  if (start !== undefined) await (await FileStorage.open({ dir })).close();
  // The holder gone (killed, its mark left behind).
  writeFileSync(join(dir, 'server.pid'), holderText(pid, start));
  other.kill('SIGKILL');
  await exited(other);
  const storage = await FileStorage.open({ dir });
  t.is(
    readFileSync(join(dir, 'server.pid'), 'utf8'),
    holderText(process.pid, startOf(process.pid)),
    'now this one holds it',
  );
  await storage.close();
});

test("the mark is made exclusively: one a live process made after a store looked is left as it is, and the store refused; a crash's is taken over", async (t) => {
  const dir = dirFor(t);
  const other = otherProcess(t);
  const pid = other.pid as number;
  const theirs = holderText(pid, startOf(pid));
  writeFileSync(join(dir, 'server.pid'), theirs);
  await t.throwsAsync(holdDir(dir), { instanceOf: DirHeld });
  t.is(readFileSync(join(dir, 'server.pid'), 'utf8'), theirs, 'their mark is left');
  other.kill('SIGKILL');
  await exited(other);
  await holdDir(dir);
  t.is(readFileSync(join(dir, 'server.pid'), 'utf8'), holderText(process.pid, startOf(process.pid)));
});

/** A crash's mark: a process's that was killed. */
const crashedMark = async (t: { teardown: (f: () => void) => void }): Promise<string> => {
  const gone = otherProcess(t);
  const pid = gone.pid as number;
  const mark = holderText(pid, startOf(pid));
  gone.kill('SIGKILL');
  await exited(gone);
  return mark;
};

test("of two stores taking over one crash's mark at once, the later finds the earlier's mark, leaves it and is refused", async (t) => {
  const dir = dirFor(t);
  const path = join(dir, 'server.pid');
  writeFileSync(path, await crashedMark(t));
  const other = otherProcess(t);
  const pid = other.pid as number;
  const theirs = holderText(pid, startOf(pid));
  // Between this store's look at the crash's mark and its takeover, another store took the
  // same mark over and made its own: removed by name, theirs would go and both would hold.
  const err = await t.throwsAsync(
    holdDir(dir, {
      beforeTakeover: async () => {
        writeFileSync(path, theirs);
      },
    }),
    { instanceOf: DirHeld },
  );
  t.true(err.message.includes(`held by a running process (${pid}`), err.message);
  t.is(readFileSync(path, 'utf8'), theirs, 'their mark is left');
  t.deepEqual(readdirSync(dir), ['server.pid'], 'nothing left aside');
});

test("a crash's mark gone before the takeover (another store took it over and closed): the store makes its own", async (t) => {
  const dir = dirFor(t);
  const path = join(dir, 'server.pid');
  writeFileSync(path, await crashedMark(t));
  await holdDir(dir, {
    beforeTakeover: async () => {
      unlinkSync(path);
    },
  });
  t.is(readFileSync(path, 'utf8'), holderText(process.pid, startOf(process.pid)));
  t.deepEqual(readdirSync(dir), ['server.pid']);
});

test('a second server on the same DATA_DIR exits 2 naming the first; the first goes on serving', async (t) => {
  const dir = dirFor(t);
  const env = { DATA_DIR: dir, RATE_LIMITS: 'off', CHECKPOINT_INTERVAL_SECONDS: '0' };
  const first = await startChild(env);
  t.teardown(() => first.kill('SIGTERM'));
  const err = await t.throwsAsync(startChild(env));
  t.regex(err.message, /server exited \(2\)/);
  t.true(err.message.includes('is held by a running process'), err.message);
  t.is((await fetch(`${first.url}/readyz`)).status, 200);
});
