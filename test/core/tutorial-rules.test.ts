// Tutorial rules at their edges (docs/rules/foundation.md, Tutorial; original.md, The
// tutorial): the first and last steps of the range and one past them, what each
// refusal names, the last tip id, and which party the tutorial's party set fills.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import type { GameError } from '../../core/errors.js';
import { newCharacter } from '../../core/shared/grant.js';

const { lastStep, finishedStep, maxTipId } = master().game.tutorial;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const at = (step: number): PlayerState => { const s = freshPlayer(); return { ...s, tutorial: { ...s.tutorial, step } }; };

test('step 1 (sign-up), the first of the range, is recorded for a player who has recorded none', (t) => {
  const s = freshPlayer();
  t.is(s.tutorial.step, 0, 'a player signed up without a step');
  const r = ok(t, 'addPlayerTutorialStep', s, { stepCode: 1 });
  t.is(r.state.tutorial.step, 1);
  t.is(r.response.stepCode, 1);
});

test('a step below 1 (other than the finishing -1) or past the last is 102 naming stepCode and the allowed range', (t) => {
  for (const [s, stepCode] of [[freshPlayer(), -5], [at(3), 0], [at(3), -2], [at(3), lastStep + 1]] as const) {
    const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode });
    t.like(e, { field: 'stepCode' });
    t.regex(reasonOf(e), new RegExp(`${finishedStep}\\b.*\\b1 to ${lastStep}\\b`), `stepCode ${stepCode}: the reason gives the steps allowed`);
  }
});

test('after the tutorial finished, a step other than the last is 102 naming stepCode and saying it is finished', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', at(finishedStep), { stepCode: 2 });
  t.like(e, { field: 'stepCode' });
  t.regex(reasonOf(e), /finished/);
});

test('a step lower than the current one is 102 naming stepCode, and the reason gives the current step', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', at(4), { stepCode: 2 });
  t.like(e, { field: 'stepCode' });
  t.regex(reasonOf(e), /forward/);
  t.regex(reasonOf(e), /\b4\b/);
});

test('tips: the last tip id (tutorial.maxTipId) is recorded; one past it is 102 naming tipId and the last id', (t) => {
  const r = ok(t, 'addPlayerTutorialTip', freshPlayer(), { tipId: maxTipId });
  t.deepEqual(r.state.tutorial.tips, [maxTipId]);
  t.deepEqual(r.response.tipIds, [maxTipId]);
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialTip', freshPlayer(), { tipId: maxTipId + 1 });
  t.like(e, { field: 'tipId' });
  t.regex(reasonOf(e), new RegExp(`\\b${maxTipId}\\b`));
});

/** A player at step 4 owning the given characters (managed ids in order), with party 1 as given. */
const withCharacters = (characterIds: ReadonlyArray<number>): PlayerState => {
  const s0 = at(4);
  const characters = characterIds.map((c, i) => newCharacter(s0.nextManagedId + i, c, NOW));
  return { ...s0, nextManagedId: s0.nextManagedId + characterIds.length, characters };
};

test('party/set keeps a party 1 the player arranged even when it has empty slots: one character is an arranged party', (t) => {
  const s0 = withCharacters([1011, 1012, 1013]);
  const mine = s0.characters[2]!.managedCharacterId;
  const s: PlayerState = {
    ...s0,
    battleParties: s0.battleParties.map((p) => (p.managedBattlePartyId === 1
      ? { ...p, slots: p.slots.map((x, i) => (i === 2 ? { ...x, managedCharacterId: mine } : x)) }
      : p)),
  };
  const r = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 });
  t.deepEqual(r.response.managedCharacterIds, [], 'nothing placed');
  t.deepEqual(r.state.battleParties, s.battleParties, 'the arranged party is kept as it was');
  t.is(r.response.stepCode, finishedStep, 'the step is recorded all the same');
});

test('party/set fills party 1 only: the other 14 parties stay as they were', (t) => {
  const s = withCharacters([1013, 1011, 1012]);
  const r = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 });
  t.is(r.response.managedCharacterIds.length, 3);
  t.deepEqual(r.state.battleParties.find((p) => p.managedBattlePartyId === 1)!.slots.slice(0, 3).map((x) => x.managedCharacterId), r.response.managedCharacterIds);
  t.deepEqual(r.state.battleParties.filter((p) => p.managedBattlePartyId !== 1), s.battleParties.filter((p) => p.managedBattlePartyId !== 1));
});
