// The player's account operations (core/operations/player.ts) at their edges
// (docs/rules/foundation.md, Player and accounts; core/operation.ts, Issued): device
// uuids in any case, sign-up's default name, the secrets the edge issues (handed out
// in the answer, kept only as hashes) and what is handed out when the edge issued
// none, and move/set's two refusals: a wrong code changes nothing, a wrong password
// is refused yet counted.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, runOp } from '../_support/core.js';
import { entryByName, runNamed, operationNamed, type OperationName } from '../../core/operations/table.js';
import { unbornPlayer, MOVE_REFUSED } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import { tokenHash } from '../../core/secret.js';
import { execute, type Issued } from '../../core/operation.js';
import type { PlayerState } from '../../core/state.js';
import type { GameError } from '../../core/errors.js';

const m = master();
const DEVICE = '6f9619ff-8b86-4d11-b42d-00c04fc964ff';
const NEW_DEVICE = '11111111-2222-4333-8444-555555555555';
const TOKEN = 'c0ffee00-1234-4abc-8def-0123456789ab';
const issued = (token = TOKEN, sessionId = 'session-0001'): Issued => ({ accessToken: token, accessTokenHash: tokenHash(token), sessionId });

const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** Runs an account entry as the service does: with the secrets the edge issued for it (or none). */
const run = <N extends OperationName>(name: N, s: PlayerState, request: unknown, secrets?: Issued) =>
  runNamed(name, s, request, rngFromSeed('account'), NOW, { master: m, others: [], ...(secrets ? { issued: secrets } : {}) });
const right = <R>(t: ExecutionContext, r: { _tag: 'Left'; left: GameError } | { _tag: 'Right'; right: R }): R => {
  if (r._tag === 'Left') {
    t.fail(`refused with ${r.left.code}: ${JSON.stringify(r.left)}`);
    throw new Error('unreachable');
  }
  return r.right;
};

test('a device uuid is taken in any case and kept in lower case: a log-in with either case finds the account', (t) => {
  const upper = DEVICE.toUpperCase();
  const made = right(t, run('signupPlayer', unbornPlayer(7), { uuid: upper, platform: 1 }, issued()));
  t.is(made.state.account.uuid, DEVICE);
  for (const uuid of [upper, DEVICE]) {
    const r = right(t, run('loginPlayer', made.state, { uuid, accessToken: TOKEN }, issued()));
    t.is(r.response.playerId, 7, uuid);
  }
});

test('a uuid that is not a UUID is 102 naming uuid', (t) => {
  for (const uuid of ['not-a-uuid', `${DEVICE}0`, DEVICE.replace(/-/g, '')]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'signupPlayer', unbornPlayer(7), { uuid, platform: 1 });
    t.is(fieldOf(e), 'uuid', uuid);
    t.regex(reasonOf(e), /UUID/, uuid);
  }
});

test('the uuid codec\'s guard takes exactly what its decoder takes: a UUID string, never another value that prints as one', (t) => {
  const req = operationNamed('signupPlayer').request;
  const cases: ReadonlyArray<readonly [unknown, boolean]> = [
    [DEVICE, true], [DEVICE.toUpperCase(), true], ['not-a-uuid', false], [[DEVICE], false], [{ toString: () => DEVICE }, false], [null, false],
  ];
  for (const [uuid, valid] of cases) {
    const q = { uuid, platform: 1 };
    t.is(req.is(q), valid, `guard: ${String(uuid)}`);
    t.is(req.decode(q)._tag, valid ? 'Right' : 'Left', `decoder: ${String(uuid)}`);
  }
});

