// The players a player sees (docs/rules/social.md, Friends): search by friend code (in any
// case) and get_all's friends, requests and guests, each with its public summary; which
// players an operation asks the service to read; who may be a guest (never a friend, never
// the caller).
import test from 'ava';
import type * as io from 'io-ts';
import { fails, freshPlayer, master, NOW, ok } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';
import { operationNamed } from '../../../core/operations/table.js';
import type { FriendRelation } from '../../../core/state/social.js';
import type { GameError } from '../../../core/errors.js';

const A = () => freshPlayer({ playerId: 1, seed: 'a' });
const B = () => freshPlayer({ playerId: 2, seed: 'b' });
const C = () => freshPlayer({ playerId: 3, seed: 'c' });

/** Runs a two-player operation and returns both new states. */
type RelationOp =
  'proposePlayerFriend' | 'acceptPlayerFriend' | 'refusePlayerFriend' | 'cancelPlayerFriend' | 'terminatePlayerFriend';
const two = (t: Parameters<typeof ok>[0], name: RelationOp, s: PlayerState, o: PlayerState) => {
  const r = ok(t, name, s, { playerId: o.playerId }, { others: [o] });
  return { s: r.state, o: r.others[0] as PlayerState, response: r.response };
};

const m = master();
const player = (playerId: number): PlayerState => freshPlayer({ playerId, seed: `p${playerId}` });
const P1 = () => player(1);
const P2 = () => player(2);

const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const relation = (playerId: number, state: FriendRelation['state']): FriendRelation => ({
  playerId,
  state,
  since: NOW,
  name: `P${playerId}`,
});
const related = (s: PlayerState, ...rs: FriendRelation[]): PlayerState => ({ ...s, friends: [...s.friends, ...rs] });

/** The request as the operation's codec decodes it (touches is given the decoded request). */
const decoded = <A>(codec: io.Decoder<unknown, A>, raw: unknown): A => {
  const d = codec.decode(raw);
  if (d._tag === 'Left') throw new Error(`request ${JSON.stringify(raw)} does not decode`);
  return d.right;
};

test('search shows the public summary with support characters; unknown is 202, oneself 102', (t) => {
  const b0 = B();
  const b: PlayerState = {
    ...b0,
    nextManagedId: b0.nextManagedId + 1,
    characters: [newCharacter(b0.nextManagedId, 1011, NOW)],
    supportParties: [{ name: 'Helpers', managedCharacterIds: [b0.nextManagedId] }],
  };
  const r = ok(t, 'searchPlayerFriend', A(), { myCode: b.myCode.toLowerCase() }, { others: [b] });
  const player = r.response.player;
  t.is(player.playerId, 2);
  t.is(player.level, 1);
  t.deepEqual(
    player.supportParties[0]?.characters.map((c) => [c.characterId, c.level]),
    [[1011, 1]],
  );
  t.is(r.response.state, null);
  fails(t, 'PLAYER_NOT_FOUND', 'searchPlayerFriend', A(), { myCode: 'NOSUCHCODE' }, { others: [undefined] });
  const a = A();
  fails(t, 'INVALID_PARAMETERS', 'searchPlayerFriend', a, { myCode: a.myCode }, { others: [a] });
});

test("searching one's own friend code is 102 naming myCode", (t) => {
  const a = P1();
  const e = fails(t, 'INVALID_PARAMETERS', 'searchPlayerFriend', a, { myCode: a.myCode }, { others: [a] });
  t.is(fieldOf(e), 'myCode');
  t.regex(reasonOf(e), /your own/);
});

test('search looks a friend code up in any case: the service is asked for the upper-case code, without surrounding spaces', (t) => {
  const op = operationNamed('searchPlayerFriend');
  if (!op.touches) return t.fail('search declares the player it reads');
  for (const code of ['abcde12345', 'AbCdE12345', ' ABCDE12345 ']) {
    t.deepEqual(op.touches(decoded(op.request, { myCode: code })), [{ by: 'myCode', myCode: 'ABCDE12345' }], code);
  }
});

