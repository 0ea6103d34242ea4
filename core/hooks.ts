// Hooks run by the runner after every successful operation that changed a player,
// in this order (the achievement engine is one). Each is pure: (before, after) → after.
import type { Master } from './master/index.js';
import type { Condition } from './master/social.js';
import type { PlayerState } from './state.js';
import type { UnlockedAchievement } from './state/social.js';
import { settleTimer } from './shared/town.js';
import { withFields } from './state/copy.js';
import { settleMissions } from './shared/missions.js';
import { closeMovedOn } from './gacha/kept.js';

export type AfterHook = (before: PlayerState, after: PlayerState, now: number, master: Master) => PlayerState;

const friendCount = (s: PlayerState): number => {
  let n = 0;
  for (const f of s.friends) if (f.state === 'friend') n++;
  return n;
};

/**
 * Whether a master-data condition holds on a state at `now`. The only place
 * conditions are read. Timers are read as settled: a level-up whose time has
 * passed counts, whether or not an operation has touched that facility since.
 */
export const conditionMet = (c: Condition, s: PlayerState, now: number): boolean => {
  switch (c.kind) {
    case 'counter':
      return (s.counters[c.counter] ?? 0) >= c.atLeast;
    case 'charactersOwned':
      return s.characters.length >= c.atLeast;
    case 'friends':
      return friendCount(s) >= c.atLeast;
    case 'playerLevel':
      return s.level >= c.atLeast;
    case 'facilityLevel':
      return s.facilities.some((f) => settleTimer(f, now).level >= c.atLeast);
    case 'questCleared':
      return s.questRecords.some((r) => r.questId === c.questId && r.clears > 0);
  }
};

/**
 * The achievement engine: every achievement not yet unlocked whose condition now
 * holds is unlocked, new (isNew true). Nothing new: the same state comes back.
 */
export const unlockAchievements: AfterHook = (_before, after, now, m) => {
  let fresh: UnlockedAchievement[] | undefined;
  for (const a of m.achievements) {
    // The condition first: most do not hold, and it is the cheaper test.
    if (conditionMet(a.condition, after, now) && !after.achievements.some((x) => x.achievementId === a.achievementId)) {
      (fresh ??= []).push({ achievementId: a.achievementId, unlockedAt: now, isNew: true });
    }
  }
  return fresh === undefined ? after : withFields(after, { achievements: [...after.achievements, ...fresh] });
};

/**
 * The achievement engine, the missions' periods (core/shared/missions.ts), and the end
 * of a re-draw gacha's replaceable result when the player moved on (core/gacha/kept.ts).
 */
export const AFTER_HOOKS: ReadonlyArray<AfterHook> = [unlockAchievements, settleMissions, closeMovedOn];
