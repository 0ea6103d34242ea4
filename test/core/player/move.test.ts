// Moving an account to another device (move/get and move/set, core/account.ts,
// docs/rules/foundation.md, Move): the code and its password, the deadline to the
// millisecond, wrong passwords counted until the code rests, the new device's uuid and token
// with the session epoch raised, the old uuids kept (move.movedFromKeep), and what the
// replay log keeps of the passwords (their hashes).
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, NOW, ok, master, runOp } from '../../_support/core.js';
import { applyMove, login, createMoveCode, MOVE_REFUSED, moveAttemptHash, type MoveIn } from '../../../core/account.js';
import { HOUR } from '../../../core/time.js';
import { MoveSetRequest } from '../../../core/operations/player.js';
import { rngFromSeed } from '../../../core/rng.js';
import { tokenHash } from '../../../core/secret.js';
import type { PlayerState } from '../../../core/state.js';
import { entryByName } from '../../../core/operations/table.js';
import { execute, type Issued } from '../../../core/operation.js';
import type { GameError } from '../../../core/errors.js';
import type { Master } from '../../../core/master/index.js';
import { issued, run, right } from './_account.js';

const NEW = '11111111-2222-4333-8444-555555555555';
const moveByCode = (code: string, password: string) => ({
  moveCode: code,
  movePassword: password,
  uuid: NEW,
  platform: 2,
  accessToken: 'new-token-0000000001',
});
const moveReason = (r: ReturnType<typeof applyMove>): string | undefined => {
  const e = r.error?._tag === 'Left' ? r.error.left : undefined;
  return e?.code === 'INVALID_MOVE_PARAMETERS' ? e.reason : undefined;
};

const withCode = (t: ExecutionContext): PlayerState =>
  ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
const moveIn = (
  s: PlayerState,
  over: Partial<{ moveCode: string; movePassword: string; uuid: string; platform: number }> = {},
): MoveIn => ({
  moveCode: s.move!.code,
  movePassword: 'secret123',
  uuid: NEW,
  platform: 2,
  tokenHash: tokenHash('new-device-token-01'),
  ...over,
});

const m = master();
const NEW_DEVICE = '11111111-2222-4333-8444-555555555555';
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** A player with a move code made with password "secret123". */
const coded = (t: ExecutionContext): PlayerState =>
  ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
const moveReq = (s: PlayerState, over: Record<string, unknown> = {}) => ({
  moveCode: s.move?.code,
  movePassword: 'secret123',
  uuid: NEW_DEVICE,
  platform: 2,
  ...over,
});

// What the replay log keeps of a move (the entry's `logged`, written by the service in
// place of the request): no password, and enough to make the same state again.
const replayed = (
  name: 'getPlayerMove' | 'setPlayerMove',
  before: PlayerState,
  request: unknown,
  after: PlayerState,
  secrets?: Issued,
) => {
  const op = entryByName(name);
  if (op?.logged === undefined) throw new Error(`${name} keeps no logged form`);
  const kept = op.logged(request, before, after);
  const r = execute(op, before, kept, rngFromSeed('account'), NOW, {
    master: m,
    others: [],
    ...(secrets ? { issued: secrets } : {}),
  });
  return { kept, state: r._tag === 'Right' ? r.right.state : undefined };
};

/** Master data with some of game's numbers changed. */
const tuned = (game: { presents?: object; gacha?: object; move?: object }): Master => {
  const m = master();
  return {
    ...m,
    game: {
      ...m.game,
      presents: { ...m.game.presents, ...game.presents },
      gacha: { ...m.game.gacha, ...game.gacha },
      move: { ...m.game.move, ...game.move },
    },
  };
};

// ---- the code ----

test('move/get makes a 10-character code valid for the configured time; password length is checked', (t) => {
  const r = ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' });
  t.regex(r.response.moveCode, /^[A-Z0-9]{10}$/);
  t.is(r.state.move?.deadline, NOW + master().game.move.validHours * HOUR);
  t.false(JSON.stringify(r.state).includes('secret123'), 'the password is kept only as a hash');
  fails(t, 'INVALID_PARAMETERS', 'getPlayerMove', freshPlayer(), { password: 'abc' });
  fails(t, 'INVALID_PARAMETERS', 'getPlayerMove', freshPlayer(), { password: 'x'.repeat(17) });
});

