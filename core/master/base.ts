// Master data of the foundation: game settings, player levels, titles, classes,
// elements, rarities, characters, items, gachas and the welcome presents.
import * as t from 'io-ts';
import { ExtendableLimit, Grant, Int, LongText, Name, NonNegInt, Period, PosInt } from './common.js';

/** The least draw history kept: a player can read 90 days of draws (gacha/history), so master data may not keep fewer. */
export const MIN_HISTORY_DAYS = 90;
const HistoryDays = new t.Type<number, number, unknown>(
  'HistoryDays',
  (u): u is number => PosInt.is(u) && u >= MIN_HISTORY_DAYS,
  (u, c) => {
    const r = PosInt.validate(u, c);
    return r._tag === 'Left' || r.right >= MIN_HISTORY_DAYS
      ? r
      : t.failure(
          u,
          c,
          `must be at least ${MIN_HISTORY_DAYS}: players can read ${MIN_HISTORY_DAYS} days of draw history`,
        );
  },
  (n) => n,
);

export const GameConfig = t.type({
  /** Offset of the game's time zone from UTC, in minutes (+540 is +09:00). */
  timezoneOffsetMinutes: t.number,
  /** Local hour at which a new game day starts (daily limits reset). */
  dayResetHour: NonNegInt,
  player: t.type({
    startLevel: PosInt,
    startGold: NonNegInt,
    startGem: NonNegInt,
    startPaidGem: NonNegInt,
    startKirara: NonNegInt,
    nameMaxLength: PosInt,
    defaultName: Name,
  }),
  currencyMax: t.type({ gold: PosInt, gem: PosInt, paidGem: PosInt, kirara: PosInt }),
  limits: t.type({
    characters: PosInt,
    friends: PosInt,
    weapons: ExtendableLimit,
    facilities: ExtendableLimit,
    roomObjects: ExtendableLimit,
  }),
  stamina: t.type({ regenSeconds: PosInt }),
  /**
   * boxMax: presents the box holds (issue 18). What does not fit in storage is merged
   * into a present of the same thing (items and currencies, up to their maximum);
   * an operation that would put a present beyond boxMax is refused (313, nothing
   * changes: receive presents first), so nothing earned is lost unannounced.
   */
  presents: t.type({
    receiveMax: PosInt,
    receivedKeepCount: PosInt,
    receivedKeepDays: PosInt,
    boxMax: PosInt,
  }),
  /**
   * maxFailures wrong passwords in a row make the code rest restMinutes (every try
   * refused, none counted); the code is never voided by wrong tries (issue 18).
   */
  move: t.type({
    passwordMinLength: PosInt,
    passwordMaxLength: PosInt,
    codeLength: PosInt,
    validHours: PosInt,
    maxFailures: PosInt,
    restMinutes: PosInt,
    /** The uuids an account was moved away from that are kept (their log-in answers 212); older ones are forgotten (202). */
    movedFromKeep: PosInt,
  }),
  /**
   * historyDays: days of draws kept (at least 90, readable by the player); historyMax:
   * draw records kept at most (the oldest go first; issue 18: a player's state is
   * bounded); tenDrawSize: pulls in a ten-draw.
   */
  gacha: t.type({ historyDays: HistoryDays, historyMax: PosInt, tenDrawSize: PosInt }),
  /**
   * Steps run 1 … lastStep (1 sign-up, 2 first present claim, 3 first adv, 4 tutorial gacha,
   * 5 party set); recording lastStep finishes the tutorial, stored as finishedStep (-1).
   */
  tutorial: t.type({ finishedStep: Int, lastStep: PosInt, maxTipId: PosInt }),
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
  characterId: PosInt,
  name: Name,
  titleId: PosInt,
  rarity: PosInt,
  classId: PosInt,
  elementId: PosInt,
  /** The character's own limit-break item (also what a duplicate turns into). */
  limitBreakItemId: PosInt,
  evolvedName: Name,
});
export type Character = t.TypeOf<typeof Character>;

export const ItemCategory = t.keyof({
  limitBreak: null,
  universalLimitBreak: null,
  exp: null,
  ticket: null,
  evolution: null,
  material: null,
  sphere: null,
  trainingReward: null,
  chestToken: null,
  gachaPoint: null,
  stamina: null,
});
export const Item = t.intersection([
  t.type({ itemId: PosInt, name: Name, category: ItemCategory, salePrice: NonNegInt, max: PosInt }),
  t.partial({
    /** exp items: exp given, and the element whose characters get the bonus. */
    exp: PosInt,
    elementId: PosInt,
    classId: PosInt,
    /** stamina items: the share of the player's stamina maximum one item restores, in percent. */
    staminaPercent: PosInt,
  }),
]);
export type Item = t.TypeOf<typeof Item>;

export const Gacha = t.type({
  gachaId: PosInt,
  name: Name,
  kind: t.keyof({ standard: null, pickup: null, firstTime: null }),
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
