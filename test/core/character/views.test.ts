// How characters are shown (docs/rules/progression.md, Character): set_view between base
// and evolved, reset_all_view back to the defaults, set_shown marking characters seen.
// Requests that change nothing leave the state as it is (the identity contract,
// docs/architecture.md: no change listed, the version kept).
import test from 'ava';
import { characterAt, fails, ok, patchCharacter, withCharacters } from '../../_support/core.js';
import type { GameError } from '../../../core/errors.js';

// 1011: ★5 Fighter of Flame (cap 60 → 80 after 4 limit breaks → 100 evolved); 1013: ★3 Cleric of Stone.
const STAR5 = 1011;
const STAR3 = 1013; // ★3 Cleric: limit-break item 101013, 5 per limit break

const ch = characterAt;
const patch = patchCharacter;

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

// ---- set_view and reset_all_view ----

test('set_view: base or evolved; evolved only when evolved (317); a bad view is 102; unknown 107', (t) => {
  const s = withCharacters([STAR5, STAR3]);
  const a = ch(s, 0).managedCharacterId;
  fails(t, 'STATE_CONFLICT', 'setViewPlayerCharacter', s, { managedCharacterId: a, view: 1 });
  fails(t, 'INVALID_PARAMETERS', 'setViewPlayerCharacter', s, { managedCharacterId: a, view: 2 });
  fails(t, 'NOT_FOUND', 'setViewPlayerCharacter', s, { managedCharacterId: 999_999, view: 0 });
  const evolved = patch(s, { evolved: true, view: 1 });
  const r = ok(t, 'setViewPlayerCharacter', evolved, { managedCharacterId: a, view: 0 });
  t.is(ch(r.state).view, 0);
  t.is(ok(t, 'setViewPlayerCharacter', r.state, { managedCharacterId: a, view: 1 }).state.characters[0]?.view, 1);
});

test('reset_all_view puts every character back to its default view', (t) => {
  const s = patch(patch(withCharacters([STAR5, STAR3]), { evolved: true, view: 0 }, 0), { view: 0 }, 1);
  const r = ok(t, 'resetAllViewPlayerCharacter', s, {});
  t.is(ch(r.state, 0).view, 1);
  t.is(ch(r.state, 1).view, 0);
  t.is(r.state.characters[1], s.characters[1], 'unchanged characters keep their reference');
  t.is(r.response.changed, 1);
});

test('set_view 1 on a character that is not evolved is 317 saying only an evolved character has it', (t) => {
  const s = withCharacters([STAR5]);
  const e = fails(t, 'STATE_CONFLICT', 'setViewPlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    view: 1,
  });
  t.regex(reasonOf(e), /evolved/);
});

test('reset_all_view when every view is already its default changes nothing: same state, no change listed, version kept', (t) => {
  const s = patch(withCharacters([STAR5, STAR3]), { evolved: true, view: 1 }, 0);
  const r = ok(t, 'resetAllViewPlayerCharacter', s, {});
  t.is(r.response.changed, 0);
  t.false(r.changed);
  t.is(r.state, s);
  t.is(r.state.version, s.version);
  t.is(r.response.managedCharacters, undefined);
});

// ---- set_shown ----

test('set_shown marks the named characters shown; unknown is 107, none named 103', (t) => {
  const s = withCharacters([STAR5, STAR3]);
  const r = ok(t, 'setShownPlayerCharacter', s, { managedCharacterIds: [ch(s, 1).managedCharacterId] });
  t.is(ch(r.state, 1).shown, 1);
  t.is(ch(r.state, 0).shown, 0);
  fails(t, 'NOT_FOUND', 'setShownPlayerCharacter', s, { managedCharacterIds: [ch(s).managedCharacterId, 999_999] });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'setShownPlayerCharacter', s, { managedCharacterIds: [] });
});

test('set_shown refusals name the list (none named, 103) and the character not owned (107)', (t) => {
  const s = withCharacters([STAR5]);
  t.like(fails(t, 'INSUFFICIENT_PARAMETERS', 'setShownPlayerCharacter', s, { managedCharacterIds: [] }), {
    field: 'managedCharacterIds',
  });
  t.like(
    fails(t, 'NOT_FOUND', 'setShownPlayerCharacter', s, { managedCharacterIds: [ch(s).managedCharacterId, 999_999] }),
    { entity: 'character', id: 999_999 },
  );
});

test('set_shown of characters already shown changes nothing; a mix changes only the ones not yet shown', (t) => {
  const s = patch(withCharacters([STAR5, STAR3]), { shown: 1 }, 0);
  const [a, b] = s.characters.map((c) => c.managedCharacterId);
  const same = ok(t, 'setShownPlayerCharacter', s, { managedCharacterIds: [a] });
  t.false(same.changed);
  t.is(same.state, s);
  t.deepEqual(same.response.managedCharacterIds, [a]);
  const mixed = ok(t, 'setShownPlayerCharacter', s, { managedCharacterIds: [a, b] });
  t.true(mixed.changed);
  t.is(mixed.state.characters[0], s.characters[0], 'the one already shown keeps its record');
  t.is(ch(mixed.state, 1).shown, 1);
});