test('move passwords of 4 to 16 characters are accepted ("1234" too, as the original did); 3 and 17 are 102 and change nothing', (t) => {
  const m = master();
  t.deepEqual([m.game.move.passwordMinLength, m.game.move.passwordMaxLength], [4, 16]);
  for (const password of ['1234', 'x'.repeat(16)]) {
    const s = ok(t, 'getPlayerMove', freshPlayer(), { password }).state;
    const moved = applyMove(m, s, moveByCode(s.move!.code, password), NOW);
    t.is(moved.error, null, `a ${password.length}-character password moves`);
    t.is(moved.state.account.uuid, NEW);
  }
  for (const password of ['123', 'x'.repeat(17)]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'getPlayerMove', freshPlayer(), { password });
    t.is(e.code === 'INVALID_PARAMETERS' ? e.field : '', 'password');
  }
  // move/set takes the same range: a password that could not have been set is refused before any try counts.
  const set = (movePassword: string) =>
    MoveSetRequest.decode({ moveCode: 'ABCDEFGHIJ', movePassword, uuid: NEW, platform: 1 })._tag;
  t.deepEqual(['1234', 'x'.repeat(16), '123', 'x'.repeat(17)].map(set), ['Right', 'Right', 'Left', 'Left']);
});

test('a move password must be printable ASCII without spaces; the code starts with no failures; a replay keeps the hash it gives', (t) => {
  const s = freshPlayer();
  for (const password of ['pass word', 'passwörd', 'tab\there']) {
    const r = createMoveCode(master(), s, password, rngFromSeed('m'), NOW);
    t.like(
      r._tag === 'Left' ? r.left : undefined,
      { code: 'INVALID_PARAMETERS', field: 'password', reason: 'must be printable ASCII letters, digits or symbols' },
      JSON.stringify(password),
    );
  }
  const made = createMoveCode(master(), s, '!~printable~!', rngFromSeed('m'), NOW);
  t.is(made._tag === 'Right' ? made.right.move?.failures : undefined, 0);
  const replayed = createMoveCode(master(), s, { passwordHash: 'ab'.repeat(32) }, rngFromSeed('m'), NOW);
  t.is(
    replayed._tag === 'Right' ? replayed.right.move?.passwordHash : undefined,
    'ab'.repeat(32),
    'no length check on a hash, and it is kept as given',
  );
});

test("master data may narrow the move password's length within what the request codec takes; both ends are checked", (t) => {
  const m = master();
  const narrow = { ...m, game: { ...m.game, move: { ...m.game.move, passwordMinLength: 6, passwordMaxLength: 8 } } };
  const make = (password: string) => createMoveCode(narrow, freshPlayer(), password, rngFromSeed('m'), NOW);
  for (const password of ['12345', '123456789']) {
    const r = make(password);
    t.like(
      r._tag === 'Left' ? r.left : undefined,
      { code: 'INVALID_PARAMETERS', field: 'password', reason: 'must be 6 to 8 characters' },
      password,
    );
  }
  t.deepEqual(
    ['123456', '12345678'].map((p) => make(p)._tag),
    ['Right', 'Right'],
  );
});

// ---- the move ----

test('a move binds the new uuid, issues a new token, ends sessions and spends the code', (t) => {
  const s = ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
  const code = s.move!.code;
  const r = applyMove(master(), s, moveByCode(code, 'secret123'), NOW + HOUR);
  t.is(r.error, null);
  t.is(r.state.account.uuid, NEW);
  t.is(r.state.account.sessionEpoch, s.account.sessionEpoch + 1);
  t.is(r.state.move, null);
  t.deepEqual(r.state.account.movedFrom, [s.account.uuid]);
  const old = login(r.state, s.account.uuid, 'test-access-token-0001', NOW);
  t.is(old._tag === 'Left' ? old.left.code : 'ok', 'PLAYER_MOVED');
  t.is(login(r.state, NEW, 'new-token-0000000001', NOW)._tag, 'Right');
  t.is(login(r.state, NEW, 'test-access-token-0001', NOW)._tag, 'Left', 'the old token no longer works');
});

