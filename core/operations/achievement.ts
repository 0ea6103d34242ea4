// achievement: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const achievementOps: AnyOperation[] = [
  notYet('getAllPlayerAchievement', 'GET', '/player/achievement/get_all', 'achievement', 'All achievements of the player; the response carries newAchievementCount.'),
  notYet('setPlayerAchievement', 'POST', '/player/achievement/set', 'achievement', 'Sets a specified achievement to the player.'),
  notYet('shownPlayerAchievement', 'POST', '/player/achievement/shown', 'achievement', 'Marks specified achievements as shown; isNew becomes false.'),
];
