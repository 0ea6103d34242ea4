// Friend requests and friendships (docs/rules/social.md, Friends): propose, accept, refuse,
// cancel and terminate, each on both players; the simultaneous propose; full lists. Each
// refusal names the other player, oneself, or the open or missing request.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { FriendRelation } from '../../../core/state/social.js';
import type { GameError } from '../../../core/errors.js';

const A = () => freshPlayer({ playerId: 1, seed: 'a' });
const B = () => freshPlayer({ playerId: 2, seed: 'b' });
const C = () => freshPlayer({ playerId: 3, seed: 'c' });

const rel = (s: PlayerState, id: number) => s.friends.find((f) => f.playerId === id)?.state;
const fill = (s: PlayerState, state: FriendRelation['state'], n: number, from = 1000): PlayerState => ({
  ...s,
  friends: [
    ...s.friends,
    ...Array.from({ length: n }, (_, i) => ({ playerId: from + i, state, since: NOW, name: 'Filler' })),
  ],
});

/** Runs a two-player operation and returns both new states. */
type RelationOp =
  'proposePlayerFriend' | 'acceptPlayerFriend' | 'refusePlayerFriend' | 'cancelPlayerFriend' | 'terminatePlayerFriend';
const two = (t: Parameters<typeof ok>[0], name: RelationOp, s: PlayerState, o: PlayerState) => {
  const r = ok(t, name, s, { playerId: o.playerId }, { others: [o] });
  return { s: r.state, o: r.others[0] as PlayerState, response: r.response };
};
const player = (playerId: number): PlayerState => freshPlayer({ playerId, seed: `p${playerId}` });
const P1 = () => player(1);
const P2 = () => player(2);

const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** A proposes to B: both states after it. */
const proposed = (t: ExecutionContext) => {
  const r = ok(t, 'proposePlayerFriend', P1(), { playerId: 2 }, { others: [P2()] });
  return { a: r.state, b: r.others[0] as PlayerState };
};

test('propose records a sent request on the caller and a received one on the target; accept makes both friends', (t) => {
  const p = two(t, 'proposePlayerFriend', A(), B());
  t.is(rel(p.s, 2), 'proposed');
  t.is(rel(p.o, 1), 'received');
  t.is(p.response.state, 'proposed');
  t.is(p.o.version, B().version + 1, 'the other player is committed with a new version');
  const a = two(t, 'acceptPlayerFriend', p.o, p.s);
  t.is(rel(a.s, 1), 'friend');
  t.is(rel(a.o, 2), 'friend');
  t.is(a.response.state, 'friend');
});

test('proposing to a player who already asked makes both friends at once (the simultaneous propose)', (t) => {
  const first = two(t, 'proposePlayerFriend', A(), B());
  const back = two(t, 'proposePlayerFriend', first.o, first.s);
  t.is(back.response.state, 'friend');
  t.is(rel(back.s, 1), 'friend');
  t.is(rel(back.o, 2), 'friend');
  t.is(back.s.friends.length, 1);
  t.is(back.o.friends.length, 1);
});

test('propose: oneself is 102, an unknown player 202, a friend 502, an open request 317', (t) => {
  const a = A();
  fails(t, 'INVALID_PARAMETERS', 'proposePlayerFriend', a, { playerId: 1 }, { others: [a] });
  fails(t, 'PLAYER_NOT_FOUND', 'proposePlayerFriend', a, { playerId: 99 }, { others: [undefined] });
  const p = two(t, 'proposePlayerFriend', a, B());
  fails(t, 'STATE_CONFLICT', 'proposePlayerFriend', p.s, { playerId: 2 }, { others: [p.o] });
  const f = two(t, 'acceptPlayerFriend', p.o, p.s);
  fails(t, 'ALREADY_FRIEND', 'proposePlayerFriend', f.o, { playerId: 2 }, { others: [f.s] });
});

test('propose: 310 when either friend list is full or either request list is full', (t) => {
  const m = master();
  const max = m.game.limits.friends;
  const reqMax = m.social.friend.requestLimit;
  fails(t, 'FRIEND_LIMIT', 'proposePlayerFriend', fill(A(), 'friend', max), { playerId: 2 }, { others: [B()] });
  fails(t, 'FRIEND_LIMIT', 'proposePlayerFriend', A(), { playerId: 2 }, { others: [fill(B(), 'friend', max)] });
  fails(t, 'FRIEND_LIMIT', 'proposePlayerFriend', fill(A(), 'proposed', reqMax), { playerId: 2 }, { others: [B()] });
  fails(t, 'FRIEND_LIMIT', 'proposePlayerFriend', A(), { playerId: 2 }, { others: [fill(B(), 'received', reqMax)] });
  // One below each limit still works.
  two(t, 'proposePlayerFriend', fill(A(), 'proposed', reqMax - 1), fill(B(), 'friend', max - 1));
});

