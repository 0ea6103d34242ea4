// The descriptions of core/operations/mission.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { GrantView, nullable, WireTime, RewardView } from '../views/codecs.js';
import { MissionCategory } from '../master/original.js';
import { objWithOptional, obj, PosInt, NonNegInt } from '../codecs.js';

export const num = t.number;

/** One mission in its current period, in the original's shape (missionLogs[]) with hoshi's fields beside. */
export const MissionLogView = t.type(
  {
    /** One mission in one period: missionId × 1000000 + the period's number (game day, game week, 0 for an event). */
    managedMissionId: num,
    missionId: num,
    /** What the mission counts, for grouping (master data). */
    subCode: num,
    /** Progress in this period, and the progress that achieves it. */
    rate: num,
    rateMax: num,
    /** 0 in progress, 1 achieved (claim it with mission/complete), 99 claimed. */
    state: num,
    reward: GrantView,
    /** When the period ends (the next reset, or the event's end). */
    limitTime: nullable(WireTime),
    category: MissionCategory,
    name: t.string,
    /** When the period began. */
    startAt: WireTime,
    claimedAt: nullable(WireTime),
  },
  'MissionLog',
);
export type MissionLogView = t.TypeOf<typeof MissionLogView>;

export const getAll = describeOp({
  name: 'getAllPlayerMission',
  method: 'GET',
  path: '/player/mission/get_all',
  group: 'mission',
  readOnly: true,
  summary:
    "The daily, weekly and event missions offered now with the player's progress, computed by the server from the player's actions since each period began.",
  request: objWithOptional({}, {}, 'GetAllPlayerMissionRequest'),
  response: t.type({ missionLogs: t.array(MissionLogView) }, 'GetAllPlayerMissionResponse'),
  errors: [],
});

export const complete = describeOp({
  name: 'completePlayerMission',
  method: 'POST',
  path: '/player/mission/complete',
  group: 'mission',
  summary:
    "Claims an achieved mission's reward (a present when it does not fit). Claimed already is 510; not achieved 511; a period that is over 468.",
  request: obj({ managedMissionId: PosInt }, 'CompletePlayerMissionRequest'),
  response: t.type({ missionLog: MissionLogView, reward: RewardView }, 'CompletePlayerMissionResponse'),
  errors: ['NOT_FOUND', 'MISSION_OUT_OF_PERIOD', 'ALREADY_COMPLETE_MISSION', 'MISSION_NOT_ACHIEVED'],
});

export const set = describeOp({
  name: 'setPlayerMission',
  method: 'POST',
  path: '/player/mission/set',
  group: 'mission',
  readOnly: true,
  summary:
    "The original clients' progress upload: accepted, its numbers ignored (progress is computed by the server); answers the server's missionLogs. A managedMissionId, when sent, must be one listed now.",
  request: objWithOptional(
    {},
    { managedMissionId: PosInt, missionId: PosInt, rate: NonNegInt, state: NonNegInt },
    'SetPlayerMissionRequest',
  ),
  response: t.type({ missionLogs: t.array(MissionLogView) }, 'SetPlayerMissionResponse'),
  errors: ['NOT_FOUND'],
});

/** The group's descriptions, in the table's order. */
export const missionApi = [getAll, complete, set] as const;
