// Pipelined commits on the file store (issue 34): a commit is taken (checked, and its
// result known) before the fsync of the one before it, built on that one's state, and
// durable only after its own batch's fsync; a batch that fails fails every commit taken
// after it, undoing what they did to the indexes and kept answers. The fsyncs are held
// and failed through the store's fault options; commits taken are counted, never timed.
import test from 'ava';
import { FileStorage } from '../../adapters/storage/file.js';
import { StorageError, type Commit, type IdempotencyRecord } from '../../adapters/storage/storage.js';
import { freshPlayer } from '../_support/core.js';
import { heldStore, pipelinedDir } from '../_support/held-store.js';
import type { PlayerState } from '../../core/state.js';

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, gold: number): PlayerState => ({ ...s, gold, version: s.version + 1 });
const record = (n: number): IdempotencyRecord => ({ requestHash: `h${n}`, answer: { ok: { n } }, createdAt: 0 });
const session = (playerId: number) => ({ playerId, epoch: 0, createdAt: 0, lastSeenAt: 0 });

const track = (events: string[], name: string, p: Promise<unknown>) =>
  p.then(
    () => events.push(`${name} durable`),
    () => events.push(`${name} failed`),
  );

test('a commit is taken on the state of the one before it while that one is not yet durable, and is durable only after its own fsync', async (t) => {
  const dir = pipelinedDir(t);
  const h = await heldStore(t, dir);
  t.true((await h.store.commit({ players: [{ state: player(1), expectedVersion: null }] })).ok);
  const v1 = bump(player(1), 10);
  const waiting = h.hold();
  const first = await h.store.accept({ players: [{ state: v1, expectedVersion: 0 }] });
  t.true(first.result.ok);
  await waiting; // its batch is in the held fsync
  t.is((await h.store.loadLatest(1))?.gold, 10, 'the next commit is built on it');
  t.is((await h.store.load(1))?.gold, player(1).gold, 'a load answers what is durable');
  const v2 = bump(v1, 20);
  const second = await h.store.accept({ players: [{ state: v2, expectedVersion: 1 }] });
  t.true(second.result.ok, 'checked against the version not yet durable');
  const stale = await h.store.accept({ players: [{ state: bump(player(1), 99), expectedVersion: 0 }] });
  t.false(stale.result.ok, 'the durable version is no longer the one to build on');
  const done = Promise.all([track(h.events, 'first', first.durable), track(h.events, 'second', second.durable)]);
  h.release();
  await done;
  t.deepEqual(h.events, ['synced', 'synced', 'first durable', 'synced', 'second durable']);
  t.is((await h.store.load(1))?.gold, 20);
  await h.store.close();
  const again = await FileStorage.open({ dir });
  t.is((await again.load(1))?.version, 2);
  await again.close();
});

test('a failed fsync fails its batch and every commit taken after it: their keys, sessions and answers undone, the durable state loaded again', async (t) => {
  const dir = pipelinedDir(t);
  const h = await heldStore(t, dir);
  await h.store.commit({
    players: [
      { state: player(1), expectedVersion: null },
      { state: player(2), expectedVersion: null },
    ],
  });
  const v1 = bump(player(1), 10);
  const waiting = h.hold();
  const first = await h.store.accept({
    players: [{ state: v1, expectedVersion: 0 }],
    sessions: [{ key: 's1', session: session(1) }],
    idempotency: [{ key: '1:a', record: record(1) }],
  });
  await waiting;
  const second: Commit = {
    players: [{ state: bump(v1, 20), expectedVersion: 1 }],
    idempotency: [{ key: '1:b', record: record(2) }],
  };
  // Another player's commit taken behind the failing batch fails too: it may have read its states.
  const other: Commit = {
    players: [{ state: bump(player(2), 5), expectedVersion: 0 }],
    sessions: [{ key: 's2', session: session(2) }],
  };
  const s = await h.store.accept(second);
  const o = await h.store.accept(other);
  t.true(s.result.ok && o.result.ok);
  t.truthy(await h.store.getSession('s1'), 'taken: the session is in the index');
  const settled = Promise.all([
    track(h.events, 'first', first.durable),
    track(h.events, 'second', s.durable),
    track(h.events, 'other', o.durable),
  ]);
  h.fail();
  await settled;
  t.deepEqual(h.events, ['synced', 'sync failed', 'first failed', 'second failed', 'other failed']);
  const err = await t.throwsAsync(s.durable);
  t.true(err instanceof StorageError);
  for (const id of [1, 2]) {
    t.is((await h.store.load(id))?.version, 0, `player ${id}: the durable state`);
    t.is((await h.store.loadLatest(id))?.version, 0, `player ${id}: nothing taken is left to build on`);
  }
  t.is(await h.store.getSession('s1'), undefined);
  t.is(await h.store.getSession('s2'), undefined);
  t.is(await h.store.getIdempotency('1:a'), undefined, 'no key of a failed commit is kept');
  t.is(await h.store.getIdempotency('1:b'), undefined);
  await t.throwsAsync(
    h.store.durable([second.players[0]?.state as PlayerState]),
    undefined,
    'its state never will be durable',
  );
  // The next commit is built on the durable state, numbered right after the last durable record.
  t.true((await h.store.commit({ players: [{ state: bump(player(1), 30), expectedVersion: 0 }] })).ok);
  await h.store.close();
  const again = await FileStorage.open({ dir });
  t.is((await again.load(1))?.gold, 30);
  t.is((await again.load(2))?.version, 0);
  t.is(await again.getIdempotency('1:b'), undefined);
  await again.close();
});

test('commits taken while a batch is in its fsync share the next fsync', async (t) => {
  const h = await heldStore(t);
  await h.store.commit({ players: [{ state: player(1), expectedVersion: null }] });
  const waiting = h.hold();
  let s = bump(player(1), 1);
  const all = [await h.store.accept({ players: [{ state: s, expectedVersion: 0 }] })];
  await waiting;
  for (let i = 2; i <= 10; i++) {
    const next = bump(s, i);
    all.push(await h.store.accept({ players: [{ state: next, expectedVersion: s.version }] }));
    s = next;
  }
  await h.taken(11);
  h.release();
  await Promise.all(all.map((a) => a.durable));
  t.true(all.every((a) => a.result.ok));
  t.is(
    h.events.filter((e) => e === 'synced').length,
    3,
    'the first commit, the held batch, and the nine behind it in one',
  );
  t.is((await h.store.load(1))?.gold, 10);
});
