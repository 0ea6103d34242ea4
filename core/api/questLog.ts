// The descriptions of core/operations/questLog.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { Text, IntEnum, IdAmountList, objWithOptional, PosInt, IntRange, NonNegInt, Int, obj } from '../codecs.js';
import { PARTY_COUNT } from '../state/social.js';
import * as t from 'io-ts';
import { RewardView, nullable } from '../views/codecs.js';

/** The codec's bound only keeps requests sane; the configured limit (social.quest.questDataMaxLength) is the rule. */
export const QuestData = Text(0, 60000);

/** How a played quest ended (complete's `state`): 2 is a clear, as the original's clients send it. */
export const QuestState = IntEnum('QuestState', {
  1: 'failed: the party was defeated or the player gave up; counts a failure and gives nothing',
  2: "cleared: gives the quest's rewards and drops (rolled by the server)",
});

/**
 * The original clients' "id:n,id:n" lists. The codec's bound keeps requests sane;
 * skillExps is bounded by master data (social.quest.skillEntriesMax) in the reducer.
 */
export const ClientList = IdAmountList(100);
/** What the client says happened in the battle: checked for form, never a source of rewards. */
export const BATTLE_LISTS = {
  skillExps: ClientList,
  dropItems: ClientList,
  killedEnemies: ClientList,
  weaponSkillExps: ClientList,
};

/** The original's clients send -1 for "none" (0 is accepted too, the older form). */
export const NONE = -1;

// ---- order ----
/** The original's order types: the quest's own (1 story, 2 event), plus 2 for a scene without a battle. */
export const OrderType = IntEnum('QuestOrderType', {
  1: 'a story quest with a battle',
  2: 'an event quest with a battle',
  3: 'a story scene (an adv-only quest): no party',
  4: 'an event scene (an adv-only quest): no party',
});

export const OrderRequest = objWithOptional(
  // -1 (or 0) names no party: what a scene is ordered with; a battle refuses it (102).
  { questId: PosInt, managedBattlePartyId: IntRange(NONE, PARTY_COUNT) },
  {
    type: OrderType,
    supportCharacterId: IntRange(NONE, Number.MAX_SAFE_INTEGER),
    // null: none, as KiraraFantasia-Bot sends it for a scene.
    questData: t.union([QuestData, t.null]),
  },
  'OrderPlayerQuestLogRequest',
);

// ---- complete ----
export const CompleteRequest = objWithOptional(
  { orderReceiveId: PosInt, state: QuestState },
  {
    clearRank: NonNegInt,
    ...BATTLE_LISTS,
    uniqueSkillUseNum: NonNegInt,
    masterSkillUseNum: NonNegInt,
    friendUseNum: NonNegInt,
    stepCode: Int,
  },
  'CompletePlayerQuestLogRequest',
);

/** What a clear gives besides its drops (the quest's master data). */
export const QuestRewardsView = t.type({ gold: t.number, playerExp: t.number, characterExp: t.number }, 'QuestRewards');

export const order = describeOp({
  name: 'orderPlayerQuestLog',
  method: 'POST',
  path: '/player/quest_log/order',
  aliases: ['/player/quest_log/add'],
  group: 'questLog',
  summary:
    "Starts a quest: in period, pays stamina, stores it as the one active quest. A battle (type 1 or 2) needs a battle party (-1 is refused, 102) and keeps its questData; supportCharacterId -1 (or 0, or absent) is no support character. An adv-only quest is ordered as a scene (type 3 or 4, the original's) with no party, support or questData read.",
  request: OrderRequest,
  response: t.type({ orderReceiveId: t.number, questId: t.number, stamina: t.number }, 'OrderPlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'QUEST_OUT_OF_PERIOD', 'QUEST_ORDER_LIMIT', 'STAMINA_IS_SHORT'],
});

// ---- save ----
export const save = describeOp({
  name: 'savePlayerQuestLog',
  method: 'POST',
  path: '/player/quest_log/save',
  group: 'questLog',
  summary:
    'Stores the wave state (questData) of the active quest. The battle lists the original\'s clients send (skillExps, dropItems, killedEnemies, weaponSkillExps: "id:n,id:n") are checked for form and otherwise ignored.',
  request: objWithOptional({ orderReceiveId: PosInt, questData: QuestData }, BATTLE_LISTS, 'SavePlayerQuestLogRequest'),
  response: t.type({ orderReceiveId: t.number, saves: t.number }, 'SavePlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
});

// ---- retry ----
export const retry = describeOp({
  name: 'retryPlayerQuestLog',
  method: 'POST',
  path: '/player/quest_log/retry',
  group: 'questLog',
  summary: "Continues the active quest's wave for gems, up to the quest's maximum retries.",
  request: obj({ orderReceiveId: PosInt }, 'RetryPlayerQuestLogRequest'),
  response: t.type({ orderReceiveId: t.number, retries: t.number, retryMax: t.number }, 'RetryPlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'QUEST_RETRY_LIMIT', 'GEM_IS_SHORT'],
});

export const complete = describeOp({
  name: 'completePlayerQuestLog',
  method: 'POST',
  path: '/player/quest_log/complete',
  aliases: ['/player/quest_log/set'],
  group: 'questLog',
  summary:
    'Ends the active quest (state 2 cleared, 1 failed). A clear rolls the drops on the server, gives the rewards and the first-clear reward once, keeps the best rank and the skill use counts (skillExps "id:n"); dropItems, killedEnemies and weaponSkillExps are checked for form and never give anything. A scene (ordered with type 3 or 4) clears as viewing it does: its first-clear reward once, the top rank.',
  request: CompleteRequest,
  response: t.type(
    {
      orderReceiveId: t.number,
      questId: t.number,
      cleared: t.boolean,
      /** The rank of this play (0 for a failure), and the best kept for the quest. */
      clearRank: t.number,
      bestClearRank: t.number,
      /** What the server rolled and gave; a failure gives nothing (rewards null), a scene its first-clear reward only. */
      drops: t.array(RewardView),
      rewards: nullable(QuestRewardsView),
      firstClearRewards: t.array(RewardView),
    },
    'CompletePlayerQuestLogResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
});

// ---- reset ----
export const reset = describeOp({
  name: 'resetPlayerQuestLog',
  method: 'POST',
  path: '/player/quest_log/reset',
  group: 'questLog',
  summary: 'Discards the active quest and its questData (no refund).',
  request: objWithOptional({}, { orderReceiveId: PosInt }, 'ResetPlayerQuestLogRequest'),
  response: t.type({ orderReceiveId: t.number }, 'ResetPlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
});

/** The group's descriptions, in the table's order. */
export const questLogApi = [complete, order, reset, retry, save] as const;
