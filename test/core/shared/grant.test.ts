// Granting (core/shared/grant.ts): every capacity holds exactly its maximum and refuses one
// more, naming it; duplicates turn into their limit-break item per copy and raise only their
// own character's awakening; what does not fit goes to the present box, marked as overflow;
// grantAll grants all. Written against the mutants that survived (issue 23).
import test from 'ava';
import { freshPlayer, master, NOW, withWealth, itemsOf } from '../../_support/core.js';
import { grantAll, grantOrPresent, newCharacter, tryGrant } from '../../../core/shared/grant.js';
import type { Grant } from '../../../core/master/common.js';
import type { PlayerState } from '../../../core/state.js';
import { storageLimit } from '../../../core/shared/player.js';

const m = master();
const s0 = freshPlayer();

const granted = (t: import('ava').ExecutionContext, s: PlayerState, g: Grant) => {
  const r = tryGrant(m, s, g, NOW);
  if (r._tag === 'Left') {
    t.fail(`grant failed: ${JSON.stringify(r.left)}`);
    throw new Error('unreachable');
  }
  return r.right;
};
const refused = (t: import('ava').ExecutionContext, s: PlayerState, g: Grant) => {
  const r = tryGrant(m, s, g, NOW);
  if (r._tag === 'Right') {
    t.fail(`grant succeeded; expected a refusal of ${JSON.stringify(g)}`);
    throw new Error('unreachable');
  }
  return r.left;
};

// A ★3 character (a duplicate is 5 of its item, awakening up to 5) and a ★5 one.
const C3 = 1013;
const C3_ITEM = 101013;
const C5 = 1011;

test('currencies and items: exactly the maximum fits, one more is refused naming the limit', (t) => {
  const max = m.game.currencyMax.gem;
  const s = withWealth(s0, { gem: max - 10 });
  t.is(granted(t, s, { kind: 'gem', objectId: 0, amount: 10 }).state.gem, max);
  t.like(refused(t, s, { kind: 'gem', objectId: 0, amount: 11 }), { code: 'CURRENCY_LIMIT', currency: 'gem', max });
  const itemMax = m.item.get(2001)!.max;
  const held = withWealth(s0, { items: { 2001: itemMax - 3 } });
  t.is(itemsOf(granted(t, held, { kind: 'item', objectId: 2001, amount: 3 }).state)['2001'], itemMax);
  t.like(refused(t, held, { kind: 'item', objectId: 2001, amount: 4 }), {
    code: 'ITEM_LIMIT',
    itemId: 2001,
    max: itemMax,
  });
  t.like(refused(t, s0, { kind: 'item', objectId: 424242, amount: 1 }), {
    code: 'NOT_FOUND',
    entity: 'item',
    id: 424242,
  });
});

test('a new character starts at level 1 with nothing raised; an unknown one is NOT_FOUND', (t) => {
  const r = granted(t, s0, { kind: 'character', objectId: C3, amount: 1 });
  const id = s0.nextManagedId;
  t.deepEqual(r.state.characters, [newCharacter(id, C3, NOW)]);
  t.deepEqual(r.state.characters[0], {
    managedCharacterId: id,
    characterId: C3,
    level: 1,
    exp: 0,
    limitBreak: 0,
    awakening: 0,
    evolved: false,
    view: 0,
    shown: 0,
    createdAt: NOW,
  });
  t.deepEqual(r.outcome.managedIds, [id]);
  t.is(r.outcome.duplicate, null);
  t.is(r.state.nextManagedId, id + 1);
  t.like(refused(t, s0, { kind: 'character', objectId: 999_999, amount: 1 }), {
    code: 'NOT_FOUND',
    entity: 'character',
    id: 999_999,
  });
});

