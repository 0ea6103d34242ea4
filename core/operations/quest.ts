// Quests as the original's clients read them at log-in: the player's quests with
// their best clear rank (story quests and event quests apart), the quest chapters
// (global master data, no player), and adv (story) scenes viewed with adv/add, which
// also clear the adv-only quest a scene is (docs/rules/original.md).
import * as t from 'io-ts';
import { Int, PosInt, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { QuestIndexed } from '../master/social.js';
import type { PlayerState } from '../state.js';
import { fail, ok } from '../shared/result.js';
import { clearScene } from '../questLog/scene.js';
import { type RewardView, WireTime, nullable } from '../views/codecs.js';
import { optTime, timeText, type ViewCtx } from '../view.js';
import { applyStep } from './tutorial.js';
import * as api from '../api/quest.js';
import { type QuestChaptersResponse } from '../api/quest.js';
export { QuestChaptersResponse, QuestChapterView, PlayerQuestView, PlayerEventQuestView } from '../api/quest.js';
const STORY = 1;
const EVENT = 2;

const inPeriod = (startsAt: number | null, endsAt: number | null, now: number): boolean =>
  (startsAt === null || now >= startsAt) && (endsAt === null || now < endsAt);

const questView = (s: PlayerState, q: QuestIndexed) => {
  const r = s.questRecords.find((x) => x.questId === q.questId);
  return { id: q.questId, clearRank: r?.bestClearRank ?? 0, advOnly: q.advOnly, clearCount: r?.clears ?? 0 };
};

const questGetAll = implementOp(api.questGetAll, {
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

const advAdd = implementOp(api.advAdd, {
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
