import test from 'ava';
import fc from 'fast-check';
import { characterAt, characterTotalExp, fails, master, ok, runOp, itemsOf, patchCharacter, withCharacters, withWealth } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import { levelCap } from '../../core/shared/growth.js';
import { mergeItems } from '../../core/shared/pay.js';
import type { OwnedCharacter, PlayerState } from '../../core/state.js';

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

// ---- upgrade ----
test('upgrade: each item costs level × 20 + 80 coins at the level before it, and a matching element gives 150% exp', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 2, [TIDE_SMALL]: 1 } });
  const r = ok(t, 'upgradePlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId, items: [{ itemId: FLAME_SMALL, amount: 2 }, { itemId: TIDE_SMALL, amount: 1 }] });
  const c = ch(r.state);
  t.is(c.exp, 150 + 150 + 100);
  // Levels: 0 → 150 (level 2: 120), → 300 (level 3: 280), → 400 (level 3).
  t.is(c.level, 3);
  t.is(s.gold - r.state.gold, (1 * 20 + 80) + (2 * 20 + 80) + (3 * 20 + 80));
  t.is(itemsOf(r.state)[String(FLAME_SMALL)], undefined);
  t.is(itemsOf(r.state)[String(TIDE_SMALL)], undefined);
  t.truthy(r.response.managedCharacters, 'the response carries what changed');
  t.truthy(r.response.player);
});

test('upgrade, limit break and set_view answer the character as its managedCharacters entry shows it (levelLimit, the time as text)', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 1, [m.character.get(STAR5)!.limitBreakItemId]: 10 } });
  const id = ch(s).managedCharacterId;
  const up = ok(t, 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 1 }] });
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
  const r = ok(t, 'upgradePlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId, items: [{ itemId: FLAME_LARGE, amount: 500 }] });
  const c = ch(r.state);
  t.is(c.level, 60);
  t.is(c.exp, totalExp(60));
  const used = 500 - (itemsOf(r.state)[String(FLAME_LARGE)] ?? 0);
  t.true(used < 500);
  t.deepEqual(r.response.usedItems, [{ itemId: FLAME_LARGE, amount: used }]);
  t.is(used, Math.ceil(totalExp(60) / 3000));
});

test('upgrade at the cap is 294', (t) => {
  const s = patch(withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 5 } }), { level: 60, exp: totalExp(60) });
  fails(t, 'CHARACTER_UPGRADE_LIMIT', 'upgradePlayerCharacter', s, { managedCharacterId: ch(s).managedCharacterId, items: [{ itemId: FLAME_SMALL, amount: 1 }] });
});

test('upgrade errors: unknown character 107, unknown item 107, not an exp item 102, over the item maximum 102, no items 102, bad amounts 102', (t) => {
  const s = withCharacters([STAR5], { gold: 100_000, items: { [FLAME_SMALL]: 5, 5001: 5 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'NOT_FOUND', 'upgradePlayerCharacter', s, { managedCharacterId: 999_999, items: [{ itemId: FLAME_SMALL, amount: 1 }] });
  fails(t, 'NOT_FOUND', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: 7777, amount: 1 }] });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: 5001, amount: 1 }] });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 10_000 }] });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [] });
  for (const amount of [0, -1, 1.5, 'x']) fails(t, 'INVALID_PARAMETERS', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount }] });
});

test('upgrade short of items is 442, short of coins 441', (t) => {
  const s = withCharacters([STAR5], { gold: 150, items: { [FLAME_SMALL]: 5 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'ITEM_IS_SHORT', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 6 }] });
  // Two items cost 100 + 120 (the first one raises the level to 2).
  fails(t, 'GOLD_IS_SHORT', 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 2 }] });
  ok(t, 'upgradePlayerCharacter', s, { managedCharacterId: id, items: [{ itemId: FLAME_SMALL, amount: 1 }] });
});

test('property: a character\'s level never passes its cap, exp past the cap is lost, and the coins follow the formula', (t) => {
  const candies = [2001, 2002, 2003, 2004, 2005, 2006];
  fc.assert(fc.property(
    fc.constantFrom(STAR5, STAR3), fc.integer({ min: 0, max: 4 }), fc.boolean(),
    fc.array(fc.record({ itemId: fc.constantFrom(...candies), amount: fc.integer({ min: 1, max: 120 }) }), { minLength: 1, maxLength: 4 }),
    (characterId, limitBreak, evolved, items) => {
      const base = withCharacters([characterId], { gold: 100_000_000, items: Object.fromEntries(candies.map((i) => [String(i), 9999])) });
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
        const gain = def?.elementId === element ? Math.floor(((def?.exp ?? 0) * 150) / 100) : def?.exp ?? 0;
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
  ), { numRuns: 60 });
  t.pass();
});

// ---- limitBreak ----
test('limitBreak with the own item uses the rarity\'s amount and raises the cap by the step', (t) => {
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

test('limitBreak errors: another character\'s item 102, unknown item 107, unknown character 107, short 442, at the maximum 308', (t) => {
  const s = withCharacters([STAR3], { items: { 101013: 4, 101011: 9 } });
  const id = ch(s).managedCharacterId;
  fails(t, 'INVALID_PARAMETERS', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 101011 });
  fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: id, itemId: 424242 });
  fails(t, 'NOT_FOUND', 'limitbreakPlayerCharacter', s, { managedCharacterId: 999_999 });
  fails(t, 'ITEM_IS_SHORT', 'limitbreakPlayerCharacter', s, { managedCharacterId: id });
  fails(t, 'LIMIT_BREAK_LIMIT', 'limitbreakPlayerCharacter', patch(withWealth(s, { items: { 101013: 50 } }), { limitBreak: 4 }), { managedCharacterId: id });
});

