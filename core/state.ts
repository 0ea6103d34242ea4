// The player's state: plain JSON data with an io-ts codec, a schema number and a
// monotonic version for optimistic concurrency. Derived values (stamina now,
// level caps, limits) are computed from it and master data, never stored twice.
import * as t from 'io-ts';
import { GrantKind } from './master/common.js';
import { KeptGrant } from './state/gacha.js';
import { progressionDefaults, progressionProps } from './state/progression.js';
import { townDefaults, townProps } from './state/town.js';
import { socialDefaults, socialProps } from './state/social.js';
import { originalDefaults, originalProps } from './state/original.js';
import { liveOpsDefaults, liveOpsProps } from './state/liveops.js';
import { loginBonusDefaults, loginBonusProps } from './state/loginBonus.js';

const num = t.number;
const str = t.string;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const OwnedCharacter = t.type({
  managedCharacterId: num,
  characterId: num,
  level: num,
  exp: num,
  limitBreak: num,
  awakening: num,
  evolved: t.boolean,
  /** Battle view: 0 base form, 1 evolved form. */
  view: num,
  shown: num,
  createdAt: num,
});
export type OwnedCharacter = t.TypeOf<typeof OwnedCharacter>;

export const OwnedWeapon = t.type({
  managedWeaponId: num,
  weaponId: num,
  level: num,
  exp: num,
  createdAt: num,
});
export type OwnedWeapon = t.TypeOf<typeof OwnedWeapon>;

export const OwnedFacility = t.type({
  managedTownFacilityId: num,
  facilityId: num,
  level: num,
  covered: t.boolean,
  createdAt: num,
  /** A running level-up: a timer settled by the next operation that reads it. */
  levelUp: nullable(t.type({ startedAt: num, completesAt: num })),
  /** Production settled up to accruedAt: whole units held (stock) and the part of the next unit (carry, unit·ms). */
  accruedAt: num,
  stock: num,
  carry: num,
});
export type OwnedFacility = t.TypeOf<typeof OwnedFacility>;

export const OwnedRoomObject = t.type({
  managedRoomObjectId: num,
  roomObjectId: num,
  createdAt: num,
});
export type OwnedRoomObject = t.TypeOf<typeof OwnedRoomObject>;

export const Present = t.intersection([
  t.type({
    managedPresentId: num,
    kind: GrantKind,
    objectId: num,
    amount: num,
    title: str,
    message: str,
    createdAt: num,
    deadline: nullable(num),
    /** Where it came from: welcome, operator, overflow, reward, loginBonus. */
    source: str,
  }),
  /** The operator's send it came with (absent for the game's own): what a recall takes back. */
  t.partial({ sendId: num }),
]);
export type Present = t.TypeOf<typeof Present>;

export const ReceivedPresent = t.intersection([Present, t.type({ receivedAt: num })]);
export type ReceivedPresent = t.TypeOf<typeof ReceivedPresent>;

/**
 * A re-draw gacha's result that a re-roll may still replace. With `kept`, it is owned
 * (every draw since issue 33) and `kept` is what it granted; without, it is held,
 * nothing granted until fix (results drawn before issue 33).
 */
export const PendingDraw = t.intersection([
  t.type({ characterIds: t.array(num), drawnAt: num }),
  t.partial({ kept: KeptGrant }),
]);
export type PendingDraw = t.TypeOf<typeof PendingDraw>;

export const GachaStat = t.type({
  gachaId: num,
  points: num,
  totalDraws: num,
  dayIndex: num,
  drawsToday: num,
  firstTenUsed: t.boolean,
  closed: t.boolean,
  pending: nullable(PendingDraw),
});
export type GachaStat = t.TypeOf<typeof GachaStat>;

export const ItemStack = t.type({ itemId: num, amount: num });
export type ItemStack = t.TypeOf<typeof ItemStack>;

export const Payment = t.type({ ticket: num, gem: num, paidGem: num });
export type Payment = t.TypeOf<typeof Payment>;

export const DrawRecord = t.type({
  gachaId: num,
  drawnAt: num,
  drawType: num,
  characterIds: t.array(num),
  payment: Payment,
  granted: t.boolean,
});
export type DrawRecord = t.TypeOf<typeof DrawRecord>;

export const MoveCode = t.intersection([
  t.type({ code: str, passwordHash: str, salt: str, deadline: num, failures: num }),
  /** Until when the code rests after move.maxFailures wrong passwords in a row (every try refused, none counted). */
  t.partial({ restUntil: num }),
]);
export type MoveCode = t.TypeOf<typeof MoveCode>;