test('accept: no request is 107, a friend 502, oneself 102, unknown 202, a full friend list 310', (t) => {
  const p = two(t, 'proposePlayerFriend', A(), B());
  fails(t, 'NOT_FOUND', 'acceptPlayerFriend', p.s, { playerId: 2 }, { others: [p.o] }); // the proposer cannot accept its own request
  fails(t, 'NOT_FOUND', 'acceptPlayerFriend', C(), { playerId: 1 }, { others: [p.s] });
  fails(t, 'INVALID_PARAMETERS', 'acceptPlayerFriend', p.o, { playerId: 2 }, { others: [p.o] });
  fails(t, 'PLAYER_NOT_FOUND', 'acceptPlayerFriend', p.o, { playerId: 9 }, { others: [undefined] });
  fails(
    t,
    'FRIEND_LIMIT',
    'acceptPlayerFriend',
    fill(p.o, 'friend', master().game.limits.friends),
    { playerId: 1 },
    { others: [p.s] },
  );
  fails(
    t,
    'FRIEND_LIMIT',
    'acceptPlayerFriend',
    p.o,
    { playerId: 1 },
    { others: [fill(p.s, 'friend', master().game.limits.friends)] },
  );
  const f = two(t, 'acceptPlayerFriend', p.o, p.s);
  fails(t, 'ALREADY_FRIEND', 'acceptPlayerFriend', f.s, { playerId: 1 }, { others: [f.o] });
});

test('refuse removes a received request on both sides; without one it is 107, with a friend 502', (t) => {
  const p = two(t, 'proposePlayerFriend', A(), B());
  const r = two(t, 'refusePlayerFriend', p.o, p.s);
  t.deepEqual(r.s.friends, []);
  t.deepEqual(r.o.friends, []);
  fails(t, 'NOT_FOUND', 'refusePlayerFriend', p.s, { playerId: 2 }, { others: [p.o] });
  fails(t, 'INVALID_PARAMETERS', 'refusePlayerFriend', p.o, { playerId: 2 }, { others: [p.o] });
  fails(t, 'PLAYER_NOT_FOUND', 'refusePlayerFriend', p.o, { playerId: 9 }, { others: [undefined] });
  const f = two(t, 'acceptPlayerFriend', p.o, p.s);
  fails(t, 'ALREADY_FRIEND', 'refusePlayerFriend', f.s, { playerId: 1 }, { others: [f.o] });
});

test('cancel removes a sent request on both sides; a received one is 107, a friend 502', (t) => {
  const p = two(t, 'proposePlayerFriend', A(), B());
  const c = two(t, 'cancelPlayerFriend', p.s, p.o);
  t.deepEqual(c.s.friends, []);
  t.deepEqual(c.o.friends, []);
  fails(t, 'NOT_FOUND', 'cancelPlayerFriend', p.o, { playerId: 1 }, { others: [p.s] });
  fails(t, 'INVALID_PARAMETERS', 'cancelPlayerFriend', p.s, { playerId: 1 }, { others: [p.s] });
  fails(t, 'PLAYER_NOT_FOUND', 'cancelPlayerFriend', p.s, { playerId: 9 }, { others: [undefined] });
  const f = two(t, 'acceptPlayerFriend', p.o, p.s);
  fails(t, 'ALREADY_FRIEND', 'cancelPlayerFriend', f.o, { playerId: 2 }, { others: [f.s] });
});

test('terminate ends a friendship on both sides; not a friend is 501', (t) => {
  const p = two(t, 'proposePlayerFriend', A(), B());
  fails(t, 'NOT_YET_FRIEND', 'terminatePlayerFriend', p.s, { playerId: 2 }, { others: [p.o] });
  const f = two(t, 'acceptPlayerFriend', p.o, p.s);
  const x = two(t, 'terminatePlayerFriend', f.o, f.s);
  t.deepEqual(x.s.friends, []);
  t.deepEqual(x.o.friends, []);
  fails(t, 'NOT_YET_FRIEND', 'terminatePlayerFriend', x.s, { playerId: 2 }, { others: [x.o] });
  fails(t, 'INVALID_PARAMETERS', 'terminatePlayerFriend', x.s, { playerId: 1 }, { others: [x.s] });
  fails(t, 'PLAYER_NOT_FOUND', 'terminatePlayerFriend', x.s, { playerId: 9 }, { others: [undefined] });
});

test('naming oneself by playerId is 102 naming playerId, in every operation on a relation', (t) => {
  const a = P1();
  for (const name of [
    'proposePlayerFriend',
    'acceptPlayerFriend',
    'refusePlayerFriend',
    'cancelPlayerFriend',
    'terminatePlayerFriend',
  ] as const) {
    const e = fails(t, 'INVALID_PARAMETERS', name, a, { playerId: a.playerId }, { others: [a] });
    t.is(fieldOf(e), 'playerId', name);
    t.regex(reasonOf(e), /yourself/, name);
  }
});

test("proposing again while one's own request is pending is 317 naming that player", (t) => {
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
  t.like(fails(t, 'NOT_FOUND', 'acceptPlayerFriend', c, { playerId: 1 }, { others: [P1()] }), {
    entity: 'friend request from player',
    id: 1,
  });
  t.like(fails(t, 'NOT_FOUND', 'cancelPlayerFriend', c, { playerId: 1 }, { others: [P1()] }), {
    entity: 'friend request to player',
    id: 1,
  });
});
