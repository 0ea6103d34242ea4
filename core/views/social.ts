// Wire views of the collections the social group adds: each appears in get_all and,
// when an operation changes it, in that operation's response.
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import type {
  ActiveQuest,
  ChestProgress,
  FriendRelation,
  OfferRun,
  QuestRecord,
  UnlockedAchievement,
} from '../state/social.js';
import { optTime, timeText, type ViewCtx } from './context.js';
import { collection, type CollectionView } from './codecs.js';
import { shared } from './never-mutated.js';

// Not imported from view.ts: view.ts imports this module, and a value import back would be a cycle.

export const relationView = (f: FriendRelation, ctx: ViewCtx) => ({
  playerId: f.playerId,
  name: f.name,
  state: f.state,
  since: timeText(ctx, f.since),
});

export const achievementView = (a: UnlockedAchievement, ctx: ViewCtx) => {
  const def = ctx.master.achievement.get(a.achievementId);
  return {
    achievementId: a.achievementId,
    name: def?.name ?? '',
    description: def?.description ?? '',
    isNew: a.isNew,
    unlockedAt: timeText(ctx, a.unlockedAt),
  };
};
export const newAchievementCount = (s: PlayerState): number => s.achievements.filter((a) => a.isNew).length;

export const activeQuestView = (q: ActiveQuest | null, ctx: ViewCtx) =>
  q === null
    ? null
    : {
        orderReceiveId: q.orderReceiveId,
        questId: q.questId,
        type: q.type,
        managedBattlePartyId: q.managedBattlePartyId,
        supportCharacterId: q.supportCharacterId,
        questData: q.questData,
        orderedAt: timeText(ctx, q.orderedAt),
        savedAt: timeText(ctx, q.savedAt),
        saves: q.saves,
        retries: q.retries,
        retryMax: ctx.master.quest.get(q.questId)?.retry.max ?? 0,
      };

export const questRecordView = (r: QuestRecord, ctx: ViewCtx) => ({
  questId: r.questId,
  clears: r.clears,
  failures: r.failures,
  bestClearRank: r.bestClearRank,
  firstClearedAt: optTime(ctx, r.firstClearedAt),
  lastPlayedAt: timeText(ctx, r.lastPlayedAt),
  skillUse: r.skillUse,
});

/** Prizes left in a chest's current box, in master-data order. */
export const chestRemaining = (m: Master, p: ChestProgress) => {
  const chest = m.chest.get(p.chestId);
  const step = chest?.steps[Math.min(p.step, chest.steps.length - 1)];
  // A retune may lower a prize's count below what was drawn: none of it is left, not fewer than none.
  return (step?.prizes ?? []).map((prize) => ({
    prize,
    remaining: Math.max(0, prize.count - (p.drawn.find((d) => d.prizeId === prize.prizeId)?.count ?? 0)),
  }));
};

export const chestProgressView = (p: ChestProgress, ctx: ViewCtx) => ({
  chestId: p.chestId,
  step: p.step + 1,
  jackpotDrawn: p.jackpotDrawn,
  resets: p.resets,
  remaining: chestRemaining(ctx.master, p).reduce((n, x) => n + x.remaining, 0),
});

export const offerRunView = (o: OfferRun, ctx: ViewCtx) => ({
  offerId: o.offerId,
  startedAt: timeText(ctx, o.startedAt),
  completesAt: timeText(ctx, o.completesAt),
  done: ctx.now >= o.completesAt,
});

export const battlePartiesView = (s: PlayerState) => shared(s.battleParties);

export const socialCollections: ReadonlyArray<CollectionView> = [
  collection({
    wire: 'managedBattleParties',
    changed: (a, b) => a.battleParties !== b.battleParties,
    view: battlePartiesView,
  }),
  collection({
    wire: 'managedFriends',
    changed: (a, b) => a.friends !== b.friends,
    view: (s, ctx) => s.friends.map((f) => relationView(f, ctx)),
  }),
  collection({
    wire: 'achievements',
    changed: (a, b) => a.achievements !== b.achievements,
    view: (s, ctx) => s.achievements.map((a) => achievementView(a, ctx)),
  }),
  collection({
    wire: 'newAchievementCount',
    changed: (a, b) => a.achievements !== b.achievements,
    view: newAchievementCount,
  }),
  collection({
    wire: 'displayedAchievementId',
    changed: (a, b) => a.displayedAchievementId !== b.displayedAchievementId,
    view: (s) => s.displayedAchievementId,
  }),
  collection({
    wire: 'activeQuest',
    changed: (a, b) => a.activeQuest !== b.activeQuest,
    view: (s, ctx) => activeQuestView(s.activeQuest, ctx),
  }),
  collection({
    wire: 'questLogs',
    changed: (a, b) => a.questRecords !== b.questRecords,
    view: (s, ctx) => s.questRecords.map((r) => questRecordView(r, ctx)),
  }),
  collection({
    wire: 'chestProgress',
    changed: (a, b) => a.chests !== b.chests,
    view: (s, ctx) => s.chests.map((p) => chestProgressView(p, ctx)),
  }),
  collection({
    wire: 'activeOffers',
    changed: (a, b) => a.offers !== b.offers,
    view: (s, ctx) => s.offers.map((o) => offerRunView(o, ctx)),
  }),
  collection({
    wire: 'offerCompletions',
    changed: (a, b) => a.offerCompletions !== b.offerCompletions,
    view: (s) => s.offerCompletions,
  }),
];
