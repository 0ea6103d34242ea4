// Friend rules at their edges (docs/rules/social.md, Friends): what each refusal
// names (oneself, an open request, a missing request either way), which players an
// operation asks the service to read (a friend code in any case; guests only from the
// quest screen), the public summary's support characters, and who may be a guest.
import test, { type ExecutionContext } from 'ava';
import type * as io from 'io-ts';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import { operationNamed } from '../../core/operations/table.js';
import { newCharacter } from '../../core/shared/grant.js';
import type { PlayerState } from '../../core/state.js';
import type { FriendRelation } from '../../core/state/social.js';
import type { GameError } from '../../core/errors.js';

const m = master();
const player = (playerId: number): PlayerState => freshPlayer({ playerId, seed: `p${playerId}` });
const A = () => player(1);
const B = () => player(2);

const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const relation = (playerId: number, state: FriendRelation['state']): FriendRelation => ({ playerId, state, since: NOW, name: `P${playerId}` });
const related = (s: PlayerState, ...rs: FriendRelation[]): PlayerState => ({ ...s, friends: [...s.friends, ...rs] });

/** A proposes to B: both states after it. */
const proposed = (t: ExecutionContext) => {
  const r = ok(t, 'proposePlayerFriend', A(), { playerId: 2 }, { others: [B()] });
  return { a: r.state, b: r.others[0] as PlayerState };
};

/** The request as the operation's codec decodes it (touches is given the decoded request). */
const decoded = <A>(codec: io.Decoder<unknown, A>, raw: unknown): A => {
  const d = codec.decode(raw);
  if (d._tag === 'Left') throw new Error(`request ${JSON.stringify(raw)} does not decode`);
  return d.right;
};

test('naming oneself by playerId is 102 naming playerId, in every operation on a relation', (t) => {
  const a = A();
  for (const name of ['proposePlayerFriend', 'acceptPlayerFriend', 'refusePlayerFriend', 'cancelPlayerFriend', 'terminatePlayerFriend'] as const) {
    const e = fails(t, 'INVALID_PARAMETERS', name, a, { playerId: a.playerId }, { others: [a] });
    t.is(fieldOf(e), 'playerId', name);
    t.regex(reasonOf(e), /yourself/, name);
  }
});

test('searching one\'s own friend code is 102 naming myCode', (t) => {
  const a = A();
  const e = fails(t, 'INVALID_PARAMETERS', 'searchPlayerFriend', a, { myCode: a.myCode }, { others: [a] });
  t.is(fieldOf(e), 'myCode');
  t.regex(reasonOf(e), /your own/);
});

test('proposing again while one\'s own request is pending is 317 naming that player', (t) => {
  const { a, b } = proposed(t);
  const e = fails(t, 'STATE_CONFLICT', 'proposePlayerFriend', a, { playerId: 2 }, { others: [b] });
  t.regex(reasonOf(e), /\bplayer 2\b/);
  t.regex(reasonOf(e), /pending/);
});

test('accept and refuse without a request from that player are 107 "friend request from player"; cancel without one sent, 107 "friend request to player"; both name the other player', (t) => {
  const { a, b } = proposed(t);
  // A sent the request: A has none from B to accept or refuse; B has none to B's name to cancel.
  for (const name of ['acceptPlayerFriend', 'refusePlayerFriend'] as const) {
    const e = fails(t, 'NOT_FOUND', name, a, { playerId: 2 }, { others: [b] });
    t.like(e, { entity: 'friend request from player', id: 2 }, name);
  }
  const e = fails(t, 'NOT_FOUND', 'cancelPlayerFriend', b, { playerId: 1 }, { others: [a] });
  t.like(e, { entity: 'friend request to player', id: 1 });
  // With no relation at all, the same answers.
  const c = player(3);
  t.like(fails(t, 'NOT_FOUND', 'acceptPlayerFriend', c, { playerId: 1 }, { others: [A()] }), { entity: 'friend request from player', id: 1 });
  t.like(fails(t, 'NOT_FOUND', 'cancelPlayerFriend', c, { playerId: 1 }, { others: [A()] }), { entity: 'friend request to player', id: 1 });
});

test('search looks a friend code up in any case: the service is asked for the upper-case code, without surrounding spaces', (t) => {
  const op = operationNamed('searchPlayerFriend');
  if (!op.touches) return t.fail('search declares the player it reads');
  for (const code of ['abcde12345', 'AbCdE12345', ' ABCDE12345 ']) {
    t.deepEqual(op.touches(decoded(op.request, { myCode: code })), [{ by: 'myCode', myCode: 'ABCDE12345' }], code);
  }
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

test('the public summary lists each support character by its own managed id, and leaves out one the player no longer owns', (t) => {
  const b0 = B();
  const first = b0.nextManagedId;
  const second = first + 1;
  const [c1, c2] = [m.characters[0]!, m.characters[1]!];
  const b: PlayerState = {
    ...b0, nextManagedId: second + 1,
    characters: [newCharacter(first, c1.characterId, NOW), { ...newCharacter(second, c2.characterId, NOW), level: 7 }],
    supportParties: [{ name: 'Helpers', managedCharacterIds: [second, second + 100, first] }],
  };
  const shown = ok(t, 'searchPlayerFriend', A(), { myCode: b.myCode }, { others: [b] }).response.player.supportParties;
  t.deepEqual(shown[0]?.characters.map((c) => [c.managedCharacterId, c.characterId, c.level]), [[second, c2.characterId, 7], [first, c1.characterId, 1]]);
});

test('friendCount counts friends only; a player with a request either way may be a guest, a friend never', (t) => {
  t.true(m.social.friend.guestCount >= 2, 'the fixtures show at least two guests');
  const a = related(A(), relation(2, 'friend'), relation(3, 'proposed'), relation(4, 'received'));
  const others = [B(), player(3), player(4)];
  const r = ok(t, 'getAllPlayerFriend', a, { fromQuest: 1 }, { others });
  t.is(r.response.friendCount, 1);
  t.deepEqual(r.response.friends.map((f) => f.playerId), [2]);
  t.deepEqual(r.response.proposed.map((f) => f.playerId), [3]);
  t.deepEqual(r.response.received.map((f) => f.playerId), [4]);
  // Two candidates, fewer than guestCount: both are shown, whatever the generator draws.
  t.deepEqual(r.response.guests.map((g) => g.playerId).sort(), [3, 4]);
});

test('the caller is never a guest, even when it is among the recently active', (t) => {
  const a = A();
  const stranger = player(5);
  const r = ok(t, 'getAllPlayerFriend', a, { fromQuest: 1 }, { others: [a, stranger] });
  t.deepEqual(r.response.guests.map((g) => g.playerId), [5]);
  t.like(r.response.guests[0], { name: stranger.name, myCode: stranger.myCode });
});
