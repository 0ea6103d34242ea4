// The player-key index outside the heap answers as the Map it replaced: the same
// lookups, sizes and insertion order after any sets and deletes (through rebuilds),
// for any string keys, and a checkpoint's keys round-trip through it.
import test from 'ava';
import fc from 'fast-check';
import { KeyIndex } from '../../adapters/storage/key-index.js';
import { IndexModel } from '../../adapters/storage/index-model.js';

/** Keys from a small pool (so sets and deletes meet), some non-latin1 and some lone surrogates. */
const key = fc.oneof(
  fc.integer({ min: 0, max: 60 }).map((n) => `k${n}`),
  fc.string({ unit: 'binary', maxLength: 6 }),
  fc.constantFrom('', 'ア', '\uD800', '\uDC00', '\uFFFD', 'é', '\u00e9\u0100'),
);
const op = fc.oneof(fc.record({ set: key, id: fc.integer({ min: 0, max: 0x7fffffff }) }), fc.record({ del: key }));

test('a KeyIndex answers as a Map<string, number> after any sets and deletes', (t) => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 400, size: 'max' }), fc.array(key, { maxLength: 20 }), (ops, probes) => {
      const ki = new KeyIndex();
      const m = new Map<string, number>();
      for (const o of ops) {
        if ('set' in o) {
          ki.set(o.set, o.id);
          m.set(o.set, o.id);
        } else t.is(ki.delete(o.del), m.delete(o.del));
      }
      const asked = [...probes, ...m.keys()];
      t.deepEqual(
        asked.map((k) => [ki.get(k), ki.has(k)]),
        asked.map((k) => [m.get(k), m.has(k)]),
      );
      t.is(ki.size, m.size);
      t.deepEqual([...ki], [...m]);
      t.deepEqual([...ki.values()], [...m.values()]);
    }),
    { numRuns: 300 },
  );
});

test('strings that are equal as UTF-8 but not as strings stay two keys', (t) => {
  const ki = new KeyIndex();
  // A lone surrogate and U+FFFD: the same bytes once encoded as UTF-8.
  ki.set('\uD800', 1).set('\uFFFD', 2).set('é', 3).set('\u00c3\u00a9', 4);
  t.deepEqual(
    [...ki],
    [
      ['\uD800', 1],
      ['\uFFFD', 2],
      ['é', 3],
      ['\u00c3\u00a9', 4],
    ],
  );
});

test("100,000 keys set, half deleted and set again: every lookup right, the order a Map's", (t) => {
  const ki = new KeyIndex();
  const m = new Map<string, number>();
  const uuid = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
  for (let i = 1; i <= 100_000; i++) {
    ki.set(uuid(i), i);
    m.set(uuid(i), i);
  }
  for (let i = 2; i <= 100_000; i += 2) {
    ki.delete(uuid(i));
    m.delete(uuid(i));
  }
  for (let i = 2; i <= 100_000; i += 4) {
    ki.set(uuid(i), i + 1);
    m.set(uuid(i), i + 1);
  }
  t.is(ki.size, m.size);
  let wrong = 0;
  for (let i = 1; i <= 100_001; i++) if (ki.get(uuid(i)) !== m.get(uuid(i))) wrong++;
  t.is(wrong, 0);
  t.deepEqual([...ki], [...m]);
});

test('a KeyIndex refuses what is not a player id, and is unchanged', (t) => {
  const ki = new KeyIndex();
  ki.set('a', 1);
  for (const bad of [-1, 1.5, 2 ** 31, Number.NaN]) t.throws(() => ki.set('b', bad), { instanceOf: RangeError });
  t.throws(() => ki.set('a', -1), { instanceOf: RangeError });
  t.deepEqual([...ki], [['a', 1]]);
});

test("the index's keys, written as pairs and read back, are the same pairs in the same order", (t) => {
  const a = IndexModel.fromJSON({
    maxPlayerId: 3,
    uuid: [
      ['u2', 2],
      ['u1', 1],
      ['ü3', 3],
    ],
    myCode: [['C1', 1]],
    moveCode: [],
    sessions: [],
  });
  const again = IndexModel.fromJSON({
    ...(JSON.parse(JSON.stringify(a.keysJSON())) as ReturnType<IndexModel['keysJSON']>),
    sessions: [],
  });
  t.deepEqual(again.keysJSON(), a.keysJSON());
  t.deepEqual(a.keysJSON().uuid, [
    ['u2', 2],
    ['u1', 1],
    ['ü3', 3],
  ]);
});
