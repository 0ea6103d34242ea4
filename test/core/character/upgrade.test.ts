// Character upgrade (docs/rules/progression.md, Character): exp items at coins per item by
// level, a matching element's bonus, exp past the level cap lost and the items after it
// kept; what each refusal names; and the answer's character as managedCharacters shows it.
// The exp rules shared with weapons: test/core/shared/growth.test.ts.
import test from 'ava';
import fc from 'fast-check';
import {
  characterAt,
  characterTotalExp,
  fails,
  master,
  ok,
  runOp,
  itemsOf,
  patchCharacter,
  withCharacters,
} from '../../_support/core.js';
import { levelCap } from '../../../core/shared/growth.js';
import { mergeItems } from '../../../core/shared/pay.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
// 1011: ★5 Fighter of Flame (cap 60 → 80 after 4 limit breaks → 100 evolved); 1013: ★3 Cleric of Stone.
const STAR5 = 1011;
const STAR3 = 1013;
const FLAME_LARGE = 2003; // 2000 exp, Flame
const TIDE_SMALL = 2004; // 100 exp, Tide
const FLAME_SMALL = 2001; // 100 exp, Flame

const ch = characterAt;
const patch = patchCharacter;
const totalExp = (level: number) => characterTotalExp(level, m);
const IRON_ORE = 5001; // a material, not an exp item

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('upgrade: each item costs level × 20 + 80 coins at the level before it, and a matching element gives 150% exp', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 2, [TIDE_SMALL]: 1 } });
  const r = ok(t, 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [
      { itemId: FLAME_SMALL, amount: 2 },
      { itemId: TIDE_SMALL, amount: 1 },
    ],
  });
  const c = ch(r.state);
  t.is(c.exp, 150 + 150 + 100);
  // Levels: 0 → 150 (level 2: 120), → 300 (level 3: 280), → 400 (level 3).
  t.is(c.level, 3);
  t.is(s.gold - r.state.gold, 1 * 20 + 80 + (2 * 20 + 80) + (3 * 20 + 80));
  t.is(itemsOf(r.state)[String(FLAME_SMALL)], undefined);
  t.is(itemsOf(r.state)[String(TIDE_SMALL)], undefined);
  t.truthy(r.response.managedCharacters, 'the response carries what changed');
  t.truthy(r.response.player);
});

test('upgrade, limit break and set_view answer the character as its managedCharacters entry shows it (levelLimit, the time as text)', (t) => {
  const s = withCharacters([STAR5], {
    gold: 100_000,
    items: { [FLAME_SMALL]: 1, [m.character.get(STAR5)!.limitBreakItemId]: 10 },
  });
  const id = ch(s).managedCharacterId;
  const up = ok(t, 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: FLAME_SMALL, amount: 1 }],
  });
  t.deepEqual(up.response.managedCharacter, up.response.managedCharacters?.[0]);
  t.is(up.response.managedCharacter.levelLimit, levelCap(m, ch(up.state)));
  t.is(typeof up.response.managedCharacter.createdAt, 'string');
  const lb = ok(t, 'limitbreakPlayerCharacter', up.state, { managedCharacterId: id });
  t.deepEqual(lb.response.managedCharacter, lb.response.managedCharacters?.[0]);
  t.is(lb.response.managedCharacter.levelLimit, levelCap(m, ch(lb.state)), 'the cap the limit break raised');
  const same = ok(t, 'setViewPlayerCharacter', lb.state, { managedCharacterId: id, view: 0 });
  t.is(same.state, lb.state, 'the same view changes nothing');
  t.deepEqual(same.response.managedCharacter, lb.response.managedCharacter);
});

test('upgrade: exp past the cap is lost and items after the cap are not used or charged', (t) => {
  const s = withCharacters([STAR5], { gold: 10_000_000, items: { [FLAME_LARGE]: 500 } });
  const r = ok(t, 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [{ itemId: FLAME_LARGE, amount: 500 }],
  });
  const c = ch(r.state);
  t.is(c.level, 60);
  t.is(c.exp, totalExp(60));
  const used = 500 - (itemsOf(r.state)[String(FLAME_LARGE)] ?? 0);
  t.true(used < 500);
  t.deepEqual(r.response.usedItems, [{ itemId: FLAME_LARGE, amount: used }]);
  t.is(used, Math.ceil(totalExp(60) / 3000));
});

