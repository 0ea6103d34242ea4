// Helpers for reducer tests: master data, a fresh player, running an operation
// by name, and checks that a failure changed nothing.
import type { ExecutionContext } from 'ava';
import { loadMaster } from '../../adapters/master/load.js';
import { createPlayer } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import type { Executed } from '../../core/operation.js';
import {
  OPERATIONS,
  operationNamed,
  runNamed,
  type OperationName,
  type ResponseOf,
} from '../../core/operations/table.js';
import { accessOf, answerCodec } from '../../core/operation.js';
import { answerProblems } from '../../core/answer-check.js';
import type { Master } from '../../core/master/index.js';
import type { OwnedCharacter, PlayerState } from '../../core/state.js';
import type { ErrorName, GameError } from '../../core/errors.js';
import { RESULT_CODES } from '../../core/errors.js';
import type { Result } from '../../core/shared/result.js';
import { setItem } from '../../core/shared/pay.js';
import { tryGrant } from '../../core/shared/grant.js';

let cached: Master | undefined;
export const master = (): Master => (cached ??= loadMaster());

/** 2026-11-21T12:00:00+09:00, a Saturday. */
export const NOW = Date.UTC(2026, 10, 21, 3, 0, 0);

export const freshPlayer = (opts: { playerId?: number; now?: number; seed?: string; m?: Master } = {}): PlayerState => {
  const r = createPlayer(
    opts.m ?? master(),
    {
      playerId: opts.playerId ?? 1,
      uuid: `00000000-0000-4000-8000-${String(opts.playerId ?? 1).padStart(12, '0')}`,
      platform: 1,
      name: 'Tester',
      stepCode: 0,
      accessToken: 'test-access-token-0001',
    },
    rngFromSeed(opts.seed ?? 'fresh'),
    opts.now ?? NOW,
  );
  if (r._tag === 'Left') throw new Error(`createPlayer failed: ${r.left.code}`);
  return r.right;
};

export interface RunOpts {
  readonly seed?: string;
  readonly now?: number;
  readonly others?: ReadonlyArray<PlayerState | undefined>;
  readonly m?: Master;
}

/** Runs an operation by its table name on a raw request (decoded by its codec); the answer is typed by the operation's codecs. */
export const runOp = <N extends OperationName>(
  name: N,
  state: PlayerState,
  request: unknown,
  opts: RunOpts = {},
): Result<Executed<ResponseOf<N>>> => {
  if (!operationNamed(name)) throw new Error(`no operation ${name}`);
  return runNamed(name, state, request, rngFromSeed(opts.seed ?? 'seed'), opts.now ?? NOW, {
    master: opts.m ?? master(),
    others: opts.others ?? [],
  });
};

/**
 * Runs and expects success; returns the result. A session's operation's answer must
 * be exactly what it declares (the strict check the HTTP tests make of every answer),
 * so a reducer's test also checks the operation's response codec; the account's
 * operations are left to the HTTP tests (the service fills in their secrets).
 */
export const ok = <N extends OperationName>(
  t: ExecutionContext,
  name: N,
  state: PlayerState,
  request: unknown,
  opts: RunOpts = {},
): Executed<ResponseOf<N>> => {
  const r = runOp(name, state, request, opts);
  if (r._tag === 'Left') {
    t.fail(`${name} failed with ${r.left.code}: ${JSON.stringify(r.left)}`);
    throw new Error('unreachable');
  }
  const op = OPERATIONS.find((o) => o.name === name);
  const problems =
    op === undefined || accessOf(op) !== 'session'
      ? []
      : answerProblems(answerCodec(op), JSON.parse(JSON.stringify(r.right.response)));
  if (problems.length > 0) t.fail(`${name}'s answer is not what it declares: ${problems.slice(0, 5).join('; ')}`);
  return r.right;
};

/**
 * Runs and expects the named error; also checks that the input state is
 * byte-for-byte what it was (a failed operation changes nothing).
 */
export const fails = (
  t: ExecutionContext,
  code: ErrorName,
  name: OperationName,
  state: PlayerState,
  request: unknown,
  opts: RunOpts = {},
): GameError => {
  const before = JSON.stringify(state);
  const r = runOp(name, state, request, opts);
  t.is(JSON.stringify(state), before, 'the input state was not mutated');
  if (r._tag === 'Right') {
    t.fail(`${name} succeeded; expected ${code} (${RESULT_CODES[code].resultCode})`);
    throw new Error('unreachable');
  }
  t.is(r.left.code, code);
  return r.left;
};

/** Receives every present in the box (the welcome set). */
export const receiveAll = (t: ExecutionContext, s: PlayerState, opts: RunOpts = {}): PlayerState =>
  ok(t, 'getPlayerPresent', s, { managedPresentId: s.presents.map((p) => p.managedPresentId).join(',') }, opts).state;

/** A state with extra currencies or items, for tests that need to pay. */
export const withWealth = (
  s: PlayerState,
  w: { gold?: number; gem?: number; paidGem?: number; kirara?: number; items?: Record<string, number> },
): PlayerState => ({
  ...s,
  gold: w.gold ?? s.gold,
  gem: w.gem ?? s.gem,
  paidGem: w.paidGem ?? s.paidGem,
  kirara: w.kirara ?? s.kirara,
  items: Object.entries(w.items ?? {}).reduce((bag, [id, n]) => setItem(bag, Number(id), n), s.items),
});

/** A player's items as `{ "itemId": amount }`, for short checks (absent items are undefined). */
export const itemsOf = (s: PlayerState): Record<string, number> =>
  Object.fromEntries(s.items.map((i) => [String(i.itemId), i.amount]));

/** A state with one more of each character named, granted as a draw grants them (at `now`). */
export const grantCharacters = (
  s: PlayerState,
  characterIds: ReadonlyArray<number>,
  now = 0,
  m: Master = master(),
): PlayerState =>
  characterIds.reduce((cur, id) => {
    const r = tryGrant(m, cur, { kind: 'character', objectId: id, amount: 1 }, now);
    if (r._tag === 'Left') throw new Error(`granting character ${id}: ${r.left.code}`);
    return r.right.state;
  }, s);

/** A fresh player owning these characters (and, optionally, some wealth). */
export const withCharacters = (ids: number[], w: Parameters<typeof withWealth>[1] = {}): PlayerState =>
  withWealth(grantCharacters(freshPlayer(), ids), w);
/** The player's i-th owned character. */
export const characterAt = (s: PlayerState, i = 0): OwnedCharacter => s.characters[i] as OwnedCharacter;
/** The state with its i-th character's fields replaced. */
export const patchCharacter = (s: PlayerState, c: Partial<OwnedCharacter>, i = 0): PlayerState => ({
  ...s,
  characters: s.characters.map((x, j) => (j === i ? { ...x, ...c } : x)),
});
/** The total exp a character needs for a level, by the master data's table. */
export const characterTotalExp = (level: number, m: Master = master()): number =>
  m.characterLevels[level - 1]?.totalExp ?? 0;
