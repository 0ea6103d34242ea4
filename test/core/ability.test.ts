import test from 'ava';
import { fails, freshPlayer, master, ok, withWealth, itemsOf } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const STAR5 = 1011; // Fighter: tree unlocked by Fighter Key 10101 or Star Key 10100; 4 slots
const STAR3 = 1013; // 2 slots
const FRUIT_A = 10201;
const FRUIT_B = 10202;
const DEW = 10301; // 10 sphere exp; also the slot cost
const STARLIT = 10303; // 200 sphere exp

const withCharacter = (characterId = STAR5, w: Parameters<typeof withWealth>[1] = {}): { s: PlayerState; id: number } => {
  const r = tryGrant(m, freshPlayer(), { kind: 'character', objectId: characterId, amount: 1 }, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  const s = withWealth(r.right.state, { gold: 100_000, ...w });
  return { s, id: s.characters[0]?.managedCharacterId ?? 0 };
};

/** A character with its tree and slot 1 unlocked. */
const withSlot = (t: Parameters<typeof ok>[0], items: Record<string, number> = {}) => {
  const { s, id } = withCharacter(STAR5, { items: { 10101: 1, [DEW]: 5, ...items } });
  const a = ok(t, 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10101 }).state;
  return { s: ok(t, 'releaseSlotPlayerAbility', a, { managedCharacterId: id, slotNo: 1 }).state, id };
};

// ---- release ----
test('release unlocks the tree with its class key or the star key, using the item', (t) => {
  const { s, id } = withCharacter(STAR5, { items: { 10101: 1, 10100: 1 } });
  const a = ok(t, 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10101 });
  t.deepEqual(a.state.abilityTrees, [{ managedCharacterId: id, slots: [] }]);
  t.is(itemsOf(a.state)['10101'], undefined);
  t.truthy(a.response.managedAbilityTrees);
  const b = ok(t, 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10100 });
  t.is(itemsOf(b.state)['10100'], undefined);
  t.is(itemsOf(b.state)['10101'], 1);
});

test('release errors: already unlocked 317, an item that does not unlock it 102, unknown item or character 107, short 442', (t) => {
  const { s, id } = withCharacter(STAR5, { items: { 10101: 2, 10102: 1 } });
  const a = ok(t, 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10101 }).state;
  fails(t, 'STATE_CONFLICT', 'releasePlayerAbility', a, { managedCharacterId: id, itemId: 10101 });
  fails(t, 'INVALID_PARAMETERS', 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10102 });
  fails(t, 'NOT_FOUND', 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 424242 });
  fails(t, 'NOT_FOUND', 'releasePlayerAbility', s, { managedCharacterId: 999_999, itemId: 10101 });
  fails(t, 'ITEM_IS_SHORT', 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10100 });
});

// ---- release_slot ----
test('release_slot pays the slot cost and unlocks the slot', (t) => {
  const { s, id } = withCharacter(STAR5, { items: { 10101: 1, [DEW]: 20 } });
  const a = ok(t, 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10101 }).state;
  const r = ok(t, 'releaseSlotPlayerAbility', a, { managedCharacterId: id, slotNo: 2 });
  t.deepEqual(r.state.abilityTrees[0]?.slots, [{ slotNo: 2, sphere: null }]);
  t.is(a.gold - r.state.gold, 2000);
  t.is(itemsOf(r.state)[String(DEW)], 10);
  const r2 = ok(t, 'releaseSlotPlayerAbility', r.state, { managedCharacterId: id, slotNo: 1 });
  t.deepEqual(r2.state.abilityTrees[0]?.slots.map((x) => x.slotNo), [1, 2]);
});

test('release_slot errors: tree locked 317, unknown slot 107, already unlocked 317, short 442 and 441', (t) => {
  const { s, id } = withCharacter(STAR3, { items: { 10103: 1, [DEW]: 5 } });
  fails(t, 'STATE_CONFLICT', 'releaseSlotPlayerAbility', s, { managedCharacterId: id, slotNo: 1 });
  const a = ok(t, 'releasePlayerAbility', s, { managedCharacterId: id, itemId: 10103 }).state;
  fails(t, 'NOT_FOUND', 'releaseSlotPlayerAbility', a, { managedCharacterId: id, slotNo: 3 }); // a ★3 tree has 2 slots
  fails(t, 'NOT_FOUND', 'releaseSlotPlayerAbility', a, { managedCharacterId: 999_999, slotNo: 1 });
  const one = ok(t, 'releaseSlotPlayerAbility', a, { managedCharacterId: id, slotNo: 1 }).state;
  fails(t, 'STATE_CONFLICT', 'releaseSlotPlayerAbility', one, { managedCharacterId: id, slotNo: 1 });
  fails(t, 'ITEM_IS_SHORT', 'releaseSlotPlayerAbility', one, { managedCharacterId: id, slotNo: 2 });
  fails(t, 'GOLD_IS_SHORT', 'releaseSlotPlayerAbility', withWealth(a, { gold: 999 }), { managedCharacterId: id, slotNo: 1 });
});