// The code rests rather than turning void (issue 18): its owner can still move after the rest.
test('a wrong password counts; after the configured failures the code rests for restMinutes, is not voided, and then moves its owner; an expired code is refused', (t) => {
  const s = ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
  const code = s.move!.code;
  let cur = s;
  for (let i = 0; i < master().game.move.maxFailures; i++) {
    const r = applyMove(master(), cur, moveByCode(code, 'wrong-pass'), NOW);
    t.is(r.error?._tag === 'Left' ? r.error.left.code : null, 'INVALID_MOVE_PARAMETERS');
    cur = r.state;
  }
  t.is(cur.move?.code, code, 'not void after too many failures');
  t.is(cur.move?.restUntil, NOW + master().game.move.restMinutes * 60_000);
  const resting = applyMove(master(), cur, moveByCode(code, 'secret123'), NOW + 1000);
  t.not(resting.error, null, 'resting: the right password is refused too');
  t.is(resting.state, cur, 'and nothing is counted');
  t.is(
    applyMove(master(), cur, moveByCode(code, 'secret123'), NOW + master().game.move.restMinutes * 60_000).error,
    null,
    'after the rest, the owner moves',
  );
  const late = applyMove(master(), s, moveByCode(code, 'secret123'), NOW + 25 * HOUR);
  t.is(late.error?._tag === 'Left' ? late.error.left.code : null, 'INVALID_MOVE_PARAMETERS');
  t.is(late.state, s, 'an expired code changes nothing');
});

test('a move for a player with no code is refused and changes nothing', (t) => {
  const s = freshPlayer();
  const r = applyMove(
    master(),
    s,
    {
      moveCode: 'ABCDEFGHIJ',
      movePassword: 'secret123',
      uuid: NEW,
      platform: 2,
      tokenHash: tokenHash('new-device-token-01'),
    },
    NOW,
  );
  t.is(moveReason(r), MOVE_REFUSED);
  t.regex(MOVE_REFUSED, /\w/, 'the refusal says why, in one reason for every case');
  t.is(r.state, s);
});

test('a move code is refused from its deadline on, and taken a millisecond before; a wrong code is refused and changes nothing', (t) => {
  const s = withCode(t);
  const deadline = s.move!.deadline;
  const at = applyMove(master(), s, moveIn(s), deadline);
  t.is(moveReason(at), MOVE_REFUSED);
  t.is(at.state, s);
  t.is(applyMove(master(), s, moveIn(s), deadline - 1).error, null);
  const wrong = applyMove(master(), s, moveIn(s, { moveCode: 'NOTTHECODE' }), NOW);
  t.is(moveReason(wrong), MOVE_REFUSED);
  t.is(wrong.state, s, 'a wrong code counts nothing');
});

test('wrong passwords count one by one; the code rests only at maxFailures, and after a rest the count starts again', (t) => {
  const m = master();
  const { maxFailures, restMinutes } = m.game.move;
  let cur = withCode(t);
  for (let i = 1; i < maxFailures; i++) {
    cur = applyMove(m, cur, moveIn(cur, { movePassword: 'wrong-pass' }), NOW).state;
    t.is(cur.move?.failures, i);
    t.is(cur.move?.restUntil, undefined, `not resting after ${i}`);
  }
  const rested = applyMove(m, cur, moveIn(cur, { movePassword: 'wrong-pass' }), NOW).state;
  t.like(rested.move, { failures: 0, restUntil: NOW + restMinutes * 60_000 });
  const after = NOW + restMinutes * 60_000;
  const once = applyMove(m, rested, moveIn(rested, { movePassword: 'wrong-pass' }), after);
  t.like(once.state.move, { failures: 1 });
  t.false(once.state.move !== null && 'restUntil' in once.state.move, 'the rest that ended is cleared');
  t.is(applyMove(m, once.state, moveIn(once.state), after + 1).error, null, 'the owner still moves');
  t.is(applyMove(m, cur, moveIn(cur), NOW).error, null, 'one short of the limit, the right password moves');
});

