// The player: sign-up and log-in (served by the account handlers, no session),
// the whole state, and the move (account transfer) operations.
import * as t from 'io-ts';
import { IntRange, Text, obj, objWithOptional, Int } from '../codecs.js';
import { defineOp, type AnyOperation } from '../operation.js';
import { ok } from '../shared/result.js';
import { fullView, timeText } from '../view.js';
import { createMoveCode } from '../account.js';

/** A device id: a UUID string (any case), as the client sends it. */
export const Uuid = new t.Type<string, string, unknown>(
  'Uuid',
  (u): u is string => typeof u === 'string',
  (u, c) => (typeof u === 'string' && /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(u) ? t.success(u.toLowerCase()) : t.failure(u, c, 'must be a UUID')),
  (s) => s,
);
export const Platform = IntRange(1, 2);
const Token = Text(16, 128);

export const SignupRequest = objWithOptional({ uuid: Uuid, platform: Platform }, { name: Text(0, 64), stepCode: Int }, 'SignupPlayerRequest');
export type SignupRequest = t.TypeOf<typeof SignupRequest>;
export const LoginRequest = objWithOptional({ uuid: Uuid, accessToken: Token }, { platform: Platform, appVersion: t.union([t.string, t.number]) }, 'LoginPlayerRequest');
export type LoginRequest = t.TypeOf<typeof LoginRequest>;
export const MoveSetRequest = obj({ moveCode: Text(1, 32), movePassword: Text(1, 64), uuid: Uuid, platform: Platform }, 'SetPlayerMoveRequest');
export type MoveSetRequest = t.TypeOf<typeof MoveSetRequest>;

const signup = defineOp({
  name: 'signupPlayer', method: 'POST', path: '/player/signup', group: 'player', access: 'account',
  summary: 'Creates a player bound to a device uuid; returns its id and access token. No session needed.',
  request: SignupRequest,
  response: t.type({ playerId: t.number, accessToken: t.string }, 'SignupPlayerResponse'),
  errors: ['PLAYER_ALREADY_EXISTS', 'INVALID_PARAMETERS'],
  reduce: null,
});

const login = defineOp({
  name: 'loginPlayer', method: 'POST', path: '/player/login', group: 'player', access: 'account',
  summary: 'Logs a device in with its uuid and access token; returns a session id. No session needed.',
  request: LoginRequest,
  response: t.type({ sessionId: t.string, playerId: t.number }, 'LoginPlayerResponse'),
  errors: ['PLAYER_NOT_FOUND', 'PLAYER_MOVED'],
  reduce: null,
});

const getAll = defineOp({
  name: 'getAllPlayer', method: 'GET', path: '/player/get_all', group: 'player', access: 'session', readOnly: true,
  summary: 'The whole state of the current player: the player and every owned collection.',
  request: objWithOptional({}, {}, 'GetAllPlayerRequest'),
  response: t.record(t.string, t.unknown, 'GetAllPlayerResponse'),
  errors: [],
  reduce: (s, _req, _rng, now, { master }) => ok({ state: s, response: fullView(s, { master, now }) }),
});

const moveGet = defineOp({
  name: 'getPlayerMove', method: 'POST', path: '/player/move/get', group: 'move', access: 'session',
  summary: 'Creates an account transfer code (replacing any earlier one) protected by a password.',
  request: obj({ password: Text(1, 64) }, 'GetPlayerMoveRequest'),
  response: t.type({ moveCode: t.string, moveDeadline: t.string }, 'GetPlayerMoveResponse'),
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
  response: t.type({ accessToken: t.string, playerId: t.number }, 'SetPlayerMoveResponse'),
  errors: ['INVALID_MOVE_PARAMETERS'],
  reduce: null,
});

export const playerOps: AnyOperation[] = [signup, login, getAll, moveGet, moveSet];
