// The storage contract: the same suite runs against every adapter.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { FileStorage } from '../../adapters/storage/file.js';
import type { Storage } from '../../adapters/storage/storage.js';
import { openPostgres } from '../_support/pg.js';
import { freshPlayer, NOW } from '../_support/core.js';
import { tombstoneOf } from '../../core/operations/privacy.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import type { PlayerState } from '../../core/state.js';
import { canonicalJson, stateHash } from '../../adapters/storage/canonical.js';
import type { LogRun } from '../../adapters/storage/replay-log.js';
import { KEPT_PER_SCOPE } from '../../adapters/storage/kept-answers.js';

interface Adapter {
  name: string;
  make: () => Promise<{ storage: Storage; cleanup: () => Promise<void> }>;
}

const tmp = () => mkdtempSync(join(tmpdir(), 'hoshi-contract-'));
export const ADAPTERS: Adapter[] = [
  { name: 'memory', make: async () => ({ storage: new MemoryStorage(), cleanup: async () => {} }) },
  {
    name: 'file',
    make: async () => {
      const dir = tmp();
      const storage = await FileStorage.open({ dir, cacheSize: 4 });
      return {
        storage,
        cleanup: async () => {
          await storage.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  { name: 'postgres', make: () => openPostgres() },
];

const player = (id: number): PlayerState => freshPlayer({ playerId: id, seed: `p${id}` });
const bump = (s: PlayerState, patch: Partial<PlayerState>): PlayerState => ({ ...s, ...patch, version: s.version + 1 });

for (const a of ADAPTERS) {
  const it = (title: string, f: (t: import('ava').ExecutionContext, s: Storage) => Promise<void>) =>
    test(`${a.name}: ${title}`, async (t) => {
      const { storage, cleanup } = await a.make();
      t.teardown(cleanup);
      await f(t, storage);
    });

  it('a committed player loads back equal, and its keys are indexed', async (t, s) => {
    const p = player(await s.nextPlayerId());
    t.deepEqual(await s.commit({ players: [{ state: p, expectedVersion: null }] }), { ok: true });
    t.deepEqual(await s.load(p.playerId), p);
    t.is(await s.lookup('uuid', p.account.uuid), p.playerId);
    t.is(await s.lookup('myCode', p.myCode), p.playerId);
    t.is(await s.load(999), undefined);
    t.is(await s.lookup('uuid', 'nobody'), undefined);
    t.deepEqual(await s.playerIds(), [p.playerId]);
    t.is(s.stats?.().playersInMemory, 1, 'GET /metrics counts it');
  });

  it('player ids are never handed out twice', async (t, s) => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => s.nextPlayerId()));
    t.is(new Set(ids).size, 20);
  });

  it('a stale expected version is a conflict and changes nothing', async (t, s) => {
    const p = player(1);
    await s.commit({ players: [{ state: p, expectedVersion: null }] });
    const v1 = bump(p, { gold: 1 });
    t.true((await s.commit({ players: [{ state: v1, expectedVersion: 0 }] })).ok);
    const stale = await s.commit({ players: [{ state: bump(p, { gold: 2 }), expectedVersion: 0 }] });
    t.like(stale, { ok: false, conflict: 'version' });
    t.regex(stale.ok ? '' : stale.detail, /^player 1 /, 'the detail names the player');
    t.is((await s.load(1))?.gold, 1);
    const dup = await s.commit({ players: [{ state: p, expectedVersion: null }] });
    t.like(dup, { ok: false, conflict: 'version' }, 'creating an existing player is a conflict');
  });

  it('a unique key held by another player is a conflict', async (t, s) => {
    const p1 = player(1);
    const p2 = { ...player(2), myCode: p1.myCode };
    await s.commit({ players: [{ state: p1, expectedVersion: null }] });
    const taken = await s.commit({ players: [{ state: p2, expectedVersion: null }] });
    t.like(taken, { ok: false, conflict: 'unique' });
    t.not(taken.ok ? '' : taken.detail, '', 'the detail says what was taken');
    t.is(await s.load(2), undefined);
  });

  it('changed keys move: the old key is freed, the new one indexed', async (t, s) => {
    const p = player(1);
    await s.commit({ players: [{ state: p, expectedVersion: null }] });
    const moved = bump(p, { move: { code: 'MOVECODE01', salt: 's', passwordHash: 'h', deadline: 1, failures: 0 } });
    await s.commit({ players: [{ state: moved, expectedVersion: 0 }] });
    t.is(await s.lookup('moveCode', 'MOVECODE01'), 1);
    await s.commit({ players: [{ state: bump(moved, { move: null }), expectedVersion: 1 }] });
    t.is(await s.lookup('moveCode', 'MOVECODE01'), undefined);
  });

  it('a commit of several players is all or nothing', async (t, s) => {
    const p1 = player(1);
    const p2 = player(2);
    await s.commit({
      players: [
        { state: p1, expectedVersion: null },
        { state: p2, expectedVersion: null },
      ],
    });
    const res = await s.commit({
      players: [
        { state: bump(p1, { gold: 5 }), expectedVersion: 0 },
        { state: bump(p2, { gold: 5 }), expectedVersion: 7 },
      ],
    });
    t.false(res.ok);
    t.is((await s.load(1))?.gold, p1.gold, 'the valid half was not applied');
    t.true(
      (
        await s.commit({
          players: [
            { state: bump(p1, { gold: 5 }), expectedVersion: 0 },
            { state: bump(p2, { gold: 6 }), expectedVersion: 0 },
          ],
        })
      ).ok,
    );
    t.deepEqual([(await s.load(1))?.gold, (await s.load(2))?.gold], [5, 6]);
  });

  it('sessions are put, read and removed with commits', async (t, s) => {
    const p = player(1);
    const session = { playerId: 1, epoch: 0, createdAt: 10, lastSeenAt: 10 };
    await s.commit({ players: [{ state: p, expectedVersion: null }], sessions: [{ key: 'k1', session }] });
    t.deepEqual(await s.getSession('k1'), session);
    await s.commit({ players: [], sessions: [{ key: 'k1', session: null }] });
    t.is(await s.getSession('k1'), undefined);
  });

  it("a player's sessions are listed with their keys, oldest first, and go when removed", async (t, s) => {
    await s.commit({
      players: [
        { state: player(1), expectedVersion: null },
        { state: player(2), expectedVersion: null },
      ],
    });
    const later = { playerId: 1, epoch: 0, createdAt: 20, lastSeenAt: 25 };
    const earlier = { playerId: 1, epoch: 0, createdAt: 10, lastSeenAt: 30 };
    const other = { playerId: 2, epoch: 0, createdAt: 5, lastSeenAt: 5 };
    await s.commit({
      players: [],
      sessions: [
        { key: 'b', session: later },
        { key: 'a', session: earlier },
        { key: 'c', session: other },
      ],
    });
    t.deepEqual(await s.sessionsOf(1), [
      { key: 'a', session: earlier },
      { key: 'b', session: later },
    ]);
    t.deepEqual(await s.sessionsOf(3), []);
    await s.commit({ players: [], sessions: [{ key: 'a', session: null }] });
    t.deepEqual(await s.sessionsOf(1), [{ key: 'b', session: later }]);
    t.deepEqual(await s.sessionsOf(2), [{ key: 'c', session: other }]);
    const sameTime = { playerId: 1, epoch: 0, createdAt: 20, lastSeenAt: 40 };
    await s.commit({ players: [], sessions: [{ key: 'a0', session: sameTime }] });
    t.deepEqual(
      await s.sessionsOf(1),
      [
        { key: 'a0', session: sameTime },
        { key: 'b', session: later },
      ],
      'made at the same instant: by key',
    );
  });

  it('players only read must still be at the versions read: one moved on is a version conflict and nothing is kept', async (t, s) => {
    const [p1, p2] = [player(1), player(2)];
    await s.commit({
      players: [
        { state: p1, expectedVersion: null },
        { state: p2, expectedVersion: null },
      ],
    });
    t.deepEqual(
      await s.commit({
        players: [{ state: bump(p1, { gold: 1 }), expectedVersion: 0 }],
        reads: [{ playerId: 2, version: 0 }],
      }),
      { ok: true },
      'still at the version read',
    );
    t.true((await s.commit({ players: [{ state: bump(p2, { gold: 2 }), expectedVersion: 0 }] })).ok);
    const session = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 };
    const moved = await s.commit({
      players: [{ state: bump(bump(p1, { gold: 1 }), { gold: 3 }), expectedVersion: 1 }],
      reads: [{ playerId: 2, version: 0 }],
      sessions: [{ key: 'r', session }],
    });
    t.like(moved, { ok: false, conflict: 'version' });
    t.not(moved.ok ? '' : moved.detail, '', 'the detail says why');
    t.deepEqual([(await s.load(1))?.gold, await s.getSession('r')], [1, undefined]);
    t.like(
      await s.commit({ players: [], reads: [{ playerId: 9, version: 0 }], sessions: [{ key: 'r', session }] }),
      { ok: false, conflict: 'version' },
      'a player read who is not stored has moved on too',
    );
  });

  it("every player's draw history is handed over, and the count of players read", async (t, s) => {
    const record = (gachaId: number, id: number) => ({
      gachaId,
      drawnAt: id,
      drawType: 1,
      characterIds: [id],
      payment: { ticket: 0, gem: 150, paidGem: 0 },
      granted: true,
    });
    const players = Array.from({ length: 7 }, (_, i) => ({
      ...player(i + 1),
      gachaHistory: i % 3 === 0 ? [] : [record(2, i), record(3, i)],
    }));
    await s.commit({ players: players.map((state) => ({ state, expectedVersion: null })) });
    const seen: unknown[] = [];
    t.is(await s.drawHistories((h) => seen.push(h)), 7);
    // PostgreSQL's jsonb orders keys its own way: compared in canonical JSON.
    const key = (x: unknown) => canonicalJson(x);
    t.deepEqual(seen.map(key).sort(), players.map((p) => key(p.gachaHistory)).sort());
  });

  it('concurrent commits to different players all land; to one player exactly one per version', async (t, s) => {
    const ps = Array.from({ length: 30 }, (_, i) => player(i + 1));
    const created = await Promise.all(ps.map((p) => s.commit({ players: [{ state: p, expectedVersion: null }] })));
    t.true(created.every((r) => r.ok));
    const racing = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        s.commit({ players: [{ state: bump(ps[0]!, { gold: i }), expectedVersion: 0 }] }),
      ),
    );
    t.is(racing.filter((r) => r.ok).length, 1);
    t.is((await s.load(1))?.version, 1);
    t.is((await s.playerIds()).length, 30);
  });

  it('replay-log entries are kept with their commit, numbered in commit order; a conflicting commit keeps none', async (t, s) => {
    // What ran; the storage numbers the entry and hashes the states it stores.
    const entry = (p: PlayerState): LogRun => ({
      kind: 'op',
      at: p.version,
      masterHash: 'm',
      op: 'loginPlayer',
      playerId: p.playerId,
      request: {},
      seed: '',
      others: [],
    });
    const p = player(1);
    t.deepEqual(await s.readLog(), []);
    await s.commit({ players: [{ state: p, expectedVersion: null }], log: entry(p) });
    const v1 = bump(p, { gold: 1 });
    await s.commit({ players: [{ state: v1, expectedVersion: 0 }], log: entry(v1) });
    const stale = bump(p, { gold: 2 });
    t.false((await s.commit({ players: [{ state: stale, expectedVersion: 0 }], log: entry(stale) })).ok);
    await s.commit({ players: [], sessions: [{ key: 'k', session: null }] });
    const log = await s.readLog();
    t.deepEqual(
      log.map((e) => [e.seq, e.results[0]?.version]),
      [
        [1, 0],
        [2, 1],
      ],
    );
    t.is(log[1]?.results[0]?.stateHash, stateHash(v1));
  });

  it('readLog with a filter gives the entries that changed one of the players, in seq order, as the whole log holds them', async (t, s) => {
    const run = (p: PlayerState, others: number[] = []): LogRun => ({
      kind: 'op',
      at: p.version,
      masterHash: 'm',
      op: 'loginPlayer',
      playerId: p.playerId,
      request: {},
      seed: '',
      others,
    });
    const ps = new Map([1, 2, 3].map((id) => [id, player(id)]));
    const change = async (...ids: number[]) => {
      const next = ids.map((id) => {
        const p = ps.get(id)!;
        return { before: p, state: bump(p, { gold: p.gold + 1 }) };
      });
      const r = await s.commit({
        players: next.map((x) => ({ state: x.state, expectedVersion: x.before.version })),
        log: run(next[0]!.state, ids.slice(1)),
      });
      t.true(r.ok);
      for (const x of next) ps.set(x.state.playerId, x.state);
    };
    for (const p of ps.values()) await s.commit({ players: [{ state: p, expectedVersion: null }], log: run(p) });
    await change(1, 2); // a friend operation: both players in one entry (seq 4)
    await change(2);
    await change(3);
    await change(1);
    // A refused commit leaves no entry for anyone.
    t.false(
      (await s.commit({ players: [{ state: bump(player(3), {}), expectedVersion: 0 }], log: run(player(3)) })).ok,
    );
    const all = await s.readLog();
    const seqs = (players: number[]) => s.readLog({ players }).then((es) => es.map((e) => e.seq));
    t.deepEqual(
      all.map((e) => e.seq),
      [1, 2, 3, 4, 5, 6, 7],
    );
    t.deepEqual(await seqs([1]), [1, 4, 7]);
    t.deepEqual(await seqs([2]), [2, 4, 5]);
    t.deepEqual(await seqs([3, 1]), [1, 3, 4, 6, 7], 'either player, each entry once');
    t.deepEqual(await seqs([9]), [], 'a player without entries');
    t.deepEqual(await seqs([]), [], 'no player: no entry');
    t.deepEqual(await s.readLog({}), all, 'no players named: every entry');
    t.deepEqual(
      await s.readLog({ players: [2] }),
      all.filter((e) => e.playerIds.includes(2)),
      'the entries whole, as the whole log holds them',
    );
    t.deepEqual(await s.readLog(), all, 'reading changed nothing');
  });

  it('idempotency records are kept with their commit and read back by key, whole', async (t, s) => {
    const p = player(1);
    const first = { requestHash: 'h1', answer: { ok: { gold: 1 } }, createdAt: 10 };
    await s.commit({ players: [{ state: p, expectedVersion: null }], idempotency: [{ key: '1:k', record: first }] });
    t.deepEqual(await s.getIdempotency('1:k'), first);
    t.is(await s.getIdempotency('1:other'), undefined);
    const refused = {
      requestHash: 'h2',
      answer: { error: { code: 'GEM_IS_SHORT' } },
      createdAt: 11,
      withheld: ['accessToken'],
    };
    await s.commit({ players: [], idempotency: [{ key: '1:j', record: refused }] });
    t.deepEqual([await s.getIdempotency('1:j'), await s.getIdempotency('1:k')], [refused, first]);
  });

  it(`a caller's scope keeps its newest ${KEPT_PER_SCOPE} answers: the oldest goes first, another scope keeps its own`, async (t, s) => {
    const rec = (n: number) => ({ requestHash: `h${n}`, answer: { ok: { n } }, createdAt: 1_000 + n });
    await s.commit({ players: [], idempotency: [{ key: 'p2:keep', record: rec(0) }] });
    for (let n = 1; n <= KEPT_PER_SCOPE + 2; n++)
      await s.commit({ players: [], idempotency: [{ key: `p1:k${n}`, record: rec(n) }] });
    t.deepEqual(
      [await s.getIdempotency('p1:k1'), await s.getIdempotency('p1:k2')],
      [undefined, undefined],
      'the two oldest of p1 are gone',
    );
    t.deepEqual(await s.getIdempotency('p1:k3'), rec(3), 'the oldest kept');
    t.deepEqual(await s.getIdempotency(`p1:k${KEPT_PER_SCOPE + 2}`), rec(KEPT_PER_SCOPE + 2));
    t.deepEqual(await s.getIdempotency('p2:keep'), rec(0), 'another scope is not touched');
  });

  it('a refused commit keeps none of its sessions, idempotency records or keys (version and unique conflicts alike)', async (t, s) => {
    const p1 = player(1);
    const p2 = player(2);
    await s.commit({ players: [{ state: p1, expectedVersion: null }] });
    const session = { playerId: 1, epoch: 0, createdAt: 10, lastSeenAt: 10 };
    const record = { requestHash: 'h', answer: { ok: {} }, createdAt: 10 };
    const stale = await s.commit({
      players: [{ state: bump(p1, { myCode: 'NEWCODE001' }), expectedVersion: 5 }],
      sessions: [{ key: 'sv', session }],
      idempotency: [{ key: '1:v', record }],
    });
    t.like(stale, { ok: false, conflict: 'version' });
    const taken = await s.commit({
      players: [{ state: { ...p2, myCode: p1.myCode }, expectedVersion: null }],
      sessions: [{ key: 'su', session }],
      idempotency: [{ key: '2:u', record }],
    });
    t.like(taken, { ok: false, conflict: 'unique' });
    t.deepEqual([await s.getSession('sv'), await s.getSession('su')], [undefined, undefined]);
    t.deepEqual([await s.getIdempotency('1:v'), await s.getIdempotency('2:u')], [undefined, undefined]);
    t.deepEqual(
      [
        await s.lookup('myCode', 'NEWCODE001'),
        await s.lookup('uuid', p2.account.uuid),
        await s.lookup('myCode', p1.myCode),
      ],
      [undefined, undefined, 1],
    );
    t.deepEqual(await s.playerIds(), [1]);
    t.deepEqual(await s.recentlyActive(5), [1]);
  });

  it('a player keeps its keys through a commit that does not change them, and may take back a key it freed', async (t, s) => {
    const p = player(1);
    await s.commit({ players: [{ state: p, expectedVersion: null }] });
    const v1 = bump(p, { gold: 9 });
    t.true((await s.commit({ players: [{ state: v1, expectedVersion: 0 }] })).ok);
    t.deepEqual([await s.lookup('uuid', p.account.uuid), await s.lookup('myCode', p.myCode)], [1, 1]);
    const v2 = bump(v1, { myCode: 'OTHERCODE1' });
    t.true((await s.commit({ players: [{ state: v2, expectedVersion: 1 }] })).ok);
    t.deepEqual([await s.lookup('myCode', p.myCode), await s.lookup('myCode', 'OTHERCODE1')], [undefined, 1]);
    t.true((await s.commit({ players: [{ state: bump(v2, { myCode: p.myCode }), expectedVersion: 2 }] })).ok);
    t.deepEqual([await s.lookup('myCode', p.myCode), await s.lookup('myCode', 'OTHERCODE1')], [1, undefined]);
  });

  it('recently active players come newest commit first, at most the limit asked for', async (t, s) => {
    const ps = [1, 2, 3].map(player);
    for (const p of ps) await s.commit({ players: [{ state: p, expectedVersion: null }] });
    t.deepEqual(await s.recentlyActive(5), [3, 2, 1]);
    await s.commit({ players: [{ state: bump(ps[0]!, { gold: 1 }), expectedVersion: 0 }] });
    t.deepEqual(await s.recentlyActive(5), [1, 3, 2], 'a commit moves its player to the front, once');
    t.deepEqual(await s.recentlyActive(2), [1, 3]);
    t.deepEqual(await s.recentlyActive(0), []);
  });

  it('player ids and players found by name come in id order, whatever order they were committed in', async (t, s) => {
    for (const [id, name] of [
      [3, 'Aki'],
      [1, 'Aki'],
      [4, 'Ben'],
      [2, 'Aki'],
    ] as const) {
      await s.commit({ players: [{ state: { ...player(id), name }, expectedVersion: null }] });
    }
    t.deepEqual(await s.playerIds(), [1, 2, 3, 4]);
    if (!s.findByName) {
      t.pass('this adapter has no search: the operator API scans');
      return;
    }
    t.deepEqual(await s.findByName('Aki', 10), [1, 2, 3]);
    t.deepEqual(await s.findByName('Aki', 2), [1, 2]);
    t.deepEqual(await s.findByName('Ben', 10), [4]);
    t.deepEqual(await s.findByName('Nobody', 10), []);
  });
}

