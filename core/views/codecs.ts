// The codecs of the wire views: the one source of each view's type, shared by
// every operation that shows it, the OpenAPI document and the typed client. The
// view functions in core/view.ts and core/views/*.ts are typed by these, and in
// tests every answer is checked against them field by field (undeclared fields fail).
import * as t from 'io-ts';
import { GrantKind } from '../master/common.js';
import { FriendState } from '../state/social.js';
import type { PlayerState } from '../state.js';
import type { ViewCtx } from './context.js';

const num = t.number;
const str = t.string;
const bool = t.boolean;
export const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);
/**
 * A time on the wire: `YYYY-MM-DDTHH:mm:ss` in the game's time zone (master data's
 * game.timezoneOffsetMinutes; app/version/get answers it). Named, so the OpenAPI
 * document has one WireTime component whose description names the zone.
 */
export const WireTime = t.refinement(t.string, () => true, 'WireTime');

export const PlayerView = t.type(
  {
    playerId: num,
    name: str,
    myCode: str,
    level: num,
    exp: num,
    stamina: num,
    staminaMax: num,
    gold: num,
    gem: num,
    paidGem: num,
    kirara: num,
    characterLimit: num,
    weaponLimit: num,
    facilityLimit: num,
    roomObjectLimit: num,
    tutorialStep: num,
    tutorialTips: t.array(num),
    createdAt: WireTime,
    lastLoginAt: WireTime,
  },
  'PlayerView',
);
export type PlayerView = t.TypeOf<typeof PlayerView>;

export const CharacterView = t.type(
  {
    managedCharacterId: num,
    characterId: num,
    level: num,
    exp: num,
    /** The character's current level cap (its rarity's cap raised by limit breaks and evolution). */
    levelLimit: num,
    limitBreak: num,
    awakening: num,
    evolved: bool,
    view: num,
    shown: num,
    createdAt: WireTime,
  },
  'CharacterView',
);
export type CharacterView = t.TypeOf<typeof CharacterView>;

export const WeaponView = t.type(
  { managedWeaponId: num, weaponId: num, level: num, exp: num, createdAt: WireTime },
  'WeaponView',
);
export type WeaponView = t.TypeOf<typeof WeaponView>;

export const FacilityView = t.type(
  {
    managedTownFacilityId: num,
    facilityId: num,
    level: num,
    covered: bool,
    levelUpStartedAt: nullable(WireTime),
    levelUpCompletesAt: nullable(WireTime),
    /** itemNo 0 is coins. */
    production: nullable(t.type({ itemNo: num, perHour: num, cap: num, stock: num })),
    accruedAt: WireTime,
    createdAt: WireTime,
  },
  'FacilityView',
);
export type FacilityView = t.TypeOf<typeof FacilityView>;

export const RoomObjectView = t.type(
  { managedRoomObjectId: num, roomObjectId: num, createdAt: WireTime },
  'RoomObjectView',
);
export type RoomObjectView = t.TypeOf<typeof RoomObjectView>;

export const ItemStackView = t.type({ itemId: num, amount: num }, 'ItemStack');
export type ItemStackView = t.TypeOf<typeof ItemStackView>;

export const PresentView = t.type(
  {
    managedPresentId: num,
    kind: GrantKind,
    objectId: num,
    amount: num,
    title: str,
    message: str,
    source: str,
    createdAt: WireTime,
    deadline: nullable(WireTime),
  },
  'PresentView',
);
export type PresentView = t.TypeOf<typeof PresentView>;

export const SupportPartyView = t.type(
  { supportPartyNo: num, name: str, managedCharacterIds: t.array(num) },
  'SupportPartyView',
);
export const AbilityTreeView = t.type(
  {
    managedCharacterId: num,
    slots: t.array(t.type({ slotNo: num, sphere: nullable(t.type({ itemId: num, level: num, exp: num })) })),
  },
  'AbilityTreeView',
);
export const TrainingView = t.type(
  {
    slotId: num,
    trainingId: num,
    managedCharacterIds: t.array(num),
    startedAt: WireTime,
    completesAt: WireTime,
    completed: bool,
  },
  'TrainingView',
);
export const TradeCountView = t.type({ recipeId: num, total: num, dayIndex: num, today: num }, 'TradeCountView');

export const PlacementView = t.type(
  { managedRoomObjectId: num, roomObjectId: num, x: num, y: num, dir: num },
  'PlacementView',
);
/** Another player's placement: no managed id. */
export const PublicPlacementView = t.type({ roomObjectId: num, x: num, y: num, dir: num }, 'PublicPlacementView');
const floorView = <P extends t.Mixed>(placement: P, name: string) =>
  t.type(
    {
      floorId: num,
      name: str,
      width: num,
      height: num,
      unlocked: bool,
      placements: t.array(placement),
    },
    name,
  );
