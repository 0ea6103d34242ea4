// Deleting an account (deletePlayer, core/operations/privacy.ts, docs/privacy.md): the
// player becomes a tombstone (its id, version and when; nothing of the player) and no
// index holds a key of it; every related player drops it; the access token confirms it
// and a wrong one is 102 with nothing changed; the log keeps the token's hash.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../../_support/core.js';
import { erased, execute } from '../../../core/operation.js';
import { rngFromSeed } from '../../../core/rng.js';
import { formatTime } from '../../../core/time.js';
import { indexKeysOf, isDeleted, type PlayerState } from '../../../core/state.js';
import { groupDefaults } from '../../../core/state.js';
import { tokenHash } from '../../../core/secret.js';
import { operationNamed } from '../../../core/operations/table.js';
import type { FriendRelation } from '../../../core/state/social.js';

const TOKEN = 'test-access-token-0001';
const relation = (playerId: number, state: FriendRelation['state'], name: string): FriendRelation => ({
  playerId,
  state,
  since: NOW,
  name,
});
const withFriends = (s: PlayerState, ...rs: FriendRelation[]): PlayerState => ({
  ...s,
  friends: [...s.friends, ...rs],
});

test('a deletion leaves a tombstone: the id, the next version and when, every other field empty, no index key', (t) => {
  const s0 = freshPlayer({ playerId: 7 });
  const s: PlayerState = {
    ...s0,
    name: 'Aki Tanaka',
    account: { ...s0.account, movedFrom: ['11111111-2222-4333-8444-555555555555'], sessionEpoch: 2 },
    move: { code: 'MOVE1234', passwordHash: 'ab', salt: 'cd', deadline: NOW + 1000, failures: 0 },
  };
  const later = NOW + 60_000;
  const r = ok(t, 'deletePlayer', s, { accessToken: TOKEN }, { now: later });
  const d = r.state;
  t.true(isDeleted(d));
  t.false(isDeleted(s));
  t.is(d.playerId, 7);
  t.is(d.version, s.version + 1);
  t.deepEqual(d.account, { uuid: '', platform: 0, tokenHash: '', movedFrom: [], sessionEpoch: 3, deletedAt: later });
  t.is(d.name, '');
  t.is(d.myCode, '');
  t.is(d.move, null);
  t.deepEqual(d.characters, []);
  t.deepEqual(d.presents, []);
  t.deepEqual(d.gachaHistory, []);
  t.deepEqual(d.counters, {});
  for (const k of Object.keys(groupDefaults))
    t.deepEqual(d[k as keyof PlayerState], groupDefaults[k as keyof typeof groupDefaults], k);
  t.deepEqual(indexKeysOf(d), { uuid: [], myCode: [], moveCode: [] }, 'no uuid, friend code or move code is indexed');
  const text = JSON.stringify(d);
  for (const gone of ['Aki Tanaka', s.account.uuid, s.myCode, 'MOVE1234', s.account.tokenHash, '11111111-2222'])
    t.false(text.includes(gone), `the tombstone holds no ${gone}`);
  t.deepEqual(r.response, { playerId: 7, deletedAt: formatTime(later, master().game.timezoneOffsetMinutes) });
});

test('a deletion answers no view: no player, no changed collection, and the after-hooks do not run on the tombstone', (t) => {
  const s = freshPlayer({ playerId: 7 });
  const r = ok(t, 'deletePlayer', s, { accessToken: TOKEN });
  t.deepEqual(Object.keys(r.response).sort(), ['deletedAt', 'playerId']);
  t.deepEqual(r.state.achievements, []);
  t.deepEqual(r.state.missionLogs, []);
});

test('every related player drops the deleted one: friends, requests either way; others are left as they were', (t) => {
  const me = withFriends(
    freshPlayer({ playerId: 1, seed: 'a' }),
    relation(2, 'friend', 'Bo'),
    relation(3, 'proposed', 'Cy'),
    relation(4, 'received', 'Di'),
  );
  const b = withFriends(
    freshPlayer({ playerId: 2, seed: 'b' }),
    relation(1, 'friend', 'Tester'),
    relation(3, 'friend', 'Cy'),
  );
  const c = withFriends(freshPlayer({ playerId: 3, seed: 'c' }), relation(1, 'received', 'Tester'));
  const d = withFriends(freshPlayer({ playerId: 4, seed: 'd' }), relation(1, 'proposed', 'Tester'));
  const stranger = freshPlayer({ playerId: 5, seed: 'e' });
  const r = ok(t, 'deletePlayer', me, { accessToken: TOKEN }, { others: [b, c, d, stranger, undefined] });
  const [b2, c2, d2, e2, none] = r.others as Array<PlayerState | undefined>;
  t.deepEqual(b2?.friends, [relation(3, 'friend', 'Cy')]);
  t.deepEqual(c2?.friends, []);
  t.deepEqual(d2?.friends, []);
  t.is(b2?.version, b.version + 1, 'a changed friend is a change (its version raised)');
  t.is(e2, stranger, 'a player with no relation is not changed');
  t.is(none, undefined);
  for (const o of [b2, c2, d2])
    t.false(JSON.stringify(o).includes('"playerId":1,'), 'no relation names the deleted player');
});

test('the access token confirms it: a wrong one is 102 naming accessToken, and nothing changes', (t) => {
  const s = freshPlayer({ playerId: 7 });
  const b = withFriends(freshPlayer({ playerId: 2, seed: 'b' }), relation(7, 'friend', 'Tester'));
  const e = fails(t, 'INVALID_PARAMETERS', 'deletePlayer', s, { accessToken: 'not-the-token-of-it' }, { others: [b] });
  t.like(e, { field: 'accessToken', reason: "is not this account's access token" });
  t.is(fails(t, 'INSUFFICIENT_PARAMETERS', 'deletePlayer', s, {}).code, 'INSUFFICIENT_PARAMETERS');
  t.like(fails(t, 'INVALID_PARAMETERS', 'deletePlayer', s, { accessToken: 'short' }), { field: 'accessToken' });
});

test("the replay log keeps the token's hash, never the token, and the reducer accepts the hash", (t) => {
  const s = freshPlayer({ playerId: 7 });
  const op = operationNamed('deletePlayer');
  const logged = op.logged?.({ accessToken: TOKEN }, s, s);
  t.deepEqual(logged, { accessTokenHash: tokenHash(TOKEN) });
  t.false(JSON.stringify(logged).includes(TOKEN));
  // The replay runs the logged request as it is (execute), not through the request's codec.
  const r = execute(erased(op), s, logged, rngFromSeed('replay'), NOW, { master: master(), others: [] });
  t.true(r._tag === 'Right' && isDeleted(r.right.state));
});

test('its other players are those it is related to (the service reads and commits them)', (t) => {
  const op = operationNamed('deletePlayer');
  t.deepEqual(op.touches?.({ accessToken: TOKEN }), [{ by: 'related' }]);
});
