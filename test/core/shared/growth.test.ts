// Levels and exp shared by characters and weapons (core/shared/growth.ts): exp gains capped
// at the level cap, material items used one at a time until the cap, and what a refused
// request says about the part it refuses.
import test from 'ava';
import { fails, freshPlayer, itemsOf, master, NOW, ok, withWealth, grantCharacters } from '../../_support/core.js';
import { tryGrant } from '../../../core/shared/grant.js';
import { addCharacterExp, characterTotals, levelCap, levelFor, weaponTotals } from '../../../core/shared/growth.js';
import type { Master } from '../../../core/master/index.js';
import { MINUTE } from '../../../core/time.js';
import type { OwnedCharacter, PlayerState } from '../../../core/state.js';

const m = master();
const STAR5 = 1011; // ★5 Fighter of Flame: cap 60
const STAR3 = 1013; // ★3 Cleric of Stone: cap 50
const FLAME_SMALL = 2001; // 100 exp, Flame (150 on a Flame character)
const FLAME_LARGE = 2003; // 2000 exp, Flame (3000 on a Flame character)
const TIDE_SMALL = 2004; // 100 exp, Tide
const WHET = 10001; // a weapon exp item
const PLAIN_BLADE = 103; // ★3 weapon, exp table 1
const MORNING = 1; // training: 60 min, 1 character, exp per character from trainings.json

const totalExp = (level: number): number => m.characterLevels[level - 1]?.totalExp ?? 0;

const withCharacters = (ids: number[], w: Parameters<typeof withWealth>[1] = {}): PlayerState => {
  return withWealth(grantCharacters(freshPlayer(), ids), w);
};
const ch = (s: PlayerState, i = 0): OwnedCharacter => s.characters[i] as OwnedCharacter;
const patch = (s: PlayerState, c: Partial<OwnedCharacter>, i = 0): PlayerState => ({
  ...s,
  characters: s.characters.map((x, j) => (j === i ? { ...x, ...c } : x)),
});

// ---- exp tables ----

test("the level for an exp is the highest whose total it reaches, and never past the table's last level", (t) => {
  const totals = characterTotals(m);
  t.is(levelFor(totals, 0), 1);
  t.is(levelFor(totals, totalExp(2) - 1), 1);
  t.is(levelFor(totals, totalExp(2)), 2);
  t.is(levelFor(totals, totalExp(totals.length)), totals.length);
  t.is(levelFor(totals, Number.MAX_SAFE_INTEGER), totals.length);
  t.is(levelFor(totals, Number.POSITIVE_INFINITY), totals.length, 'whatever the exp');
});

test("every weapon's exp table starts at level 1 with 0 exp; a weapon master data no longer knows has just that level", (t) => {
  for (const w of m.weapon.values())
    t.is(weaponTotals(m, { managedWeaponId: 1, weaponId: w.weaponId, level: 1, exp: 0, createdAt: NOW })[0], 0);
  t.deepEqual(weaponTotals(m, { managedWeaponId: 1, weaponId: 999_998, level: 1, exp: 0, createdAt: NOW }), [0]);
});

// ---- level caps ----

test("a character's level cap is its rarity's base cap + limit breaks × step + the evolution bonus when evolved (shown as levelLimit)", (t) => {
  const s0 = withCharacters([STAR5, STAR3]);
  const r5 = m.rarity.get(m.character.get(STAR5)!.rarity)!;
  const r3 = m.rarity.get(m.character.get(STAR3)!.rarity)!;
  const s = patch(patch(s0, { limitBreak: 3, evolved: true }, 0), { limitBreak: 2, evolved: false }, 1);
  t.is(levelCap(m, ch(s0)), r5.baseLevelCap, 'no limit break, not evolved: the base cap');
  t.is(levelCap(m, ch(s, 0)), r5.baseLevelCap + 3 * r5.limitBreakStep + r5.evolutionBonus);
  t.is(levelCap(m, ch(s, 1)), r3.baseLevelCap + 2 * r3.limitBreakStep);
  const view = ok(t, 'getAllPlayer', s, {}).response.managedCharacters;
  t.deepEqual(
    view.map((c) => c.levelLimit),
    [levelCap(m, ch(s, 0)), levelCap(m, ch(s, 1))],
  );
});

// ---- exp gains (training, quests) ----

test('a training whose character is already at its cap gives no exp and leaves the character list as it was (not resent)', (t) => {
  const s0 = withCharacters([STAR5, STAR3], { gold: 100_000 });
  const cap = levelCap(m, ch(s0, 1));
  const s = patch(s0, { level: cap, exp: totalExp(cap) }, 1);
  const id = ch(s, 1).managedCharacterId;
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id] }).state;
  const r = ok(t, 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  t.deepEqual(r.response.characters, [{ managedCharacterId: id, exp: 0, level: cap }]);
  t.is(r.state.characters, a.characters, 'the same list: nothing changed');
  t.is(r.response.managedCharacters, undefined, "an unchanged list is not in the answer's changes");
});