test('several copies of a new character: one is new, the rest are duplicates', (t) => {
  const r = granted(t, s0, { kind: 'character', objectId: C3, amount: 3 });
  t.is(r.state.characters.length, 1);
  t.is(r.state.characters[0]!.awakening, 2);
  t.is(itemsOf(r.state)[String(C3_ITEM)], 10, 'two duplicates, five items each');
  t.deepEqual(r.outcome.managedIds, [s0.nextManagedId]);
  t.deepEqual(r.outcome.duplicate, { itemId: C3_ITEM, amount: 10 });
});

test("a duplicate gives its item per copy and raises its own character's awakening, up to the maximum", (t) => {
  const two = granted(t, granted(t, s0, { kind: 'character', objectId: C5, amount: 1 }).state, {
    kind: 'character',
    objectId: C3,
    amount: 1,
  }).state;
  const r = granted(t, two, { kind: 'character', objectId: C3, amount: 2 });
  t.is(itemsOf(r.state)[String(C3_ITEM)], 10);
  t.deepEqual(r.outcome.duplicate, { itemId: C3_ITEM, amount: 10 });
  t.deepEqual(r.outcome.managedIds, []);
  t.deepEqual(
    r.state.characters.map((c) => [c.characterId, c.awakening]),
    [
      [C5, 0],
      [C3, 2],
    ],
    'the other character is untouched',
  );
  // At the maximum awakening a duplicate still gives its item, and the list is not copied.
  const maxed: PlayerState = {
    ...r.state,
    characters: r.state.characters.map((c) => (c.characterId === C3 ? { ...c, awakening: 5 } : c)),
  };
  const again = granted(t, maxed, { kind: 'character', objectId: C3, amount: 1 });
  t.is(again.state.characters, maxed.characters);
  t.is(itemsOf(again.state)[String(C3_ITEM)], 15);
  // A duplicate whose items would pass their maximum is refused whole.
  const full = withWealth(maxed, { items: { [C3_ITEM]: m.item.get(C3_ITEM)!.max - 4 } });
  t.like(refused(t, full, { kind: 'character', objectId: C3, amount: 1 }), { code: 'ITEM_LIMIT', itemId: C3_ITEM });
});

test('the character limit: at the limit a new character is refused, one below it fits', (t) => {
  const limit = m.game.limits.characters;
  const fill = (n: number): PlayerState => ({
    ...s0,
    characters: Array.from({ length: n }, (_, i) => newCharacter(i + 1, 90_000 + i, NOW)),
  });
  t.like(refused(t, fill(limit), { kind: 'character', objectId: C3, amount: 1 }), {
    code: 'CHARACTER_LIMIT',
    max: limit,
  });
  t.is(granted(t, fill(limit - 1), { kind: 'character', objectId: C3, amount: 1 }).state.characters.length, limit);
});

const stores = [
  {
    kind: 'weapon' as const,
    entity: 'weapon',
    objectId: 103,
    limit: 'weapon' as const,
    list: (s: PlayerState) => s.weapons,
    code: 'WEAPON_LIMIT',
    fill: (s: PlayerState, n: number): PlayerState => ({
      ...s,
      weapons: Array.from({ length: n }, (_, i) => ({
        managedWeaponId: i + 1,
        weaponId: 103,
        level: 1,
        exp: 0,
        createdAt: NOW,
      })),
    }),
    fresh: (id: number) => ({ managedWeaponId: id, weaponId: 103, level: 1, exp: 0, createdAt: NOW }),
  },
  {
    kind: 'townFacility' as const,
    entity: 'town facility',
    objectId: 1,
    limit: 'facility' as const,
    list: (s: PlayerState) => s.facilities,
    code: 'FACILITY_LIMIT',
    fill: (s: PlayerState, n: number): PlayerState => ({
      ...s,
      facilities: Array.from({ length: n }, (_, i) => ({
        managedTownFacilityId: i + 1,
        facilityId: 1,
        level: 1,
        covered: true,
        createdAt: NOW,
        levelUp: null,
        accruedAt: NOW,
        stock: 0,
        carry: 0,
      })),
    }),
    fresh: (id: number) => ({
      managedTownFacilityId: id,
      facilityId: 1,
      level: 1,
      covered: true,
      createdAt: NOW,
      levelUp: null,
      accruedAt: NOW,
      stock: 0,
      carry: 0,
    }),
  },
  {
    kind: 'roomObject' as const,
    entity: 'room object',
    objectId: 1,
    limit: 'roomObject' as const,
    list: (s: PlayerState) => s.roomObjects,
    code: 'ROOM_OBJECT_LIMIT',
    fill: (s: PlayerState, n: number): PlayerState => ({
      ...s,
      roomObjects: Array.from({ length: n }, (_, i) => ({
        managedRoomObjectId: i + 1,
        roomObjectId: 1,
        createdAt: NOW,
      })),
    }),
    fresh: (id: number) => ({ managedRoomObjectId: id, roomObjectId: 1, createdAt: NOW }),
  },
];

