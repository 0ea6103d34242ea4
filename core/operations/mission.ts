// Missions (daily, weekly, event): the list with the player's progress, claiming a
// reward, and the original's progress upload, accepted and ignored. Progress is the
// server's own, from the player's counters (core/shared/missions.ts); periods reset
// in game-local time (docs/rules/original.md).
import * as t from 'io-ts';
import { NonNegInt, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import { MissionCategory } from '../master/original.js';
import type { PlayerState } from '../state.js';
import { fail, ok } from '../shared/result.js';
import { grantOrPresent } from '../shared/grant.js';
import { bumpCounter } from '../shared/counters.js';
import {
  MISSION_CLAIMED,
  managedMissionIdOf,
  missionProgress,
  periodOf,
  settledLogs,
  splitManagedMissionId,
  type MissionProgress,
} from '../shared/missions.js';
import { GrantView, RewardView, WireTime, nullable } from '../views/codecs.js';
import { optTime, timeText, type ViewCtx } from '../view.js';
import * as api from '../api/mission.js';
import { type MissionLogView } from '../api/mission.js';
export { MissionLogView } from '../api/mission.js';

const logView = (p: MissionProgress, ctx: ViewCtx): MissionLogView => ({
  managedMissionId: managedMissionIdOf(p.mission.missionId, p.period),
  missionId: p.mission.missionId,
  subCode: p.mission.subCode,
  rate: p.rate,
  rateMax: p.mission.target,
  state: p.state,
  reward: { kind: p.mission.reward.kind, objectId: p.mission.reward.objectId, amount: p.mission.reward.amount },
  limitTime: optTime(ctx, p.endsAt),
  category: p.mission.category,
  name: p.mission.name,
  startAt: timeText(ctx, p.startsAt),
  claimedAt: optTime(ctx, p.claimedAt),
});

const logsView = (m: Master, s: PlayerState, now: number): MissionLogView[] =>
  missionProgress(m, s, now).map((p) => logView(p, { master: m, now }));

const getAll = implementOp(api.getAll, {
  reduce: (s, _req, _rng, now, { master: m }) => ok({ state: s, response: { missionLogs: logsView(m, s, now) } }),
});

const complete = implementOp(api.complete, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const id = req.managedMissionId;
    const { missionId, period } = splitManagedMissionId(id);
    const ms = m.mission.get(missionId);
    if (!ms) return fail('NOT_FOUND', { entity: 'mission', id });
    const cur = periodOf(m, ms, now);
    // A period that is over (or an event that ended) is out of period; one that has not begun does not exist yet.
    if (cur === null || period < cur.period) return fail('MISSION_OUT_OF_PERIOD', { managedMissionId: id });
    if (period !== cur.period) return fail('NOT_FOUND', { entity: 'mission', id });
    const logs = settledLogs(m, s, s.missionLogs, now);
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent (taking s, or a copy, whether or not the logs changed: the claimed mission's own log is in s already (it has progress), and the after-hook settles the others from the same state before, as this line does; the [] mutant is killed)
    const settled: PlayerState = logs === s.missionLogs ? s : { ...s, missionLogs: [...logs] };
    const p = missionProgress(m, settled, now).find((x) => x.mission.missionId === missionId) as MissionProgress;
    if (p.state === MISSION_CLAIMED) return fail('ALREADY_COMPLETE_MISSION', { managedMissionId: id });
    if (p.rate < ms.target)
      return fail('MISSION_NOT_ACHIEVED', { managedMissionId: id, rate: p.rate, rateMax: ms.target });
    const granted = grantOrPresent(m, settled, ms.reward, now, {
      title: ms.name,
      message: 'A mission reward that did not fit in your storage.',
      source: 'reward',
      deadline: null,
    });
    if (granted._tag === 'Left') return granted;
    let next: PlayerState = {
      ...granted.right.state,
      missionLogs: granted.right.state.missionLogs.map((l) =>
        l.missionId === missionId ? { ...l, claimedAt: now } : l,
      ),
    };
    next = bumpCounter(next, 'missionsClaimed');
    if (ms.category === 'daily') next = bumpCounter(next, 'dailyMissionsClaimed');
    const after = missionProgress(m, next, now).find((x) => x.mission.missionId === missionId) as MissionProgress;
    const o = granted.right.outcome;
    return ok({
      state: next,
      response: {
        missionLog: logView(after, { master: m, now }),
        reward: {
          kind: o.grant.kind,
          objectId: o.grant.objectId,
          amount: o.grant.amount,
          managedPresentId: o.managedPresentId,
        },
      },
    });
  },
});

const set = implementOp(api.set, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const logs = logsView(m, s, now);
    if (req.managedMissionId !== undefined && !logs.some((l) => l.managedMissionId === req.managedMissionId)) {
      return fail('NOT_FOUND', { entity: 'mission', id: req.managedMissionId });
    }
    return ok({ state: s, response: { missionLogs: logs } });
  },
});

export const missionOps = [getAll, complete, set] as const;
