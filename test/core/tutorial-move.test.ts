import test from 'ava';
import { fails, freshPlayer, NOW, ok } from '../_support/core.js';
import { applyMove, login } from '../../core/account.js';
import { master } from '../_support/core.js';
import { HOUR } from '../../core/time.js';
import { LoginRequest, MoveSetRequest } from '../../core/operations/player.js';

test('tutorial steps only move forward; -1 finishes; repeating the current step is a no-op', (t) => {
  let s = ok(t, 'addPlayerTutorialStep', freshPlayer(), { stepCode: 3 }).state;
  t.is(s.tutorial.step, 3);
  const same = ok(t, 'addPlayerTutorialStep', s, { stepCode: 3 });
  t.is(same.state, s, 'nothing changed');
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 2 });
  s = ok(t, 'addPlayerTutorialStep', s, { stepCode: -1 }).state;
  t.is(s.tutorial.step, -1);
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 4 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', freshPlayer(), { stepCode: -5 });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'addPlayerTutorialStep', freshPlayer(), {});
});

test('tips are recorded once, in order', (t) => {
  let s = ok(t, 'addPlayerTutorialTip', freshPlayer(), { tipId: 7 }).state;
  s = ok(t, 'addPlayerTutorialTip', s, { tipId: 2 }).state;
  const again = ok(t, 'addPlayerTutorialTip', s, { tipId: 7 });
  t.deepEqual(again.state.tutorial.tips, [2, 7]);
  t.is(again.state, s);
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialTip', s, { tipId: 0 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialTip', s, { tipId: master().game.tutorial.maxTipId + 1 });
});

const NEW = '11111111-2222-4333-8444-555555555555';
const moveIn = (code: string, password: string) => ({ moveCode: code, movePassword: password, uuid: NEW, platform: 2, accessToken: 'new-token-0000000001' });

test('move/get makes a 10-character code valid for the configured time; password length is checked', (t) => {
  const r = ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' });
  t.regex(r.response.moveCode, /^[A-Z0-9]{10}$/);
  t.is(r.state.move?.deadline, NOW + master().game.move.validHours * HOUR);
  t.false(JSON.stringify(r.state).includes('secret123'), 'the password is kept only as a hash');
  fails(t, 'INVALID_PARAMETERS', 'getPlayerMove', freshPlayer(), { password: 'abc' });
  fails(t, 'INVALID_PARAMETERS', 'getPlayerMove', freshPlayer(), { password: 'x'.repeat(17) });
});

test('a move binds the new uuid, issues a new token, ends sessions and spends the code', (t) => {
  const s = ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
  const code = s.move!.code;
  const r = applyMove(master(), s, moveIn(code, 'secret123'), NOW + HOUR);
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

test('a wrong password counts; after the configured failures the code rests (never void, issue 18); expired codes are refused', (t) => {
  const s = ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
  const code = s.move!.code;
  let cur = s;
  for (let i = 0; i < master().game.move.maxFailures; i++) {
    const r = applyMove(master(), cur, moveIn(code, 'wrong-pass'), NOW);
    t.is(r.error?._tag === 'Left' ? r.error.left.code : null, 'INVALID_MOVE_PARAMETERS');
    cur = r.state;
  }
  t.is(cur.move?.code, code, 'not void after too many failures');
  t.is(cur.move?.restUntil, NOW + master().game.move.restMinutes * 60_000);
  const resting = applyMove(master(), cur, moveIn(code, 'secret123'), NOW + 1000);
  t.not(resting.error, null, 'resting: the right password is refused too');
  t.is(resting.state, cur, 'and nothing is counted');
  t.is(applyMove(master(), cur, moveIn(code, 'secret123'), NOW + master().game.move.restMinutes * 60_000).error, null, 'after the rest, the owner moves');
  const late = applyMove(master(), s, moveIn(code, 'secret123'), NOW + 25 * HOUR);
  t.is(late.error?._tag === 'Left' ? late.error.left.code : null, 'INVALID_MOVE_PARAMETERS');
  t.is(late.state, s, 'an expired code changes nothing');
});

test('move passwords of 4 to 16 characters are accepted ("1234" too, as the original did); 3 and 17 are 102 and change nothing', (t) => {
  const m = master();
  t.deepEqual([m.game.move.passwordMinLength, m.game.move.passwordMaxLength], [4, 16]);
  for (const password of ['1234', 'x'.repeat(16)]) {
    const s = ok(t, 'getPlayerMove', freshPlayer(), { password }).state;
    const moved = applyMove(m, s, moveIn(s.move!.code, password), NOW);
    t.is(moved.error, null, `a ${password.length}-character password moves`);
    t.is(moved.state.account.uuid, NEW);
  }
  for (const password of ['123', 'x'.repeat(17)]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'getPlayerMove', freshPlayer(), { password });
    t.is(e.code === 'INVALID_PARAMETERS' ? e.field : '', 'password');
  }
  // move/set takes the same range: a password that could not have been set is refused before any try counts.
  const set = (movePassword: string) => MoveSetRequest.decode({ moveCode: 'ABCDEFGHIJ', movePassword, uuid: NEW, platform: 1 })._tag;
  t.deepEqual(['1234', 'x'.repeat(16), '123', 'x'.repeat(17)].map(set), ['Right', 'Right', 'Left', 'Left']);
});

test('log-in takes the UUID access tokens handed out now, and the longer random ones handed out before', (t) => {
  const login = (accessToken: string) => LoginRequest.decode({ uuid: NEW, accessToken })._tag;
  t.is(login('3f1c2a4e-9b7d-4c1e-8a2b-5d6e7f8a9b0c'), 'Right');
  t.is(login('q3Jm7xK0bV9sTz1LcP4dR8wYfN2hG6uE'), 'Right', 'a 32-character token of the earlier form');
  t.is(login('short'), 'Left');
});