for (const a of ADAPTERS) {
  test(`${a.name}: a deleted player (its tombstone) is no player: no load, no key, not listed; its id stays spent; its sessions and own answers go with the commit`, async (t) => {
    const { storage: s, cleanup } = await a.make();
    t.teardown(cleanup);
    const session = { playerId: 1, epoch: 0, createdAt: 1, lastSeenAt: 1 };
    const answer = (ok: Record<string, unknown>) => ({ requestHash: 'h', answer: { ok }, createdAt: 1 });
    const p = { ...player(1), name: 'Aki', gachaHistory: [] };
    const friend = { ...player(2), name: 'Aki' };
    await s.commit({
      players: [
        { state: p, expectedVersion: null },
        { state: friend, expectedVersion: null },
      ],
      sessions: [{ key: 'sess-1', session }],
      idempotency: [
        { key: 'p1:mine', record: answer({ player: { playerId: 1, name: 'Aki' } }) },
        { key: `signup/${p.account.uuid}:su`, record: answer({ playerId: 1 }) },
        { key: 'p2:shown', record: answer({ friends: [{ playerId: 1, name: 'Aki', myCode: p.myCode, since: 'x' }] }) },
      ],
    });
    const gone = { ...tombstoneOf(p, NOW), version: p.version + 1 };
    const erase = { playerId: 1, drop: ['p1', `signup/${p.account.uuid}`], scrub: ['p2'] };
    const result = await s.commit({
      players: [{ state: gone, expectedVersion: p.version }],
      sessions: [{ key: 'sess-1', session: null }],
      erase,
    });
    t.deepEqual(result, { ok: true });
    if (s instanceof PostgresStorage) await s.purgeErased();
    t.is(await s.load(1), undefined);
    t.is(await s.lookup('uuid', p.account.uuid), undefined);
    t.is(await s.lookup('myCode', p.myCode), undefined);
    t.deepEqual(await s.playerIds(), [2]);
    if (s.findByName) t.deepEqual(await s.findByName('Aki', 10), [2]);
    t.deepEqual(await s.sessionsOf(1), []);
    t.is(await s.getIdempotency('p1:mine'), undefined, 'its own answers are dropped');
    t.is(await s.getIdempotency(`signup/${p.account.uuid}:su`), undefined);
    t.deepEqual((await s.getIdempotency('p2:shown'))?.answer, {
      ok: { friends: [{ playerId: 1, name: '', myCode: '', since: 'x' }] },
    });
    t.true((await s.nextPlayerId()) > 2, 'its id is never handed out again');
    // Its keys are free: another player may take its uuid.
    const other = { ...player(3), account: { ...player(3).account, uuid: p.account.uuid } };
    t.deepEqual(await s.commit({ players: [{ state: other, expectedVersion: null }] }), { ok: true });
    t.is(await s.lookup('uuid', p.account.uuid), 3);
    // A second write over the tombstone's version is refused as any stale write is.
    t.like(await s.commit({ players: [{ state: { ...p, version: 1 }, expectedVersion: 0 }] }), { ok: false });
  });
}
