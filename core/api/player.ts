// The descriptions of core/operations/player.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { IntRange, Text, DisplayText, cleanText, objWithOptional, Int, obj } from '../codecs.js';
import { LoginBonusAnswer } from '../views/loginBonus.js';
import { FullView, WireTime } from '../views/codecs.js';

export const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
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
export const Token = Text(16, 128);
/**
 * A move password: 4 to 16 characters (the original accepted "1234"); master data
 * (move.passwordMinLength/MaxLength) may narrow it, and move/get checks that range.
 */
export const MovePassword = Text(4, 16);

export const NameText = DisplayText(0, 64);
/**
 * A sign-up's name: empty (or absent) for the default name; white space alone is
 * refused, as name/set refuses it, rather than silently becoming the default. Named
 * as DisplayText's codec, which the OpenAPI document describes.
 */
export const SignupName = new t.Type<string, string, unknown>(
  NameText.name,
  NameText.is,
  (u, c) =>
    typeof u === 'string' && u !== '' && cleanText(u) === ''
      ? t.failure(u, c, 'must not be only white space (leave it out for the default name)')
      : NameText.validate(u, c),
  NameText.encode,
);

/** A name shown to other players: DisplayText (no control or format characters, NFC, trimmed); empty: the default name; master data's player.nameMaxLength bounds it. */
export const SignupRequest = objWithOptional(
  { uuid: Uuid, platform: Platform },
  { name: SignupName, stepCode: Int },
  'SignupPlayerRequest',
);
export type SignupRequest = t.TypeOf<typeof SignupRequest>;
export const LoginRequest = objWithOptional(
  { uuid: Uuid, accessToken: Token },
  { platform: Platform, appVersion: t.union([t.string, t.number]) },
  'LoginPlayerRequest',
);
export type LoginRequest = t.TypeOf<typeof LoginRequest>;
export const MoveSetRequest = obj(
  { moveCode: Text(1, 32), movePassword: MovePassword, uuid: Uuid, platform: Platform },
  'SetPlayerMoveRequest',
);
export type MoveSetRequest = t.TypeOf<typeof MoveSetRequest>;

export const signup = describeOp({
  name: 'signupPlayer',
  method: 'POST',
  path: '/player/signup',
  group: 'player',
  summary: 'Creates a player bound to a device uuid; returns its id and access token. No session needed.',
  request: SignupRequest,
  response: t.type(
    {
      playerId: t.number,
      /** A UUID string: keep it to log in (only its hash is stored). */
      accessToken: Uuid,
    },
    'SignupPlayerResponse',
  ),
  // STATE_CONFLICT: no free friend code after a few tries (vanishingly rare; try again).
  errors: ['PLAYER_ALREADY_EXISTS', 'INVALID_PARAMETERS', 'STATE_CONFLICT'],
  access: 'account',
  issues: 'accessToken',
});

export const login = describeOp({
  name: 'loginPlayer',
  method: 'POST',
  path: '/player/login',
  group: 'player',
  summary:
    "Logs a device in with its uuid and access token; returns a session id and the daily log-in bonus (the game day's first log-in puts its rewards in the gift box). No session needed.",
  request: LoginRequest,
  response: t.type(
    {
      /** Send it as X-STAR-SESSION-ID (or Authorization: Bearer) on every session operation. */
      sessionId: t.string,
      playerId: t.number,
      /** The daily log-in bonus: what this log-in put in the gift box, and where the player is on each track. */
      loginBonus: LoginBonusAnswer,
    },
    'LoginPlayerResponse',
  ),
  // STATE_CONFLICT: the player changed during the log-in (try again).
  errors: ['PLAYER_NOT_FOUND', 'PLAYER_MOVED', 'STATE_CONFLICT'],
  access: 'account',
  issues: 'session',
});

export const getAll = describeOp({
  name: 'getAllPlayer',
  method: 'GET',
  path: '/player/get_all',
  group: 'player',
  readOnly: true,
  summary: 'The whole state of the current player: the player and every owned collection.',
  request: objWithOptional({}, {}, 'GetAllPlayerRequest'),
  response: FullView,
  errors: [],
});

export const moveGet = describeOp({
  name: 'getPlayerMove',
  method: 'POST',
  path: '/player/move/get',
  group: 'move',
  summary: 'Creates an account transfer code (replacing any earlier one) protected by a password.',
  request: obj({ password: MovePassword }, 'GetPlayerMoveRequest'),
  response: t.type({ moveCode: t.string, moveDeadline: WireTime }, 'GetPlayerMoveResponse'),
  errors: ['INVALID_PARAMETERS'],
});

export const moveSet = describeOp({
  name: 'setPlayerMove',
  method: 'POST',
  path: '/player/move/set',
  group: 'move',
  summary: 'Exchanges a transfer code and password for a new access token on a new device. No session needed.',
  request: MoveSetRequest,
  response: t.type(
    {
      /** The new device's access token, a UUID string; the old one no longer logs in. */
      accessToken: Uuid,
      playerId: t.number,
    },
    'SetPlayerMoveResponse',
  ),
  // PLAYER_ALREADY_EXISTS: the new uuid is bound to another account; STATE_CONFLICT: the player changed meanwhile (try again).
  errors: ['INVALID_MOVE_PARAMETERS', 'PLAYER_ALREADY_EXISTS', 'STATE_CONFLICT'],
  access: 'account',
  issues: 'accessToken',
});

/** The group's descriptions, in the table's order. */
export const playerApi = [signup, login, getAll, moveGet, moveSet] as const;
