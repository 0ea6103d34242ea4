// Achievements: the list with newAchievementCount, choosing the displayed one, and
// marking them shown. Unlocking is the engine's (core/hooks.ts), after every operation.
import * as t from 'io-ts';
import { IdList, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import { fail, ok, type Result } from '../shared/result.js';
import { achievementView, newAchievementCount } from '../views/social.js';
import { AchievementView, nullable } from '../views/codecs.js';
import * as api from '../api/achievement.js';

/** An achievement the player has unlocked: unknown ids are 107, locked ones 317. */
const unlocked = (m: Master, s: PlayerState, achievementId: number): Result<true, 'NOT_FOUND' | 'STATE_CONFLICT'> => {
  if (!m.achievement.has(achievementId)) return fail('NOT_FOUND', { entity: 'achievement', id: achievementId });
  if (!s.achievements.some((a) => a.achievementId === achievementId))
    return fail('STATE_CONFLICT', { reason: `achievement ${achievementId} is not unlocked yet` });
  return ok(true);
};

const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master }) =>
    ok({
      state: s,
      response: {
        achievements: s.achievements.map((a) => achievementView(a, { master, now })),
        newAchievementCount: newAchievementCount(s),
        displayedAchievementId: s.displayedAchievementId,
      },
    }),
});

const set = implementOp(api.set, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const u = unlocked(m, s, req.achievementId);
    if (u._tag === 'Left') return u;
    const next =
      s.displayedAchievementId === req.achievementId ? s : { ...s, displayedAchievementId: req.achievementId };
    return ok({ state: next, response: { displayedAchievementId: req.achievementId } });
  },
});

const shown = implementOp(api.shown, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const ids = req.achievementIds ?? [];
    for (const id of ids) {
      const u = unlocked(m, s, id);
      if (u._tag === 'Left') return u;
    }
    const named = new Set(ids);
    const hit = (id: number) => ids.length === 0 || named.has(id);
    const changes = s.achievements.some((a) => a.isNew && hit(a.achievementId));
    const next = changes
      ? {
          ...s,
          achievements: s.achievements.map((a) => (a.isNew && hit(a.achievementId) ? { ...a, isNew: false } : a)),
        }
      : s;
    return ok({ state: next, response: { newAchievementCount: newAchievementCount(next) } });
  },
});

export const achievementOps = [getAll, set, shown] as const;
