// The players a store keeps in memory (player-cache.ts, issue 36): the most recently
// used, at most its size, and none left unused for its idle time.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PlayerCache } from '../../adapters/storage/player-cache.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { freshPlayer } from '../_support/core.js';

test('the least recently used goes first past the size; a use moves a player to the end', (t) => {
  const c = new PlayerCache<string>(2, 0, () => 0);
  c.set(1, 'a');
  c.set(2, 'b');
  c.set(1, 'a2');
  c.set(3, 'c');
  t.deepEqual([c.get(1), c.get(2), c.get(3), c.count], ['a2', undefined, 'c', 2]);
});

test('a player unused for the idle time leaves at the next use of another; one used since stays', (t) => {
  let now = 0;
  const c = new PlayerCache<string>(100, 1_000, () => now);
  c.set(1, 'a');
  c.set(2, 'b');
  now = 500;
  c.set(2, 'b');
  now = 999;
  c.set(3, 'c');
  t.true(c.has(1), 'not yet idle');
  now = 1_000;
  c.set(3, 'c');
  t.deepEqual([c.has(1), c.has(2), c.has(3)], [false, true, true], 'idle exactly the time: gone');
  now = 1_500;
  c.set(3, 'c');
  t.deepEqual([c.has(2), c.count], [false, 1]);
});

test('size 0 keeps nothing; idle time 0 keeps players however long unused; delete forgets', (t) => {
  const none = new PlayerCache<string>(0, 0, () => 0);
  none.set(1, 'a');
  t.is(none.count, 0);
  let now = 0;
  const c = new PlayerCache<string>(10, 0, () => now);
  c.set(1, 'a');
  now = 1e12;
  c.set(2, 'b');
  t.true(c.has(1));
  c.delete(1);
  t.deepEqual([c.has(1), c.count], [false, 1]);
});

test('the JSON-file store lets a clean player unused for CACHE_IDLE_SECONDS go, and reads it again when asked', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-idle-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const a = await FileStorage.open({ dir });
  for (const id of [1, 2])
    await a.commit({ players: [{ state: freshPlayer({ playerId: id, seed: `p${id}` }), expectedVersion: null }] });
  await a.close();
  let now = 0;
  const b = await FileStorage.open({ dir, cacheIdleMs: 60_000, clock: () => now });
  t.teardown(() => b.close());
  await b.load(1);
  t.is(b.stats().playersInMemory, 1);
  now = 60_000;
  await b.load(2);
  t.is(b.stats().playersInMemory, 1, 'player 1, idle a minute, let go');
  t.is((await b.load(1))?.playerId, 1, 'and read again');
});
