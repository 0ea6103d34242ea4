// Adv-only quests (story scenes without a battle; docs/rules/original.md): cleared the
// first time the player views the scene (adv/add), or as the original's clients play
// them, ordered with no party (quest_log/add type 3 or 4) and completed.
import type { Master } from '../master/index.js';
import type { QuestIndexed } from '../master/social.js';
import type { PlayerState } from '../state.js';
import type { ActiveQuest, QuestRecord } from '../state/social.js';
import { ok, type Result } from '../shared/result.js';
import { grantAll } from '../shared/grant.js';
import { bumpCounter } from '../shared/counters.js';
import { pay } from '../shared/pay.js';
import type { RewardView } from '../views/codecs.js';

/** A scene's order `type` adds this to its quest's (1 story, 2 event): 3 a story scene, 4 an event scene. */
const SCENE = 2;

/** The quest's `type` as the original's clients order it: 1 or 2 with a battle, 3 or 4 a scene. */
export const orderTypeOf = (q: QuestIndexed): number => q.type + (q.advOnly ? SCENE : 0);
/** Whether an active quest was ordered as a scene (its stored type, whatever the master data says since). */
export const isSceneOrder = (a: ActiveQuest): boolean => a.type > SCENE;

/**
 * The first clear of an adv-only quest: its first-clear reward (a present when it does
 * not fit), one clear at the top rank (a scene has no rank). Cleared before: nothing
 * changes (the same state comes back).
 */
export const clearScene = (
  m: Master,
  s: PlayerState,
  q: QuestIndexed,
  now: number,
): Result<{ state: PlayerState; rewards: RewardView[] }, 'NOT_FOUND'> => {
  const before = s.questRecords.find((r) => r.questId === q.questId);
  if (before !== undefined && before.clears > 0) return ok({ state: s, rewards: [] });
  const granted = grantAll(m, s, q.firstClear, now, {
    title: q.name,
    message: 'A story reward that did not fit in your storage.',
    source: 'reward',
    deadline: null,
  });
  if (granted._tag === 'Left') return granted;
  // A scene has no rank: viewing it is the best clear there is.
  const record: QuestRecord = {
    questId: q.questId,
    clears: 1,
    failures: before?.failures ?? 0,
    bestClearRank: m.social.quest.maxClearRank,
    firstClearedAt: now,
    lastPlayedAt: now,
    skillUse: null,
  };
  const questRecords = [...granted.right.state.questRecords.filter((r) => r.questId !== q.questId), record].sort(
    (a, b) => a.questId - b.questId,
  );
  return ok({
    state: { ...granted.right.state, questRecords },
    rewards: granted.right.outcomes.map((o) => ({
      kind: o.grant.kind,
      objectId: o.grant.objectId,
      amount: o.grant.amount,
      managedPresentId: o.managedPresentId,
    })),
  });
};

/**
 * Orders a scene as the original's clients do (no party: -1): pays the quest's stamina
 * (0 for the bundled scenes) and stores it as the active quest, with no party, no support
 * and no questData. Not counted as a quest order (`questOrders`): a free order repeated
 * must not advance what counts them.
 */
export const orderScene = (
  m: Master,
  s: PlayerState,
  q: QuestIndexed,
  now: number,
): Result<
  { state: PlayerState; response: { orderReceiveId: number; questId: number; stamina: number } },
  'STAMINA_IS_SHORT'
> => {
  const paid = pay(m, s, { stamina: q.stamina }, now);
  if (paid._tag === 'Left') return paid;
  const orderReceiveId = paid.right.nextManagedId;
  const active: ActiveQuest = {
    orderReceiveId,
    questId: q.questId,
    type: orderTypeOf(q),
    managedBattlePartyId: -1,
    managedCharacterIds: [],
    supportCharacterId: null,
    questData: '',
    orderedAt: now,
    savedAt: now,
    saves: 0,
    retries: 0,
  };
  const next = bumpCounter(
    { ...paid.right, nextManagedId: orderReceiveId + 1, activeQuest: active },
    'staminaSpent',
    q.stamina,
  );
  return ok({ state: next, response: { orderReceiveId, questId: q.questId, stamina: next.stamina.value } });
};

/** A scene's order completed with state 2: cleared as viewing it clears it (adv/add), no drops, no rewards, the top rank. */
export const sceneCompleted = (m: Master, s: PlayerState, q: QuestIndexed, orderReceiveId: number, now: number) => {
  const r = clearScene(m, s, q, now);
  if (r._tag === 'Left') return r;
  const rank = m.social.quest.maxClearRank;
  return ok({
    state: r.right.state,
    response: {
      orderReceiveId,
      questId: q.questId,
      cleared: true,
      clearRank: rank,
      bestClearRank: rank,
      drops: [] as RewardView[],
      rewards: null,
      firstClearRewards: r.right.rewards,
    },
  });
};
