// The player: sign-up and log-in (no session: the player is new, or found by its
// uuid), the whole state, and the move (account transfer) operations. Tokens and
// session ids are made at the edge (env.issued); what the log keeps of a password
// or a presented token is its hash, which these reducers accept in its place.
import * as t from 'io-ts';
import { DisplayText, IntRange, Text, cleanText, obj, objWithOptional, Int } from '../codecs.js';
import { implementOp } from '../operation.js';
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
import * as api from '../api/player.js';
import { type LoginRequest, type MoveSetRequest } from '../api/player.js';
export { Uuid, SignupRequest, Platform, LoginRequest, MoveSetRequest } from '../api/player.js';

/** The salt an unknown code's password is hashed with (the work is what matters, not the hash). */
const UNKNOWN_CODE_SALT = 'no-such-code-salt';

const signup = implementOp(api.signup, {
  find: { by: 'new', claims: (req) => req.uuid, conflict: 'could not allocate a friend code; try again' },
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

const login = implementOp(api.login, {
  find: {
    by: 'uuid',
    key: (req) => req.uuid,
    missing: gameError('PLAYER_NOT_FOUND', {}),
    attempts: 1,
    conflict: 'the player changed during log-in; try again',
  },
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

const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master }) => ok({ state: s, response: fullView(s, { master, now }) }),
});

const moveGet = implementOp(api.moveGet, {
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

const moveSet = implementOp(api.moveSet, {
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