test('a sign-up without a name takes the master data\'s default name', (t) => {
  const r = ok(t, 'signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 2 });
  t.is(r.state.name, m.game.player.defaultName);
  t.like(r.state, { playerId: 7, version: 0, account: { uuid: DEVICE, platform: 2 } });
});

test('a sign-up hands out the token the edge issued and keeps only its hash; with none issued (a library caller) it hands out none and keeps none', (t) => {
  const r = right(t, run('signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 1 }, issued()));
  t.deepEqual(r.response, { playerId: 7, accessToken: TOKEN });
  t.is(r.state.account.tokenHash, tokenHash(TOKEN));
  t.false(JSON.stringify(r.state).includes(TOKEN), 'the token itself is not kept');
  t.is(right(t, run('loginPlayer', r.state, { uuid: DEVICE, accessToken: TOKEN })).response.playerId, 7, 'the token handed out logs in');

  const bare = right(t, run('signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 1 }));
  t.deepEqual(bare.response, { playerId: 7, accessToken: '' });
  t.is(bare.state.account.tokenHash, '', 'no hash of a token nobody was given');
  t.is(run('loginPlayer', bare.state, { uuid: DEVICE, accessToken: TOKEN })._tag, 'Left');
});

test('a log-in answers the session the edge issued and the player\'s id, and marks the log-in; with none issued the session id is empty', (t) => {
  const s = right(t, run('signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 1 }, issued())).state;
  const later = NOW + 60_000;
  const r = runNamed('loginPlayer', s, { uuid: DEVICE, accessToken: TOKEN }, rngFromSeed('login'), later, { master: m, others: [], issued: issued(TOKEN, 'session-0042') });
  t.deepEqual(right(t, r).response, { sessionId: 'session-0042', playerId: 7 });
  t.is(right(t, r).state.lastLoginAt, later);
  t.deepEqual(right(t, run('loginPlayer', s, { uuid: DEVICE, accessToken: TOKEN })).response, { sessionId: '', playerId: 7 });
});

/** A player with a move code made with password "secret123". */
const coded = (t: ExecutionContext): PlayerState => ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
const moveReq = (s: PlayerState, over: Record<string, unknown> = {}) => ({ moveCode: s.move?.code, movePassword: 'secret123', uuid: NEW_DEVICE, platform: 2, ...over });

test('a move hands out the token the edge issued for the new device and keeps its hash; with none issued it hands out none and keeps none', (t) => {
  const s = coded(t);
  const newToken = 'feedface-0000-4000-8000-00000000beef';
  const r = right(t, run('setPlayerMove', s, moveReq(s), issued(newToken)));
  t.deepEqual(r.response, { accessToken: newToken, playerId: s.playerId });
  t.is(r.refused, undefined);
  t.like(r.state.account, { uuid: NEW_DEVICE, platform: 2, tokenHash: tokenHash(newToken) });
  t.is(right(t, run('loginPlayer', r.state, { uuid: NEW_DEVICE, accessToken: newToken })).response.playerId, s.playerId, 'the new token logs in');

  const bare = right(t, run('setPlayerMove', s, moveReq(s)));
  t.deepEqual(bare.response, { accessToken: '', playerId: s.playerId });
  t.is(bare.state.account.tokenHash, '');
});

test('a move with a wrong or unknown code is refused with 210 and changes nothing', (t) => {
  const s = coded(t);
  for (const moveCode of ['NOTTHECODE', `${s.move?.code ?? ''}X`]) {
    const e = fails(t, 'INVALID_MOVE_PARAMETERS', 'setPlayerMove', s, moveReq(s, { moveCode }));
    t.is(reasonOf(e), MOVE_REFUSED, moveCode);
  }
  fails(t, 'INVALID_MOVE_PARAMETERS', 'setPlayerMove', freshPlayer(), moveReq(s));
});

test('a move with a wrong password is refused with 210, yet the failure it counts is kept: the result carries the refusal and the counted state', (t) => {
  const s = coded(t);
  const r = runOp('setPlayerMove', s, moveReq(s, { movePassword: 'wrong-pass' }));
  const done = right(t, r);
  t.like(done.refused, { code: 'INVALID_MOVE_PARAMETERS', reason: MOVE_REFUSED });
  t.deepEqual(done.response, {}, 'no token is handed out');
  t.true(done.changed);
  t.is(done.state.move?.failures, 1);
  t.is(done.state.version, s.version + 1);
  t.is(done.state.account.uuid, s.account.uuid, 'the account stays on its device');
});

// What the replay log keeps of a move (the entry's `logged`, written by the service in
// place of the request): no password, and enough to make the same state again.
const replayed = (name: 'getPlayerMove' | 'setPlayerMove', before: PlayerState, request: unknown, after: PlayerState, secrets?: Issued) => {
  const op = entryByName(name);
  if (op?.logged === undefined) throw new Error(`${name} keeps no logged form`);
  const kept = op.logged(request, before, after);
  const r = execute(op, before, kept, rngFromSeed('account'), NOW, { master: m, others: [], ...(secrets ? { issued: secrets } : {}) });
  return { kept, state: r._tag === 'Right' ? r.right.state : undefined };
};

test('the replay log keeps a move code\'s password as the hash the state kept, and that replays to the same state', (t) => {
  const before = freshPlayer();
  const after = right(t, run('getPlayerMove', before, { password: 'secret123' })).state;
  const { kept, state } = replayed('getPlayerMove', before, { password: 'secret123' }, after);
  t.deepEqual(kept, { passwordHash: after.move?.passwordHash });
  t.false(JSON.stringify(kept).includes('secret123'));
  t.deepEqual(state, after);
});

test('the replay log keeps a move\'s password tried as its hash: right or wrong, the replay makes the same state', (t) => {
  const s = coded(t);
  for (const movePassword of ['secret123', 'wrong-pass']) {
    const request = moveReq(s, { movePassword });
    const secrets = issued('feedface-0000-4000-8000-00000000beef');
    const after = right(t, run('setPlayerMove', s, request, secrets)).state;
    const { kept, state } = replayed('setPlayerMove', s, request, after, secrets);
    t.false(JSON.stringify(kept).includes(movePassword), movePassword);
    t.like(kept, { moveCode: s.move?.code, uuid: NEW_DEVICE, platform: 2 });
    t.deepEqual(state, after, movePassword);
  }
  // A player without a code keeps no hash (the move is refused whatever the password).
  t.like(replayed('setPlayerMove', freshPlayer(), moveReq(s), freshPlayer()).kept, { movePasswordHash: '' });
});