test("a move takes the request's uuid, platform and token, logs in now, raises the session epoch, and accepts the password as its hash", (t) => {
  const s = withCode(t);
  const at = NOW + 1000;
  const r = applyMove(
    master(),
    s,
    { ...moveIn(s), movePassword: undefined, movePasswordHash: moveAttemptHash(s, 'secret123') } as unknown as MoveIn,
    at,
  );
  t.is(r.error, null);
  t.like(r.state, {
    lastLoginAt: at,
    move: null,
    account: {
      uuid: NEW,
      platform: 2,
      tokenHash: tokenHash('new-device-token-01'),
      movedFrom: [s.account.uuid],
      sessionEpoch: s.account.sessionEpoch + 1,
    },
  });
});

test('a move to the device the account is on is refused and changes nothing; moving back to an earlier device lists it once', (t) => {
  const s = withCode(t);
  const same = applyMove(master(), s, moveIn(s, { uuid: s.account.uuid }), NOW);
  t.is(moveReason(same), 'the account is already on this device');
  t.is(same.state, s);
  const away = applyMove(master(), s, moveIn(s), NOW).state;
  const coded = ok(t, 'getPlayerMove', away, { password: 'secret123' }).state;
  const back = applyMove(master(), coded, moveIn(coded, { uuid: s.account.uuid }), NOW).state;
  t.is(back.account.uuid, s.account.uuid);
  t.deepEqual(back.account.movedFrom, [NEW], 'the device moved back to is no longer one moved away from');
  t.is(back.account.sessionEpoch, s.account.sessionEpoch + 2);
});

test('a move hands out the token the edge issued for the new device and keeps its hash; with none issued it hands out none and keeps none', (t) => {
  const s = coded(t);
  const newToken = 'feedface-0000-4000-8000-00000000beef';
  const r = right(t, run('setPlayerMove', s, moveReq(s), issued(newToken)));
  t.deepEqual(r.response, { accessToken: newToken, playerId: s.playerId });
  t.is(r.refused, undefined);
  t.like(r.state.account, { uuid: NEW_DEVICE, platform: 2, tokenHash: tokenHash(newToken) });
  t.is(
    right(t, run('loginPlayer', r.state, { uuid: NEW_DEVICE, accessToken: newToken })).response.playerId,
    s.playerId,
    'the new token logs in',
  );

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

test('an account keeps the last move.movedFromKeep uuids it moved away from', (t) => {
  const m = tuned({ move: { movedFromKeep: 2 } });
  let s = freshPlayer();
  for (let i = 0; i < 4; i++) {
    s = ok(t, 'getPlayerMove', s, { password: 'secret123' }, { m, seed: `mv${i}` }).state;
    const r = applyMove(
      m,
      s,
      {
        moveCode: s.move?.code ?? '',
        movePassword: 'secret123',
        uuid: `00000000-0000-4000-8000-00000000010${i}`,
        platform: 2,
        accessToken: 'new-token-0000000001',
      },
      NOW,
    );
    t.is(r.error, null);
    s = r.state;
  }
  t.deepEqual(s.account.movedFrom, ['00000000-0000-4000-8000-000000000101', '00000000-0000-4000-8000-000000000102']);
});

// ---- the replay log ----

test("the replay log keeps a move code's password as the hash the state kept, and that replays to the same state", (t) => {
  const before = freshPlayer();
  const after = right(t, run('getPlayerMove', before, { password: 'secret123' })).state;
  const { kept, state } = replayed('getPlayerMove', before, { password: 'secret123' }, after);
  t.deepEqual(kept, { passwordHash: after.move?.passwordHash });
  t.false(JSON.stringify(kept).includes('secret123'));
  t.deepEqual(state, after);
});

test("the replay log keeps a move's password tried as its hash: right or wrong, the replay makes the same state", (t) => {
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
