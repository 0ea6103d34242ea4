// Ability rules at their edges (docs/rules/progression.md, Abilities): each
// character's tree is its own, and what each refusal names (the character whose tree
// master data lacks, the slot, the item, why a state refuses).
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, ok, withWealth } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const STAR5 = 1011; // Fighter: Fighter Key 10101 or Star Key 10100; 4 slots
const STAR4 = 1012; // Magician: Magician Key 10102 or Star Key; 3 slots
const FRUIT_A = 10201; // levels 1–5 (0, 100, 300, 600, 1000 exp); materials 10301–10303
const FRUIT_B = 10202;
const DEW = 10301; // 10 exp; also the slot cost
const STARLIT = 10303; // 200 exp

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
/** Characters 1011 and 1012, with coins and items. */
const two = (items: Record<string, number> = {}): { s: PlayerState; a: number; b: number } => {
  let s = freshPlayer();
  for (const id of [STAR5, STAR4]) {
    const r = tryGrant(m, s, { kind: 'character', objectId: id, amount: 1 }, 0);
    if (r._tag === 'Left') throw new Error(r.left.code);
    s = r.right.state;
  }
  s = withWealth(s, { gold: 100_000, items });
  return { s, a: s.characters[0]?.managedCharacterId ?? 0, b: s.characters[1]?.managedCharacterId ?? 0 };
};
/** Character 1011 with its tree and slot 1 unlocked. */
const withSlot = (t: ExecutionContext, items: Record<string, number> = {}) => {
  const { s, a, b } = two({ 10101: 1, [DEW]: 5, ...items });
  const r = ok(t, 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10101 }).state;
  return { s: ok(t, 'releaseSlotPlayerAbility', r, { managedCharacterId: a, slotNo: 1 }).state, a, b };
};
/** Master data an operator retuned: a character's tree, or a fruit, gone. */
const withoutTree = (characterId: number): Master => ({ ...m, abilityTree: new Map([...m.abilityTree].filter(([k]) => k !== characterId)) });
const withoutSphere = (itemId: number): Master => ({ ...m, sphere: new Map([...m.sphere].filter(([k]) => k !== itemId)) });

test('a tree is the character\'s own: one character\'s unlocked tree does not unlock another\'s', (t) => {
  const { s, a, b } = two({ 10101: 1, 10102: 1, [DEW]: 20 });
  const first = ok(t, 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10101 }).state;
  const e = fails(t, 'STATE_CONFLICT', 'releaseSlotPlayerAbility', first, { managedCharacterId: b, slotNo: 1 });
  t.regex(reasonOf(e), /ability tree is not unlocked/);
  const both = ok(t, 'releasePlayerAbility', first, { managedCharacterId: b, itemId: 10102 });
  t.deepEqual(both.state.abilityTrees, [{ managedCharacterId: a, slots: [] }, { managedCharacterId: b, slots: [] }]);
  const slot = ok(t, 'releaseSlotPlayerAbility', both.state, { managedCharacterId: b, slotNo: 1 });
  t.deepEqual(slot.state.abilityTrees, [{ managedCharacterId: a, slots: [] }, { managedCharacterId: b, slots: [{ slotNo: 1, sphere: null }] }]);
});

test('a character whose tree master data no longer holds is 107 naming the character (release and release_slot)', (t) => {
  const { s, a } = withSlot(t);
  const tuned = withoutTree(STAR5);
  const fresh = two({ 10101: 1 });
  t.like(fails(t, 'NOT_FOUND', 'releasePlayerAbility', fresh.s, { managedCharacterId: fresh.a, itemId: 10101 }, { m: tuned }), { entity: 'ability tree of character', id: STAR5 });
  t.like(fails(t, 'NOT_FOUND', 'releaseSlotPlayerAbility', s, { managedCharacterId: a, slotNo: 2 }, { m: tuned }), { entity: 'ability tree of character', id: STAR5 });
});

