// State fields the social group adds to the player, with the value a player who
// predates them gets (decodeState fills them in, so no migration step is needed).
// Add a field as `name: codec` below and its default beside it.
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

export const PARTY_COUNT = 15;
export const PARTY_SLOTS = 5;

const num = t.number;
const nullable = <C extends t.Mixed>(c: C) => t.union([c, t.null]);

export const PartySlot = t.type({
  managedCharacterId: t.union([t.number, t.null]),
  managedWeaponId: t.union([t.number, t.null]),
});
export const BattleParty = t.type({ managedBattlePartyId: t.number, name: t.string, slots: t.array(PartySlot) });
export type BattleParty = t.TypeOf<typeof BattleParty>;

/** A relation with another player: a request the player proposed, one received, or a friend. */
export const FriendState = t.keyof({ proposed: null, received: null, friend: null });
export type FriendState = t.TypeOf<typeof FriendState>;
export const FriendRelation = t.type({
  playerId: num,
  state: FriendState,
  since: num,
  /** The other player's name when the relation last changed (shown only if that player cannot be read). */
  name: t.string,
});
export type FriendRelation = t.TypeOf<typeof FriendRelation>;

export const UnlockedAchievement = t.type({ achievementId: num, unlockedAt: num, isNew: t.boolean });
export type UnlockedAchievement = t.TypeOf<typeof UnlockedAchievement>;

/** The one quest being played: what order stored, saves and retries since. */
export const ActiveQuest = t.type({
  orderReceiveId: num,
  questId: num,
  type: num,
  managedBattlePartyId: num,
  /** The party's characters when the quest was ordered (they get the character exp). */
  managedCharacterIds: t.array(num),
  supportCharacterId: nullable(num),
  questData: t.string,
  orderedAt: num,
  savedAt: num,
  saves: num,
  retries: num,
});
export type ActiveQuest = t.TypeOf<typeof ActiveQuest>;

export const SkillUse = t.type({ skills: t.array(num), unique: num, master: num, friend: num });
export type SkillUse = t.TypeOf<typeof SkillUse>;
/** What the player did in one quest: clears, the best rank, the last clear's skill use counts. */
export const QuestRecord = t.type({
  questId: num,
  clears: num,
  failures: num,
  bestClearRank: num,
  firstClearedAt: nullable(num),
  lastPlayedAt: num,
  skillUse: nullable(SkillUse),
});
export type QuestRecord = t.TypeOf<typeof QuestRecord>;

/** A chest's progress: the step (index into its steps, the last one repeats) and what was drawn from its box. */
export const ChestProgress = t.type({
  chestId: num,
  step: num,
  drawn: t.array(t.type({ prizeId: num, count: num })),
  jackpotDrawn: t.boolean,
  resets: num,
});
export type ChestProgress = t.TypeOf<typeof ChestProgress>;

export const OfferRun = t.type({ offerId: num, startedAt: num, completesAt: num });
export type OfferRun = t.TypeOf<typeof OfferRun>;

export const socialProps = {
  /** Exactly PARTY_COUNT parties of PARTY_SLOTS slots; managedBattlePartyId is 1 … 15. */
  battleParties: t.array(BattleParty),
  friends: t.array(FriendRelation),
  achievements: t.array(UnlockedAchievement),
  displayedAchievementId: nullable(num),
  activeQuest: nullable(ActiveQuest),
  questRecords: t.array(QuestRecord),
  chests: t.array(ChestProgress),
  offers: t.array(OfferRun),
  offerCompletions: t.array(t.type({ offerId: num, count: num })),
};

const emptyParties: BattleParty[] = Array.from({ length: PARTY_COUNT }, (_, i) => ({
  managedBattlePartyId: i + 1,
  name: `Party ${i + 1}`,
  slots: Array.from({ length: PARTY_SLOTS }, () => ({ managedCharacterId: null, managedWeaponId: null })),
}));

export const socialDefaults: Defaults<typeof socialProps> = {
  battleParties: emptyParties,
  friends: [],
  achievements: [],
  displayedAchievementId: null,
  activeQuest: null,
  questRecords: [],
  chests: [],
  offers: [],
  offerCompletions: [],
};

/** The ids of every player the player has a relation with (friends and requests both ways). */
export const relatedPlayerIds = (s: { readonly friends: ReadonlyArray<FriendRelation> }): number[] =>
  s.friends.map((f) => f.playerId);
