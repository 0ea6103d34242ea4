// Character rules at their edges (docs/rules/progression.md, Character): what each
// refusal names, a support party's name and count exactly at their limits and one
// past, the party numbers an answer gives, and requests that change nothing (the
// identity contract, docs/architecture.md: what is not changed is kept, so the answer
// lists no change and the version stays).
import test from 'ava';
import { characterAt, characterTotalExp, fails, master, ok, patchCharacter, withCharacters, withWealth } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { OwnedCharacter, PlayerState } from '../../core/state.js';

const m = master();
const STAR5 = 1011; // ★5 Fighter of Flame: cap 60, +5 per limit break (4), +20 evolved; limit-break item 101011
const STAR3 = 1013; // ★3 Cleric: limit-break item 101013, 5 per limit break
const IRON_ORE = 5001; // a material, not an exp item
const support = m.progression.support; // 5 parties of 3, names 1–16 characters

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const ch = characterAt;
const patch = patchCharacter;
const totalExp = (level: number) => characterTotalExp(level, m);
/** Master data an operator retuned: one character's definition or evolution gone while players still own it. */
const withoutCharacter = (id: number): Master => ({ ...m, character: new Map([...m.character].filter(([k]) => k !== id)) });
const withoutEvolution = (id: number): Master => ({ ...m, characterEvolution: new Map([...m.characterEvolution].filter(([k]) => k !== id)) });

// ---- upgrade ----
test('upgrade with an item that is not an exp item is 102 on items, naming the item', (t) => {
  const s = withCharacters([STAR5], { gold: 10_000, items: { [IRON_ORE]: 3 } });
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId, items: [{ itemId: IRON_ORE, amount: 1 }] });
  t.like(e, { field: 'items' });
  t.regex(reasonOf(e), /item 5001 is not an exp item/);
});

// ---- limitBreak ----
test('limitBreak: a character master data no longer defines is 107 naming the character', (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 10 } });
  const e = fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId }, { m: withoutCharacter(STAR3) });
  t.like(e, { entity: 'character', id: STAR3 });
});

test('limitBreak: an unknown item is 107 naming the item; another character\'s item is 102 on itemId, naming it', (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 10, 101011: 10 } });
  const id = ch(s).managedCharacterId;
  t.like(fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 424242 }), { entity: 'item', id: 424242 });
  const e = fails(t, 'INVALID_PARAMETERS', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 101011 });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /item 101011 /);
});

// ---- evolution ----
const ready = (w: Parameters<typeof withWealth>[1] = { gold: 200_000, items: { 4001: 20, 4100: 3 } }) =>
  patch(withCharacters([STAR5], w), { limitBreak: 4, level: 80, exp: totalExp(80) });

test('evolution: a character master data has no evolution for is 107 naming the character', (t) => {
  const s = ready();
  const e = fails(t, 'NOT_FOUND', 'evolutionPlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId }, { m: withoutEvolution(STAR5) });
  t.like(e, { entity: 'character evolution', id: STAR5 });
});

test('evolution of an evolved character at its raised cap is 317 (already evolved), nothing paid', (t) => {
  // Evolved, 4 limit breaks, level 100 = its evolved cap: only "already evolved" refuses it.
  const s = patch(ready(), { evolved: true, view: 1, level: 100, exp: totalExp(100) });
  const e = fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId });
  t.regex(reasonOf(e), /already evolved/);
});

test('evolution refusals name what is missing: the limit breaks needed and had, the level needed and had', (t) => {
  const s = ready();
  const id = ch(s).managedCharacterId;
  const lb = fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { limitBreak: 3, level: 75, exp: totalExp(75) }), { managedCharacterId: id });
  t.regex(reasonOf(lb), /needs 4 limit breaks, the character has 3/);
  const lv = fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { level: 79, exp: totalExp(79) }), { managedCharacterId: id });
  t.regex(reasonOf(lv), /needs level 80, the character is level 79/);
});

