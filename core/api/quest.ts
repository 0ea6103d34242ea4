// The descriptions of core/operations/quest.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { WireTime, nullable, RewardView } from '../views/codecs.js';
import { objWithOptional, PosInt, Int } from '../codecs.js';

export const num = t.number;

// ---- quest/get_all ----
/** A quest with the player's results: `clearRank` is the best rank (0: never cleared). */
export const PlayerQuestView = t.type(
  {
    id: num,
    /** The best clear rank (1 … social.quest.maxClearRank); 0 when never cleared. */
    clearRank: num,
    /** A story scene without a battle, cleared by viewing it (adv/add). */
    advOnly: t.boolean,
    /** Times cleared. */
    clearCount: num,
  },
  'PlayerQuest',
);
export const PlayerEventQuestView = t.type(
  {
    ...PlayerQuestView.props,
    startAt: WireTime,
    /** null: no end. */
    endAt: nullable(WireTime),
  },
  'PlayerEventQuest',
);

// ---- quest_chapter/get_all ----
export const QuestChapterView = t.type(
  {
    chapterId: num,
    name: t.string,
    /** Its quests in play order. */
    questIds: t.array(num),
    /** null for a chapter always shown (story); an event chapter's period. */
    startAt: nullable(WireTime),
    endAt: nullable(WireTime),
  },
  'QuestChapter',
);
export const QuestChaptersResponse = t.type({ questChapters: t.array(QuestChapterView) }, 'GetAllQuestChapterResponse');
export type QuestChaptersResponse = t.TypeOf<typeof QuestChaptersResponse>;

// ---- adv/add ----
export const AdvAddRequest = objWithOptional(
  // advId arrives as a string ("1000000"): Int takes numeric strings.
  { advId: PosInt },
  { stepCode: Int },
  'AddPlayerAdvRequest',
);

export const questGetAll = describeOp({
  name: 'getAllPlayerQuest',
  method: 'GET',
  path: '/player/quest/get_all',
  group: 'quest',
  readOnly: true,
  summary:
    "The quests open now with the player's best clear rank: story quests in quests[], event quests (with their period) in eventQuests[]; adv-only quests are marked advOnly.",
  request: objWithOptional({}, {}, 'GetAllPlayerQuestRequest'),
  response: t.type(
    { quests: t.array(PlayerQuestView), eventQuests: t.array(PlayerEventQuestView) },
    'GetAllPlayerQuestResponse',
  ),
  errors: [],
});

export const advAdd = describeOp({
  name: 'addPlayerAdv',
  method: 'POST',
  path: '/player/adv/add',
  group: 'quest',
  summary:
    'Records an adv (story) scene as viewed (advId may be a numeric string). The scene of an adv-only quest clears that quest the first time (its first-clear reward, in its period only). stepCode records the tutorial step (3: the first adv; -1 skips the tutorial).',
  request: AdvAddRequest,
  response: t.type(
    {
      advId: num,
      /** True the first time the player views the scene. */
      firstView: t.boolean,
      /** The adv-only quest the scene is; null for a scene of its own. */
      questId: nullable(num),
      /** True when this view cleared the quest (the first time). */
      cleared: t.boolean,
      /** The quest's first-clear reward (a present when it did not fit); empty after the first clear. */
      firstClearRewards: t.array(RewardView),
      /** The tutorial step after the request (-1: finished). */
      stepCode: num,
    },
    'AddPlayerAdvResponse',
  ),
  errors: ['NOT_FOUND', 'QUEST_OUT_OF_PERIOD', 'INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const questApi = [questGetAll, advAdd] as const;