test('a training below the cap gives its exp, and the changed character is sent', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000 });
  const id = ch(s).managedCharacterId;
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id] }).state;
  const r = ok(t, 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  const gain = m.training.get(MORNING)!.expPerCharacter;
  t.is(ch(r.state).exp, gain);
  t.truthy(r.response.managedCharacters);
});

test('an exp gain of zero or less never takes exp away: the same character comes back', (t) => {
  const c = { ...ch(withCharacters([STAR5])), level: 3, exp: totalExp(3) + 20 };
  t.is(addCharacterExp(m, c, 0), c);
  t.is(addCharacterExp(m, c, -100), c);
  t.is(addCharacterExp(m, c, 10).exp, totalExp(3) + 30);
});

test('a zero exp gain changes nothing even for a character left above its cap by a retune that lowered the cap', (t) => {
  const c0 = ch(withCharacters([STAR5]));
  const rarity = m.character.get(STAR5)!.rarity;
  const r = m.rarity.get(rarity)!;
  // The operator lowers the ★5 base cap by 10; the character had reached the old cap.
  const retuned: Master = { ...m, rarity: new Map(m.rarity).set(rarity, { ...r, baseLevelCap: r.baseLevelCap - 10 }) };
  const c = { ...c0, level: r.baseLevelCap, exp: totalExp(r.baseLevelCap) };
  t.true(levelCap(retuned, c) < c.level, 'the case: above the retuned cap');
  t.is(addCharacterExp(retuned, c, 0), c);
});

test('an exp gain never takes levels away from a character left above its cap by a retune that lowered the cap', (t) => {
  const c0 = ch(withCharacters([STAR5]));
  const rarity = m.character.get(STAR5)!.rarity;
  const r = m.rarity.get(rarity)!;
  const retuned: Master = { ...m, rarity: new Map(m.rarity).set(rarity, { ...r, baseLevelCap: r.baseLevelCap - 10 }) };
  const c = { ...c0, level: r.baseLevelCap, exp: totalExp(r.baseLevelCap) };
  const after = addCharacterExp(retuned, c, 100);
  t.is(after.level, c.level, 'the level reached before the retune stays');
  t.is(after.exp, c.exp, 'the exp stays; the gain past the (lowered) cap is lost');
});

// ---- upgrade with material items ----

test('upgrade uses the items in order until the cap; the items after it stay in the box and are not listed as used', (t) => {
  // One level below the cap: two small candies (150 each, Flame on Flame) do not reach it, the large one does.
  const s0 = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 2, [FLAME_LARGE]: 1, [TIDE_SMALL]: 3 } });
  const cap = levelCap(m, ch(s0));
  t.true(
    totalExp(cap) - totalExp(cap - 1) > 2 * 150 && totalExp(cap) - totalExp(cap - 1) - 2 * 150 <= 3000,
    'the fixture fits the case',
  );
  const s = patch(s0, { level: cap - 1, exp: totalExp(cap - 1) });
  const r = ok(t, 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [
      { itemId: FLAME_SMALL, amount: 2 },
      { itemId: FLAME_LARGE, amount: 1 },
      { itemId: TIDE_SMALL, amount: 3 },
    ],
  });
  t.like(ch(r.state), { level: cap, exp: totalExp(cap) });
  t.deepEqual(r.response.usedItems, [
    { itemId: FLAME_SMALL, amount: 2 },
    { itemId: FLAME_LARGE, amount: 1 },
  ]);
  t.is(itemsOf(r.state)[String(TIDE_SMALL)], 3, 'the tide candies were not used');
  // Each item used costs level × 20 + 80 at the level before it: all three at cap - 1.
  t.is(s.gold - r.state.gold, 3 * ((cap - 1) * 20 + 80));
});

test('upgrade changes only the character or weapon named, among several', (t) => {
  const s0 = withCharacters([STAR5, STAR3], { gold: 100_000, items: { [FLAME_SMALL]: 1, [WHET]: 1 } });
  const granted = tryGrant(m, s0, { kind: 'weapon', objectId: PLAIN_BLADE, amount: 2 }, NOW);
  if (granted._tag === 'Left') return t.fail(granted.left.code);
  const s = granted.right.state;
  const c = ok(t, 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s, 1).managedCharacterId,
    items: [{ itemId: FLAME_SMALL, amount: 1 }],
  });
  t.is(ch(c.state, 0), ch(s, 0), 'the other character is untouched');
  const candy = m.item.get(FLAME_SMALL)?.exp ?? 0;
  t.true(candy > 0);
  t.is(ch(c.state, 1).exp, candy, "the Stone character gets the candy's plain exp");
  const second = s.weapons[1]!;
  const w = ok(t, 'upgradePlayerWeapon', s, {
    managedWeaponId: second.managedWeaponId,
    items: [{ itemId: WHET, amount: 1 }],
  });
  t.is(w.state.weapons[0], s.weapons[0], 'the other weapon is untouched');
  t.is(w.state.weapons[1]?.exp, m.weaponExpItem.get(WHET)!);
});

