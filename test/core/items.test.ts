// The item list: sorted by item id with no zero amounts, set without mutation, and
// stored states of the older object form (`{ "itemId": amount }`) still load.
import test from 'ava';
import fc from 'fast-check';
import { decodeState } from '../../core/state.js';
import { lazyRng, rngFromSeed } from '../../core/rng.js';
import { setItem } from '../../core/shared/pay.js';
import { itemAmount } from '../../core/shared/player.js';
import { freshPlayer, withWealth } from '../_support/core.js';

test('setItem keeps the list sorted, drops zero amounts and leaves its input untouched (model: a Map)', (t) => {
  fc.assert(fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 40 }), fc.integer({ min: -3, max: 9 })), { maxLength: 60 }), (ops) => {
    let items: ReadonlyArray<{ itemId: number; amount: number }> = [];
    const model = new Map<number, number>();
    for (const [id, n] of ops) {
      const before = JSON.stringify(items);
      const next = setItem(items, id, n);
      if (JSON.stringify(items) !== before) return false;
      if (n > 0) model.set(id, n); else model.delete(id);
      items = next;
    }
    const want = [...model].sort((a, b) => a[0] - b[0]).map(([itemId, amount]) => ({ itemId, amount }));
    return JSON.stringify(items) === JSON.stringify(want) && want.every((w) => itemAmount(items, w.itemId) === w.amount) && itemAmount(items, 41) === 0;
  }), { numRuns: 200 });
  t.pass();
});

test('decodeState migrates the older object form of items to the sorted list', (t) => {
  const s = freshPlayer();
  const old = { ...JSON.parse(JSON.stringify(s)) as Record<string, unknown>, items: { 10401: 3, 3001: 1, 2001: 0 } };
  const d = decodeState(old);
  if (d._tag === 'Left') return t.fail('the old form does not decode');
  t.deepEqual(d.right.items, [{ itemId: 3001, amount: 1 }, { itemId: 10401, amount: 3 }]);
  const current = withWealth(s, { items: { 5: 2, 1: 7 } });
  const again = decodeState(JSON.parse(JSON.stringify(current)));
  t.deepEqual(again._tag === 'Right' ? again.right.items : null, [{ itemId: 1, amount: 7 }, { itemId: 5, amount: 2 }]);
});

test('lazyRng draws exactly what rngFromSeed draws, and makes no rng until asked', (t) => {
  let made = 0;
  const lazy = lazyRng(() => { made++; return 'seed-1'; });
  t.is(made, 0);
  const eager = rngFromSeed('seed-1');
  const a = Array.from({ length: 20 }, (_, i) => (i % 2 ? lazy.int(1000) : lazy.next()));
  const b = Array.from({ length: 20 }, (_, i) => (i % 2 ? eager.int(1000) : eager.next()));
  t.deepEqual(a, b);
  t.is(made, 1);
});
