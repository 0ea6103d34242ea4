// Tutorial progress: steps only move forward; the last step (the party set) finishes
// the tutorial (-1), as does -1 itself (a skip); tips shown; the tutorial's party set.
// Steps (game.json tutorial): 1 sign-up, 2 first present claim, 3 first adv, 4 the
// tutorial gacha, 5 the party set. Sign-up, present/get, adv/add, gacha/draw,
// quest_log/complete and tutorial/* record a step the same way (applyStep).
import * as t from 'io-ts';
import { Int, PosInt, obj } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { OwnedCharacter, PlayerState } from '../state.js';
import { PARTY_SLOTS } from '../state/social.js';
import { fail, ok, type Result } from '../shared/result.js';
import { BattlePartyView } from '../views/codecs.js';
import { battlePartiesView } from '../views/social.js';
import * as api from '../api/tutorial.js';

/**
 * Records a tutorial step. Repeating the current step is accepted and changes
 * nothing (a retried request), as is the last step once finished (the request that
 * finished it, retried); going back, or on after finishing, is refused. Recording
 * the last step finishes the tutorial (the step becomes finishedStep, -1).
 */
export const recordStep = (m: Master, s: PlayerState, step: number): Result<PlayerState, 'INVALID_PARAMETERS'> => {
  const { finishedStep: done, lastStep } = m.game.tutorial;
  if (step === s.tutorial.step) return ok(s);
  if (step !== done && (step < 1 || step > lastStep)) {
    return fail('INVALID_PARAMETERS', { field: 'stepCode', reason: `must be ${done} or 1 to ${lastStep}` });
  }
  if (s.tutorial.step === done) {
    if (step === lastStep) return ok(s);
    return fail('INVALID_PARAMETERS', { field: 'stepCode', reason: 'the tutorial is already finished' });
  }
  // Stryker disable next-line EqualityOperator: equivalent (<= for <: a step equal to the current one returned above, so the two differ on no step that gets here; the line's other EqualityOperator mutants are killed)
  if (step !== done && step < s.tutorial.step)
    return fail('INVALID_PARAMETERS', {
      field: 'stepCode',
      reason: `steps only move forward (now ${s.tutorial.step})`,
    });
  return ok({ ...s, tutorial: { ...s.tutorial, step: step === lastStep ? done : step } });
};

/** A request's optional stepCode: absent or 0 records nothing; any other value as recordStep. */
export const applyStep = (
  m: Master,
  s: PlayerState,
  stepCode: number | undefined,
): Result<PlayerState, 'INVALID_PARAMETERS'> =>
  stepCode === undefined || stepCode === 0 ? ok(s) : recordStep(m, s, stepCode);

const stepAdd = implementOp(api.stepAdd, {
  reduce: (s, req, _rng, _now, { master }) => {
    const r = recordStep(master, s, req.stepCode);
    return r._tag === 'Left' ? r : ok({ state: r.right, response: { stepCode: r.right.tutorial.step } });
  },
});

const tipAdd = implementOp(api.tipAdd, {
  reduce: (s, req, _rng, _now, { master }) => {
    if (req.tipId > master.game.tutorial.maxTipId)
      return fail('INVALID_PARAMETERS', { field: 'tipId', reason: `must be 1 to ${master.game.tutorial.maxTipId}` });
    if (s.tutorial.tips.includes(req.tipId)) return ok({ state: s, response: { tipIds: s.tutorial.tips } });
    const tips = [...s.tutorial.tips, req.tipId].sort((a, b) => a - b);
    return ok({ state: { ...s, tutorial: { ...s.tutorial, tips } }, response: { tipIds: tips } });
  },
});

/** The battle party the tutorial's party set fills. */
export const TUTORIAL_PARTY_ID = 1;

// Stryker disable ArithmeticOperator: equivalent (+ for the tie-break's - in the sort: characters are only ever appended with the next managed id, so the list is in id order, and V8's stable sort keeps that order for ties given any positive answer; the rarity's - → + is killed. A next-line directive cannot reach the .sort line: Babel attaches a comment there to the array before it)
/** The characters the tutorial puts in its party: the highest rarity first, then the first owned; at most a party's slots. */
export const tutorialMembers = (m: Master, s: PlayerState): OwnedCharacter[] =>
  [...s.characters]
    .sort(
      (a, b) =>
        (m.character.get(b.characterId)?.rarity ?? 0) - (m.character.get(a.characterId)?.rarity ?? 0) ||
        a.managedCharacterId - b.managedCharacterId,
    )
    .slice(0, PARTY_SLOTS);

// Stryker restore ArithmeticOperator
const partySet = implementOp(api.partySet, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const stepped = applyStep(m, s, req.stepCode);
    if (stepped._tag === 'Left') return stepped;
    let next = stepped.right;
    // Stryker disable next-line ConditionalExpression: equivalent (true for the id test: the state always holds the 15 parties sorted by id, so party 1 is the first; the false mutant is killed)
    const party = next.battleParties.find((p) => p.managedBattlePartyId === TUTORIAL_PARTY_ID);
    const empty = party !== undefined && party.slots.every((x) => x.managedCharacterId === null);
    const members = empty ? tutorialMembers(m, next) : [];
    if (members.length > 0) {
      const slots = Array.from({ length: PARTY_SLOTS }, (_, i) => ({
        managedCharacterId: members[i]?.managedCharacterId ?? null,
        managedWeaponId: null,
      }));
      next = {
        ...next,
        battleParties: next.battleParties.map((p) =>
          p.managedBattlePartyId === TUTORIAL_PARTY_ID ? { ...p, slots } : p,
        ),
      };
    }
    return ok({
      state: next,
      response: {
        stepCode: next.tutorial.step,
        managedBattlePartyId: TUTORIAL_PARTY_ID,
        managedCharacterIds: members.map((c) => c.managedCharacterId),
        managedBattleParties: battlePartiesView(next),
      },
    });
  },
});

export const tutorialOps = [stepAdd, tipAdd, partySet] as const;
