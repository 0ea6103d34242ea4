// Accounts at their edges (core/account.ts): a sign-up's name and starting state, a
// log-in's refusals, a move code's password and a move's deadline, rest and uuids.
// Sessions end with a move through the session epoch it raises (the service compares it).
import test, { type ExecutionContext } from 'ava';
import { freshPlayer, master, NOW, ok } from '../_support/core.js';
import { applyMove, createMoveCode, createPlayer, login, MANAGED_ID_SPAN, MOVE_REFUSED, moveAttemptHash, unbornPlayer, type MoveIn, type NewPlayer } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import { tokenHash } from '../../core/secret.js';
import { DAY } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';

const UUID = '00000000-0000-4000-8000-000000000007';
const NEW = '11111111-2222-4333-8444-555555555555';
const signup = (p: Partial<NewPlayer> = {}) =>
  createPlayer(master(), { playerId: 7, uuid: UUID, platform: 2, name: 'Aki', stepCode: 0, accessToken: 'token-of-aki-00001', ...p } as NewPlayer, rngFromSeed('signup'), NOW);
const created = (p: Partial<NewPlayer> = {}): PlayerState => {
  const r = signup(p);
  if (r._tag === 'Left') throw new Error(`sign-up failed: ${r.left.code}`);
  return r.right;
};
const reasonOf = (r: ReturnType<typeof applyMove>): string | undefined => {
  const e = r.error?._tag === 'Left' ? r.error.left : undefined;
  return e?.code === 'INVALID_MOVE_PARAMETERS' ? e.reason : undefined;
};

test('a sign-up trims the name; a blank one is the default name; nameMaxLength counts code points', (t) => {
  const g = master().game.player;
  t.is(created({ name: '  Aki  ' }).name, 'Aki');
  t.is(created({ name: '   ' }).name, g.defaultName);
  const emoji = '🌟'.repeat(g.nameMaxLength);
  t.is(created({ name: emoji }).name, emoji, 'each emoji is one character');
  const long = signup({ name: `${emoji}x` });
  t.is(long._tag, 'Left');
  if (long._tag === 'Left') t.like(long.left, { code: 'INVALID_PARAMETERS', field: 'name', reason: `must be at most ${g.nameMaxLength} characters` });
});

test('a new player starts at the master data\'s level, wealth and stamina, with its uuid, platform and the token as a hash', (t) => {
  const m = master();
  const g = m.game.player;
  const level = m.playerLevels.find((l) => l.level === g.startLevel)!;
  const s = created();
  t.like(s, {
    version: 0, playerId: 7, name: 'Aki', createdAt: NOW, lastLoginAt: NOW,
    level: g.startLevel, exp: level.totalExp, gold: g.startGold, gem: g.startGem, paidGem: g.startPaidGem, kirara: g.startKirara,
    stamina: { value: level.staminaMax, at: NOW },
    account: { uuid: UUID, platform: 2, tokenHash: tokenHash('token-of-aki-00001'), movedFrom: [], sessionEpoch: 0 },
  });
  t.false(JSON.stringify(s).includes('token-of-aki-00001'), 'the token itself is not kept');
  t.deepEqual(created({ accessToken: undefined, tokenHash: tokenHash('token-of-aki-00001') } as Partial<NewPlayer>), s, 'a replay gives the hash: the same player');
  t.regex(s.myCode, /^[A-Z0-9]{10}$/);
  t.true(s.presents.every((p) => Math.floor(p.managedPresentId / MANAGED_ID_SPAN) === 7), 'managed ids come from the player\'s own range');
  t.is(s.nextManagedId, 7 * MANAGED_ID_SPAN + 1 + s.presents.length);
  t.is(unbornPlayer(7).version, -1, 'the unborn player is one version before the first');
});

