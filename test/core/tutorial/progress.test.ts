// A player's way through the tutorial (docs/rules/foundation.md, Tutorial; original.md, The
// tutorial): steps only move forward, -1 finishes, the last step (the party set) finishes
// too; the first and last steps of the range and one past them; tips recorded once up to
// the last tip id; tutorial/party/set fills party 1 with the best characters, keeping a
// party the player arranged and the other parties; what each refusal names.
import test from 'ava';
import { fails, freshPlayer, ok, master, NOW } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';
import { newCharacter } from '../../../core/shared/grant.js';

const { lastStep, finishedStep, maxTipId } = master().game.tutorial;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const at = (step: number): PlayerState => {
  const s = freshPlayer();
  return { ...s, tutorial: { ...s.tutorial, step } };
};

/** A player at step 4 owning the given characters (managed ids in order), with party 1 as given. */
const withCharacters = (characterIds: ReadonlyArray<number>): PlayerState => {
  const s0 = at(4);
  const characters = characterIds.map((c, i) => newCharacter(s0.nextManagedId + i, c, NOW));
  return { ...s0, nextManagedId: s0.nextManagedId + characterIds.length, characters };
};

const m = master();

test('tutorial steps only move forward; -1 finishes; repeating the current step is a no-op', (t) => {
  let s = ok(t, 'addPlayerTutorialStep', freshPlayer(), { stepCode: 3 }).state;
  t.is(s.tutorial.step, 3);
  const same = ok(t, 'addPlayerTutorialStep', s, { stepCode: 3 });
  t.is(same.state, s, 'nothing changed');
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 2 });
  s = ok(t, 'addPlayerTutorialStep', s, { stepCode: -1 }).state;
  t.is(s.tutorial.step, -1);
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 4 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', freshPlayer(), { stepCode: -5 });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'addPlayerTutorialStep', freshPlayer(), {});
});

test('step 1 (sign-up), the first of the range, is recorded for a player who has recorded none', (t) => {
  const s = freshPlayer();
  t.is(s.tutorial.step, 0, 'a player signed up without a step');
  const r = ok(t, 'addPlayerTutorialStep', s, { stepCode: 1 });
  t.is(r.state.tutorial.step, 1);
  t.is(r.response.stepCode, 1);
});

test('a step below 1 (other than the finishing -1) or past the last is 102 naming stepCode and the allowed range', (t) => {
  for (const [s, stepCode] of [
    [freshPlayer(), -5],
    [at(3), 0],
    [at(3), -2],
    [at(3), lastStep + 1],
  ] as const) {
    const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode });
    t.like(e, { field: 'stepCode' });
    t.regex(
      reasonOf(e),
      new RegExp(`${finishedStep}\\b.*\\b1 to ${lastStep}\\b`),
      `stepCode ${stepCode}: the reason gives the steps allowed`,
    );
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

test('the last step (5, the party set) finishes the tutorial; sent again after it changes nothing; other steps after it are 102', (t) => {
  const s = ok(t, 'addPlayerTutorialStep', freshPlayer(), { stepCode: 4 }).state;
  const done = ok(t, 'addPlayerTutorialStep', s, { stepCode: 5 });
  t.is(done.state.tutorial.step, -1);
  t.is(done.response.stepCode, -1);
  t.is(ok(t, 'addPlayerTutorialStep', done.state, { stepCode: 5 }).state, done.state);
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', done.state, { stepCode: 4 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 6 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialStep', s, { stepCode: 0 });
});

// ---- tips ----

test('tips are recorded once, in order', (t) => {
  let s = ok(t, 'addPlayerTutorialTip', freshPlayer(), { tipId: 7 }).state;
  s = ok(t, 'addPlayerTutorialTip', s, { tipId: 2 }).state;
  const again = ok(t, 'addPlayerTutorialTip', s, { tipId: 7 });
  t.deepEqual(again.state.tutorial.tips, [2, 7]);
  t.is(again.state, s);
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialTip', s, { tipId: 0 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialTip', s, { tipId: master().game.tutorial.maxTipId + 1 });
});

test('tips: the last tip id (tutorial.maxTipId) is recorded; one past it is 102 naming tipId and the last id', (t) => {
  const r = ok(t, 'addPlayerTutorialTip', freshPlayer(), { tipId: maxTipId });
  t.deepEqual(r.state.tutorial.tips, [maxTipId]);
  t.deepEqual(r.response.tipIds, [maxTipId]);
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerTutorialTip', freshPlayer(), { tipId: maxTipId + 1 });
  t.like(e, { field: 'tipId' });
  t.regex(reasonOf(e), new RegExp(`\\b${maxTipId}\\b`));
});