export const FloorView = floorView(PlacementView, 'FloorView');
export const PublicFloorView = floorView(PublicPlacementView, 'PublicFloorView');
export const TownLayoutView = t.type(
  {
    buildPoints: t.array(t.type({ buildPointId: num, managedTownFacilityId: num })),
    contentBuildings: t.array(
      t.type({
        lotId: num,
        contentRoomId: num,
        facilities: t.array(t.type({ slot: num, managedTownFacilityId: num })),
      }),
    ),
  },
  'TownLayout',
);
export const ContentRoomView = t.type(
  {
    contentRoomId: num,
    titleId: num,
    name: str,
    capacity: num,
    isNew: bool,
    managedCharacterIds: t.array(num),
  },
  'ContentRoomView',
);

export const BattlePartyView = t.type(
  {
    managedBattlePartyId: num,
    name: str,
    slots: t.array(t.type({ managedCharacterId: nullable(num), managedWeaponId: nullable(num) })),
  },
  'BattlePartyView',
);
export const FriendRelationView = t.type(
  { playerId: num, name: str, state: FriendState, since: WireTime },
  'FriendRelationView',
);
export const AchievementView = t.type(
  { achievementId: num, name: str, description: str, isNew: bool, unlockedAt: WireTime },
  'AchievementView',
);
export const ActiveQuestView = t.type(
  {
    orderReceiveId: num,
    questId: num,
    type: num,
    managedBattlePartyId: num,
    supportCharacterId: nullable(num),
    questData: str,
    orderedAt: WireTime,
    savedAt: WireTime,
    saves: num,
    retries: num,
    retryMax: num,
  },
  'ActiveQuestView',
);
export const SkillUseView = t.type({ skills: t.array(num), unique: num, master: num, friend: num }, 'SkillUse');
export const QuestLogView = t.type(
  {
    questId: num,
    clears: num,
    failures: num,
    bestClearRank: num,
    firstClearedAt: nullable(WireTime),
    lastPlayedAt: WireTime,
    skillUse: nullable(SkillUseView),
  },
  'QuestLogView',
);
export const ChestProgressView = t.type(
  { chestId: num, step: num, jackpotDrawn: bool, resets: num, remaining: num },
  'ChestProgressView',
);
export const OfferRunView = t.type(
  { offerId: num, startedAt: WireTime, completesAt: WireTime, done: bool },
  'OfferRunView',
);
export const OfferCompletionView = t.type({ offerId: num, count: num }, 'OfferCompletionView');
/** One thing given (master data's grant): currencies have objectId 0. */
export const GrantView = t.type({ kind: GrantKind, objectId: num, amount: num }, 'Grant');
/** A grant an operation gave, and the present that kept it when it did not fit (else null). */
export const RewardView = t.type(
  { kind: GrantKind, objectId: num, amount: num, managedPresentId: nullable(num) },
  'Reward',
);
/** A reward of the log-in bonus's calendar: the thing, and the title of the present it comes in. */
export const BonusRewardView = t.type({ kind: GrantKind, objectId: num, amount: num, title: str }, 'LoginBonusReward');
const bonusRewards = t.array(BonusRewardView);
/** Where the player is on the log-in bonus's tracks (core/shared/loginBonus.ts), as of now. */
export const loginBonusProps = {
  /** This game day's bonus has been given. */
  givenToday: bool,
  /** When the next game day begins: the first log-in from then on gives its bonus. */
  nextDayAt: WireTime,
  consecutive: t.type({
    /** Consecutive game days with a bonus as it stands now: 0 once a whole game day passed without one. */
    streak: num,
    /** The cycle's day that streak stands at (0: no streak); cycleLength 0: the track has no days. */
    day: num,
    cycleLength: num,
    /** What the next bonus gives on this track: today's when not given yet, else the next game day's. */
    next: nullable(t.type({ day: num, rewards: bonusRewards })),
  }),
  total: t.type({
    /** Game days with a bonus, in all. */
    days: num,
    /** The next milestone: at what total, and what it gives (null: none left). */
    next: nullable(t.type({ days: num, rewards: bonusRewards })),
  }),
};
export const LoginBonusView = t.type(loginBonusProps, 'LoginBonusView');
/** A master-data cost: only the parts it has. */
export const CostView = t.partial(
  { gold: num, gem: num, paidGem: num, kirara: num, stamina: num, items: t.array(ItemStackView) },
  'Cost',
);
/** What anyone may see of another player (friend search, the friend list, guests). */
export const PublicPlayerView = t.type(
  {
    playerId: num,
    name: str,
    myCode: str,
    level: num,
    lastLoginAt: WireTime,
    /** The achievement shown on the profile. */
    achievementId: nullable(num),
    supportParties: t.array(
      t.type({
        name: str,
        characters: t.array(
          t.type({ managedCharacterId: num, characterId: num, level: num, limitBreak: num, evolved: bool }),
        ),
      }),
    ),
  },
  'PublicPlayerView',
);

