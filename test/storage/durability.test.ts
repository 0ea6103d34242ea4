// Commit durability of the file store (issue 23): a commit is acknowledged only after
// its journal record is fsynced. The fsync is held back through the store's fault
// options, and the commit must wait for it.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import { StorageError } from '../../adapters/storage/storage.js';
import { freshPlayer } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';

const dirFor = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-durable-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });
const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A gate the test opens: `wait` blocks until `open`; `reached` resolves once something waits. */
const gate = () => {
  let open!: () => void;
  let reached!: () => void;
  const opened = new Promise<void>((r) => {
    open = r;
  });
  const arrived = new Promise<void>((r) => {
    reached = r;
  });
  return {
    open,
    arrived,
    wait: () => {
      reached();
      return opened;
    },
  };
};

for (const groupCommit of [true, false]) {
  test(`a commit resolves only after its journal fsync completes (groupCommit ${groupCommit})`, async (t) => {
    const dir = dirFor(t);
    let held: ReturnType<typeof gate> | undefined;
    const a = await FileStorage.open({
      dir,
      groupCommit,
      faults: {
        sync: async (datasync) => {
          if (held) await held.wait();
          await datasync();
        },
      },
    });
    t.true((await a.commit({ players: [{ state: player(1), expectedVersion: null }] })).ok);

    held = gate();
    let settled = false;
    const pending = a.commit({ players: [{ state: bump(player(1), 42), expectedVersion: 0 }] }).finally(() => {
      settled = true;
    });
    await held.arrived; // the record is written; its fsync is held
    await later(50);
    t.false(settled, 'not acknowledged while the fsync is held back');
    const g = held;
    held = undefined;
    g.open();
    t.true((await pending).ok);
    t.true(settled);
    t.is((await a.load(1))?.gold, 42);
    await a.close();
  });
}

test('a failed journal fsync rejects the commit and changes nothing; the next commit lands', async (t) => {
  const dir = dirFor(t);
  let failSync = false;
  const a = await FileStorage.open({
    dir,
    faults: {
      sync: async (datasync) => {
        if (failSync) {
          failSync = false;
          throw Object.assign(new Error('I/O error'), { code: 'EIO' });
        }
        await datasync();
      },
    },
  });
  await a.commit({ players: [{ state: player(1), expectedVersion: null }] });
  failSync = true;
  const err = await t.throwsAsync(a.commit({ players: [{ state: bump(player(1), 7), expectedVersion: 0 }] }));
  t.true(err instanceof StorageError);
  t.is((await a.load(1))?.gold, player(1).gold, 'the refused commit is not visible');
  t.true(
    (await a.commit({ players: [{ state: bump(player(1), 8), expectedVersion: 0 }] })).ok,
    'the version check still expects the old version',
  );
  await a.close();
  const b = await FileStorage.open({ dir });
  t.is((await b.load(1))?.gold, 8);
  await b.close();
});
