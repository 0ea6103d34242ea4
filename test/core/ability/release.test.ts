// The ability tree's locks (docs/rules/progression.md, Abilities): release unlocks a
// character's tree with its class key or the star key, release_slot pays for one of its
// slots. A tree is its own character's; each refusal names what refused (the character
// whose tree master data lacks, the slot, the item, why the state refuses).
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, ok, withWealth, itemsOf } from '../../_support/core.js';
import { tryGrant } from '../../../core/shared/grant.js';
import type { PlayerState } from '../../../core/state.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const STAR5 = 1011; // Fighter: tree unlocked by Fighter Key 10101 or Star Key 10100; 4 slots
const STAR3 = 1013; // 2 slots
const DEW = 10301; // 10 sphere exp; also the slot cost

const withCharacter = (
  characterId = STAR5,
  w: Parameters<typeof withWealth>[1] = {},
): { s: PlayerState; id: number } => {
  const r = tryGrant(m, freshPlayer(), { kind: 'character', objectId: characterId, amount: 1 }, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  const s = withWealth(r.right.state, { gold: 100_000, ...w });
  return { s, id: s.characters[0]?.managedCharacterId ?? 0 };
};
const STAR4 = 1012; // Magician: Magician Key 10102 or Star Key; 3 slots

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
const twoWithSlot = (t: ExecutionContext, items: Record<string, number> = {}) => {
  const { s, a, b } = two({ 10101: 1, [DEW]: 5, ...items });
  const r = ok(t, 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10101 }).state;
  return { s: ok(t, 'releaseSlotPlayerAbility', r, { managedCharacterId: a, slotNo: 1 }).state, a, b };
};
/** Master data an operator retuned: a character's tree, or a fruit, gone. */
const withoutTree = (characterId: number): Master => ({
  ...m,
  abilityTree: new Map([...m.abilityTree].filter(([k]) => k !== characterId)),
});

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

test("a tree is the character's own: one character's unlocked tree does not unlock another's", (t) => {
  const { s, a, b } = two({ 10101: 1, 10102: 1, [DEW]: 20 });
  const first = ok(t, 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10101 }).state;
  const e = fails(t, 'STATE_CONFLICT', 'releaseSlotPlayerAbility', first, { managedCharacterId: b, slotNo: 1 });
  t.regex(reasonOf(e), /ability tree is not unlocked/);
  const both = ok(t, 'releasePlayerAbility', first, { managedCharacterId: b, itemId: 10102 });
  t.deepEqual(both.state.abilityTrees, [
    { managedCharacterId: a, slots: [] },
    { managedCharacterId: b, slots: [] },
  ]);
  const slot = ok(t, 'releaseSlotPlayerAbility', both.state, { managedCharacterId: b, slotNo: 1 });
  t.deepEqual(slot.state.abilityTrees, [
    { managedCharacterId: a, slots: [] },
    { managedCharacterId: b, slots: [{ slotNo: 1, sphere: null }] },
  ]);
});

test('a character whose tree master data no longer holds is 107 naming the character (release and release_slot)', (t) => {
  const { s, a } = twoWithSlot(t);
  const tuned = withoutTree(STAR5);
  const fresh = two({ 10101: 1 });
  t.like(
    fails(
      t,
      'NOT_FOUND',
      'releasePlayerAbility',
      fresh.s,
      { managedCharacterId: fresh.a, itemId: 10101 },
      { m: tuned },
    ),
    { entity: 'ability tree of character', id: STAR5 },
  );
  t.like(fails(t, 'NOT_FOUND', 'releaseSlotPlayerAbility', s, { managedCharacterId: a, slotNo: 2 }, { m: tuned }), {
    entity: 'ability tree of character',
    id: STAR5,
  });
});

test('release refusals: an unknown item is 107 naming it; an item that does not unlock the tree is 102 on itemId naming it; unlocked already says so', (t) => {
  const { s, a } = two({ 10101: 2, 10102: 1 });
  t.like(fails(t, 'NOT_FOUND', 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 424242 }), {
    entity: 'item',
    id: 424242,
  });
  const wrong = fails(t, 'INVALID_PARAMETERS', 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10102 });
  t.like(wrong, { field: 'itemId' });
  t.regex(reasonOf(wrong), /item 10102 does not unlock/);
  const done = ok(t, 'releasePlayerAbility', s, { managedCharacterId: a, itemId: 10101 }).state;
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'releasePlayerAbility', done, { managedCharacterId: a, itemId: 10101 })),
    /already unlocked/,
  );
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
  t.deepEqual(
    r2.state.abilityTrees[0]?.slots.map((x) => x.slotNo),
    [1, 2],
  );
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
  fails(t, 'GOLD_IS_SHORT', 'releaseSlotPlayerAbility', withWealth(a, { gold: 999 }), {
    managedCharacterId: id,
    slotNo: 1,
  });
});

test('release_slot refusals: a slot the tree does not have is 107 naming it; a slot unlocked already is 317 naming it', (t) => {
  const { s, a } = twoWithSlot(t, { [DEW]: 20 });
  t.like(fails(t, 'NOT_FOUND', 'releaseSlotPlayerAbility', s, { managedCharacterId: a, slotNo: 5 }), {
    entity: 'ability slot',
    id: 5,
  });
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'releaseSlotPlayerAbility', s, { managedCharacterId: a, slotNo: 1 })),
    /slot 1 is already unlocked/,
  );
});
