// Evolution (docs/rules/progression.md, Character): at the last limit break's cap it pays
// items and coins, raises the cap and sets the evolved view; refusals name what is missing
// (the limit breaks, the level), an evolution master data lacks, or that it is done.
import test from 'ava';
import {
  characterAt,
  characterTotalExp,
  fails,
  master,
  ok,
  itemsOf,
  patchCharacter,
  withWealth,
  withCharacters,
} from '../../_support/core.js';
import { levelCap } from '../../../core/shared/growth.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

const m = master();

const ch = characterAt;
const patch = patchCharacter;
const totalExp = (level: number) => characterTotalExp(level, m);
const STAR5 = 1011; // ★5 Fighter of Flame: cap 60, +5 per limit break (4), +20 evolved; limit-break item 101011

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const withoutEvolution = (id: number): Master => ({
  ...m,
  characterEvolution: new Map([...m.characterEvolution].filter(([k]) => k !== id)),
});

const ready = (w: Parameters<typeof withWealth>[1] = { gold: 200_000, items: { 4001: 20, 4100: 3 } }) =>
  patch(withCharacters([STAR5], w), { limitBreak: 4, level: 80, exp: totalExp(80) });

test("evolution at the last limit break's cap pays items and coins, raises the cap and sets the evolved view", (t) => {
  const s = ready({ gold: 200_000, items: { 4001: 20, 4100: 3 } });
  const r = ok(t, 'evolutionPlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId });
  const c = ch(r.state);
  t.true(c.evolved);
  t.is(c.view, 1);
  t.is(levelCap(m, c), 100);
  t.is(r.state.gold, 100_000);
  t.is(itemsOf(r.state)['4001'], undefined);
  t.is(itemsOf(r.state)['4100'], undefined);
});

test('evolution errors: evolved 317, limit breaks missing 317, below the cap 317, short of items 442 or coins 441, unknown 107', (t) => {
  const s = ready({ gold: 200_000, items: { 4001: 20, 4100: 3 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { evolved: true }), { managedCharacterId: id });
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { limitBreak: 3, level: 75, exp: totalExp(75) }), {
    managedCharacterId: id,
  });
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { level: 79, exp: totalExp(79) }), {
    managedCharacterId: id,
  });
  fails(t, 'ITEM_IS_SHORT', 'evolutionPlayerCharacter', withWealth(s, { items: { 4001: 19 } }), {
    managedCharacterId: id,
  });
  fails(t, 'GOLD_IS_SHORT', 'evolutionPlayerCharacter', withWealth(s, { gold: 99_999 }), { managedCharacterId: id });
  fails(t, 'NOT_FOUND', 'evolutionPlayerCharacter', s, { managedCharacterId: 999_999 });
});

test('evolution: a character master data has no evolution for is 107 naming the character', (t) => {
  const s = ready();
  const e = fails(
    t,
    'NOT_FOUND',
    'evolutionPlayerCharacter',
    s,
    { managedCharacterId: ch(s).managedCharacterId },
    { m: withoutEvolution(STAR5) },
  );
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
  const lb = fails(
    t,
    'STATE_CONFLICT',
    'evolutionPlayerCharacter',
    patch(s, { limitBreak: 3, level: 75, exp: totalExp(75) }),
    { managedCharacterId: id },
  );
  t.regex(reasonOf(lb), /needs 4 limit breaks, the character has 3/);
  const lv = fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { level: 79, exp: totalExp(79) }), {
    managedCharacterId: id,
  });
  t.regex(reasonOf(lv), /needs level 80, the character is level 79/);
});
