// durable.ts, the JSON-file store's helpers for durable files (issue 23): a
// directory's entries fsynced, a file replaced whole (temp file, fsync, rename), and
// work spread over a bounded number of workers. What an fsync does shows only after
// a power cut, so the file calls are recorded (test/_support/fs-spy.ts) and checked.
import test from 'ava';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mapLimit, syncDir, writeAtomic } from '../../adapters/storage/durable.js';
import { spyFiles, tempDir } from '../_support/fs-spy.js';

test('syncDir opens the directory, fsyncs it and closes it', async (t) => {
  const dir = tempDir(t);
  const calls = spyFiles(t, dir);
  await syncDir(dir);
  t.deepEqual(calls, ['open(r) .', 'sync .', 'close .']);
});

test('syncDir of a directory that is not there rejects', async (t) => {
  const dir = tempDir(t);
  const err = await t.throwsAsync(syncDir(join(dir, 'missing')));
  t.is((err as NodeJS.ErrnoException | undefined)?.code, 'ENOENT');
});

test('writeAtomic writes a temp file whole, fsyncs and closes it, then renames it over the file', async (t) => {
  const dir = tempDir(t);
  const path = join(dir, 'a.json');
  writeFileSync(path, 'old');
  const calls = spyFiles(t, dir);
  await writeAtomic(path, '{"new":true}');
  t.deepEqual(calls, [
    'open(w) a.json.tmp',
    'writeFile a.json.tmp',
    'datasync a.json.tmp',
    'close a.json.tmp',
    'rename a.json.tmp a.json',
  ]);
  t.is(readFileSync(path, 'utf8'), '{"new":true}');
  t.deepEqual(readdirSync(dir), ['a.json'], 'no temp file is left');
});

/** A run of mapLimit whose calls each wait until the test lets them go: how many were running at most. */
const widest = async (n: number, limit: number): Promise<{ widest: number; seen: number[] }> => {
  let running = 0;
  let most = 0;
  const seen: number[] = [];
  const waiting: Array<() => void> = [];
  const done = mapLimit(
    Array.from({ length: n }, (_, i) => i),
    limit,
    async (x) => {
      running++;
      most = Math.max(most, running);
      seen.push(x);
      await new Promise<void>((r) => waiting.push(r));
      running--;
    },
  );
  // Let the calls go one at a time, each after every call started so far has had its turn (bounded: a lost call fails, never hangs).
  for (let turn = 0; turn < 4 * n && (seen.length < n || waiting.length > 0); turn++) {
    await new Promise<void>((r) => setImmediate(r));
    waiting.shift()?.();
  }
  await done;
  return { widest: most, seen };
};

test('mapLimit runs at most `limit` calls at a time, and each element once, in order', async (t) => {
  const r = await widest(7, 3);
  t.is(r.widest, 3);
  t.deepEqual(r.seen, [0, 1, 2, 3, 4, 5, 6]);
});

test('mapLimit with fewer elements than its limit runs them all at once; with none, nothing', async (t) => {
  t.deepEqual(await widest(2, 16), { widest: 2, seen: [0, 1] });
  t.deepEqual(await widest(0, 16), { widest: 0, seen: [] });
});
