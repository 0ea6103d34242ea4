// Support parties (docs/rules/progression.md, Character): support/set_all replaces them,
// support/set_name renames one. The party limit and a name's length exactly at their limit
// and one past (names count characters, not UTF-16 units); each refusal names the field.
import test from 'ava';
import { fails, master, ok, withCharacters, characterAt } from '../../_support/core.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
// 1011: ★5 Fighter of Flame (cap 60 → 80 after 4 limit breaks → 100 evolved); 1013: ★3 Cleric of Stone.
const STAR5 = 1011;
const STAR3 = 1013; // ★3 Cleric: limit-break item 101013, 5 per limit break
const support = m.progression.support; // 5 parties of 3, names 1–16 characters

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const ch = characterAt;

const names = (n: number) => 'x'.repeat(n);

test('support/set_all replaces the support parties', (t) => {
  const s = withCharacters([STAR5, STAR3, 1012]);
  const [a, b, c] = s.characters.map((x) => x.managedCharacterId);
  const r = ok(t, 'setAllPlayerCharacterSupport', s, {
    supportParties: [
      { name: 'Main', managedCharacterIds: [a, b, c] },
      { name: 'Flame', managedCharacterIds: [a] },
    ],
  });
  t.deepEqual(r.state.supportParties, [
    { name: 'Main', managedCharacterIds: [a, b, c] },
    { name: 'Flame', managedCharacterIds: [a] },
  ]);
  t.truthy(r.response.supportParties);
  const again = ok(t, 'setAllPlayerCharacterSupport', r.state, { supportParties: [] });
  t.deepEqual(again.state.supportParties, []);
});

test('support/set_all errors: too many parties 297, too many characters 296, a repeat 102, not owned 107, a bad name 102', (t) => {
  const s = withCharacters([STAR5, STAR3, 1012, 1014]);
  const [a, b, c, d] = s.characters.map((x) => x.managedCharacterId);
  const party = { name: 'P', managedCharacterIds: [a] };
  fails(t, 'SUPPORT_LIMIT', 'setAllPlayerCharacterSupport', s, {
    supportParties: Array.from({ length: m.progression.support.parties + 1 }, () => party),
  });
  fails(t, 'SUPPORT_CHAR_LIMIT', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: 'P', managedCharacterIds: [a, b, c, d] }],
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: 'P', managedCharacterIds: [a, a] }],
  });
  fails(t, 'NOT_FOUND', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: 'P', managedCharacterIds: [999_999] }],
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: 'x'.repeat(m.progression.support.nameMaxLength + 1), managedCharacterIds: [a] }],
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: '', managedCharacterIds: [a] }],
  });
});

test('support/set_name renames one party; unknown party 107; a bad name 102', (t) => {
  const s0 = withCharacters([STAR5]);
  const s = ok(t, 'setAllPlayerCharacterSupport', s0, {
    supportParties: [
      { name: 'A', managedCharacterIds: [] },
      { name: 'B', managedCharacterIds: [] },
    ],
  }).state;
  const r = ok(t, 'setNamePlayerCharacterSupport', s, { supportPartyNo: 2, name: 'Second' });
  t.deepEqual(
    r.state.supportParties.map((p) => p.name),
    ['A', 'Second'],
  );
  t.is(r.state.supportParties[0], s.supportParties[0]);
  fails(t, 'NOT_FOUND', 'setNamePlayerCharacterSupport', s, { supportPartyNo: 3, name: 'C' });
  fails(t, 'INVALID_PARAMETERS', 'setNamePlayerCharacterSupport', s, {
    supportPartyNo: 1,
    name: 'x'.repeat(m.progression.support.nameMaxLength + 1),
  });
});

test('support/set_all: exactly the party limit (5) is accepted, numbered 1 to 5; one more is 297 naming the limit', (t) => {
  const s = withCharacters([STAR5, STAR3]);
  const [a, b] = s.characters.map((c) => c.managedCharacterId);
  const parties = Array.from({ length: support.parties }, (_, i) => ({
    name: `P${i + 1}`,
    managedCharacterIds: i % 2 ? [a] : [b],
  }));
  const r = ok(t, 'setAllPlayerCharacterSupport', s, { supportParties: parties });
  t.deepEqual(
    r.response.supportParties.map((p) => p.supportPartyNo),
    [1, 2, 3, 4, 5],
  );
  t.deepEqual(r.response.supportParties[1], { supportPartyNo: 2, name: 'P2', managedCharacterIds: [a] });
  t.is(r.state.supportParties.length, support.parties);
  const e = fails(t, 'SUPPORT_LIMIT', 'setAllPlayerCharacterSupport', s, {
    supportParties: [...parties, { name: 'P6', managedCharacterIds: [] }],
  });
  t.like(e, { max: support.parties });
});

test("support/set_all: a name of exactly 16 characters is accepted, 17 is 102 naming the party's name field and the limit", (t) => {
  const s = withCharacters([STAR5]);
  const r = ok(t, 'setAllPlayerCharacterSupport', s, {
    supportParties: [{ name: names(support.nameMaxLength), managedCharacterIds: [] }],
  });
  t.is(r.state.supportParties[0]?.name, names(16));
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [
      { name: 'ok', managedCharacterIds: [] },
      { name: names(support.nameMaxLength + 1), managedCharacterIds: [] },
    ],
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

test("support/set_all: a repeat is 102 naming the party's list; a character not owned is 107 naming it", (t) => {
  const s = withCharacters([STAR5]);
  const a = ch(s).managedCharacterId;
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, {
    supportParties: [
      { name: 'A', managedCharacterIds: [a] },
      { name: 'B', managedCharacterIds: [a, a] },
    ],
  });
  t.like(e, { field: 'supportParties.1.managedCharacterIds' });
  t.regex(reasonOf(e), /twice/);
  t.like(
    fails(t, 'NOT_FOUND', 'setAllPlayerCharacterSupport', s, {
      supportParties: [{ name: 'A', managedCharacterIds: [a, 999_999] }],
    }),
    { entity: 'character', id: 999_999 },
  );
});

test('support/set_name: a bad name is 102 on name; a party that does not exist is 107 naming its number; the same name changes nothing', (t) => {
  const s = ok(t, 'setAllPlayerCharacterSupport', withCharacters([STAR5]), {
    supportParties: [
      { name: 'A', managedCharacterIds: [] },
      { name: 'B', managedCharacterIds: [] },
    ],
  }).state;
  const bad = fails(t, 'INVALID_PARAMETERS', 'setNamePlayerCharacterSupport', s, {
    supportPartyNo: 1,
    name: names(17),
  });
  t.like(bad, { field: 'name' });
  t.like(fails(t, 'NOT_FOUND', 'setNamePlayerCharacterSupport', s, { supportPartyNo: 3, name: 'C' }), {
    entity: 'support party',
    id: 3,
  });
  const same = ok(t, 'setNamePlayerCharacterSupport', s, { supportPartyNo: 2, name: 'B' });
  t.false(same.changed);
  t.is(same.state, s);
  t.deepEqual(
    { supportPartyNo: same.response.supportPartyNo, name: same.response.name },
    { supportPartyNo: 2, name: 'B' },
  );
  const exact = ok(t, 'setNamePlayerCharacterSupport', s, { supportPartyNo: 1, name: names(16) });
  t.is(exact.state.supportParties[0]?.name, names(16));
});
