// Limit breaks (docs/rules/progression.md, Character): the character's own item or the
// universal one, the rarity's amount, the cap raised by a step up to the most limit breaks;
// refusals name the character or item at fault.
import test from 'ava';
import {
  characterAt,
  fails,
  master,
  ok,
  itemsOf,
  patchCharacter,
  withCharacters,
  withWealth,
} from '../../_support/core.js';
import { levelCap } from '../../../core/shared/growth.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const STAR3 = 1013; // ★3 Cleric: limit-break item 101013, 5 per limit break

const ch = characterAt;
const patch = patchCharacter;

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
/** Master data an operator retuned: one character's definition or evolution gone while players still own it. */
const withoutCharacter = (id: number): Master => ({
  ...m,
  character: new Map([...m.character].filter(([k]) => k !== id)),
});

test("limitBreak with the own item uses the rarity's amount and raises the cap by the step", (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 7 } });
  const c = ch(s);
  const r = ok(t, 'limitbreakPlayerCharacter', s, { managedCharacterId: c.managedCharacterId });
  t.is(ch(r.state).limitBreak, 1);
  t.is(itemsOf(r.state)['101013'], 2);
  t.is(levelCap(m, ch(r.state)), 55);
});

test('limitBreak with the universal item named counts the same as the own item', (t) => {
  const s = withCharacters([STAR3], { items: { 9001: 5, 101013: 5 } });
  const r = ok(t, 'limitbreakPlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId, itemId: 9001 });
  t.is(itemsOf(r.state)['9001'], undefined);
  t.is(itemsOf(r.state)['101013'], 5);
});

test("limitBreak errors: another character's item 102, unknown item 107, unknown character 107, short 442, at the maximum 308", (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 4, 101011: 9 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'INVALID_PARAMETERS', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 101011 });
  fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 424242 });
  fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: 999_999 });
  fails(t, 'ITEM_IS_SHORT', 'limitbreakPlayerCharacter', s, { managedCharacterId: id });
  fails(
    t,
    'LIMIT_BREAK_LIMIT',
    'limitbreakPlayerCharacter',
    patch(withWealth(s, { items: { 101013: 50 } }), { limitBreak: 4 }),
    { managedCharacterId: id },
  );
});

test('limitBreak: a character master data no longer defines is 107 naming the character', (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 10 } });
  const e = fails(
    t,
    'NOT_FOUND',
    'limitbreakPlayerCharacter',
    s,
    { managedCharacterId: ch(s).managedCharacterId },
    { m: withoutCharacter(STAR3) },
  );
  t.like(e, { entity: 'character', id: STAR3 });
});

test("limitBreak: an unknown item is 107 naming the item; another character's item is 102 on itemId, naming it", (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 10, 101011: 10 } });
  const id = ch(s).managedCharacterId;
  t.like(fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 424242 }), {
    entity: 'item',
    id: 424242,
  });
  const e = fails(t, 'INVALID_PARAMETERS', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 101011 });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /item 101011 /);
});
