// Tutorial progress: steps only move forward and -1 marks it finished; tips shown.
import * as t from 'io-ts';
import { Int, PosInt, obj } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import { fail, ok, type Result } from '../shared/result.js';

/**
 * Records a tutorial step. Repeating the current step is accepted and changes
 * nothing (a retried request); going back, or on after finishing, is refused.
 */
export const recordStep = (m: Master, s: PlayerState, step: number): Result<PlayerState, 'INVALID_PARAMETERS'> => {
  const done = m.game.tutorial.finishedStep;
  if (step === s.tutorial.step) return ok(s);
  if (step !== done && (step < 1 || step > m.game.tutorial.maxStep)) {
    return fail('INVALID_PARAMETERS', { field: 'stepCode', reason: `must be ${done} or 1 to ${m.game.tutorial.maxStep}` });
  }
  if (s.tutorial.step === done) return fail('INVALID_PARAMETERS', { field: 'stepCode', reason: 'the tutorial is already finished' });
  if (step !== done && step < s.tutorial.step) return fail('INVALID_PARAMETERS', { field: 'stepCode', reason: `steps only move forward (now ${s.tutorial.step})` });
  return ok({ ...s, tutorial: { ...s.tutorial, step } });
};

const stepAdd = defineOp({
  name: 'addPlayerTutorialStep', method: 'POST', path: '/player/tutorial/step/add', group: 'tutorial', access: 'session',
  summary: 'Records tutorial progress; steps only move forward and -1 marks the tutorial finished.',
  request: obj({ stepCode: Int }, 'AddPlayerTutorialStepRequest'),
  response: t.type({ stepCode: t.number }, 'AddPlayerTutorialStepResponse'),
  errors: ['INVALID_PARAMETERS'],
  reduce: (s, req, _rng, _now, { master }) => {
    const r = recordStep(master, s, req.stepCode);
    return r._tag === 'Left' ? r : ok({ state: r.right, response: { stepCode: r.right.tutorial.step } });
  },
});

const tipAdd = defineOp({
  name: 'addPlayerTutorialTip', method: 'POST', path: '/player/tutorial/tip/add', group: 'tutorial', access: 'session',
  summary: 'Records a tip as shown.',
  request: obj({ tipId: PosInt }, 'AddPlayerTutorialTipRequest'),
  response: t.type({ tipIds: t.array(t.number) }, 'AddPlayerTutorialTipResponse'),
  errors: ['INVALID_PARAMETERS'],
  reduce: (s, req, _rng, _now, { master }) => {
    if (req.tipId > master.game.tutorial.maxTipId) return fail('INVALID_PARAMETERS', { field: 'tipId', reason: `must be 1 to ${master.game.tutorial.maxTipId}` });
    if (s.tutorial.tips.includes(req.tipId)) return ok({ state: s, response: { tipIds: s.tutorial.tips } });
    const tips = [...s.tutorial.tips, req.tipId].sort((a, b) => a - b);
    return ok({ state: { ...s, tutorial: { ...s.tutorial, tips } }, response: { tipIds: tips } });
  },
});

export const tutorialOps = [stepAdd, tipAdd] as const;
