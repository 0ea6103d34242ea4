// Guards the identity contract (core/views/never-mutated.ts): nothing reachable
// from a stored state, and no view once built, is ever changed — the view memos,
// the answer cache (adapters/http/json.ts) and the storage's JSON and hashes kept
// by identity all rely on it. A session of operations over HTTP runs on states
// deep-frozen as they are stored, with every view deep-frozen as it is marked
// shared: a write to either throws (ES modules are strict) and fails its request.
import test from 'ava';
import { MemoryStorage } from '../../../adapters/storage/memory.js';
import type { Commit, CommitResult } from '../../../adapters/storage/storage.js';
import { watchShared } from '../../../core/views/never-mutated.js';
import type { PlayerState } from '../../../core/state.js';
import { freshPlayer, master, runOp } from '../../_support/core.js';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../../_support/http.js';

const deepFreeze = <T>(v: T): T => {
  if (v === null || typeof v !== 'object' || Object.isFrozen(v)) return v;
  Object.freeze(v);
  for (const x of Object.values(v as object)) deepFreeze(x);
  return v;
};

/** Memory storage whose states are frozen, deep, as they are committed: every reducer then runs on frozen states. */
class FreezingStorage extends MemoryStorage {
  override async commit(c: Commit): Promise<CommitResult> {
    for (const p of c.players) deepFreeze(p.state);
    return super.commit(c);
  }
}

test.serial('a session of operations writes to no stored state and to no view once built', async (t) => {
  let marked = 0;
  const unwatch = watchShared((v) => {
    marked++;
    deepFreeze(v);
  });
  t.teardown(unwatch);
  // Views built with the master data (box/get's published rates) were marked before the watch.
  for (const { box } of master().gachaTables.values()) deepFreeze(box);
  const h = await startHarness({ storage: new FreezingStorage() });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  for (const [kind, id, amount] of [
    ['gem', 0, 30_000],
    ['gold', 0, 2_000_000],
    ['item', 2003, 20],
    ['character', 1011, 1],
  ] as const)
    await grant(h, a.playerId, kind, id, amount);
  const ok = (what: string, r: { status: number; body: Record<string, unknown> }) =>
    t.is(r.body['resultCode'], 0, `${what}: ${JSON.stringify(r.body).slice(0, 300)}`);
  ok('receive a', await receiveAllHttp(a));
  ok('receive b', await receiveAllHttp(b));
  for (let i = 0; i < 2; i++) {
    ok('box', await a.get('/api/player/gacha/box/get?gachaId=3'));
    ok('draw', await a.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3, stepCode: 0, reDraw: false }));
    ok('get_all', await a.get('/api/player/get_all'));
  }
  const chars = (await a.get('/api/player/get_all')).body['managedCharacters'] as Array<{
    managedCharacterId: number;
    characterId: number;
  }>;
  const c1 = chars.find((c) => c.characterId === 1011)!.managedCharacterId;
  ok(
    'upgrade',
    await a.post('/api/player/character/upgrade', { managedCharacterId: c1, items: [{ itemId: 2003, amount: 5 }] }),
  );
  ok('set shown', await a.post('/api/player/character/set_shown', { managedCharacterIds: [c1] }));
  ok(
    'buy facilities',
    await a.post('/api/player/town_facility/buy_all', { facilities: [{ facilityId: 1, amount: 2 }] }),
  );
  ok('party name', await a.post('/api/player/battle_party/set_name', { managedBattlePartyId: 1, name: 'Frozen' }));
  ok('propose', await a.post('/api/player/friend/propose', { playerId: b.playerId }));
  ok('accept', await b.post('/api/player/friend/accept', { playerId: a.playerId }));
  ok('friends', await a.post('/api/player/friend/get_all', {}));
  ok('tutorial', await a.post('/api/player/tutorial/step/add', { stepCode: 2 }));
  ok('move code', await a.post('/api/player/move/get', { password: 'pass-1234' }));
  ok('get_all at the end', await a.get('/api/player/get_all'));
  ok('b at the end', await b.get('/api/player/get_all'));
  t.true(marked > 50, `views were marked (and frozen) as they were built: ${marked}`);
});

test.serial('the guard catches a write: a reducer that wrote to its state would throw', (t) => {
  const s = deepFreeze(freshPlayer());
  t.throws(
    () => {
      (s as { gold: number }).gold = 1;
    },
    { instanceOf: TypeError },
  );
  t.throws(
    () => {
      (s.presents as PlayerState['presents'][number][]).push(s.presents[0]!);
    },
    { instanceOf: TypeError },
  );
  // And the reducers do not: they run on the frozen state.
  t.is(
    runOp('getPlayerPresent', s, { managedPresentId: s.presents.map((p) => p.managedPresentId).join(',') })._tag,
    'Right',
  );
});
