// questLog: spec operations of this group, not built yet (see pending.ts).
import type { AnyOperation } from '../operation.js';
import { notYet } from './pending.js';

export const questLogOps: AnyOperation[] = [
  notYet('completePlayerQuestLog', 'POST', '/player/quest_log/complete', 'questLog', 'Saves the clear rank and the character skill use counts of the most recently played quest.'),
  notYet('orderPlayerQuestLog', 'POST', '/player/quest_log/order', 'questLog', 'Starts a new quest and stores the specified questData on the player.'),
  notYet('resetPlayerQuestLog', 'POST', '/player/quest_log/reset', 'questLog', 'Removes questData from the player.'),
  notYet('retryPlayerQuestLog', 'POST', '/player/quest_log/retry', 'questLog', 'Continues the current quest wave using gems.'),
  notYet('savePlayerQuestLog', 'POST', '/player/quest_log/save', 'questLog', 'Saves the current quest wave state.'),
];
