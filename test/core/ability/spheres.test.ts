// Fruits in an ability tree's slots (docs/rules/progression.md, Abilities): equip puts a
// fruit item into an unlocked slot and gives back the one it replaces (to the present box
// when the item box is full); upgrade_sphere levels the fruit with materials, at coins per
// item, up to its maximum. Each refusal names the slot, the item or the fruit.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, ok, withWealth, itemsOf } from '../../_support/core.js';
import { tryGrant } from '../../../core/shared/grant.js';
import type { PlayerState } from '../../../core/state.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const STAR5 = 1011; // Fighter: tree unlocked by Fighter Key 10101 or Star Key 10100; 4 slots
const FRUIT_A = 10201; // levels 1–5 (0, 100, 300, 600, 1000 exp); materials 10301–10303
const FRUIT_B = 10202;
const DEW = 10301; // 10 sphere exp; also the slot cost
const STARLIT = 10303; // 200 sphere exp

const withCharacter = (
  characterId = STAR5,
  w: Parameters<typeof withWealth>[1] = {},
): { s: PlayerState; id: number } => {
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
const withoutSphere = (itemId: number): Master => ({
  ...m,
  sphere: new Map([...m.sphere].filter(([k]) => k !== itemId)),
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
  const b = ok(t, 'equipPlayerAbility', withWealth(a, { items: { [FRUIT_A]: max } }), {
    managedCharacterId: id,
    slotNo: 1,
    itemId: FRUIT_B,
  });
  t.is(itemsOf(b.state)[String(FRUIT_A)], max);
  t.like(b.state.presents.at(-1), { kind: 'item', objectId: FRUIT_A, amount: 1 });
});

test('equip errors: slot locked 317, tree locked 317, unknown slot 107, not a fruit 102, unknown item 107, the same fruit again 317, short 442', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 2 });
  fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 2, itemId: FRUIT_A });
  const bare = withCharacter(STAR5, { items: { [FRUIT_A]: 1 } });
  fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', bare.s, { managedCharacterId: bare.id, slotNo: 1, itemId: FRUIT_A });
  fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 9, itemId: FRUIT_A });
  fails(t, 'INVALID_PARAMETERS', 'equipPlayerAbility', withWealth(s, { items: { 5001: 1 } }), {
    managedCharacterId: id,
    slotNo: 1,
    itemId: 5001,
  });
  fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: 424242 });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', a, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A });
  fails(t, 'ITEM_IS_SHORT', 'equipPlayerAbility', a, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_B });
});

test('equip refusals name the slot the tree lacks (107), the locked slot (317), the unknown item (107) and the item that is no fruit (102 on itemId)', (t) => {
  const { s, a } = twoWithSlot(t, { [FRUIT_A]: 1, 5001: 1 });
  t.like(fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 9, itemId: FRUIT_A }), {
    entity: 'ability slot',
    id: 9,
  });
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 2, itemId: FRUIT_A }),
    ),
    /slot 2 is not unlocked/,
  );
  t.like(fails(t, 'NOT_FOUND', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: 424242 }), {
    entity: 'item',
    id: 424242,
  });
  const e = fails(t, 'INVALID_PARAMETERS', 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: 5001 });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /item 5001 is not a fruit item/);
});

test('equip of the fruit the slot already holds is 317 naming the slot and the item', (t) => {
  const { s, a } = twoWithSlot(t, { [FRUIT_A]: 2 });
  const on = ok(t, 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }).state;
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'equipPlayerAbility', on, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }),
    ),
    /slot 1 already holds item 10201/,
  );
});

// ---- upgrade_sphere ----

