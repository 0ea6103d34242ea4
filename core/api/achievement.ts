// The descriptions of core/operations/achievement.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { objWithOptional, obj, PosInt, IdList } from '../codecs.js';
import * as t from 'io-ts';
import { AchievementView, nullable } from '../views/codecs.js';

export const getAll = describeOp({
  name: 'getAllPlayerAchievement',
  method: 'GET',
  path: '/player/achievement/get_all',
  group: 'achievement',
  readOnly: true,
  summary: 'Unlocked achievements, the displayed one and newAchievementCount (those not yet shown).',
  request: objWithOptional({}, {}, 'GetAllPlayerAchievementRequest'),
  response: t.type(
    {
      achievements: t.array(AchievementView),
      newAchievementCount: t.number,
      displayedAchievementId: nullable(t.number),
    },
    'GetAllPlayerAchievementResponse',
  ),
  errors: [],
});

export const set = describeOp({
  name: 'setPlayerAchievement',
  method: 'POST',
  path: '/player/achievement/set',
  group: 'achievement',
  summary: "Chooses the achievement displayed on the player's profile; it must be unlocked.",
  request: obj({ achievementId: PosInt }, 'SetPlayerAchievementRequest'),
  response: t.type({ displayedAchievementId: t.number }, 'SetPlayerAchievementResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
});

export const shown = describeOp({
  name: 'shownPlayerAchievement',
  method: 'POST',
  path: '/player/achievement/shown',
  group: 'achievement',
  summary: 'Marks the named achievements (all new ones when none are named) as shown: isNew becomes false.',
  request: objWithOptional({}, { achievementIds: IdList(1000) }, 'ShownPlayerAchievementRequest'),
  response: t.type({ newAchievementCount: t.number }, 'ShownPlayerAchievementResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
});

/** The group's descriptions, in the table's order. */
export const achievementApi = [getAll, set, shown] as const;
