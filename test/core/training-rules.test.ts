// Training rules at their edges (docs/rules/progression.md, Training): trainings
// kept in slot order, cancelling or completing one slot leaving the others running,
// a completion whose characters are all at their cap (nothing to change: the
// characters are kept, docs/architecture.md's identity contract), the present a
// reward that does not fit goes to, and what each refusal names.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, grantCharacters } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import { levelCap } from '../../core/shared/growth.js';
import { MINUTE } from '../../core/time.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

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
/** Master data an operator retuned: a training gone while one of it is running. */
const withoutTraining = (trainingId: number): Master => ({ ...m, training: new Map([...m.training].filter(([k]) => k !== trainingId)) });

const totalExp = (level: number) => m.characterLevels[level - 1]?.totalExp ?? 0;

test('trainings are kept in slot order whatever order the slots were filled in (state and the answer\'s managedTrainings)', (t) => {
  const { s, ids } = setup(5);
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 2, trainingId: MORNING, managedCharacterIds: [id(ids, 1)] });
  const b = ok(t, 'ordersPlayerTraining', a.state, { slotId: 1, trainingId: SWORD, managedCharacterIds: [id(ids, 0)] });
  t.deepEqual(b.state.trainings.map((x) => [x.slotId, x.trainingId]), [[1, SWORD], [2, MORNING]]);
  t.deepEqual(b.response.managedTrainings?.map((x) => x.slotId), [1, 2]);
  const c = ok(t, 'ordersPlayerTraining', ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: SWORD, managedCharacterIds: [id(ids, 0)] }).state,
    { slotId: 2, trainingId: MORNING, managedCharacterIds: [id(ids, 1)] });
  t.deepEqual(c.state.trainings.map((x) => x.slotId), [1, 2]);
});

test('cancelling or completing one slot leaves the training of another slot running', (t) => {
  const { s, ids } = setup(5);
  const one = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }).state;
  const both = ok(t, 'ordersPlayerTraining', one, { slotId: 2, trainingId: PATROL, managedCharacterIds: [id(ids, 1), id(ids, 2)] }).state;
  const cancelled = ok(t, 'cancelPlayerTraining', both, { slotId: 1 });
  t.deepEqual(cancelled.state.trainings, [both.trainings[1]]);
  const done = ok(t, 'completesPlayerTraining', both, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  t.deepEqual(done.state.trainings, [both.trainings[1]]);
  const other = ok(t, 'cancelPlayerTraining', both, { slotId: 2 });
  t.deepEqual(other.state.trainings, [both.trainings[0]]);
});

test('completes with every trained character at its level cap: each gains 0 exp, the characters are kept unchanged and not listed as changed', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 2)] }).state;
  const cleric = a.characters[2];
  if (!cleric) return t.fail('the ★3 Cleric');
  const cap = levelCap(m, cleric); // 50 for a ★3 with no limit break
  const capped: PlayerState = { ...a, characters: a.characters.map((c, i) => (i === 2 ? { ...c, level: cap, exp: totalExp(cap) } : c)) };
  const r = ok(t, 'completesPlayerTraining', capped, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  t.deepEqual(r.response.characters, [{ managedCharacterId: id(ids, 2), exp: 0, level: cap }]);
  t.is(r.state.characters, capped.characters);
  t.is(r.response.managedCharacters, undefined);
  t.is(r.state.gold - capped.gold, 1500, 'the rewards are still given');
});

test('completes before the end is 316 naming the training and when it completes', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }).state;
  t.like(fails(t, 'TIMER_RUNNING', 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE - 1 }), { entity: 'training', completesAt: NOW + 60 * MINUTE });
});

test('completes of a training master data no longer holds is 107 naming the training', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }).state;
  t.like(fails(t, 'NOT_FOUND', 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE, m: withoutTraining(MORNING) }), { entity: 'training', id: MORNING });
});

test('a reward that does not fit goes to a present titled as a training reward, naming the training', (t) => {
  const { s, ids } = setup(1, { items: { 10401: 9999 } });
  const a = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }).state;
  const r = ok(t, 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  const p = r.state.presents.at(-1);
  t.like(p, { kind: 'item', objectId: 10401, amount: 2, source: 'reward' });
  t.regex(p?.title ?? '', /Training reward/);
  t.regex(p?.message ?? '', /^Morning Drill: /);
});

test('slot refusals: an unknown slot is 107 naming it; an idle slot names it; a closed slot names its opening level; a busy slot names it', (t) => {
  const { s, ids } = setup();
  t.like(fails(t, 'NOT_FOUND', 'cancelPlayerTraining', s, { slotId: 9 }), { entity: 'training slot', id: 9 });
  t.like(fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 9, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }), { entity: 'training slot', id: 9 });
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'cancelPlayerTraining', s, { slotId: 1 })), /no training is on-going in slot 1/);
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, { slotId: 2, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] })), /slot 2 opens at player level 5/);
  const busy = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }).state;
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 1)] })), /slot 1 already has a training/);
});

test('orders refusals name the training not found, the player level a training needs, and the characters field with why', (t) => {
  const { s, ids } = setup();
  t.like(fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: 99, managedCharacterIds: [id(ids, 0)] }), { entity: 'training', id: 99 });
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', s, { slotId: 1, trainingId: ARCANE, managedCharacterIds: [id(ids, 1)] })), /training 4 needs player level 5/);
  const count = fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, { slotId: 1, trainingId: PATROL, managedCharacterIds: [id(ids, 0)] });
  t.like(count, { field: 'managedCharacterIds' });
  t.regex(reasonOf(count), /training 2 takes exactly 2 characters/);
  const twice = fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, { slotId: 1, trainingId: PATROL, managedCharacterIds: [id(ids, 0), id(ids, 0)] });
  t.like(twice, { field: 'managedCharacterIds' });
  t.regex(reasonOf(twice), /twice/);
  t.like(fails(t, 'NOT_FOUND', 'ordersPlayerTraining', s, { slotId: 1, trainingId: PATROL, managedCharacterIds: [id(ids, 0), 999_999] }), { entity: 'character', id: 999_999 });
  const klass = fails(t, 'INVALID_PARAMETERS', 'ordersPlayerTraining', s, { slotId: 1, trainingId: SWORD, managedCharacterIds: [id(ids, 1)] });
  t.like(klass, { field: 'managedCharacterIds' });
  t.regex(reasonOf(klass), /training 3 takes only characters of class 1/);
});

test('orders of a character training in another slot is 317 naming the character', (t) => {
  const { s, ids } = setup(5);
  const busy = ok(t, 'ordersPlayerTraining', s, { slotId: 1, trainingId: MORNING, managedCharacterIds: [id(ids, 0)] }).state;
  const e = fails(t, 'STATE_CONFLICT', 'ordersPlayerTraining', busy, { slotId: 2, trainingId: PATROL, managedCharacterIds: [id(ids, 1), id(ids, 0)] });
  t.regex(reasonOf(e), new RegExp(`character ${id(ids, 0)} is already training`));
});