test('a new player starts at the master data\'s start level, with that level\'s exp and stamina', (t) => {
  const m = master();
  const tuned = { ...m, game: { ...m.game, player: { ...m.game.player, startLevel: 2 } } };
  const level2 = m.playerLevels.find((l) => l.level === 2)!;
  t.not(level2.totalExp, m.playerLevels[0]!.totalExp);
  const r = createPlayer(tuned, { playerId: 7, uuid: UUID, platform: 1, name: '', stepCode: 0, accessToken: 'token-of-aki-00001' }, rngFromSeed('signup'), NOW);
  t.like(r._tag === 'Right' ? r.right : undefined, { level: 2, exp: level2.totalExp, stamina: { value: level2.staminaMax, at: NOW } });
});

test('the welcome presents arrive at sign-up, each with its title, message and deadline (none when the master data gives none)', (t) => {
  const m = master();
  const s = created();
  t.is(s.presents.length, m.welcome.length);
  m.welcome.forEach((w, i) => {
    const p = s.presents[i]!;
    t.like(p, { title: w.title, message: w.message, source: 'welcome', kind: w.grant.kind, objectId: w.grant.objectId, amount: w.grant.amount });
    t.is(p.deadline, w.deadlineDays ? NOW + w.deadlineDays * DAY : null);
  });
  t.true(m.welcome.some((w) => w.deadlineDays) && m.welcome.some((w) => !w.deadlineDays), 'the fixtures have presents of both kinds');
});

test('a sign-up\'s stepCode above 0 is recorded, 0 or below records nothing; a step out of range refuses the sign-up', (t) => {
  t.is(created({ stepCode: 0 }).tutorial.step, 0);
  t.is(created({ stepCode: master().game.tutorial.finishedStep }).tutorial.step, 0, 'a sign-up cannot finish the tutorial');
  t.is(created({ stepCode: 2 }).tutorial.step, 2);
  const bad = signup({ stepCode: master().game.tutorial.lastStep + 1 });
  t.is(bad._tag === 'Left' ? bad.left.code : 'ok', 'INVALID_PARAMETERS');
});

test('a log-in: an unknown uuid is 202, one moved away from 212, a wrong token 202; a good one changes only lastLoginAt', (t) => {
  const s = created();
  const codeOfLogin = (r: ReturnType<typeof login>) => (r._tag === 'Left' ? r.left.code : 'ok');
  t.is(codeOfLogin(login(s, NEW, 'token-of-aki-00001', NOW)), 'PLAYER_NOT_FOUND');
  t.is(codeOfLogin(login(s, UUID, 'token-of-aki-00002', NOW)), 'PLAYER_NOT_FOUND');
  t.is(codeOfLogin(login({ ...s, account: { ...s.account, uuid: NEW, movedFrom: [UUID] } }, UUID, 'token-of-aki-00001', NOW)), 'PLAYER_MOVED');
  const later = NOW + 5000;
  const r = login(s, UUID, 'token-of-aki-00001', later);
  t.deepEqual(r._tag === 'Right' ? r.right : undefined, { ...s, lastLoginAt: later });
  const replayed = login(s, UUID, { tokenHash: tokenHash('token-of-aki-00001') }, later);
  t.deepEqual(replayed._tag === 'Right' ? replayed.right : undefined, { ...s, lastLoginAt: later }, 'a replay presents the hash');
});

test('a move password must be printable ASCII without spaces; the code starts with no failures; a replay keeps the hash it gives', (t) => {
  const s = freshPlayer();
  for (const password of ['pass word', 'passwörd', 'tab\there']) {
    const r = createMoveCode(master(), s, password, rngFromSeed('m'), NOW);
    t.like(r._tag === 'Left' ? r.left : undefined, { code: 'INVALID_PARAMETERS', field: 'password', reason: 'must be printable ASCII letters, digits or symbols' }, JSON.stringify(password));
  }
  const made = createMoveCode(master(), s, '!~printable~!', rngFromSeed('m'), NOW);
  t.is(made._tag === 'Right' ? made.right.move?.failures : undefined, 0);
  const replayed = createMoveCode(master(), s, { passwordHash: 'ab'.repeat(32) }, rngFromSeed('m'), NOW);
  t.is(replayed._tag === 'Right' ? replayed.right.move?.passwordHash : undefined, 'ab'.repeat(32), 'no length check on a hash, and it is kept as given');
});

