// Hooks run by the runner after every successful operation that changed a player,
// in this order (the achievement engine is one). Each is pure: (before, after) → after.
import type { Master } from './master/index.js';
import type { Condition } from './master/social.js';
import type { PlayerState } from './state.js';
import type { UnlockedAchievement } from './state/social.js';
import { settleTimer } from './shared/town.js';

export type AfterHook = (before: PlayerState, after: PlayerState, now: number, master: Master) => PlayerState;

/**
 * Whether a master-data condition holds on a state at `now`. The only place
 * conditions are read. Timers are read as settled: a level-up whose time has
 * passed counts, whether or not an operation has touched that facility since.
 */
export const conditionMet = (c: Condition, s: PlayerState, now: number): boolean => {
  switch (c.kind) {
    case 'counter': return (s.counters[c.counter] ?? 0) >= c.atLeast;
    case 'charactersOwned': return s.characters.length >= c.atLeast;
    case 'friends': return s.friends.filter((f) => f.state === 'friend').length >= c.atLeast;
    case 'playerLevel': return s.level >= c.atLeast;
    case 'facilityLevel': return s.facilities.some((f) => settleTimer(f, now).level >= c.atLeast);
    case 'questCleared': return s.questRecords.some((r) => r.questId === c.questId && r.clears > 0);
  }
};

/**
 * The achievement engine: every achievement not yet unlocked whose condition now
 * holds is unlocked, new (isNew true). Nothing new: the same state comes back.
 */
export const unlockAchievements: AfterHook = (_before, after, now, m) => {
  const have = new Set(after.achievements.map((a) => a.achievementId));
  const fresh: UnlockedAchievement[] = [];
  for (const a of m.achievements) {
    if (!have.has(a.achievementId) && conditionMet(a.condition, after, now)) fresh.push({ achievementId: a.achievementId, unlockedAt: now, isNew: true });
  }
  return fresh.length === 0 ? after : { ...after, achievements: [...after.achievements, ...fresh] };
};

export const AFTER_HOOKS: ReadonlyArray<AfterHook> = [unlockAchievements];