export type SupportPartyView = t.TypeOf<typeof SupportPartyView>;
export type AbilityTreeView = t.TypeOf<typeof AbilityTreeView>;
export type TrainingView = t.TypeOf<typeof TrainingView>;
export type TradeCountView = t.TypeOf<typeof TradeCountView>;
export type PlacementView = t.TypeOf<typeof PlacementView>;
export type PublicPlacementView = t.TypeOf<typeof PublicPlacementView>;
export type FloorView = t.TypeOf<typeof FloorView>;
export type PublicFloorView = t.TypeOf<typeof PublicFloorView>;
export type TownLayoutView = t.TypeOf<typeof TownLayoutView>;
export type ContentRoomView = t.TypeOf<typeof ContentRoomView>;
export type BattlePartyView = t.TypeOf<typeof BattlePartyView>;
export type FriendRelationView = t.TypeOf<typeof FriendRelationView>;
export type AchievementView = t.TypeOf<typeof AchievementView>;
export type ActiveQuestView = t.TypeOf<typeof ActiveQuestView>;
export type SkillUseView = t.TypeOf<typeof SkillUseView>;
export type QuestLogView = t.TypeOf<typeof QuestLogView>;
export type ChestProgressView = t.TypeOf<typeof ChestProgressView>;
export type OfferRunView = t.TypeOf<typeof OfferRunView>;
export type OfferCompletionView = t.TypeOf<typeof OfferCompletionView>;
export type GrantView = t.TypeOf<typeof GrantView>;
export type RewardView = t.TypeOf<typeof RewardView>;
export type BonusRewardView = t.TypeOf<typeof BonusRewardView>;
export type LoginBonusView = t.TypeOf<typeof LoginBonusView>;
export type CostView = t.TypeOf<typeof CostView>;
export type PublicPlayerView = t.TypeOf<typeof PublicPlayerView>;

/**
 * Every collection of the state as the client sees it, by its wire name. get_all
 * shows them all; an answer that changes the state carries those it changed.
 */
export const COLLECTION_CODECS = {
  managedCharacters: t.array(CharacterView),
  managedWeapons: t.array(WeaponView),
  managedTownFacilities: t.array(FacilityView),
  managedRoomObjects: t.array(RoomObjectView),
  itemSummary: t.array(ItemStackView),
  /** Presents in the gift box not past their deadline. */
  presentCount: num,
  supportParties: t.array(SupportPartyView),
  managedAbilityTrees: t.array(AbilityTreeView),
  managedTrainings: t.array(TrainingView),
  tradeCounts: t.array(TradeCountView),
  ownWeaponsReceived: t.array(num),
  rooms: t.array(FloorView),
  town: TownLayoutView,
  contentRooms: t.array(ContentRoomView),
  managedBattleParties: t.array(BattlePartyView),
  managedFriends: t.array(FriendRelationView),
  achievements: t.array(AchievementView),
  newAchievementCount: num,
  displayedAchievementId: nullable(num),
  activeQuest: nullable(ActiveQuestView),
  questLogs: t.array(QuestLogView),
  chestProgress: t.array(ChestProgressView),
  activeOffers: t.array(OfferRunView),
  offerCompletions: t.array(OfferCompletionView),
  /** Where the player is on the log-in bonus's tracks. */
  loginBonus: LoginBonusView,
};
export type CollectionName = keyof typeof COLLECTION_CODECS;
export type CollectionViews = { [K in CollectionName]: t.TypeOf<(typeof COLLECTION_CODECS)[K]> };

/** The whole state as the client sees it (get_all). */
export const FullView = t.type({ player: PlayerView, ...COLLECTION_CODECS }, 'FullView');
export type FullView = t.TypeOf<typeof FullView>;

/** The parts of the state an answer carries because the operation changed them (any, all optional). */
export const Changes = t.partial({ player: PlayerView, ...COLLECTION_CODECS }, 'Changes');
export type Changes = t.TypeOf<typeof Changes>;

/** A collection of the state as the client sees it, and how to tell that it changed; its type is its codec's. */
export interface CollectionViewOf<K extends CollectionName> {
  readonly wire: K;
  readonly changed: (before: PlayerState, after: PlayerState, ctx: ViewCtx) => boolean;
  /** `before`, when given, is the state the shown one replaced (a hint for memoised lists). */
  readonly view: (s: PlayerState, ctx: ViewCtx, before?: PlayerState) => CollectionViews[K];
}
export type CollectionView = { [K in CollectionName]: CollectionViewOf<K> }[CollectionName];
/** Declares a collection, checking its view against its own codec (not the union of all). */
export const collection = <K extends CollectionName>(c: CollectionViewOf<K>): CollectionView =>
  c as unknown as CollectionView;
