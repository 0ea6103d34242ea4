// Training: slots opened by player level; a training takes characters for a time
// (a timer kept as data) and gives items, coins and capped character exp on completion.
import * as t from 'io-ts';
import { IdList, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import type { TrainingRun } from '../state/progression.js';
import { MINUTE, formatTime } from '../time.js';
import { fail, ok, type Result } from '../shared/result.js';
import { startTimer, isDone } from '../shared/timer.js';
import { COST_ERRORS, addCharacterExp } from '../shared/growth.js';
import { CostView, GrantView, RewardView, type TrainingView, nullable } from '../views/codecs.js';
import { pay } from '../shared/pay.js';
import { grantAll } from '../shared/grant.js';
import * as api from '../api/training.js';

const timeText = (m: Master, ms: number): string => formatTime(ms, m.game.timezoneOffsetMinutes);

const slotOf = (m: Master, slotId: number): Result<{ slotId: number; openLevel: number }, 'NOT_FOUND'> => {
  const slot = m.progression.training.slots.find((x) => x.slotId === slotId);
  return slot ? ok(slot) : fail('NOT_FOUND', { entity: 'training slot', id: slotId });
};

const runIn = (s: PlayerState, slotId: number): TrainingRun | undefined => s.trainings.find((x) => x.slotId === slotId);

/** The on-going training of a slot, or the error for an unknown or idle slot. */
const ongoing = (m: Master, s: PlayerState, slotId: number): Result<TrainingRun, 'NOT_FOUND' | 'STATE_CONFLICT'> => {
  const slot = slotOf(m, slotId);
  if (slot._tag === 'Left') return slot;
  const run = runIn(s, slotId);
  return run ? ok(run) : fail('STATE_CONFLICT', { reason: `no training is on-going in slot ${slotId}` });
};

/** An on-going training as managedTrainings shows it. */
const runView = (m: Master, run: TrainingRun, now: number): TrainingView => ({
  slotId: run.slotId,
  trainingId: run.trainingId,
  managedCharacterIds: run.managedCharacterIds,
  startedAt: timeText(m, run.startedAt),
  completesAt: timeText(m, run.completesAt),
  completed: isDone(run, now),
});

// ---- get_list ----
const getList = implementOp(api.getList, {
  reduce: (s, _req, _rng, now, { master: m }) => {
    const slots = m.progression.training.slots.map((slot) => {
      const run = runIn(s, slot.slotId);
      return {
        slotId: slot.slotId,
        openLevel: slot.openLevel,
        open: s.level >= slot.openLevel,
        ongoing: run !== undefined,
        training: run ? runView(m, run, now) : null,
      };
    });
    const trainings = m.trainings.map((x) => ({
      trainingId: x.trainingId,
      name: x.name,
      minPlayerLevel: x.minPlayerLevel,
      available: s.level >= x.minPlayerLevel,
      durationMinutes: x.durationMinutes,
      characterCount: x.characterCount,
      classId: x.classId,
      cost: x.cost,
      rewards: x.rewards,
      expPerCharacter: x.expPerCharacter,
    }));
    return ok({ state: s, response: { slots, trainings } });
  },
});

// ---- orders ----
const orders = implementOp(api.orders, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const slot = slotOf(m, req.slotId);
    if (slot._tag === 'Left') return slot;
    if (s.level < slot.right.openLevel)
      return fail('STATE_CONFLICT', { reason: `slot ${req.slotId} opens at player level ${slot.right.openLevel}` });
    if (runIn(s, req.slotId)) return fail('STATE_CONFLICT', { reason: `slot ${req.slotId} already has a training` });
    const tr = m.training.get(req.trainingId);
    if (!tr) return fail('NOT_FOUND', { entity: 'training', id: req.trainingId });
    if (s.level < tr.minPlayerLevel)
      return fail('STATE_CONFLICT', { reason: `training ${tr.trainingId} needs player level ${tr.minPlayerLevel}` });
    const ids = req.managedCharacterIds;
    if (ids.length !== tr.characterCount)
      return fail('INVALID_PARAMETERS', {
        field: 'managedCharacterIds',
        reason: `training ${tr.trainingId} takes exactly ${tr.characterCount} characters`,
      });
    if (new Set(ids).size !== ids.length)
      return fail('INVALID_PARAMETERS', { field: 'managedCharacterIds', reason: 'a character is named twice' });
    for (const id of ids) {
      const c = s.characters.find((x) => x.managedCharacterId === id);
      if (!c) return fail('NOT_FOUND', { entity: 'character', id });
      if (tr.classId !== null && m.character.get(c.characterId)?.classId !== tr.classId) {
        return fail('INVALID_PARAMETERS', {
          field: 'managedCharacterIds',
          reason: `training ${tr.trainingId} takes only characters of class ${tr.classId}`,
        });
      }
      if (s.trainings.some((x) => x.managedCharacterIds.includes(id)))
        return fail('STATE_CONFLICT', { reason: `character ${id} is already training` });
    }
    const paid = pay(m, s, tr.cost, now);
    if (paid._tag === 'Left') return paid;
    const run: TrainingRun = {
      slotId: req.slotId,
      trainingId: tr.trainingId,
      managedCharacterIds: [...ids],
      ...startTimer(now, tr.durationMinutes * MINUTE),
    };
    const trainings = [...paid.right.trainings, run].sort((a, b) => a.slotId - b.slotId);
    return ok({
      state: { ...paid.right, trainings },
      response: { slotId: req.slotId, training: runView(m, run, now) },
    });
  },
});

// ---- cancel ----
const cancel = implementOp(api.cancel, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const run = ongoing(m, s, req.slotId);
    if (run._tag === 'Left') return run;
    return ok({
      state: { ...s, trainings: s.trainings.filter((x) => x !== run.right) },
      response: { slotId: req.slotId },
    });
  },
});

// ---- completes ----
const completes = implementOp(api.completes, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = ongoing(m, s, req.slotId);
    if (found._tag === 'Left') return found;
    const run = found.right;
    if (!isDone(run, now)) return fail('TIMER_RUNNING', { entity: 'training', completesAt: run.completesAt });
    const tr = m.training.get(run.trainingId);
    if (!tr) return fail('NOT_FOUND', { entity: 'training', id: run.trainingId });
    const granted = grantAll(m, s, tr.rewards, now, {
      title: 'Training reward',
      message: `${tr.name}: this did not fit in your storage and was kept for you here.`,
      source: 'reward',
      deadline: null,
    });
    if (granted._tag === 'Left') return granted;
    const gains: Array<{ managedCharacterId: number; exp: number; level: number }> = [];
    const trained = new Set(run.managedCharacterIds);
    const characters = granted.right.state.characters.map((c) => {
      if (!trained.has(c.managedCharacterId)) return c;
      const next = addCharacterExp(m, c, tr.expPerCharacter);
      gains.push({ managedCharacterId: c.managedCharacterId, exp: next.exp - c.exp, level: next.level });
      return next;
    });
    const changed = characters.some((c, i) => c !== granted.right.state.characters[i]);
    const state: PlayerState = {
      ...granted.right.state,
      characters: changed ? characters : granted.right.state.characters,
      trainings: granted.right.state.trainings.filter((x) => x !== run),
    };
    return ok({
      state,
      response: {
        slotId: req.slotId,
        trainingId: tr.trainingId,
        rewards: granted.right.outcomes.map((o) => ({ ...o.grant, managedPresentId: o.managedPresentId })),
        characters: gains,
      },
    });
  },
});

export const trainingOps = [cancel, completes, getList, orders] as const;
