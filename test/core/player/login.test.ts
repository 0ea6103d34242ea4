// Log-in (core/account.ts and loginPlayer, docs/rules/foundation.md, Player and accounts):
// refusals for an unknown uuid, one moved away and a wrong token; a device uuid in any case;
// the session the edge issued; access tokens of both the current and the older form.
import test, { type ExecutionContext } from 'ava';
import { master, NOW } from '../../_support/core.js';
import { login, unbornPlayer } from '../../../core/account.js';
import { rngFromSeed } from '../../../core/rng.js';
import { tokenHash } from '../../../core/secret.js';
import { runNamed } from '../../../core/operations/table.js';
import { LoginRequest } from '../../../core/operations/player.js';
import { created, TOKEN, issued, run, right, UUID } from './_account.js';

const NEW = '11111111-2222-4333-8444-555555555555';

const m = master();
const DEVICE = '6f9619ff-8b86-4d11-b42d-00c04fc964ff';

test('a log-in: an unknown uuid is 202, one moved away from 212, a wrong token 202; a good one changes only lastLoginAt', (t) => {
  const s = created();
  const codeOfLogin = (r: ReturnType<typeof login>) => (r._tag === 'Left' ? r.left.code : 'ok');
  t.is(codeOfLogin(login(s, NEW, 'token-of-aki-00001', NOW)), 'PLAYER_NOT_FOUND');
  t.is(codeOfLogin(login(s, UUID, 'token-of-aki-00002', NOW)), 'PLAYER_NOT_FOUND');
  t.is(
    codeOfLogin(
      login({ ...s, account: { ...s.account, uuid: NEW, movedFrom: [UUID] } }, UUID, 'token-of-aki-00001', NOW),
    ),
    'PLAYER_MOVED',
  );
  const later = NOW + 5000;
  const r = login(s, UUID, 'token-of-aki-00001', later);
  t.deepEqual(r._tag === 'Right' ? r.right : undefined, { ...s, lastLoginAt: later });
  const replayed = login(s, UUID, { tokenHash: tokenHash('token-of-aki-00001') }, later);
  t.deepEqual(
    replayed._tag === 'Right' ? replayed.right : undefined,
    { ...s, lastLoginAt: later },
    'a replay presents the hash',
  );
});

test('a device uuid is taken in any case and kept in lower case: a log-in with either case finds the account', (t) => {
  const upper = DEVICE.toUpperCase();
  const made = right(t, run('signupPlayer', unbornPlayer(7), { uuid: upper, platform: 1 }, issued()));
  t.is(made.state.account.uuid, DEVICE);
  for (const uuid of [upper, DEVICE]) {
    const r = right(t, run('loginPlayer', made.state, { uuid, accessToken: TOKEN }, issued()));
    t.is(r.response.playerId, 7, uuid);
  }
});

test("a log-in answers the session the edge issued and the player's id, and marks the log-in; with none issued the session id is empty", (t) => {
  const s = right(t, run('signupPlayer', unbornPlayer(7), { uuid: DEVICE, platform: 1 }, issued())).state;
  const later = NOW + 60_000;
  const r = runNamed('loginPlayer', s, { uuid: DEVICE, accessToken: TOKEN }, rngFromSeed('login'), later, {
    master: m,
    others: [],
    issued: issued(TOKEN, 'session-0042'),
  });
  // The answer's loginBonus has tests of its own (login-bonus.test.ts).
  t.like(right(t, r).response, { sessionId: 'session-0042', playerId: 7 });
  t.is(right(t, r).state.lastLoginAt, later);
  t.like(right(t, run('loginPlayer', s, { uuid: DEVICE, accessToken: TOKEN })).response, {
    sessionId: '',
    playerId: 7,
  });
});

test('log-in takes the UUID access tokens handed out now, and the longer random ones handed out before', (t) => {
  const login = (accessToken: string) => LoginRequest.decode({ uuid: NEW, accessToken })._tag;
  t.is(login('3f1c2a4e-9b7d-4c1e-8a2b-5d6e7f8a9b0c'), 'Right');
  t.is(login('q3Jm7xK0bV9sTz1LcP4dR8wYfN2hG6uE'), 'Right', 'a 32-character token of the earlier form');
  t.is(login('short'), 'Left');
});