// ---- equip ----
test('equip puts a fruit item into the slot; the one it replaces returns to the item box', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 1, [FRUIT_B]: 1 });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A });
  t.deepEqual(a.state.abilityTrees[0]?.slots, [{ slotNo: 1, sphere: { itemId: FRUIT_A, level: 1, exp: 0 } }]);
  t.is(itemsOf(a.state)[String(FRUIT_A)], undefined);
  const b = ok(t, 'equipPlayerAbility', a.state, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_B });
  t.is(b.state.abilityTrees[0]?.slots[0]?.sphere?.itemId, FRUIT_B);
  t.is(itemsOf(b.state)[String(FRUIT_A)], 1);
  t.is(itemsOf(b.state)[String(FRUIT_B)], undefined);
});

test('equip: a replaced fruit over its item maximum goes to the present box, not lost', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 1, [FRUIT_B]: 1 });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  const max = m.item.get(FRUIT_A)?.max ?? 0;
  const b = ok(t, 'equipPlayerAbility', withWealth(a, { items: { [FRUIT_A]: max } }), { managedCharacterId: id, slotNo: 1, itemId: FRUIT_B });
  t.is(itemsOf(b.state)[String(FRUIT_A)], max);
  t.like(b.state.presents.at(-1), { kind: 'item', objectId: FRUIT_A, amount: 1 });
});

test('equip errors: slot locked 317, tree locked 317, unknown slot 107, not a fruit 102, unknown item 107, the same fruit again 317, short 442', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 2 });
  fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 2, itemId: FRUIT_A });
  const bare = withCharacter(STAR5, { items: { [FRUIT_A]: 1 } });
  fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', bare.s, { managedCharacterId: bare.id, slotNo: 1, itemId: FRUIT_A });
  fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 9, itemId: FRUIT_A });
  fails(t, 'INVALID_PARAMETERS', 'equipPlayerAbility', withWealth(s, { items: { 5001: 1 } }), { managedCharacterId: id, slotNo: 1, itemId: 5001 });
  fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: 424242 });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', a, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A });
  fails(t, 'ITEM_IS_SHORT', 'equipPlayerAbility', a, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_B });
});

// ---- upgrade_sphere ----
test('upgrade_sphere levels the fruit with the named materials at coins per item, up to its maximum', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 1, [DEW]: 20, [STARLIT]: 10 });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  const r = ok(t, 'upgradeSpherePlayerAbility', a, { managedCharacterId: id, slotNo: 1, items: [{ itemId: DEW, amount: 10 }] });
  t.deepEqual(r.state.abilityTrees[0]?.slots[0]?.sphere, { itemId: FRUIT_A, level: 2, exp: 100 });
  t.is(a.gold - r.state.gold, 10 * 100);
  // Up to the maximum: 1000 exp is level 5; the rest of the items stay.
  const top = ok(t, 'upgradeSpherePlayerAbility', r.state, { managedCharacterId: id, slotNo: 1, items: [{ itemId: STARLIT, amount: 10 }] });
  t.deepEqual(top.state.abilityTrees[0]?.slots[0]?.sphere, { itemId: FRUIT_A, level: 5, exp: 1000 });
  t.is(itemsOf(top.state)[String(STARLIT)], 5);
  fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', top.state, { managedCharacterId: id, slotNo: 1, items: [{ itemId: STARLIT, amount: 1 }] });
});

test('upgrade_sphere errors: empty slot 317, not a material 102, short 442 and 441, unknown character 107', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 1, [DEW]: 10 }); // 5 left after the slot
  fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', s, { managedCharacterId: id, slotNo: 1, items: [{ itemId: DEW, amount: 1 }] });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  fails(t, 'INVALID_PARAMETERS', 'upgradeSpherePlayerAbility', withWealth(a, { items: { 2001: 1 } }), { managedCharacterId: id, slotNo: 1, items: [{ itemId: 2001, amount: 1 }] });
  fails(t, 'ITEM_IS_SHORT', 'upgradeSpherePlayerAbility', a, { managedCharacterId: id, slotNo: 1, items: [{ itemId: DEW, amount: 6 }] });
  fails(t, 'GOLD_IS_SHORT', 'upgradeSpherePlayerAbility', withWealth(a, { gold: 199 }), { managedCharacterId: id, slotNo: 1, items: [{ itemId: DEW, amount: 2 }] });
  fails(t, 'NOT_FOUND', 'upgradeSpherePlayerAbility', a, { managedCharacterId: 999_999, slotNo: 1, items: [{ itemId: DEW, amount: 1 }] });
});