test('upgrade_sphere levels the fruit with the named materials at coins per item, up to its maximum', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 1, [DEW]: 20, [STARLIT]: 10 });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  const r = ok(t, 'upgradeSpherePlayerAbility', a, {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: DEW, amount: 10 }],
  });
  t.deepEqual(r.state.abilityTrees[0]?.slots[0]?.sphere, { itemId: FRUIT_A, level: 2, exp: 100 });
  t.is(a.gold - r.state.gold, 10 * 100);
  // Up to the maximum: 1000 exp is level 5; the rest of the items stay.
  const top = ok(t, 'upgradeSpherePlayerAbility', r.state, {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: STARLIT, amount: 10 }],
  });
  t.deepEqual(top.state.abilityTrees[0]?.slots[0]?.sphere, { itemId: FRUIT_A, level: 5, exp: 1000 });
  t.is(itemsOf(top.state)[String(STARLIT)], 5);
  fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', top.state, {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: STARLIT, amount: 1 }],
  });
});

test('upgrade_sphere errors: empty slot 317, not a material 102, short 442 and 441, unknown character 107', (t) => {
  const { s, id } = withSlot(t, { [FRUIT_A]: 1, [DEW]: 10 }); // 5 left after the slot
  fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', s, {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: DEW, amount: 1 }],
  });
  const a = ok(t, 'equipPlayerAbility', s, { managedCharacterId: id, slotNo: 1, itemId: FRUIT_A }).state;
  fails(t, 'INVALID_PARAMETERS', 'upgradeSpherePlayerAbility', withWealth(a, { items: { 2001: 1 } }), {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: 2001, amount: 1 }],
  });
  fails(t, 'ITEM_IS_SHORT', 'upgradeSpherePlayerAbility', a, {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: DEW, amount: 6 }],
  });
  fails(t, 'GOLD_IS_SHORT', 'upgradeSpherePlayerAbility', withWealth(a, { gold: 199 }), {
    managedCharacterId: id,
    slotNo: 1,
    items: [{ itemId: DEW, amount: 2 }],
  });
  fails(t, 'NOT_FOUND', 'upgradeSpherePlayerAbility', a, {
    managedCharacterId: 999_999,
    slotNo: 1,
    items: [{ itemId: DEW, amount: 1 }],
  });
});

test('upgrade_sphere refusals: an empty slot names it; a material of another fruit names the item and the fruit; at the maximum names it (5)', (t) => {
  const { s, a } = twoWithSlot(t, { [FRUIT_A]: 1, [STARLIT]: 10, 2001: 1 });
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', s, {
        managedCharacterId: a,
        slotNo: 1,
        items: [{ itemId: STARLIT, amount: 1 }],
      }),
    ),
    /slot 1 holds no fruit item/,
  );
  const on = ok(t, 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }).state;
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradeSpherePlayerAbility', on, {
    managedCharacterId: a,
    slotNo: 1,
    items: [{ itemId: 2001, amount: 1 }],
  });
  t.like(e, { field: 'items' });
  t.regex(reasonOf(e), /item 2001 is not a material of fruit item 10201/);
  const top = ok(t, 'upgradeSpherePlayerAbility', on, {
    managedCharacterId: a,
    slotNo: 1,
    items: [{ itemId: STARLIT, amount: 5 }],
  }).state;
  t.like(top.abilityTrees[0]?.slots[0]?.sphere, { level: 5, exp: 1000 });
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'upgradeSpherePlayerAbility', top, {
        managedCharacterId: a,
        slotNo: 1,
        items: [{ itemId: STARLIT, amount: 1 }],
      }),
    ),
    /maximum level 5/,
  );
});

test('upgrade_sphere of a fruit master data no longer holds is 107 naming the fruit', (t) => {
  const { s, a } = twoWithSlot(t, { [FRUIT_A]: 1, [FRUIT_B]: 1, [STARLIT]: 1 });
  const on = ok(t, 'equipPlayerAbility', s, { managedCharacterId: a, slotNo: 1, itemId: FRUIT_A }).state;
  t.like(
    fails(
      t,
      'NOT_FOUND',
      'upgradeSpherePlayerAbility',
      on,
      { managedCharacterId: a, slotNo: 1, items: [{ itemId: STARLIT, amount: 1 }] },
      { m: withoutSphere(FRUIT_A) },
    ),
    { entity: 'sphere', id: FRUIT_A },
  );
});
