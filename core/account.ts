// Accounts: a new player, log-in checks and the move (account transfer) that binds
// a player to a new device. Their table entries (operations/player.ts) need no
// session: the service finds the player through the storage's indexes. Secrets
// (tokens) are made at the edge and come in as env.issued; passwords and presented
// tokens are compared as hashes, which is what the replay log keeps.
import type { Master } from './master/index.js';
import { groupDefaults, type PlayerState } from './state.js';
import type { Rng } from './rng.js';
import { randomCode } from './rng.js';
import { DAY, HOUR } from './time.js';
import { fail, ok, type Result } from './shared/result.js';
import { sendPresent } from './shared/grant.js';
import { recordStep } from './operations/tutorial.js';
import { passwordHash, sameHash, tokenHash } from './secret.js';
import { withFields } from './state/copy.js';

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
} &
  /** The access token handed to the device; only its hash is kept. */
  (
    | { readonly accessToken: string }
    /** Or that hash itself: a replay never sees the token. */
    | { readonly tokenHash: string }
  );

const hashOf = (p: { readonly accessToken: string } | { readonly tokenHash: string }): string =>
  'tokenHash' in p ? p.tokenHash : tokenHash(p.accessToken);

/**
 * The player before its sign-up: every field empty, version −1. A new player's
 * entry (sign-up) is given it, so its reducer is a reducer like any other and the
 * bump makes its first version 0. Never stored.
 */
// Stryker disable all: equivalent (only its playerId and version are read: sign-up builds every field anew, and a public read answers from the request and master data)
export const unbornPlayer = (playerId: number): PlayerState => ({
  schema: 1,
  version: -1,
  playerId,
  name: '',
  myCode: '',
  createdAt: 0,
  lastLoginAt: 0,
  account: { uuid: '', platform: 0, tokenHash: '', movedFrom: [], sessionEpoch: 0 },
  level: 0,
  exp: 0,
  stamina: { value: 0, at: 0 },
  gold: 0,
  gem: 0,
  paidGem: 0,
  kirara: 0,
  limitAdds: { weapon: 0, facility: 0, roomObject: 0 },
  nextManagedId: 0,
  items: [],
  characters: [],
  weapons: [],
  facilities: [],
  roomObjects: [],
  presents: [],
  received: [],
  gachaStats: [],
  gachaHistory: [],
  move: null,
  tutorial: { step: 0, tips: [] },
  counters: {},
  ...groupDefaults,
});
// Stryker restore all

/** A new player on master-data defaults, with the welcome presents and a random friend code. */
export const createPlayer = (
  m: Master,
  p: NewPlayer,
  rng: Rng,
  now: number,
): Result<PlayerState, 'INVALID_PARAMETERS'> => {
  const g = m.game;
  const name = p.name.trim() === '' ? g.player.defaultName : p.name.trim();
  // Counted in code points (an emoji is one), as the codec counts.
  if ([...name].length > g.player.nameMaxLength)
    return fail('INVALID_PARAMETERS', {
      field: 'name',
      reason: `must be at most ${g.player.nameMaxLength} characters`,
    });
  const level = m.playerLevels.find((l) => l.level === g.player.startLevel) ?? m.playerLevels[0];
  let s: PlayerState = {
    schema: 1,
    version: 0,
    playerId: p.playerId,
    name,
    myCode: randomCode(rng, MY_CODE_LENGTH),
    createdAt: now,
    lastLoginAt: now,
    account: { uuid: p.uuid, platform: p.platform, tokenHash: hashOf(p), movedFrom: [], sessionEpoch: 0 },
    level: g.player.startLevel,
    exp: level?.totalExp ?? 0,
    stamina: { value: level?.staminaMax ?? 0, at: now },
    gold: g.player.startGold,
    gem: g.player.startGem,
    paidGem: g.player.startPaidGem,
    kirara: g.player.startKirara,
    limitAdds: { weapon: 0, facility: 0, roomObject: 0 },
    nextManagedId: p.playerId * MANAGED_ID_SPAN + 1,
    items: [],
    characters: [],
    weapons: [],
    facilities: [],
    roomObjects: [],
    presents: [],
    received: [],
    gachaStats: [],
    gachaHistory: [],
    move: null,
    tutorial: { step: 0, tips: [] },
    counters: {},
    ...groupDefaults,
  };
  for (const w of m.welcome) {
    s = sendPresent(
      s,
      w.grant,
      {
        title: w.title,
        message: w.message,
        source: 'welcome',
        deadline: w.deadlineDays ? now + w.deadlineDays * DAY : null,
      },
      now,
    ).state;
  }
  // Stryker disable next-line EqualityOperator: equivalent (0 is a new player's step: recording it changes nothing)
  if (p.stepCode > 0) {
    const stepped = recordStep(m, s, p.stepCode);
    if (stepped._tag === 'Left') return stepped;
    s = stepped.right;
  }
  return ok(s);
};

