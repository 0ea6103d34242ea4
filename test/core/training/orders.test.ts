// Starting trainings (get_list and orders, docs/rules/progression.md, Training): every slot
// open or closed by player level; orders pays the cost and starts the timer; trainings kept
// in slot order; what each refusal names (the slot, the training, the player level, the
// characters).
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, itemsOf, grantCharacters } from '../../_support/core.js';
import { tryGrant } from '../../../core/shared/grant.js';
import { MINUTE } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
// 1011 Fighter ★5, 1012 Magician ★4, 1013 Cleric ★3, 1014 Engineer ★3, 1015 Scout ★3.
const setup = (level = 1, w: Parameters<typeof withWealth>[1] = {}): { s: PlayerState; ids: number[] } => {
  let s = grantCharacters(freshPlayer(), [1011, 1012, 1013, 1014, 1015]);
  s = withWealth({ ...s, level }, { gold: 100_000, ...w });
  return { s, ids: s.characters.map((c) => c.managedCharacterId) };
};
const MORNING = 1; // Morning Drill: 60 min, 1 character, any class → 1500 coins + 2 Bronze Badges (10401), 500 exp
const PATROL = 2; // 120 min, 2 characters
const SWORD = 3; // Fighters (class 1) only, 90 min
const ARCANE = 4; // player level 5
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const id = (ids: number[], i: number): number => ids[i] ?? 0;

test('get_list shows every slot open or closed by player level, on-going or not, and the trainings', (t) => {
  const { s, ids } = setup(5);
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] }).state;
  const r = ok(t, 'getListPlayerTraining', a, {}, { now: NOW + 30 * MINUTE });
  const slots = r.response.slots;
  t.deepEqual(
    slots.map((x) => [x.slotId, x.open, x.ongoing]),
    [
      [1, true, true],
      [2, true, false],
      [3, false, false],
      [4, false, false],
    ],
  );
  t.is(slots[0]?.training?.completed, false);
  t.is(slots[0]?.training?.completesAt, '2026-11-21T13:00:00');
  const trainings = r.response.trainings;
  t.true(trainings.length >= 6);
  t.true(trainings.find((x) => x.trainingId === ARCANE)?.available);
  t.false(trainings.find((x) => x.trainingId === 5)?.available);
  t.is(r.state, a, 'a read changes nothing');
});

test('orders pays the cost and starts the timer', (t) => {
  const { s, ids } = setup();
  const r = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: SWORD, managedCharacterIds: [ids[0]] });
  t.deepEqual(r.state.trainings, [
    {
      slotId: 1,
      trainingId: SWORD,
      managedCharacterIds: [ids[0] ?? 0],
      startedAt: NOW,
      completesAt: NOW + 90 * MINUTE,
    },
  ]);
  t.is(s.gold - r.state.gold, 800);
  t.truthy(r.response.managedTrainings);
});

test('orders errors: unknown slot or training or character 107, closed slot 317, busy slot 317, training above the player level 317', (t) => {
  const { s, ids } = setup();
  fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 9, trainingId: MORNING, managedCharacterIds: [ids[0]] });
  fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: 99, managedCharacterIds: [ids[0]] });
  fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [999_999] });
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, {
    slotId: 2,
    trainingId: MORNING,
    managedCharacterIds: [ids[0]],
  });
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: ARCANE,
    managedCharacterIds: [ids[1]],
  });
  const busy = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [ids[0]],
  }).state;
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [ids[1]],
  });
});

test('orders errors: wrong number of characters 102, a repeat 102, wrong class 102, a character training elsewhere 317, short of coins 441', (t) => {
  const { s, ids } = setup(5);
  fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: PATROL,
    managedCharacterIds: [ids[0]],
  });
  fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: PATROL,
    managedCharacterIds: [ids[0], ids[0]],
  });
  fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: SWORD,
    managedCharacterIds: [ids[1]],
  });
  const busy = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [ids[0]],
  }).state;
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, {
    slotId: 2,
    trainingId: PATROL,
    managedCharacterIds: [ids[1], ids[0]],
  });
  fails(t, 'GOLD_IS_SHORT', 'ordersPlayerTraining', withWealth(s, { gold: 499 }), {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [ids[0]],
  });
});