// ---- views ----
test('set_view 1 on a character that is not evolved is 317 saying only an evolved character has it', (t) => {
  const s = withCharacters([STAR5]);
  const e = fails(t, 'STATE_CONFLICT', 'setViewPlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId, view: 1 });
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
test('set_shown refusals name the list (none named, 103) and the character not owned (107)', (t) => {
  const s = withCharacters([STAR5]);
  t.like(fails(t, 'INSUFFICIENT_PARAMETERS', 'setShownPlayerCharacter', s, { managedCharacterIds: [] }), { field: 'managedCharacterIds' });
  t.like(fails(t, 'NOT_FOUND', 'setShownPlayerCharacter', s, { managedCharacterIds: [ch(s).managedCharacterId, 999_999] }), { entity: 'character', id: 999_999 });
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

// ---- support parties ----
const names = (n: number) => 'x'.repeat(n);

test('support/set_all: exactly the party limit (5) is accepted, numbered 1 to 5; one more is 297 naming the limit', (t) => {
  const s = withCharacters([STAR5, STAR3]);
  const [a, b] = s.characters.map((c) => c.managedCharacterId);
  const parties = Array.from({ length: support.parties }, (_, i) => ({ name: `P${i + 1}`, managedCharacterIds: i % 2 ? [a] : [b] }));
  const r = ok(t, 'setAllPlayerCharacterSupport', s, { supportParties: parties });
  t.deepEqual(r.response.supportParties.map((p) => p.supportPartyNo), [1, 2, 3, 4, 5]);
  t.deepEqual(r.response.supportParties[1], { supportPartyNo: 2, name: 'P2', managedCharacterIds: [a] });
  t.is(r.state.supportParties.length, support.parties);
  const e = fails(t, 'SUPPORT_LIMIT', 'setAllPlayerCharacterSupport', s, { supportParties: [...parties, { name: 'P6', managedCharacterIds: [] }] });
  t.like(e, { max: support.parties });
});

test('support/set_all: a name of exactly 16 characters is accepted, 17 is 102 naming the party\'s name field and the limit', (t) => {
  const s = withCharacters([STAR5]);
  const r = ok(t, 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: names(support.nameMaxLength), managedCharacterIds: [] }] });
  t.is(r.state.supportParties[0]?.name, names(16));
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: 'ok', managedCharacterIds: [] }, { name: names(support.nameMaxLength + 1), managedCharacterIds: [] }],
  });
  t.like(e, { field: 'supportParties.1.name' });
  t.regex(reasonOf(e), /1 to 16 characters/);
});

test('support/set_all: a name counts characters, not UTF-16 units (16 characters outside the BMP are accepted)', (t) => {
  const s = withCharacters([STAR5]);
  const wide = '𠀋'.repeat(support.nameMaxLength); // 32 UTF-16 units
  const r = ok(t, 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: wide, managedCharacterIds: [] }] });
  t.is(r.state.supportParties[0]?.name, wide);
});

test('support/set_all: a repeat is 102 naming the party\'s list; a character not owned is 107 naming it', (t) => {
  const s = withCharacters([STAR5]);
  const a = ch(s).managedCharacterId;
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: 'A', managedCharacterIds: [a] }, { name: 'B', managedCharacterIds: [a, a] }],
  });
  t.like(e, { field: 'supportParties.1.managedCharacterIds' });
  t.regex(reasonOf(e), /twice/);
  t.like(fails(t, 'NOT_FOUND', 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: 'A', managedCharacterIds: [a, 999_999] }] }), { entity: 'character', id: 999_999 });
});

test('support/set_name: a bad name is 102 on name; a party that does not exist is 107 naming its number; the same name changes nothing', (t) => {
  const s = ok(t, 'setAllPlayerCharacterSupport', withCharacters([STAR5]), { supportParties: [{ name: 'A', managedCharacterIds: [] }, { name: 'B', managedCharacterIds: [] }] }).state;
  const bad = fails(t, 'INVALID_PARAMETERS', 'setNamePlayerCharacterSupport', s, { supportPartyNo: 1, name: names(17) });
  t.like(bad, { field: 'name' });
  t.like(fails(t, 'NOT_FOUND', 'setNamePlayerCharacterSupport', s, { supportPartyNo: 3, name: 'C' }), { entity: 'support party', id: 3 });
  const same = ok(t, 'setNamePlayerCharacterSupport', s, { supportPartyNo: 2, name: 'B' });
  t.false(same.changed);
  t.is(same.state, s);
  t.deepEqual({ supportPartyNo: same.response.supportPartyNo, name: same.response.name }, { supportPartyNo: 2, name: 'B' });
  const exact = ok(t, 'setNamePlayerCharacterSupport', s, { supportPartyNo: 1, name: names(16) });
  t.is(exact.state.supportParties[0]?.name, names(16));
});
