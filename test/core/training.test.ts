import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, itemsOf, grantCharacters } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import { MINUTE } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
// 1011 Fighter ★5, 1012 Magician ★4, 1013 Cleric ★3, 1014 Engineer ★3, 1015 Scout ★3.
const setup = (level = 1, w: Parameters<typeof withWealth>[1] = {}): { s: PlayerState; ids: number[] } => {
  let s = grantCharacters(freshPlayer(), [1011, 1012, 1013, 1014, 1015]);
  s = withWealth({ ...s, level }, { gold: 100_000, ...w });
  return { s, ids: s.characters.map((c) => c.managedCharacterId) };
};
const MORNING = 1; // 60 min, 1 character, any class, 500 coins → 1500 coins + 2 Bronze badges, 500 exp
const PATROL = 2; // 120 min, 2 characters
const SWORD = 3; // Fighters only
const ARCANE = 4; // player level 5

test('get_list shows every slot open or closed by player level, on-going or not, and the trainings', (t) => {
  const { s, ids } = setup(5);
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] }).state;
  const r = ok(t, 'getListPlayerTraining', a, {}, { now: NOW + 30 * MINUTE });
  const slots = r.response.slots;
  t.deepEqual(slots.map((x) => [x.slotId, x.open, x.ongoing]), [[1, true, true], [2, true, false], [3, false, false], [4, false, false]]);
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
  t.deepEqual(r.state.trainings, [{ slotId: 1, trainingId: SWORD, managedCharacterIds: [ids[0] ?? 0], startedAt: NOW, completesAt: NOW + 90 * MINUTE }]);
  t.is(s.gold - r.state.gold, 800);
  t.truthy(r.response.managedTrainings);
});

test('orders errors: unknown slot or training or character 107, closed slot 317, busy slot 317, training above the player level 317', (t) => {
  const { s, ids } = setup();
  fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 9, trainingId: MORNING, managedCharacterIds: [ids[0]] });
  fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: 99, managedCharacterIds: [ids[0]] });
  fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [999_999] });
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, { slotId: 2, trainingId: MORNING, managedCharacterIds: [ids[0]] });
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, { slotId: 1, trainingId: ARCANE, managedCharacterIds: [ids[1]] });
  const busy = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] }).state;
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[1]] });
});

test('orders errors: wrong number of characters 102, a repeat 102, wrong class 102, a character training elsewhere 317, short of coins 441', (t) => {
  const { s, ids } = setup(5);
  fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, { slotId: 1, trainingId: PATROL, managedCharacterIds: [ids[0]] });
  fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, { slotId: 1, trainingId: PATROL, managedCharacterIds: [ids[0], ids[0]] });
  fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, { slotId: 1, trainingId: SWORD, managedCharacterIds: [ids[1]] });
  const busy = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] }).state;
  fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, { slotId: 2, trainingId: PATROL, managedCharacterIds: [ids[1], ids[0]] });
  fails(t, 'GOLD_IS_SHORT', 'ordersPlayerTraining', withWealth(s, { gold: 499 }), { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] });
});

test('completes before the end is 316; at the end it gives the rewards and capped exp and frees the slot', (t) => {
  const { s, ids } = setup(5);
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 2, trainingId: PATROL, managedCharacterIds: [ids[0], ids[2]] }).state;
  fails(t, 'TIMER_RUNNING', 'completesPlayerTraining', a, { slotId: 2 }, { now: NOW + 120 * MINUTE - 1 });
  // A clock that went back is still before the end.
  fails(t, 'TIMER_RUNNING', 'completesPlayerTraining', a, { slotId: 2 }, { now: NOW - 60 * MINUTE });
  // The ★3 Cleric is at its cap (50): its exp is capped; the ★5 gains it all.
  const capped = { ...a, characters: a.characters.map((c) => (c.managedCharacterId === ids[2] ? { ...c, level: 50, exp: m.characterLevels[49]?.totalExp ?? 0 } : c)) };
  const r = ok(t, 'completesPlayerTraining', capped, { slotId: 2 }, { now: NOW + 120 * MINUTE });
  t.deepEqual(r.state.trainings, []);
  t.is(itemsOf(r.state)['10401'], 3);
  t.is(itemsOf(r.state)['5002'], 5);
  t.is(r.state.characters[0]?.exp, 1000);
  t.is(r.state.characters[0]?.level, levelAt(1000));
  t.is(r.state.characters[2]?.exp, m.characterLevels[49]?.totalExp);
  t.deepEqual(r.response.characters, [{ managedCharacterId: ids[0], exp: 1000, level: levelAt(1000) }, { managedCharacterId: ids[2], exp: 0, level: 50 }]);
  // Later is the same as on time.
  const later = ok(t, 'completesPlayerTraining', capped, { slotId: 2 }, { now: NOW + 100 * 60 * MINUTE });
  t.deepEqual(later.state.characters, r.state.characters);
  t.deepEqual(later.state.items, r.state.items);
});

const levelAt = (exp: number) => m.characterLevels.filter((l) => l.totalExp <= exp).length;

test('completes gives coins; rewards over a maximum go to the present box', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', withWealth(s, { items: { 10401: 999 } }), { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[1]] }).state;
  const r = ok(t, 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  t.is(r.state.gold - a.gold, 1500);
  t.is(itemsOf(r.state)['10401'], 999);
  t.like(r.state.presents.at(-1), { kind: 'item', objectId: 10401, amount: 2, source: 'reward' });
});

test('completes and cancel on an idle slot are 317, on an unknown slot 107', (t) => {
  const { s } = setup();
  fails(t, 'STATE_CONFLICT', 'completesPlayerTraining', s, { slotId: 1 });
  fails(t, 'NOT_FOUND', 'completesPlayerTraining', s, { slotId: 9 });
  fails(t, 'STATE_CONFLICT', 'cancelPlayerTraining', s, { slotId: 1 });
  fails(t, 'NOT_FOUND', 'cancelPlayerTraining', s, { slotId: 9 });
});

test('cancel stops the training with no reward and no refund; the character can train again', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] }).state;
  const r = ok(t, 'cancelPlayerTraining', a, { slotId: 1 }, { now: NOW + 2 * 60 * MINUTE });
  t.deepEqual(r.state.trainings, []);
  t.is(r.state.gold, a.gold);
  t.deepEqual(r.state.items, a.items);
  t.deepEqual(r.state.characters, a.characters);
  ok(t, 'ordersPlayerTraining', r.state, { slotId: 1, trainingId: MORNING, managedCharacterIds: [ids[0]] });
});

test('orders: a training with an item cost is 442 when the items are short, and takes them when held', (t) => {
  // Workshop Shift (7): player level 20, two Engineers, 3000 coins and 5 Iron Ore.
  let { s } = setup(20);
  const r = tryGrant(m, s, { kind: 'character', objectId: 1023, amount: 1 }, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  s = r.right.state;
  const engineers = s.characters.filter((c) => m.character.get(c.characterId)?.classId === 4).map((c) => c.managedCharacterId);
  t.is(engineers.length, 2);
  fails(t, 'ITEM_IS_SHORT', 'ordersPlayerTraining', withWealth(s, { items: { 5001: 4 } }), { slotId: 1, trainingId: 7, managedCharacterIds: engineers });
  const a = ok(t, 'ordersPlayerTraining', withWealth(s, { items: { 5001: 5 } }), { slotId: 1, trainingId: 7, managedCharacterIds: engineers });
  t.is(itemsOf(a.state)['5001'], undefined);
});
