// Quests as the original's clients read them at log-in: the player's quests with
// their best clear rank (story quests and event quests apart), the quest chapters
// (global master data, no player), and adv (story) scenes viewed with adv/add, which
// also clear the adv-only quest a scene is (docs/rules/original.md).
import * as t from 'io-ts';
import { Int, PosInt, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { QuestIndexed } from '../master/social.js';
import type { PlayerState } from '../state.js';
import { fail, ok } from '../shared/result.js';
import { clearScene } from '../questLog/scene.js';
import { RewardView, WireTime, nullable } from '../views/codecs.js';
import { optTime, timeText, type ViewCtx } from '../view.js';
import { applyStep } from './tutorial.js';

const num = t.number;
const STORY = 1;
const EVENT = 2;

const inPeriod = (startsAt: number | null, endsAt: number | null, now: number): boolean =>
  (startsAt === null || now >= startsAt) && (endsAt === null || now < endsAt);

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

const questView = (s: PlayerState, q: QuestIndexed) => {
  const r = s.questRecords.find((x) => x.questId === q.questId);
  return { id: q.questId, clearRank: r?.bestClearRank ?? 0, advOnly: q.advOnly, clearCount: r?.clears ?? 0 };
};

const questGetAll = defineOp({
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
  reduce: (s, _req, _rng, now, { master: m }) => {
    const ctx: ViewCtx = { master: m, now };
    const open = m.quests
      .map((q) => m.quest.get(q.questId) as QuestIndexed)
      .filter((q) => inPeriod(q.startsAt, q.endsAt, now));
    return ok({
      state: s,
      response: {
        quests: open.filter((q) => q.type === STORY).map((q) => questView(s, q)),
        eventQuests: open
          .filter((q) => q.type === EVENT)
          .map((q) => ({ ...questView(s, q), startAt: timeText(ctx, q.startsAt), endAt: optTime(ctx, q.endsAt) })),
      },
    });
  },
});

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

/** The chapters shown now (story chapters always, event chapters in their period), in master-data order. Global: no player. */
export const questChapters = (m: Master, now: number): QuestChaptersResponse => {
  const ctx: ViewCtx = { master: m, now };
  return {
    questChapters: m.questChapters
      .map((c) => m.chapter.get(c.chapterId) as NonNullable<ReturnType<Master['chapter']['get']>>)
      .filter((c) => inPeriod(c.startsAt, c.endsAt, now))
      .map((c) => ({
        chapterId: c.chapterId,
        name: c.name,
        questIds: c.questIds,
        startAt: optTime(ctx, c.startsAt),
        endAt: optTime(ctx, c.endsAt),
      })),
  };
};

// ---- adv/add ----
const AdvAddRequest = objWithOptional(
  // advId arrives as a string ("1000000"): Int takes numeric strings.
  { advId: PosInt },
  { stepCode: Int },
  'AddPlayerAdvRequest',
);

const advAdd = defineOp({
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
  reduce: (s, req, _rng, now, { master: m }) => {
    const scene = m.advScene.get(req.advId);
    if (!scene) return fail('NOT_FOUND', { entity: 'adv scene', id: req.advId });
    const quest = scene.questId === null ? null : (m.quest.get(scene.questId) as QuestIndexed);
    if (quest && !inPeriod(quest.startsAt, quest.endsAt, now))
      return fail('QUEST_OUT_OF_PERIOD', { questId: quest.questId });
    const firstView = !s.advSeen.includes(req.advId);
    let next: PlayerState = firstView ? { ...s, advSeen: [...s.advSeen, req.advId].sort((a, b) => a - b) } : s;
    let rewards: RewardView[] = [];
    let cleared = false;
    if (quest) {
      const r = clearScene(m, next, quest, now);
      if (r._tag === 'Left') return r;
      cleared = r.right.state !== next;
      next = r.right.state;
      rewards = r.right.rewards;
    }
    const stepped = applyStep(m, next, req.stepCode);
    if (stepped._tag === 'Left') return stepped;
    next = stepped.right;
    return ok({
      state: next,
      response: {
        advId: req.advId,
        firstView,
        questId: quest?.questId ?? null,
        cleared,
        firstClearRewards: rewards,
        stepCode: next.tutorial.step,
      },
    });
  },
});

export const questOps = [questGetAll, advAdd] as const;
