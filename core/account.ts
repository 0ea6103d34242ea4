// Accounts: a new player, log-in checks and the move (account transfer) that binds
// a player to a new device. These need no session; the service's account
// handlers call them with the player found through the storage's indexes.
import type { Master } from './master/index.js';
import { groupDefaults, type PlayerState } from './state.js';
import type { Rng } from './rng.js';
import { randomCode } from './rng.js';
import { DAY, HOUR } from './time.js';
import { fail, ok, type Result } from './shared/result.js';
import { sendPresent } from './shared/grant.js';
import { recordStep } from './operations/tutorial.js';
import { passwordHash, sameHash, tokenHash } from './secret.js';

export const MY_CODE_LENGTH = 10;

/**
 * Each player's managed ids come from a range of their own (playerId × span + n):
 * ids are unique across players, so another player's id never names something of
 * yours. 2^24 ids a player and 2^29 players stay within 2^53.
 */
export const MANAGED_ID_SPAN = 2 ** 24;

export type NewPlayer = {
  readonly playerId: number;
  readonly uuid: string;
  readonly platform: number;
  readonly name: string;
  readonly stepCode: number;
} & (
  /** The access token handed to the device; only its hash is kept. */
  | { readonly accessToken: string }
  /** Or that hash itself: a replay never sees the token. */
  | { readonly tokenHash: string }
);

const hashOf = (p: { readonly accessToken: string } | { readonly tokenHash: string }): string =>
  'tokenHash' in p ? p.tokenHash : tokenHash(p.accessToken);

/** A new player on master-data defaults, with the welcome presents and a random friend code. */
export const createPlayer = (m: Master, p: NewPlayer, rng: Rng, now: number): Result<PlayerState, 'INVALID_PARAMETERS'> => {
  const g = m.game;
  const name = p.name.trim() === '' ? g.player.defaultName : p.name.trim();
  if (name.length > g.player.nameMaxLength) return fail('INVALID_PARAMETERS', { field: 'name', reason: `must be at most ${g.player.nameMaxLength} characters` });
  const level = m.playerLevels.find((l) => l.level === g.player.startLevel) ?? m.playerLevels[0];
  let s: PlayerState = {
    schema: 1, version: 0, playerId: p.playerId, name, myCode: randomCode(rng, MY_CODE_LENGTH),
    createdAt: now, lastLoginAt: now,
    account: { uuid: p.uuid, platform: p.platform, tokenHash: hashOf(p), movedFrom: [], sessionEpoch: 0 },
    level: g.player.startLevel, exp: level?.totalExp ?? 0,
    stamina: { value: level?.staminaMax ?? 0, at: now },
    gold: g.player.startGold, gem: g.player.startGem, paidGem: g.player.startPaidGem, kirara: g.player.startKirara,
    limitAdds: { weapon: 0, facility: 0, roomObject: 0 },
    nextManagedId: p.playerId * MANAGED_ID_SPAN + 1, items: [],
    characters: [], weapons: [], facilities: [], roomObjects: [],
    presents: [], received: [], gachaStats: [], gachaHistory: [], move: null,
    tutorial: { step: 0, tips: [] }, counters: {},
    ...groupDefaults,
  };
  for (const w of m.welcome) {
    s = sendPresent(s, w.grant, { title: w.title, message: w.message, source: 'welcome', deadline: w.deadlineDays ? now + w.deadlineDays * DAY : null }, now).state;
  }
  if (p.stepCode > 0) {
    const stepped = recordStep(m, s, p.stepCode);
    if (stepped._tag === 'Left') return stepped;
    s = stepped.right;
  }
  return ok(s);
};

/** Checks a log-in: the uuid must be the account's current one and the token must match. */
export const login = (s: PlayerState, uuid: string, accessToken: string, now: number): Result<PlayerState, 'PLAYER_MOVED' | 'PLAYER_NOT_FOUND'> => {
  if (s.account.uuid !== uuid) return s.account.movedFrom.includes(uuid) ? fail('PLAYER_MOVED', {}) : fail('PLAYER_NOT_FOUND', {});
  if (!sameHash(s.account.tokenHash, tokenHash(accessToken))) return fail('PLAYER_NOT_FOUND', {});
  return ok(markLogin(s, now));
};

/** What a successful log-in changes (a replay applies it without the token). */
export const markLogin = (s: PlayerState, now: number): PlayerState => ({ ...s, lastLoginAt: now });

/** Creates a move code (replacing any earlier one). */
export const createMoveCode = (m: Master, s: PlayerState, password: string, rng: Rng, now: number): Result<PlayerState, 'INVALID_PARAMETERS'> => {
  const mv = m.game.move;
  if (password.length < mv.passwordMinLength || password.length > mv.passwordMaxLength) {
    return fail('INVALID_PARAMETERS', { field: 'password', reason: `must be ${mv.passwordMinLength} to ${mv.passwordMaxLength} characters` });
  }
  if (!/^[\x21-\x7e]+$/.test(password)) return fail('INVALID_PARAMETERS', { field: 'password', reason: 'must be printable ASCII letters, digits or symbols' });
  const code = randomCode(rng, mv.codeLength);
  const salt = randomCode(rng, 16);
  return ok({ ...s, move: { code, salt, passwordHash: passwordHash(password, salt), deadline: now + mv.validHours * HOUR, failures: 0 } });
};

export type MoveIn = {
  readonly moveCode: string;
  readonly uuid: string;
  readonly platform: number;
} & ({ readonly accessToken: string } | { readonly tokenHash: string })
  /** The password tried, or its hash with the code's salt (moveAttemptHash; a replay keeps no password). */
  & ({ readonly movePassword: string } | { readonly movePasswordHash: string });

/** The hash a move compares with the code's: the password tried, salted with the player's code salt. */
export const moveAttemptHash = (s: PlayerState, password: string): string => passwordHash(password, s.move?.salt ?? '');

/**
 * Exchanges a move code: binds the account to the new uuid, issues a new token,
 * ends every session and spends the code. A wrong password counts a failure,
 * which must be kept even though the request fails: `state` is then the state to commit.
 */
export const applyMove = (m: Master, s: PlayerState, req: MoveIn, now: number): { state: PlayerState; error: Result<never, 'INVALID_MOVE_PARAMETERS'> | null } => {
  const mv = s.move;
  if (!mv || mv.code !== req.moveCode) return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: 'unknown code' }) };
  if (now >= mv.deadline) return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: 'the code has expired' }) };
  if (mv.failures >= m.game.move.maxFailures) return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: 'the code is void after too many failed tries' }) };
  const attempt = 'movePasswordHash' in req ? req.movePasswordHash : passwordHash(req.movePassword, mv.salt);
  if (!sameHash(mv.passwordHash, attempt)) {
    const failures = mv.failures + 1;
    // The code becomes void at the limit: drop it so its index entry goes too.
    const move = failures >= m.game.move.maxFailures ? null : { ...mv, failures };
    return { state: { ...s, move }, error: fail('INVALID_MOVE_PARAMETERS', { reason: 'wrong password' }) };
  }
  if (req.uuid === s.account.uuid) return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: 'the account is already on this device' }) };
  const movedFrom = [...s.account.movedFrom.filter((u) => u !== req.uuid), s.account.uuid];
  return {
    state: {
      ...s, move: null, lastLoginAt: now,
      account: { uuid: req.uuid, platform: req.platform, tokenHash: hashOf(req), movedFrom, sessionEpoch: s.account.sessionEpoch + 1 },
    },
    error: null,
  };
};