test('the public summary lists each support character by its own managed id, and leaves out one the player no longer owns', (t) => {
  const b0 = P2();
  const first = b0.nextManagedId;
  const second = first + 1;
  const [c1, c2] = [m.characters[0]!, m.characters[1]!];
  const b: PlayerState = {
    ...b0,
    nextManagedId: second + 1,
    characters: [newCharacter(first, c1.characterId, NOW), { ...newCharacter(second, c2.characterId, NOW), level: 7 }],
    supportParties: [{ name: 'Helpers', managedCharacterIds: [second, second + 100, first] }],
  };
  const shown = ok(t, 'searchPlayerFriend', P1(), { myCode: b.myCode }, { others: [b] }).response.player.supportParties;
  t.deepEqual(
    shown[0]?.characters.map((c) => [c.managedCharacterId, c.characterId, c.level]),
    [
      [second, c2.characterId, 7],
      [first, c1.characterId, 1],
    ],
  );
});

// ---- get_all ----

test('get_all lists friends and requests with summaries; guests only from the quest screen, never friends', (t) => {
  const p = two(t, 'proposePlayerFriend', A(), B());
  const f = two(t, 'acceptPlayerFriend', p.o, p.s); // f.s is B, f.o is A
  const c = two(t, 'proposePlayerFriend', C(), f.o); // C asks A
  const a = c.o;
  const plain = ok(t, 'getAllPlayerFriend', a, {}, { others: [f.s, c.s] });
  t.deepEqual(
    plain.response.friends.map((x) => x.playerId),
    [2],
  );
  t.deepEqual(
    plain.response.received.map((x) => x.playerId),
    [3],
  );
  t.deepEqual(plain.response.guests, []);
  t.is(plain.response.friendCount, 1);

  const strangers = [4, 5, 6, 7, 8].map((id) => freshPlayer({ playerId: id, seed: `g${id}` }));
  const others = [f.s, c.s, ...strangers, f.s, a];
  const q = ok(t, 'getAllPlayerFriend', a, { fromQuest: 1 }, { others, seed: 'one' });
  const guests = q.response.guests.map((x) => x.playerId);
  t.is(guests.length, master().social.friend.guestCount);
  t.false(guests.includes(2), 'a friend is never a guest');
  t.false(guests.includes(1), 'oneself is never a guest');
  t.is(new Set(guests).size, guests.length);
  const again = ok(t, 'getAllPlayerFriend', a, { fromQuest: 1 }, { others, seed: 'one' });
  t.deepEqual(again.response.guests, q.response.guests, 'the same seed picks the same guests');
});

test('get_all reads the players related to the caller; only from the quest screen also the recently active, more of them than guests shown', (t) => {
  const op = operationNamed('getAllPlayerFriend');
  if (!op.touches) return t.fail('get_all declares the players it reads');
  t.deepEqual(op.touches(decoded(op.request, {})), [{ by: 'related' }]);
  t.deepEqual(op.touches(decoded(op.request, { fromQuest: 0 })), [{ by: 'related' }]);
  const quest = op.touches(decoded(op.request, { fromQuest: 1 }));
  t.is(quest.length, 2);
  t.deepEqual(quest[0], { by: 'related' });
  const pool = quest[1];
  t.is(pool?.by, 'recentlyActive');
  // Friends among the recently active are no guests: the pool must hold more than guestCount.
  t.true(pool?.by === 'recentlyActive' && pool.count > m.social.friend.guestCount, JSON.stringify(pool));
});

test('friendCount counts friends only; a player with a request either way may be a guest, a friend never', (t) => {
  t.true(m.social.friend.guestCount >= 2, 'the fixtures show at least two guests');
  const a = related(P1(), relation(2, 'friend'), relation(3, 'proposed'), relation(4, 'received'));
  const others = [P2(), player(3), player(4)];
  const r = ok(t, 'getAllPlayerFriend', a, { fromQuest: 1 }, { others });
  t.is(r.response.friendCount, 1);
  t.deepEqual(
    r.response.friends.map((f) => f.playerId),
    [2],
  );
  t.deepEqual(
    r.response.proposed.map((f) => f.playerId),
    [3],
  );
  t.deepEqual(
    r.response.received.map((f) => f.playerId),
    [4],
  );
  // Two candidates, fewer than guestCount: both are shown, whatever the generator draws.
  t.deepEqual(r.response.guests.map((g) => g.playerId).sort(), [3, 4]);
});

test('the caller is never a guest, even when it is among the recently active', (t) => {
  const a = P1();
  const stranger = player(5);
  const r = ok(t, 'getAllPlayerFriend', a, { fromQuest: 1 }, { others: [a, stranger] });
  t.deepEqual(
    r.response.guests.map((g) => g.playerId),
    [5],
  );
  t.like(r.response.guests[0], { name: stranger.name, myCode: stranger.myCode });
});
