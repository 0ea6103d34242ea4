// The player: sign-up and log-in (no session: the player is new, or found by its
// uuid), the whole state, and the move (account transfer) operations. Tokens and
// session ids are made at the edge (env.issued); what the log keeps of a password
// or a presented token is its hash, which these reducers accept in its place.
import * as t from 'io-ts';
import { DisplayText, IntRange, Text, cleanText, obj, objWithOptional, Int } from '../codecs.js';
import { defineOp } from '../operation.js';
import { E, ok } from '../shared/result.js';
import { gameError } from '../errors.js';
import { passwordHash, tokenHash } from '../secret.js';
import { fullView, timeText } from '../view.js';
import { FullView, WireTime } from '../views/codecs.js';
import { LoginBonusAnswer, loginBonusAnswer } from '../views/loginBonus.js';
import { giveLoginBonus } from '../shared/loginBonus.js';
import {
  applyMove,
  createMoveCode,
  createPlayer,
  login as checkLogin,
  moveAttemptHash,
  MOVE_REFUSED,
} from '../account.js';

/** The salt an unknown code's password is hashed with (the work is what matters, not the hash). */
const UNKNOWN_CODE_SALT = 'no-such-code-salt';

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

const NameText = DisplayText(0, 64);
/**
 * A sign-up's name: empty (or absent) for the default name; white space alone is
 * refused, as name/set refuses it, rather than silently becoming the default. Named
 * as DisplayText's codec, which the OpenAPI document describes.
 */
const SignupName = new t.Type<string, string, unknown>(
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

const signup = defineOp({
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
  find: { by: 'new', claims: (req) => req.uuid, conflict: 'could not allocate a friend code; try again' },
  issues: 'accessToken',
  reduce: (unborn, req, rng, now, { master, issued }) => {
    const created = createPlayer(
      master,
      {
        playerId: unborn.playerId,
        uuid: req.uuid,
        platform: req.platform,
        name: req.name ?? '',
        stepCode: req.stepCode ?? 0,
        tokenHash: issued?.accessTokenHash ?? '',
      },
      rng,
      now,
    );
    if (E.isLeft(created)) return created;
    return ok({
      state: created.right,
      response: { playerId: unborn.playerId, accessToken: issued?.accessToken ?? '' },
    });
  },
});

/** A log-in as the replay log keeps it: the token presented, as its hash. */
type LoggedLogin = Omit<LoginRequest, 'accessToken'> & { readonly accessTokenHash: string };

const login = defineOp({
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
  find: {
    by: 'uuid',
    key: (req) => req.uuid,
    missing: gameError('PLAYER_NOT_FOUND', {}),
    attempts: 1,
    conflict: 'the player changed during log-in; try again',
  },
  issues: 'session',
  logged: ({ accessToken, ...rest }): LoggedLogin => ({ ...rest, accessTokenHash: tokenHash(accessToken) }),
  reduce: (s, req: LoginRequest | LoggedLogin, _rng, now, { master, issued }) => {
    const r = checkLogin(
      s,
      req.uuid,
      'accessTokenHash' in req ? { tokenHash: req.accessTokenHash } : req.accessToken,
      now,
    );
    if (E.isLeft(r)) return r;
    // The first log-in of a game day: that day's bonus (core/shared/loginBonus.ts).
    const bonus = giveLoginBonus(master, r.right, now);
    return ok({
      state: bonus.state,
      response: {
        sessionId: issued?.sessionId ?? '',
        playerId: s.playerId,
        loginBonus: loginBonusAnswer(bonus, { master, now }),
      },
    });
  },
});

const getAll = defineOp({
  name: 'getAllPlayer',
  method: 'GET',
  path: '/player/get_all',
  group: 'player',
  readOnly: true,
  summary: 'The whole state of the current player: the player and every owned collection.',
  request: objWithOptional({}, {}, 'GetAllPlayerRequest'),
  response: FullView,
  errors: [],
  reduce: (s, _req, _rng, now, { master }) => ok({ state: s, response: fullView(s, { master, now }) }),
});

const moveGet = defineOp({
  name: 'getPlayerMove',
  method: 'POST',
  path: '/player/move/get',
  group: 'move',
  summary: 'Creates an account transfer code (replacing any earlier one) protected by a password.',
  request: obj({ password: MovePassword }, 'GetPlayerMoveRequest'),
  response: t.type({ moveCode: t.string, moveDeadline: WireTime }, 'GetPlayerMoveResponse'),
  errors: ['INVALID_PARAMETERS'],
  // The password is never logged: the hash the state kept stands in for it.
  // Stryker disable next-line StringLiteral: equivalent (the reducer always sets a move: the fallback hash is never used)
  logged: (_req, _before, after) => ({ passwordHash: after.move?.passwordHash ?? '' }),
  reduce: (s, req: { readonly password: string } | { readonly passwordHash: string }, rng, now, { master }) => {
    const r = createMoveCode(
      master,
      s,
      'passwordHash' in req ? { passwordHash: req.passwordHash } : req.password,
      rng,
      now,
    );
    if (r._tag === 'Left') return r;
    const mv = r.right.move;
    // Stryker disable next-line StringLiteral: equivalent (createMoveCode always sets a move: the fallback code is never used)
    return ok({
      state: r.right,
      response: { moveCode: mv?.code ?? '', moveDeadline: timeText({ master, now }, mv?.deadline ?? now) },
    });
  },
});

/** A move as the replay log keeps it: the password tried, as its hash with the code's salt. */
type LoggedMoveSet = Omit<MoveSetRequest, 'movePassword'> & { readonly movePasswordHash: string };

const moveSet = defineOp({
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
  find: {
    by: 'moveCode',
    key: (req) => req.moveCode,
    missing: gameError('INVALID_MOVE_PARAMETERS', { reason: MOVE_REFUSED }),
    claims: (req) => req.uuid,
    attempts: 1,
    conflict: 'the player changed during the move; try again',
    // An unknown code hashes the password as a known one does: the two take as long.
    whenMissing: (req) => {
      passwordHash(req.movePassword, UNKNOWN_CODE_SALT);
    },
  },
  issues: 'accessToken',
  // The password tried, hashed with the code's salt (as the state keeps the right one).
  logged: ({ movePassword, ...rest }, before): LoggedMoveSet => ({
    ...rest,
    movePasswordHash: before.move ? moveAttemptHash(before, movePassword) : '',
  }),
  reduce: (s, req: MoveSetRequest | LoggedMoveSet, _rng, now, { master, issued }) => {
    const tried =
      'movePasswordHash' in req ? { movePasswordHash: req.movePasswordHash } : { movePassword: req.movePassword };
    const r = applyMove(
      master,
      s,
      {
        moveCode: req.moveCode,
        uuid: req.uuid,
        platform: req.platform,
        tokenHash: issued?.accessTokenHash ?? '',
        ...tried,
      },
      now,
    );
    if (r.error && E.isLeft(r.error)) {
      // A wrong password still counts (toward voiding the code): that change is committed, the answer is the error.
      return r.state === s ? r.error : ok({ state: r.state, refused: r.error.left });
    }
    return ok({ state: r.state, response: { accessToken: issued?.accessToken ?? '', playerId: s.playerId } });
  },
});

export const playerOps = [signup, login, getAll, moveGet, moveSet] as const;