export const Account = t.intersection([
  t.type({
    uuid: str,
    platform: num,
    tokenHash: str,
    /** uuids this account was moved away from: their log-in answers 212. */
    movedFrom: t.array(str),
    /** Raised by a move: sessions of an older epoch are void. */
    sessionEpoch: num,
  }),
  /** When the player deleted the account (player/delete): the state is then a tombstone (docs/privacy.md). Absent: a live account. */
  t.partial({ deletedAt: num }),
]);
export type Account = t.TypeOf<typeof Account>;

export const BaseState = t.type({
  schema: t.literal(1),
  version: num,
  playerId: num,
  name: str,
  myCode: str,
  createdAt: num,
  lastLoginAt: num,
  account: Account,
  level: num,
  exp: num,
  /** Stamina as of `at`; the value now is derived by regeneration. */
  stamina: t.type({ value: num, at: num }),
  gold: num,
  gem: num,
  paidGem: num,
  kirara: num,
  /** Storage purchases made with gems, per kind. */
  limitAdds: t.type({ weapon: num, facility: num, roomObject: num }),
  /** The next managed id to hand out; ids are never reused. */
  nextManagedId: num,
  /** Item counts, sorted by item id, no zero amounts (an array: integer-keyed objects are slow to copy in V8). */
  items: t.array(ItemStack),
  characters: t.array(OwnedCharacter),
  weapons: t.array(OwnedWeapon),
  facilities: t.array(OwnedFacility),
  roomObjects: t.array(OwnedRoomObject),
  presents: t.array(Present),
  received: t.array(ReceivedPresent),
  gachaStats: t.array(GachaStat),
  gachaHistory: t.array(DrawRecord),
  move: nullable(MoveCode),
  tutorial: t.type({ step: num, tips: t.array(num) }),
  /** Counters for achievements and statistics (draws, clears, …). */
  counters: t.record(t.string, num),
});

/**
 * Fields each later group adds, with the value a player who predates them gets.
 * A group adds its props here and its default below; decodeState fills them in,
 * so stored players of an older shape load without a migration step.
 */
export const GroupProps = {
  ...progressionProps,
  ...townProps,
  ...socialProps,
  ...originalProps,
  ...liveOpsProps,
  ...loginBonusProps,
};
export const groupDefaults = {
  ...progressionDefaults,
  ...townDefaults,
  ...socialDefaults,
  ...originalDefaults,
  ...liveOpsDefaults,
  ...loginBonusDefaults,
};

export const PlayerState = t.intersection([BaseState, t.type(GroupProps)]);
/** Every field's codec, by name (a storage decodes a delta field by field). */
export const STATE_FIELDS: Readonly<Record<string, t.Mixed>> = { ...BaseState.props, ...GroupProps };
export type PlayerState = t.TypeOf<typeof PlayerState>;

/** States stored before items became a sorted array kept them as `{ "itemId": amount }`. */
const migrateItems = (items: unknown): { items?: unknown } => {
  if (typeof items !== 'object' || items === null || Array.isArray(items)) return {};
  return {
    items: Object.entries(items as Record<string, unknown>)
      .map(([id, amount]) => ({ itemId: Number(id), amount }))
      .filter((it) => it.amount !== 0)
      .sort((a, b) => a.itemId - b.itemId),
  };
};

/** Decodes a stored state, filling fields added since it was written. */
export const decodeState = (u: unknown): t.Validation<PlayerState> => {
  if (typeof u === 'object' && u !== null && !Array.isArray(u)) {
    const o = u as Record<string, unknown>;
    return PlayerState.decode({ ...groupDefaults, ...o, ...migrateItems(o['items']) });
  }
  return PlayerState.decode(u);
};

/** The keys a storage indexes a player under: all must be unique across players. */
export interface IndexKeys {
  readonly uuid: ReadonlyArray<string>;
  readonly myCode: ReadonlyArray<string>;
  readonly moveCode: ReadonlyArray<string>;
}
export type IndexName = keyof IndexKeys;
export const INDEX_NAMES: ReadonlyArray<IndexName> = ['uuid', 'myCode', 'moveCode'];

/**
 * A deleted player's state (player/delete): the tombstone that keeps its id and version
 * and nothing of the player. Stores keep it and answer no load with it.
 */
export const isDeleted = (s: PlayerState): boolean => s.account.deletedAt !== undefined;

const NO_KEYS: IndexKeys = { uuid: [], myCode: [], moveCode: [] };

export const indexKeysOf = (s: PlayerState): IndexKeys =>
  isDeleted(s)
    ? NO_KEYS
    : {
        uuid: [s.account.uuid, ...s.account.movedFrom],
        myCode: [s.myCode],
        moveCode: s.move ? [s.move.code] : [],
      };
