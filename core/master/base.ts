// Master data of the foundation: game settings, player levels, titles, classes,
// elements, rarities, characters, items, gachas and the welcome presents.
import * as t from 'io-ts';
import { ExtendableLimit, Grant, Int, LongText, Name, NonNegInt, Period, PosInt } from './common.js';

export const GameConfig = t.type({
  /** Offset of the game's time zone from UTC, in minutes (+540 is +09:00). */
  timezoneOffsetMinutes: t.number,
  /** Local hour at which a new game day starts (daily limits reset). */
  dayResetHour: NonNegInt,
  player: t.type({
    startLevel: PosInt, startGold: NonNegInt, startGem: NonNegInt, startPaidGem: NonNegInt,
    startKirara: NonNegInt, nameMaxLength: PosInt, defaultName: Name,
  }),
  currencyMax: t.type({ gold: PosInt, gem: PosInt, paidGem: PosInt, kirara: PosInt }),
  limits: t.type({
    characters: PosInt, friends: PosInt,
    weapons: ExtendableLimit, facilities: ExtendableLimit, roomObjects: ExtendableLimit,
  }),
  stamina: t.type({ regenSeconds: PosInt }),
  presents: t.type({
    receiveMax: PosInt, receivedKeepCount: PosInt, receivedKeepDays: PosInt,
  }),
  move: t.type({
    passwordMinLength: PosInt, passwordMaxLength: PosInt, codeLength: PosInt,
    validHours: PosInt, maxFailures: PosInt,
  }),
  gacha: t.type({ historyDays: PosInt, tenDrawSize: PosInt }),
  tutorial: t.type({ finishedStep: Int, maxStep: PosInt, maxTipId: PosInt }),
});
export type GameConfig = t.TypeOf<typeof GameConfig>;

export const PlayerLevel = t.type({ level: PosInt, totalExp: NonNegInt, staminaMax: PosInt });
export type PlayerLevel = t.TypeOf<typeof PlayerLevel>;

export const Title = t.type({ titleId: PosInt, name: Name });
export type Title = t.TypeOf<typeof Title>;
export const ClassDef = t.type({ classId: PosInt, name: Name });
export type ClassDef = t.TypeOf<typeof ClassDef>;
export const Element = t.type({ elementId: PosInt, name: Name });
export type Element = t.TypeOf<typeof Element>;

export const Rarity = t.type({
  rarity: PosInt,
  /** Level cap before any limit break. */
  baseLevelCap: PosInt,
  /** Levels added by each limit break. */
  limitBreakStep: NonNegInt,
  maxLimitBreak: NonNegInt,
  /** Levels added by evolution. */
  evolutionBonus: NonNegInt,
  /** Own limit-break items needed per limit break (the universal item counts the same). */
  limitBreakItemAmount: PosInt,
  /** Own limit-break items given for a duplicate draw. */
  duplicateItemAmount: PosInt,
  maxAwakening: NonNegInt,
});
export type Rarity = t.TypeOf<typeof Rarity>;

export const Character = t.type({
  characterId: PosInt, name: Name, titleId: PosInt, rarity: PosInt, classId: PosInt, elementId: PosInt,
  /** The character's own limit-break item (also what a duplicate turns into). */
  limitBreakItemId: PosInt,
  evolvedName: Name,
});
export type Character = t.TypeOf<typeof Character>;

export const ItemCategory = t.keyof({
  limitBreak: null, universalLimitBreak: null, exp: null, ticket: null, evolution: null,
  material: null, sphere: null, trainingReward: null, chestToken: null, gachaPoint: null,
});
export const Item = t.intersection([
  t.type({ itemId: PosInt, name: Name, category: ItemCategory, salePrice: NonNegInt, max: PosInt }),
  t.partial({
    /** exp items: exp given, and the element whose characters get the bonus. */
    exp: PosInt, elementId: PosInt, classId: PosInt,
  }),
]);
export type Item = t.TypeOf<typeof Item>;

export const Gacha = t.type({
  gachaId: PosInt, name: Name, kind: t.keyof({ standard: null, pickup: null, firstTime: null }),
  period: Period,
  /** Weekdays the gacha is open (0 Sunday … 6 Saturday); null: every day. */
  weekdays: t.union([t.array(t.number), t.null]),
  cost: t.type({
    /** Gems for one single draw (free gems first, then paid). */
    singleGem: NonNegInt,
    tenGem: NonNegInt,
    /** Price of the player's first ten-draw of this gacha; null: no discount. */
    firstTenGem: t.union([NonNegInt, t.null]),
    /** Paid-gem-only single draw price (drawType 2); null: not offered. */
    paidSingleGem: t.union([NonNegInt, t.null]),
    /** A ticket item spent for a single draw when the player holds one. */
    ticketItemId: t.union([PosInt, t.null]),
    ticketAmount: PosInt,
  }),
  /** Draws counted per character drawn (a ten-draw counts ten). */
  limits: t.type({ perDay: t.union([PosInt, t.null]), total: t.union([PosInt, t.null]) }),
  rates: t.array(t.type({ rarity: PosInt, weight: PosInt })),
  pool: t.array(PosInt),
  /** Pickups and their share, in basis points (1/10000), of their rarity's weight. */
  pickups: t.array(t.type({ characterId: PosInt, shareBp: PosInt })),
  /** The ten-draw guarantee: the last pull is redrawn at or above this rarity if none was. */
  guaranteeMinRarity: t.union([PosInt, t.null]),
  pointsPerDraw: NonNegInt,
  targets: t.array(t.type({ characterId: PosInt, points: PosInt })),
  reDraw: t.boolean,
});
export type Gacha = t.TypeOf<typeof Gacha>;

export const WelcomePresent = t.intersection([
  t.type({ grant: Grant, title: Name, message: LongText }),
  t.partial({ deadlineDays: PosInt }),
]);
export type WelcomePresent = t.TypeOf<typeof WelcomePresent>;

/** The foundation's master-data files: file name → codec of its content. */
export const baseFiles = {
  game: GameConfig,
  playerLevels: t.array(PlayerLevel),
  titles: t.array(Title),
  classes: t.array(ClassDef),
  elements: t.array(Element),
  rarities: t.array(Rarity),
  characters: t.array(Character),
  items: t.array(Item),
  gachas: t.array(Gacha),
  welcome: t.array(WelcomePresent),
};