for (const x of stores) {
  test(`${x.kind}: new ones get fresh ids; the storage holds exactly its size, one more is refused; an unknown id is NOT_FOUND`, (t) => {
    const r = granted(t, s0, { kind: x.kind, objectId: x.objectId, amount: 2 });
    const id = s0.nextManagedId;
    t.deepEqual(x.list(r.state), [x.fresh(id), x.fresh(id + 1)]);
    t.deepEqual(r.outcome.managedIds, [id, id + 1]);
    t.is(r.state.nextManagedId, id + 2);
    const max = storageLimit(m, s0, x.limit);
    const nearly = x.fill(s0, max - 2);
    t.is(x.list(granted(t, nearly, { kind: x.kind, objectId: x.objectId, amount: 2 }).state).length, max);
    t.like(refused(t, nearly, { kind: x.kind, objectId: x.objectId, amount: 3 }), { code: x.code, max });
    t.like(refused(t, s0, { kind: x.kind, objectId: 424_242, amount: 1 }), {
      code: 'NOT_FOUND',
      entity: x.entity,
      id: 424_242,
    });
  });
}

test('grantOrPresent: what does not fit goes to the present box as overflow; an unknown id is still an error', (t) => {
  const max = m.game.currencyMax.gold;
  const s = withWealth(s0, { gold: max });
  const r = grantOrPresent(m, s, { kind: 'gold', objectId: 0, amount: 5 }, NOW);
  if (r._tag === 'Left') {
    t.fail(r.left.code);
    return;
  }
  t.is(r.right.state.gold, max);
  const present = r.right.state.presents.at(-1)!;
  t.like(present, {
    kind: 'gold',
    objectId: 0,
    amount: 5,
    title: 'Storage full',
    message: 'This did not fit in your storage and was kept for you here.',
    source: 'overflow',
    deadline: null,
    createdAt: NOW,
  });
  t.is(r.right.outcome.managedPresentId, present.managedPresentId);
  const unknown = grantOrPresent(m, s, { kind: 'item', objectId: 424_242, amount: 1 }, NOW);
  t.like(unknown, { _tag: 'Left', left: { code: 'NOT_FOUND' } });
});

test('grantAll grants each in order, with an outcome each', (t) => {
  const r = grantAll(
    m,
    s0,
    [
      { kind: 'gold', objectId: 0, amount: 7 },
      { kind: 'character', objectId: C3, amount: 1 },
      { kind: 'character', objectId: C3, amount: 1 },
    ],
    NOW,
  );
  if (r._tag === 'Left') {
    t.fail(r.left.code);
    return;
  }
  t.is(r.right.state.gold, s0.gold + 7);
  t.is(r.right.state.characters.length, 1);
  t.is(itemsOf(r.right.state)[String(C3_ITEM)], 5);
  t.deepEqual(
    r.right.outcomes.map((o) => o.grant.kind),
    ['gold', 'character', 'character'],
  );
  t.deepEqual(
    r.right.outcomes.map((o) => o.duplicate),
    [null, null, { itemId: C3_ITEM, amount: 5 }],
  );
});