/** Checks a log-in: the uuid must be the account's current one and the token (or its hash: a replay has no token) must match. */
export const login = (
  s: PlayerState,
  uuid: string,
  accessToken: string | { readonly tokenHash: string },
  now: number,
): Result<PlayerState, 'PLAYER_MOVED' | 'PLAYER_NOT_FOUND'> => {
  if (s.account.uuid !== uuid)
    return s.account.movedFrom.includes(uuid) ? fail('PLAYER_MOVED', {}) : fail('PLAYER_NOT_FOUND', {});
  const presented = typeof accessToken === 'string' ? tokenHash(accessToken) : accessToken.tokenHash;
  if (!sameHash(s.account.tokenHash, presented)) return fail('PLAYER_NOT_FOUND', {});
  return ok(markLogin(s, now));
};

/** What a successful log-in changes (a replay applies it without the token). */
export const markLogin = (s: PlayerState, now: number): PlayerState => withFields(s, { lastLoginAt: now });

/**
 * Creates a move code (replacing any earlier one). The password, or the hash it
 * was kept as (a replay: the log keeps no password, and the checks passed when it ran).
 */
export const createMoveCode = (
  m: Master,
  s: PlayerState,
  password: string | { readonly passwordHash: string },
  rng: Rng,
  now: number,
): Result<PlayerState, 'INVALID_PARAMETERS'> => {
  const mv = m.game.move;
  if (typeof password === 'string') {
    if (password.length < mv.passwordMinLength || password.length > mv.passwordMaxLength) {
      return fail('INVALID_PARAMETERS', {
        field: 'password',
        reason: `must be ${mv.passwordMinLength} to ${mv.passwordMaxLength} characters`,
      });
    }
    if (!/^[\x21-\x7e]+$/.test(password))
      return fail('INVALID_PARAMETERS', {
        field: 'password',
        reason: 'must be printable ASCII letters, digits or symbols',
      });
  }
  const code = randomCode(rng, mv.codeLength);
  const salt = randomCode(rng, 16);
  const hash = typeof password === 'string' ? passwordHash(password, salt) : password.passwordHash;
  return ok(
    withFields(s, { move: { code, salt, passwordHash: hash, deadline: now + mv.validHours * HOUR, failures: 0 } }),
  );
};

export type MoveIn = {
  readonly moveCode: string;
  readonly uuid: string;
  readonly platform: number;
} & ({ readonly accessToken: string } | { readonly tokenHash: string }) &
  /** The password tried, or its hash with the code's salt (moveAttemptHash; a replay keeps no password). */
  ({ readonly movePassword: string } | { readonly movePasswordHash: string });

/** The one reason every refused move code or password is given (issue 18: nothing tells them apart). */
export const MOVE_REFUSED =
  'the code or the password is wrong, or the code has expired or rests after too many wrong tries';

/** The hash a move compares with the code's: the password tried, salted with the player's code salt. */
export const moveAttemptHash = (s: PlayerState, password: string): string => passwordHash(password, s.move?.salt ?? '');

/**
 * Exchanges a move code: binds the account to the new uuid, issues a new token,
 * ends every session and spends the code. A wrong password counts a failure,
 * which must be kept even though the request fails: `state` is then the state to commit.
 */
export const applyMove = (
  m: Master,
  s: PlayerState,
  req: MoveIn,
  now: number,
): { state: PlayerState; error: Result<never, 'INVALID_MOVE_PARAMETERS'> | null } => {
  const mv = s.move;
  // The password is hashed whatever happens next, so that every refusal takes as long.
  const attempt =
    'movePasswordHash' in req ? req.movePasswordHash : passwordHash(req.movePassword, mv?.salt ?? 'no-such-code-salt');
  // One answer for every refusal (unknown, expired or resting code, wrong password): it tells a guesser nothing.
  if (!mv || mv.code !== req.moveCode || now >= mv.deadline)
    return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: MOVE_REFUSED }) };
  if (mv.restUntil !== undefined && now < mv.restUntil)
    return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: MOVE_REFUSED }) };
  if (!sameHash(mv.passwordHash, attempt)) {
    // Counted (kept although the request fails); at the limit the code rests, it is never voided:
    // others' guesses cannot take the owner's code away, and a guesser gets maxFailures tries per rest.
    const failures = mv.failures + 1;
    const { restUntil: _done, ...rest } = mv;
    const move =
      failures >= m.game.move.maxFailures
        ? { ...rest, failures: 0, restUntil: now + m.game.move.restMinutes * 60_000 }
        : { ...rest, failures };
    return { state: withFields(s, { move }), error: fail('INVALID_MOVE_PARAMETERS', { reason: MOVE_REFUSED }) };
  }
  if (req.uuid === s.account.uuid)
    return { state: s, error: fail('INVALID_MOVE_PARAMETERS', { reason: 'the account is already on this device' }) };
  // The last move.movedFromKeep uuids (the account's state is bounded; an older one's log-in is 202, not 212).
  const movedFrom = [...s.account.movedFrom.filter((u) => u !== req.uuid), s.account.uuid].slice(
    -m.game.move.movedFromKeep,
  );
  return {
    state: withFields(s, {
      move: null,
      lastLoginAt: now,
      account: {
        uuid: req.uuid,
        platform: req.platform,
        tokenHash: hashOf(req),
        movedFrom,
        sessionEpoch: s.account.sessionEpoch + 1,
      },
    }),
    error: null,
  };
};
