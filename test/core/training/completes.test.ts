// Ending trainings (completes and cancel, docs/rules/progression.md, Training): completes at
// the end gives the rewards and capped exp and frees the slot (a reward that does not fit is
// a present titled as a training reward); cancel gives nothing back; another slot's training
// keeps running; characters at their cap are kept unchanged (the identity contract,
// docs/architecture.md).
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, itemsOf, grantCharacters } from '../../_support/core.js';
import { MINUTE } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import { levelCap } from '../../../core/shared/growth.js';
import type { Master } from '../../../core/master/index.js';

const m = master();
// 1011 Fighter ★5, 1012 Magician ★4, 1013 Cleric ★3, 1014 Engineer ★3, 1015 Scout ★3.
const setup = (level = 1, w: Parameters<typeof withWealth>[1] = {}): { s: PlayerState; ids: number[] } => {
  let s = grantCharacters(freshPlayer(), [1011, 1012, 1013, 1014, 1015]);
  s = withWealth({ ...s, level }, { gold: 100_000, ...w });
  return { s, ids: s.characters.map((c) => c.managedCharacterId) };
};
const MORNING = 1; // Morning Drill: 60 min, 1 character, any class → 1500 coins + 2 Bronze Badges (10401), 500 exp
const PATROL = 2; // 120 min, 2 characters

const levelAt = (exp: number) => m.characterLevels.filter((l) => l.totalExp <= exp).length;
const id = (ids: number[], i: number): number => ids[i] ?? 0;
/** Master data an operator retuned: a training gone while one of it is running. */
const withoutTraining = (trainingId: number): Master => ({
  ...m,
  training: new Map([...m.training].filter(([k]) => k !== trainingId)),
});

const totalExp = (level: number) => m.characterLevels[level - 1]?.totalExp ?? 0;

test('completes before the end is 316; at the end it gives the rewards and capped exp and frees the slot', (t) => {
  const { s, ids } = setup(5);
  const a = ok(t, 'ordersPlayerTraining', s, {
    slotId: 2,
    trainingId: PATROL,
    managedCharacterIds: [ids[0], ids[2]],
  }).state;
  fails(t, 'TIMER_RUNNING', 'completesPlayerTraining', a, { slotId: 2 }, { now: NOW + 120 * MINUTE - 1 });
  // A clock that went back is still before the end.
  fails(t, 'TIMER_RUNNING', 'completesPlayerTraining', a, { slotId: 2 }, { now: NOW - 60 * MINUTE });
  // The ★3 Cleric is at its cap (50): its exp is capped; the ★5 gains it all.
  const capped = {
    ...a,
    characters: a.characters.map((c) =>
      c.managedCharacterId === ids[2] ? { ...c, level: 50, exp: m.characterLevels[49]?.totalExp ?? 0 } : c,
    ),
  };
  const r = ok(t, 'completesPlayerTraining', capped, { slotId: 2 }, { now: NOW + 120 * MINUTE });
  t.deepEqual(r.state.trainings, []);
  t.is(itemsOf(r.state)['10401'], 3);
  t.is(itemsOf(r.state)['5002'], 5);
  t.is(r.state.characters[0]?.exp, 1000);
  t.is(r.state.characters[0]?.level, levelAt(1000));
  t.is(r.state.characters[2]?.exp, m.characterLevels[49]?.totalExp);
  t.deepEqual(r.response.characters, [
    { managedCharacterId: ids[0], exp: 1000, level: levelAt(1000) },
    { managedCharacterId: ids[2], exp: 0, level: 50 },
  ]);
  // Later is the same as on time.
  const later = ok(t, 'completesPlayerTraining', capped, { slotId: 2 }, { now: NOW + 100 * 60 * MINUTE });
  t.deepEqual(later.state.characters, r.state.characters);
  t.deepEqual(later.state.items, r.state.items);
});

test('completes gives coins; rewards over a maximum go to the present box', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', withWealth(s, { items: { 10401: 999 } }), {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [ids[1]],
  }).state;
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

test('cancelling or completing one slot leaves the training of another slot running', (t) => {
  const { s, ids } = setup(5);
  const one = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 0)],
  }).state;
  const both = ok(t, 'ordersPlayerTraining', one, {
    slotId: 2,
    trainingId: PATROL,
    managedCharacterIds: [id(ids, 1), id(ids, 2)],
  }).state;
  const cancelled = ok(t, 'cancelPlayerTraining', both, { slotId: 1 });
  t.deepEqual(cancelled.state.trainings, [both.trainings[1]]);
  const done = ok(t, 'completesPlayerTraining', both, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  t.deepEqual(done.state.trainings, [both.trainings[1]]);
  const other = ok(t, 'cancelPlayerTraining', both, { slotId: 2 });
  t.deepEqual(other.state.trainings, [both.trainings[0]]);
});

test('completes with every trained character at its level cap: each gains 0 exp, the characters are kept unchanged and not listed as changed', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 2)],
  }).state;
  const cleric = a.characters[2];
  if (!cleric) return t.fail('the ★3 Cleric');
  const cap = levelCap(m, cleric); // 50 for a ★3 with no limit break
  const capped: PlayerState = {
    ...a,
    characters: a.characters.map((c, i) => (i === 2 ? { ...c, level: cap, exp: totalExp(cap) } : c)),
  };
  const r = ok(t, 'completesPlayerTraining', capped, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  t.deepEqual(r.response.characters, [{ managedCharacterId: id(ids, 2), exp: 0, level: cap }]);
  t.is(r.state.characters, capped.characters);
  t.is(r.response.managedCharacters, undefined);
  t.is(r.state.gold - capped.gold, 1500, 'the rewards are still given');
});

test('completes before the end is 316 naming the training and when it completes', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 0)],
  }).state;
  t.like(fails(t, 'TIMER_RUNNING', 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE - 1 }), {
    entity: 'training',
    completesAt: NOW + 60 * MINUTE,
  });
});

test('completes of a training master data no longer holds is 107 naming the training', (t) => {
  const { s, ids } = setup();
  const a = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 0)],
  }).state;
  t.like(
    fails(
      t,
      'NOT_FOUND',
      'completesPlayerTraining',
      a,
      { slotId: 1 },
      { now: NOW + 60 * MINUTE, m: withoutTraining(MORNING) },
    ),
    { entity: 'training', id: MORNING },
  );
});

test('a reward that does not fit goes to a present titled as a training reward, naming the training', (t) => {
  const { s, ids } = setup(1, { items: { 10401: 9999 } });
  const a = ok(t, 'ordersPlayerTraining', s, {
    slotId: 1,
    trainingId: MORNING,
    managedCharacterIds: [id(ids, 0)],
  }).state;
  const r = ok(t, 'completesPlayerTraining', a, { slotId: 1 }, { now: NOW + 60 * MINUTE });
  const p = r.state.presents.at(-1);
  t.like(p, { kind: 'item', objectId: 10401, amount: 2, source: 'reward' });
  t.regex(p?.title ?? '', /Training reward/);
  t.regex(p?.message ?? '', /^Morning Drill: /);
});