// ---- evolution ----
const ready = (w: Parameters<typeof withWealth>[1]) => patch(withCharacters([STAR5], w), { limitBreak: 4, level: 80, exp: totalExp(80) });

test('evolution at the last limit break\'s cap pays items and coins, raises the cap and sets the evolved view', (t) => {
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
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { limitBreak: 3, level: 75, exp: totalExp(75) }), { managedCharacterId: id });
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerCharacter', patch(s, { level: 79, exp: totalExp(79) }), { managedCharacterId: id });
  fails(t, 'ITEM_IS_SHORT', 'evolutionPlayerCharacter', withWealth(s, { items: { 4001: 19 } }), { managedCharacterId: id });
  fails(t, 'GOLD_IS_SHORT', 'evolutionPlayerCharacter', withWealth(s, { gold: 99_999 }), { managedCharacterId: id });
  fails(t, 'NOT_FOUND', 'evolutionPlayerCharacter', s, { managedCharacterId: 999_999 });
});

// ---- views and shown ----
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

test('set_shown marks the named characters shown; unknown is 107, none named 103', (t) => {
  const s = withCharacters([STAR5, STAR3]);
  const r = ok(t, 'setShownPlayerCharacter', s, { managedCharacterIds: [ch(s, 1).managedCharacterId] });
  t.is(ch(r.state, 1).shown, 1);
  t.is(ch(r.state, 0).shown, 0);
  fails(t, 'NOT_FOUND', 'setShownPlayerCharacter', s, { managedCharacterIds: [ch(s).managedCharacterId, 999_999] });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'setShownPlayerCharacter', s, { managedCharacterIds: [] });
});

// ---- support parties ----
test('support/set_all replaces the support parties', (t) => {
  const s = withCharacters([STAR5, STAR3, 1012]);
  const [a, b, c] = s.characters.map((x) => x.managedCharacterId);
  const r = ok(t, 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: 'Main', managedCharacterIds: [a, b, c] }, { name: 'Flame', managedCharacterIds: [a] }] });
  t.deepEqual(r.state.supportParties, [{ name: 'Main', managedCharacterIds: [a, b, c] }, { name: 'Flame', managedCharacterIds: [a] }]);
  t.truthy(r.response.supportParties);
  const again = ok(t, 'setAllPlayerCharacterSupport', r.state, { supportParties: [] });
  t.deepEqual(again.state.supportParties, []);
});

test('support/set_all errors: too many parties 297, too many characters 296, a repeat 102, not owned 107, a bad name 102', (t) => {
  const s = withCharacters([STAR5, STAR3, 1012, 1014]);
  const [a, b, c, d] = s.characters.map((x) => x.managedCharacterId);
  const party = { name: 'P', managedCharacterIds: [a] };
  fails(t, 'SUPPORT_LIMIT', 'setAllPlayerCharacterSupport', s, { supportParties: Array.from({ length: m.progression.support.parties + 1 }, () => party) });
  fails(t, 'SUPPORT_CHAR_LIMIT', 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: 'P', managedCharacterIds: [a, b, c, d] }] });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: 'P', managedCharacterIds: [a, a] }] });
  fails(t, 'NOT_FOUND', 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: 'P', managedCharacterIds: [999_999] }] });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: 'x'.repeat(m.progression.support.nameMaxLength + 1), managedCharacterIds: [a] }] });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerCharacterSupport', s, { supportParties: [{ name: '', managedCharacterIds: [a] }] });
});

test('support/set_name renames one party; unknown party 107; a bad name 102', (t) => {
  const s0 = withCharacters([STAR5]);
  const s = ok(t, 'setAllPlayerCharacterSupport', s0, { supportParties: [{ name: 'A', managedCharacterIds: [] }, { name: 'B', managedCharacterIds: [] }] }).state;
  const r = ok(t, 'setNamePlayerCharacterSupport', s, { supportPartyNo: 2, name: 'Second' });
  t.deepEqual(r.state.supportParties.map((p) => p.name), ['A', 'Second']);
  t.is(r.state.supportParties[0], s.supportParties[0]);
  fails(t, 'NOT_FOUND', 'setNamePlayerCharacterSupport', s, { supportPartyNo: 3, name: 'C' });
  fails(t, 'INVALID_PARAMETERS', 'setNamePlayerCharacterSupport', s, { supportPartyNo: 1, name: 'x'.repeat(m.progression.support.nameMaxLength + 1) });
});