test('upgrade at the cap is 294', (t) => {
  const s = patch(withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 5 } }), {
    level: 60,
    exp: totalExp(60),
  });
  fails(t, 'CHARACTER_UPGRADE_LIMIT', 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [{ itemId: FLAME_SMALL, amount: 1 }],
  });
});

test('upgrade errors: unknown character 107, unknown item 107, not an exp item 102, over the item maximum 102, no items 102, bad amounts 102', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 5, 5001: 5 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'NOT_FOUND', 'upgradePlayerCharacter', s, {
    managedCharacterId: 999_999,
    items: [{ itemId: FLAME_SMALL, amount: 1 }],
  });
  fails(t, 'NOT_FOUND', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: 7777, amount: 1 }] });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: 5001, amount: 1 }],
  });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: FLAME_SMALL, amount: 10_000 }],
  });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [] });
  for (const amount of [0, -1, 1.5, 'x'])
    fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
      managedCharacterId: id,
      items: [{ itemId: FLAME_SMALL, amount }],
    });
});

test('upgrade short of items is 442, short of coins 441', (t) => {
  const s = withCharacters([STAR5], { gold: 150, items: { [FLAME_SMALL]: 5 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'ITEM_IS_SHORT', 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: FLAME_SMALL, amount: 6 }],
  });
  // Two items cost 100 + 120 (the first one raises the level to 2).
  fails(t, 'GOLD_IS_SHORT', 'upgradePlayerCharacter', s, {
    managedCharacterId: id,
    items: [{ itemId: FLAME_SMALL, amount: 2 }],
  });
  ok(t, 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 1 }] });
});

test("property: a character's level never passes its cap, exp past the cap is lost, and the coins follow the formula", (t) => {
  const candies = [2001, 2002, 2003, 2004, 2005, 2006];
  fc.assert(
    fc.property(
      fc.constantFrom(STAR5, STAR3),
      fc.integer({ min: 0, max: 4 }),
      fc.boolean(),
      fc.array(fc.record({ itemId: fc.constantFrom(...candies), amount: fc.integer({ min: 1, max: 120 }) }), {
        minLength: 1,
        maxLength: 4,
      }),
      (characterId, limitBreak, evolved, items) => {
        const base = withCharacters([characterId], {
          gold: 100_000_000,
          items: Object.fromEntries(candies.map((i) => [String(i), 9999])),
        });
        const s = patch(base, { limitBreak, evolved: evolved && limitBreak === 4 });
        const c0 = ch(s);
        const cap = levelCap(m, c0);
        const r = runOp('upgradePlayerCharacter', s, { managedCharacterId: c0.managedCharacterId, items });
        if (r._tag === 'Left') return false;
        const c = ch(r.right.state);
        if (c.level > cap || c.exp > totalExp(cap)) return false;
        // Replay with the formula: walk the used items, charging at the level before each.
        const element = m.character.get(characterId)?.elementId;
        let level = 1;
        let exp = 0;
        let gold = 0;
        let allUsed = 0;
        // The same item named twice counts as one entry at its first place.
        for (const it of mergeItems(items)) {
          const def = m.item.get(it.itemId);
          const gain = def?.elementId === element ? Math.floor(((def?.exp ?? 0) * 150) / 100) : (def?.exp ?? 0);
          for (let n = 0; n < it.amount; n++) {
            if (level >= cap) break;
            gold += level * 20 + 80;
            exp = Math.min(exp + gain, totalExp(cap));
            while (level < 100 && totalExp(level + 1) <= exp) level++;
            allUsed++;
          }
        }
        const spent = candies.reduce((a, i) => a + 9999 - (itemsOf(r.right.state)[String(i)] ?? 0), 0);
        return s.gold - r.right.state.gold === gold && c.level === level && c.exp === exp && spent === allUsed;
      },
    ),
    { numRuns: 60 },
  );
  t.pass();
});

test('upgrade with an item that is not an exp item is 102 on items, naming the item', (t) => {
  const s = withCharacters([STAR5], { gold: 10_000, items: { [IRON_ORE]: 3 } });
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, {
    managedCharacterId: ch(s).managedCharacterId,
    items: [{ itemId: IRON_ORE, amount: 1 }],
  });
  t.like(e, { field: 'items' });
  t.regex(reasonOf(e), /item 5001 is not an exp item/);
});
