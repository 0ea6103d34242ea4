// The indexes every in-process store keeps (adapters/storage/index-model.ts), at
// their edges (issue 23's mutation pass): a write that fails is undone change by
// change, last first, so an entry a commit sets twice comes back as it was before
// the commit; the recent players are a bounded list.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { freshPlayer } from '../_support/core.js';

test('a failed write is undone last change first: a session and an idempotency record the commit set twice are as before it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-index-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  let failSync = false;
  const s = await FileStorage.open({
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
  t.teardown(() => s.close());
  const session = (createdAt: number) => ({ playerId: 1, epoch: 0, createdAt, lastSeenAt: createdAt });
  const record = (createdAt: number) => ({ requestHash: 'h', answer: { ok: { createdAt } }, createdAt });
  t.true(
    (
      await s.commit({
        players: [{ state: freshPlayer({ playerId: 1 }), expectedVersion: null }],
        sessions: [{ key: 'kept', session: session(1) }],
      })
    ).ok,
  );
  failSync = true;
  await t.throwsAsync(
    s.commit({
      players: [],
      sessions: [
        { key: 'new', session: session(2) },
        { key: 'new', session: session(3) },
        { key: 'kept', session: null },
        { key: 'kept', session: session(4) },
      ],
      idempotency: [
        { key: 'k', record: record(2) },
        { key: 'k', record: record(3) },
      ],
    }),
  );
  t.deepEqual(
    [await s.getSession('new'), await s.getSession('kept'), await s.getIdempotency('k')],
    [undefined, session(1), undefined],
  );
  t.deepEqual(await s.sessionsOf(1), [{ key: 'kept', session: session(1) }]);
});

test('the recent players are the 200 who committed last, newest first', async (t) => {
  const s = new MemoryStorage();
  const players = Array.from({ length: 201 }, (_, i) => freshPlayer({ playerId: i + 1, seed: `p${i + 1}` }));
  t.true((await s.commit({ players: players.map((state) => ({ state, expectedVersion: null })) })).ok);
  const recent = await s.recentlyActive(1000);
  t.is(recent.length, 200);
  t.deepEqual(recent.slice(0, 2), [1, 2], 'one commit: in its order');
  t.true((await s.commit({ players: [{ state: { ...players[200]!, version: 1 }, expectedVersion: 0 }] })).ok);
  t.deepEqual((await s.recentlyActive(1000)).slice(0, 3), [201, 1, 2]);
  t.is((await s.recentlyActive(1000)).length, 200);
});