test('release refusals: an unknown item is 107 naming it; an item that does not unlock the tree is 102 on itemId naming it; unlocked already says so', (t) => {
  const { s, a } = two({ 10101: 2, 10102: 1 });
  t.like(fails(t, 'NOT_FOUND', 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 424242 }), { entity: 'item', id: 424242 });
  const wrong = fails(t, 'INVALID_PARAMETERS', 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10102 });
  t.like(wrong, { field: 'itemId' });
  t.regex(reasonOf(wrong), /item 10102 does not unlock/);
  const done = ok(t, 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10101 }).state;
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'releasePlayerAbility', done, { managedCharacterId: a, itemId: 10101 })), /already unlocked/);
});

test('release_slot refusals: a slot the tree does not have is 107 naming it; a slot unlocked already is 317 naming it', (t) => {
  const { s, a } = withSlot(t, { [DEW]: 20 });
  t.like(fails(t, 'NOT_FOUND', 'releaseSlotPlayerAbility', s, { managedCharacterId: a, slotNo: 5 }), { entity: 'ability slot', id: 5 });
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'releaseSlotPlayerAbility', s, { managedCharacterId: a, slotNo: 1 })), /slot 1 is already unlocked/);
});

test('equip refusals name the slot the tree lacks (107), the locked slot (317), the unknown item (107) and the item that is no fruit (102 on itemId)', (t) => {
  const { s, a } = withSlot(t, { [FRUIT_A]: 1, 5001: 1 });
  t.like(fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 9, itemId: FRUIT_A }), { entity: 'ability slot', id: 9 });
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 2, itemId: FRUIT_A })), /slot 2 is not unlocked/);
  t.like(fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: 424242 }), { entity: 'item', id: 424242 });
  const e = fails(t, 'INVALID_PARAMETERS', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: 5001 });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /item 5001 is not a fruit item/);
});

test('equip of the fruit the slot already holds is 317 naming the slot and the item', (t) => {
  const { s, a } = withSlot(t, { [FRUIT_A]: 2 });
  const on = ok(t, 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }).state;
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', on, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A })), /slot 1 already holds item 10201/);
});

test('upgrade_sphere refusals: an empty slot names it; a material of another fruit names the item and the fruit; at the maximum names it (5)', (t) => {
  const { s, a } = withSlot(t, { [FRUIT_A]: 1, [STARLIT]: 10, 2001: 1 });
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', s, { managedCharacterId: a, slotNo: 1, items: [{ itemId: STARLIT, amount: 1 }] })), /slot 1 holds no fruit item/);
  const on = ok(t, 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }).state;
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradeSpherePlayerAbility', on, { managedCharacterId: a, slotNo: 1, items: [{ itemId: 2001, amount: 1 }] });
  t.like(e, { field: 'items' });
  t.regex(reasonOf(e), /item 2001 is not a material of fruit item 10201/);
  const top = ok(t, 'upgradeSpherePlayerAbility', on, { managedCharacterId: a, slotNo: 1, items: [{ itemId: STARLIT, amount: 5 }] }).state;
  t.like(top.abilityTrees[0]?.slots[0]?.sphere, { level: 5, exp: 1000 });
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', top, { managedCharacterId: a, slotNo: 1, items: [{ itemId: STARLIT, amount: 1 }] })), /maximum level 5/);
});

test('upgrade_sphere of a fruit master data no longer holds is 107 naming the fruit', (t) => {
  const { s, a } = withSlot(t, { [FRUIT_A]: 1, [FRUIT_B]: 1, [STARLIT]: 1 });
  const on = ok(t, 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }).state;
  t.like(fails(t, 'NOT_FOUND', 'upgradeSpherePlayerAbility', on, { managedCharacterId: a, slotNo: 1, items: [{ itemId: STARLIT, amount: 1 }] }, { m: withoutSphere(FRUIT_A) }), { entity: 'sphere', id: FRUIT_A });
});
