// The player: sign-up and log-in (served by the account handlers, no session),
// the whole state, and the move (account transfer) operations.
import * as t from 'io-ts';
import { IntRange, Text, obj, objWithOptional, Int } from '../codecs.js';
import { defineOp } from '../operation.js';
import { ok } from '../shared/result.js';
import { fullView, timeText } from '../view.js';
import { FullView, WireTime } from '../views/codecs.js';
import { createMoveCode } from '../account.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** A UUID string (36 characters, any case; decoded to lower case): a device id, or an access token handed out. */
export const Uuid = new t.Type<string, string, unknown>(
  'Uuid',
  (u): u is string => typeof u === 'string' && UUID.test(u),
  (u, c) => (typeof u === 'string' && UUID.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c, 'must be a UUID')),
  (s) => s,
);
export const Platform = IntRange(1, 2);
/**
 * An access token as the client sends it back: sign-up and move/set hand out UUID strings
 * (36 characters, the length the original's clients store); tokens handed out before as
 * other random strings (16 to 128 characters) still log in.
 */
const Token = Text(16, 128);
/**
 * A move password: 4 to 16 characters (the original accepted "1234"); master data
 * (move.passwordMinLength/MaxLength) may narrow it, and move/get checks that range.
 */
const MovePassword = Text(4, 16);

export const SignupRequest = objWithOptional({ uuid: Uuid, platform: Platform }, { name: Text(0, 64), stepCode: Int }, 'SignupPlayerRequest');
export type SignupRequest = t.TypeOf<typeof SignupRequest>;
export const LoginRequest = objWithOptional({ uuid: Uuid, accessToken: Token }, { platform: Platform, appVersion: t.union([t.string, t.number]) }, 'LoginPlayerRequest');
export type LoginRequest = t.TypeOf<typeof LoginRequest>;
export const MoveSetRequest = obj({ moveCode: Text(1, 32), movePassword: MovePassword, uuid: Uuid, platform: Platform }, 'SetPlayerMoveRequest');
export type MoveSetRequest = t.TypeOf<typeof MoveSetRequest>;

const signup = defineOp({
  name: 'signupPlayer', method: 'POST', path: '/player/signup', group: 'player', access: 'account',
  summary: 'Creates a player bound to a device uuid; returns its id and access token. No session needed.',
  request: SignupRequest,
  response: t.type({
    playerId: t.number,
    /** A UUID string: keep it to log in (only its hash is stored). */
    accessToken: Uuid,
  }, 'SignupPlayerResponse'),
  // STATE_CONFLICT: no free friend code after a few tries (vanishingly rare; try again).
  errors: ['PLAYER_ALREADY_EXISTS', 'INVALID_PARAMETERS', 'STATE_CONFLICT'],
  reduce: null,
});

const login = defineOp({
  name: 'loginPlayer', method: 'POST', path: '/player/login', group: 'player', access: 'account',
  summary: 'Logs a device in with its uuid and access token; returns a session id. No session needed.',
  request: LoginRequest,
  response: t.type({
    /** Send it as X-STAR-SESSION-ID (or Authorization: Bearer) on every session operation. */
    sessionId: t.string,
    playerId: t.number,
  }, 'LoginPlayerResponse'),
  // STATE_CONFLICT: the player changed during the log-in (try again).
  errors: ['PLAYER_NOT_FOUND', 'PLAYER_MOVED', 'STATE_CONFLICT'],
  reduce: null,
});

const getAll = defineOp({
  name: 'getAllPlayer', method: 'GET', path: '/player/get_all', group: 'player', access: 'session', readOnly: true,
  summary: 'The whole state of the current player: the player and every owned collection.',
  request: objWithOptional({}, {}, 'GetAllPlayerRequest'),
  response: FullView,
  errors: [],
  reduce: (s, _req, _rng, now, { master }) => ok({ state: s, response: fullView(s, { master, now }) }),
});

const moveGet = defineOp({
  name: 'getPlayerMove', method: 'POST', path: '/player/move/get', group: 'move', access: 'session',
  summary: 'Creates an account transfer code (replacing any earlier one) protected by a password.',
  request: obj({ password: MovePassword }, 'GetPlayerMoveRequest'),
  response: t.type({ moveCode: t.string, moveDeadline: WireTime }, 'GetPlayerMoveResponse'),
  errors: ['INVALID_PARAMETERS'],
  reduce: (s, req, rng, now, { master }) => {
    const r = createMoveCode(master, s, req.password, rng, now);
    if (r._tag === 'Left') return r;
    const mv = r.right.move;
    return ok({ state: r.right, response: { moveCode: mv?.code ?? '', moveDeadline: timeText({ master, now }, mv?.deadline ?? now) } });
  },
});

const moveSet = defineOp({
  name: 'setPlayerMove', method: 'POST', path: '/player/move/set', group: 'move', access: 'account',
  summary: 'Exchanges a transfer code and password for a new access token on a new device. No session needed.',
  request: MoveSetRequest,
  response: t.type({
    /** The new device's access token, a UUID string; the old one no longer logs in. */
    accessToken: Uuid,
    playerId: t.number,
  }, 'SetPlayerMoveResponse'),
  // PLAYER_ALREADY_EXISTS: the new uuid is bound to another account; STATE_CONFLICT: the player changed meanwhile (try again).
  errors: ['INVALID_MOVE_PARAMETERS', 'PLAYER_ALREADY_EXISTS', 'STATE_CONFLICT'],
  reduce: null,
});

export const playerOps = [signup, login, getAll, moveGet, moveSet] as const;