// ---- party/set ----

test('tutorial/party/set fills party 1 with the best characters (highest rarity first, up to 5) and finishes the tutorial', (t) => {
  const s0 = ok(t, 'addPlayerTutorialStep', freshPlayer(), { stepCode: 4 }).state;
  const ids = [1013, 1011, 1014, 1012, 1021, 1023, 1015]; // ★3 ★5 ★3 ★4 ★5 ★3 ★3 (by their place in a title)
  const chars = ids.map((c, i) => newCharacter(s0.nextManagedId + i, c, NOW));
  const s = { ...s0, nextManagedId: s0.nextManagedId + ids.length, characters: chars };
  const r = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 });
  const rarity = (id: number) =>
    m.character.get(s.characters.find((c) => c.managedCharacterId === id)!.characterId)!.rarity;
  t.is(r.response.managedCharacterIds.length, 5);
  t.deepEqual(r.response.managedCharacterIds.map(rarity), [5, 5, 4, 3, 3]);
  t.deepEqual(
    r.state.battleParties[0]!.slots.map((x) => x.managedCharacterId),
    r.response.managedCharacterIds,
  );
  t.true(r.state.battleParties[0]!.slots.every((x) => x.managedWeaponId === null));
  t.like(r.response, { stepCode: -1, managedBattlePartyId: 1 });
  t.truthy(r.response.managedBattleParties, 'the changed parties come with the answer');
  // A party the player arranged is kept; the step is still recorded.
  const again = ok(t, 'setPlayerTutorialParty', { ...r.state, tutorial: s0.tutorial }, { stepCode: 5 });
  t.deepEqual(again.response.managedCharacterIds, []);
  t.deepEqual(again.state.battleParties, r.state.battleParties);
  t.is(again.state.tutorial.step, -1);
});

test('tutorial/party/set with no character leaves the party empty; a step going back is 102 and nothing changes', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'setPlayerTutorialParty', s, { stepCode: 5 });
  t.deepEqual(r.response.managedCharacterIds, []);
  t.deepEqual(r.state.battleParties, s.battleParties);
  fails(
    t,
    'INVALID_PARAMETERS',
    'setPlayerTutorialParty',
    { ...s, tutorial: { ...s.tutorial, step: 4 } },
    { stepCode: 3 },
  );
  fails(t, 'INSUFFICIENT_PARAMETERS', 'setPlayerTutorialParty', s, {});
});

test('party/set keeps a party 1 the player arranged even when it has empty slots: one character is an arranged party', (t) => {
  const s0 = withCharacters([1011, 1012, 1013]);
  const mine = s0.characters[2]!.managedCharacterId;
  const s: PlayerState = {
    ...s0,
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 2 ? { ...x, managedCharacterId: mine } : x)) }
        : p,
    ),
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
  t.deepEqual(
    r.state.battleParties
      .find((p) => p.managedBattlePartyId === 1)!
      .slots.slice(0, 3)
      .map((x) => x.managedCharacterId),
    r.response.managedCharacterIds,
  );
  t.deepEqual(
    r.state.battleParties.filter((p) => p.managedBattlePartyId !== 1),
    s.battleParties.filter((p) => p.managedBattlePartyId !== 1),
  );
});

test('party/set answers every battle party whether it changed them or not (KiraraFantasia-Bot reads managedBattleParties[0])', (t) => {
  const view = (s: PlayerState) => s.battleParties.map((p) => ({ ...p, slots: p.slots.map((x) => ({ ...x })) }));
  // Filled now: the parties as they are after it.
  const filled = ok(t, 'setPlayerTutorialParty', withCharacters([1011, 1012]), { stepCode: 5 });
  t.deepEqual(filled.response.managedBattleParties, view(filled.state));
  t.is(filled.response.managedBattleParties[0]?.managedBattlePartyId, 1);
  // Nothing placed (no character), then the same request retried after the tutorial finished: the
  // state does not change, and the parties are answered all the same.
  const empty = ok(t, 'setPlayerTutorialParty', at(4), { stepCode: 5 });
  t.deepEqual(empty.response.managedBattleParties, view(empty.state));
  const retried = ok(t, 'setPlayerTutorialParty', empty.state, { stepCode: 5 });
  t.is(retried.state.battleParties, empty.state.battleParties, 'nothing changed');
  t.is(retried.response.managedBattleParties.length, 15);
  t.is(retried.response.managedBattleParties[0]?.managedBattlePartyId, 1);
});