test('orders: a training with an item cost is 442 when the items are short, and takes them when held', (t) => {
  // Workshop Shift (7): player level 20, two Engineers, 3000 coins and 5 Iron Ore.
  let { s } = setup(20);
  const r = tryGrant(m, s, { kind: 'character', objectId: 1023, amount: 1 }, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  s = r.right.state;
  const engineers = s.characters
    .filter((c) => m.character.get(c.characterId)?.classId === 4)
    .map((c) => c.managedCharacterId);
  t.is(engineers.length, 2);
  fails(t, 'ITEM_IS_SHORT', 'ordersPlayerTraining', withWealth(s, { items: { 5001: 4 } }), {
    slotId: 1,
    trainingId: 7,
    managedCharacterIds: engineers,
  });
  const a = ok(t, 'ordersPlayerTraining', withWealth(s, { items: { 5001: 5 } }), {
    slotId: 1,
    trainingId: 7,
    managedCharacterIds: engineers,
  });
  t.is(itemsOf(a.state)['5001'], undefined);
});

test("trainings are kept in slot order whatever order the slots were filled in (state and the answer's managedTrainings)", (t) => {
  const { s, ids } = setup(5);
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 2, trainingId: MORNING, managedCharacterIds: [id(ids, 1)] });
  const b = ok(t, 'ordersPlayerTraining', a.state, { slotId: 1, trainingId: SWORD, managedCharacterIds: [id(ids, 0)] });
  t.deepEqual(
    b.state.trainings.map((x) => [x.slotId, x.trainingId]),
    [
      [1, SWORD],
      [2, MORNING],
    ],
  );
  t.deepEqual(
    b.response.managedTrainings?.map((x) => x.slotId),
    [1, 2],
  );
  const c = ok(
    t,
    'ordersPlayerTraining',
    ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: SWORD, managedCharacterIds: [id(ids, 0)] }).state,
    { slotId: 2, trainingId: MORNING, managedCharacterIds: [id(ids, 1)] },
  );
  t.deepEqual(
    c.state.trainings.map((x) => x.slotId),
    [1, 2],
  );
});

test('slot refusals: an unknown slot is 107 naming it; an idle slot names it; a closed slot names its opening level; a busy slot names it', (t) => {
  const { s, ids } = setup();
  t.like(fails(t, 'NOT_FOUND', 'cancelPlayerTraining', s, { slotId: 9 }), { entity: 'training slot', id: 9 });
  t.like(
    fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, {
      slotId: 9,
      trainingId: MORNING,
      managedCharacterIds: [id(ids, 0)],
    }),
    { entity: 'training slot', id: 9 },
  );
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'cancelPlayerTraining', s, { slotId: 1 })),
    /no training is on-going in slot 1/,
  );
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, {
        slotId: 2,
        trainingId: MORNING,
        managedCharacterIds: [id(ids, 0)],
      }),
    ),
    /slot 2 opens at player level 5/,
  );
  const busy = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 0)],
  }).state;
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, {
        slotId: 1,
        trainingId: MORNING,
        managedCharacterIds: [id(ids, 1)],
      }),
    ),
    /slot 1 already has a training/,
  );
});

test('orders refusals name the training not found, the player level a training needs, and the characters field with why', (t) => {
  const { s, ids } = setup();
  t.like(
    fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: 99, managedCharacterIds: [id(ids, 0)] }),
    { entity: 'training', id: 99 },
  );
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, {
        slotId: 1,
        trainingId: ARCANE,
        managedCharacterIds: [id(ids, 1)],
      }),
    ),
    /training 4 needs player level 5/,
  );
  const count = fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: PATROL,
    managedCharacterIds: [id(ids, 0)],
  });
  t.like(count, { field: 'managedCharacterIds' });
  t.regex(reasonOf(count), /training 2 takes exactly 2 characters/);
  const twice = fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: PATROL,
    managedCharacterIds: [id(ids, 0), id(ids, 0)],
  });
  t.like(twice, { field: 'managedCharacterIds' });
  t.regex(reasonOf(twice), /twice/);
  t.like(
    fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, {
      slotId: 1,
      trainingId: PATROL,
      managedCharacterIds: [id(ids, 0), 999_999],
    }),
    { entity: 'character', id: 999_999 },
  );
  const klass = fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: SWORD,
    managedCharacterIds: [id(ids, 1)],
  });
  t.like(klass, { field: 'managedCharacterIds' });
  t.regex(reasonOf(klass), /training 3 takes only characters of class 1/);
});

test('orders of a character training in another slot is 317 naming the character', (t) => {
  const { s, ids } = setup(5);
  const busy = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 0)],
  }).state;
  const e = fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, {
    slotId: 2,
    trainingId: PATROL,
    managedCharacterIds: [id(ids, 1), id(ids, 0)],
  });
  t.regex(reasonOf(e), new RegExp(`character ${id(ids, 0)} is already training`));
});