const withCode = (t: ExecutionContext): PlayerState => ok(t, 'getPlayerMove', freshPlayer(), { password: 'secret123' }).state;
const moveIn = (s: PlayerState, over: Partial<{ moveCode: string; movePassword: string; uuid: string; platform: number }> = {}): MoveIn => ({
  moveCode: s.move!.code, movePassword: 'secret123', uuid: NEW, platform: 2, tokenHash: tokenHash('new-device-token-01'), ...over,
});

test('master data may narrow the move password\'s length within what the request codec takes; both ends are checked', (t) => {
  const m = master();
  const narrow = { ...m, game: { ...m.game, move: { ...m.game.move, passwordMinLength: 6, passwordMaxLength: 8 } } };
  const make = (password: string) => createMoveCode(narrow, freshPlayer(), password, rngFromSeed('m'), NOW);
  for (const password of ['12345', '123456789']) {
    const r = make(password);
    t.like(r._tag === 'Left' ? r.left : undefined, { code: 'INVALID_PARAMETERS', field: 'password', reason: 'must be 6 to 8 characters' }, password);
  }
  t.deepEqual(['123456', '12345678'].map((p) => make(p)._tag), ['Right', 'Right']);
});

test('a move for a player with no code is refused and changes nothing', (t) => {
  const s = freshPlayer();
  const r = applyMove(master(), s, { moveCode: 'ABCDEFGHIJ', movePassword: 'secret123', uuid: NEW, platform: 2, tokenHash: tokenHash('new-device-token-01') }, NOW);
  t.is(reasonOf(r), MOVE_REFUSED);
  t.regex(MOVE_REFUSED, /\w/, 'the refusal says why, in one reason for every case');
  t.is(r.state, s);
});

test('a move code is refused from its deadline on, and taken a millisecond before; a wrong code is refused and changes nothing', (t) => {
  const s = withCode(t);
  const deadline = s.move!.deadline;
  const at = applyMove(master(), s, moveIn(s), deadline);
  t.is(reasonOf(at), MOVE_REFUSED);
  t.is(at.state, s);
  t.is(applyMove(master(), s, moveIn(s), deadline - 1).error, null);
  const wrong = applyMove(master(), s, moveIn(s, { moveCode: 'NOTTHECODE' }), NOW);
  t.is(reasonOf(wrong), MOVE_REFUSED);
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

test('a move takes the request\'s uuid, platform and token, logs in now, raises the session epoch, and accepts the password as its hash', (t) => {
  const s = withCode(t);
  const at = NOW + 1000;
  const r = applyMove(master(), s, { ...moveIn(s), movePassword: undefined, movePasswordHash: moveAttemptHash(s, 'secret123') } as unknown as MoveIn, at);
  t.is(r.error, null);
  t.like(r.state, { lastLoginAt: at, move: null, account: { uuid: NEW, platform: 2, tokenHash: tokenHash('new-device-token-01'), movedFrom: [s.account.uuid], sessionEpoch: s.account.sessionEpoch + 1 } });
});

test('a move to the device the account is on is refused and changes nothing; moving back to an earlier device lists it once', (t) => {
  const s = withCode(t);
  const same = applyMove(master(), s, moveIn(s, { uuid: s.account.uuid }), NOW);
  t.is(reasonOf(same), 'the account is already on this device');
  t.is(same.state, s);
  const away = applyMove(master(), s, moveIn(s), NOW).state;
  const coded = ok(t, 'getPlayerMove', away, { password: 'secret123' }).state;
  const back = applyMove(master(), coded, moveIn(coded, { uuid: s.account.uuid }), NOW).state;
  t.is(back.account.uuid, s.account.uuid);
  t.deepEqual(back.account.movedFrom, [NEW], 'the device moved back to is no longer one moved away from');
  t.is(back.account.sessionEpoch, s.account.sessionEpoch + 2);
});
