// The small helpers of core/shared that operations and simulation scripts build on:
// counters (counters.ts), party membership (parties.ts), results threaded through steps
// (result.ts), and timers (timer.ts).
import test from 'ava';
import { freshPlayer, NOW } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { bumpCounter, counter, countersBumped } from '../../../core/shared/counters.js';
import { characterInBattleParty, weaponInBattleParty } from '../../../core/shared/parties.js';
import { chain, fail, fold, ok, type Result } from '../../../core/shared/result.js';
import { isDone, remainingMs, startTimer } from '../../../core/shared/timer.js';

// ---- counters ----

test('raising a counter by 0 changes nothing: the same counters and the same state come back, with no new key', (t) => {
  const s: PlayerState = { ...freshPlayer(), counters: { questClears: 2 } };
  t.is(countersBumped(s, 'chestJackpots', 0), s.counters);
  t.is(bumpCounter(s, 'chestJackpots', 0), s);
  t.false('chestJackpots' in bumpCounter(s, 'chestJackpots', 0).counters);
});

test('raising a counter adds to it (from 0 when it was never raised) and leaves the others', (t) => {
  const s: PlayerState = { ...freshPlayer(), counters: { questClears: 2 } };
  t.deepEqual(countersBumped(s, 'questClears', 3), { questClears: 5 });
  const next = bumpCounter(bumpCounter(s, 'chestDraws'), 'chestDraws', 4);
  t.deepEqual(next.counters, { questClears: 2, chestDraws: 5 });
  t.is(counter(next, 'chestDraws'), 5);
  t.deepEqual(s.counters, { questClears: 2 }, 'the input is not changed');
});

// ---- parties ----

/** Party 1 holds character 10 with weapon 20 in its first slot; party 3 holds character 11 (no weapon) in its third. */
const withParties = (): PlayerState => {
  const s = freshPlayer();
  return {
    ...s,
    battleParties: s.battleParties.map((p) => {
      if (p.managedBattlePartyId === 1)
        return { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: 10, managedWeaponId: 20 } : x)) };
      if (p.managedBattlePartyId === 3)
        return {
          ...p,
          slots: p.slots.map((x, i) => (i === 2 ? { managedCharacterId: 11, managedWeaponId: null } : x)),
        };
      return p;
    }),
  };
};

test('a character is in a battle party when any slot of any party holds it', (t) => {
  const s = withParties();
  t.true(characterInBattleParty(s, 10), 'in one slot of the first party');
  t.true(characterInBattleParty(s, 11), 'in one slot of another party');
  t.false(characterInBattleParty(s, 12), 'in no party');
  t.false(characterInBattleParty(s, 20), "a weapon's id is not a character in a party");
  t.false(characterInBattleParty(freshPlayer(), 10), 'empty parties hold no one');
});

test('a weapon is in a battle party when any slot of any party holds it', (t) => {
  const s = withParties();
  t.true(weaponInBattleParty(s, 20));
  t.false(weaponInBattleParty(s, 10), "a character's id is not a weapon in a party");
  t.false(weaponInBattleParty(s, 21));
});

// ---- results ----

const notFound = (id: number): Result<never, 'NOT_FOUND'> => fail('NOT_FOUND', { entity: 'test', id });

test('chain threads the state through its steps in order', (t) => {
  const r = chain(
    1,
    (x) => ok(x + 1),
    (x) => ok(x * 10),
    (x) => ok(x - 3),
  );
  t.deepEqual(r, ok(17));
  t.deepEqual(chain(5), ok(5), 'no steps: the state itself');
});

test('chain stops at the first failure: later steps do not run', (t) => {
  const ran: number[] = [];
  const r = chain(
    1,
    (x) => {
      ran.push(1);
      return ok(x + 1);
    },
    (x) => {
      ran.push(2);
      return notFound(x);
    },
    (x) => {
      ran.push(3);
      return notFound(x + 100);
    },
  );
  t.deepEqual(r, notFound(2));
  t.deepEqual(ran, [1, 2]);
});

test('fold runs the step over each element in order, with its index', (t) => {
  const seen: Array<[number, number]> = [];
  const r = fold(0, [4, 5, 6], (s, x, i) => {
    seen.push([x, i]);
    return ok(s * 10 + x);
  });
  t.deepEqual(r, ok(456));
  t.deepEqual(seen, [
    [4, 0],
    [5, 1],
    [6, 2],
  ]);
  t.deepEqual(
    fold('start', [], () => notFound(0)),
    ok('start'),
    'no elements: the state itself',
  );
});

test('fold stops at the first failing element', (t) => {
  const seen: number[] = [];
  const r = fold(0, [1, 2, 3, 4], (s, x) => {
    seen.push(x);
    return x === 3 ? notFound(x) : ok(s + x);
  });
  t.deepEqual(r, notFound(3));
  t.deepEqual(seen, [1, 2, 3]);
});

// ---- timers ----

test('a timer shows the time left until it completes, then 0; it is done from its completion on', (t) => {
  const timer = startTimer(NOW, 60_000);
  t.deepEqual(timer, { startedAt: NOW, completesAt: NOW + 60_000 });
  t.is(remainingMs(timer, NOW), 60_000);
  t.is(remainingMs(timer, NOW + 59_999), 1);
  t.false(isDone(timer, NOW + 59_999));
  t.is(remainingMs(timer, NOW + 60_000), 0);
  t.true(isDone(timer, NOW + 60_000));
  t.is(remainingMs(timer, NOW + 3_600_000), 0, 'long after: still 0, never negative');
  t.true(isDone(timer, NOW + 3_600_000));
});