test('asking for more of an item than is held is 442 with what is needed and what is held', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 5 } });
  const id = ch(s).managedCharacterId;
  t.like(
    fails(t, 'ITEM_IS_SHORT', 'upgradePlayerCharacter', s, {
      managedCharacterId: id,
      items: [{ itemId: FLAME_SMALL, amount: 6 }],
    }),
    { itemId: FLAME_SMALL, need: 6, have: 5 },
  );
  // The same item named twice counts together.
  fails(t, 'ITEM_IS_SHORT', 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [
      { itemId: FLAME_SMALL, amount: 3 },
      { itemId: FLAME_SMALL, amount: 3 },
    ],
  });
  ok(t, 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 5 }] });
  // Checked against what the request names, even when fewer would reach the cap: one large candy would do here.
  const cap = levelCap(m, ch(s));
  const near = patch(withCharacters([STAR5], { gold: 100_000, items: { [FLAME_LARGE]: 1 } }), {
    level: cap - 1,
    exp: totalExp(cap - 1),
  });
  t.like(
    fails(t, 'ITEM_IS_SHORT', 'upgradePlayerCharacter', near, {
      managedCharacterId: ch(near).managedCharacterId,
      items: [{ itemId: FLAME_LARGE, amount: 2 }],
    }),
    { itemId: FLAME_LARGE, need: 2, have: 1 },
  );
});

test("an item amount exactly at the item's maximum is accepted; one more is 102 naming the items and the maximum", (t) => {
  const max = m.item.get(FLAME_SMALL)!.max;
  const s = withCharacters([STAR5], { gold: 10_000_000, items: { [FLAME_SMALL]: max } });
  const id = ch(s).managedCharacterId;
  const r = ok(t, 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: FLAME_SMALL, amount: max }],
  });
  t.is(ch(r.state).level, levelCap(m, ch(s)));
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: FLAME_SMALL, amount: max + 1 }],
  });
  t.like(e, { field: 'items' });
  if (e.code !== 'INVALID_PARAMETERS') return;
  t.true(
    e.reason.includes(String(FLAME_SMALL)) && e.reason.includes(String(max)),
    `the reason names the item and its maximum: ${e.reason}`,
  );
});

test('a request naming no items is 102 on the items field, with a reason', (t) => {
  const s = withCharacters([STAR5], { gold: 1000 });
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [],
  });
  t.like(e, { field: 'items' });
  if (e.code === 'INVALID_PARAMETERS') t.true(e.reason.length > 0);
});

test('an item that is not a material for this use is 102 naming the item', (t) => {
  const NOT_EXP = 5001;
  const s = withCharacters([STAR5], { gold: 1000, items: { [NOT_EXP]: 1 } });
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [{ itemId: NOT_EXP, amount: 1 }],
  });
  t.like(e, { field: 'items' });
  if (e.code === 'INVALID_PARAMETERS')
    t.true(e.reason.includes(String(NOT_EXP)), `the reason names the item: ${e.reason}`);
});

test('unknown things are 107 naming what was not found and its id: an item, a character, a weapon', (t) => {
  const s = withCharacters([STAR5], { gold: 1000, items: { [FLAME_SMALL]: 1 } });
  t.like(
    fails(t, 'NOT_FOUND', 'upgradePlayerCharacter', s, {
      managedCharacterId: ch(s).managedCharacterId,
      items: [{ itemId: 7777, amount: 1 }],
    }),
    { entity: 'item', id: 7777 },
  );
  t.like(
    fails(t, 'NOT_FOUND', 'upgradePlayerCharacter', s, {
      managedCharacterId: 999_999,
      items: [{ itemId: FLAME_SMALL, amount: 1 }],
    }),
    { entity: 'character', id: 999_999 },
  );
  t.like(
    fails(t, 'NOT_FOUND', 'upgradePlayerWeapon', s, { managedWeaponId: 999_999, items: [{ itemId: WHET, amount: 1 }] }),
    { entity: 'weapon', id: 999_999 },
  );
});

test("an owned weapon that master data no longer knows is 107 naming the weapon's master id", (t) => {
  const s0 = withWealth(freshPlayer(), { gold: 1000, items: { [WHET]: 1 } });
  const GONE = 999_998;
  const managedWeaponId = s0.nextManagedId;
  const s: PlayerState = {
    ...s0,
    nextManagedId: managedWeaponId + 1,
    weapons: [{ managedWeaponId, weaponId: GONE, level: 1, exp: 0, createdAt: NOW }],
  };
  t.false(m.weapon.has(GONE));
  t.like(fails(t, 'NOT_FOUND', 'upgradePlayerWeapon', s, { managedWeaponId, items: [{ itemId: WHET, amount: 1 }] }), {
    entity: 'weapon',
    id: GONE,
  });
});
