// The rules of the player-key index outside the heap, one at a time, where a Map
// model over random keys seldom goes: keys that share a 32-bit hash or a table
// slot, tombstones in a probe chain, the key in slot 0, rebuilds dropping removed
// keys, keys longer than the lookup buffer or the byte buffer, and how many bytes
// a key takes (latin1 when every character fits in one, else UTF-16).
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { KeyIndex } from '../../adapters/storage/key-index.js';

/** The index's hash (key-index.ts hashOf): 32-bit FNV-1a over the key's UTF-16 code units. */
const fnv1a = (key: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
};
/** A new index's table has 16 slots: a key starts its probe at hash & 15. */
const slotOf = (key: string): number => fnv1a(key) & 15;

/** The index answers as the Map for these keys and its own, in the Map's order. */
const answersAsMap = (
  t: ExecutionContext,
  ki: KeyIndex,
  m: Map<string, number>,
  probes: readonly string[] = [],
): void => {
  const asked = [...probes, ...m.keys()];
  t.deepEqual(
    asked.map((k) => [ki.get(k), ki.has(k)]),
    asked.map((k) => [m.get(k), m.has(k)]),
  );
  t.is(ki.size, m.size);
  t.deepEqual([...ki], [...m]);
  t.deepEqual([...ki.values()], [...m.values()]);
};

/** Bytes a key takes: a tag byte, then latin1 (1 a character) or UTF-16 (2). */
const bytesOf = (key: string): number =>
  1 + ([...key].every((c) => c.charCodeAt(0) < 256) ? key.length : 2 * key.length);

test('keys with the same 32-bit hash (same length or not) are two keys', (t) => {
  // Known FNV-1a-32 collisions: the hash alone cannot tell these apart, only the bytes can.
  const pairs = [
    ['declinate', 'macallums'],
    ['costarring', 'liquid'],
    ['altarage', 'zinke'],
    ['altarages', 'zinkes'],
  ] as const;
  for (const [a, b] of pairs) {
    t.is(fnv1a(a), fnv1a(b), `${a} and ${b} collide`);
    const ki = new KeyIndex().set(a, 1);
    t.is(ki.get(b), undefined);
    t.false(ki.has(b));
    t.false(ki.delete(b));
    ki.set(b, 2);
    t.deepEqual([ki.get(a), ki.get(b), ki.size], [1, 2, 2]);
    t.deepEqual(
      [...ki],
      [
        [a, 1],
        [b, 2],
      ],
    );
    ki.set(b, 3);
    t.deepEqual(
      [...ki],
      [
        [a, 1],
        [b, 3],
      ],
      'setting b again changes b, not a',
    );
    t.true(ki.delete(a));
    t.deepEqual([ki.get(a), ki.get(b), ki.has(a), ki.has(b)], [undefined, 3, false, true]);
    t.deepEqual([...ki], [[b, 3]]);
  }
});

test('a key and the same key with a NUL after it share a hash, yet neither is the other', (t) => {
  // Found by meeting in the middle: FNV-1a of this key is 0, and 0 × the prime stays 0, so a
  // trailing NUL (xor 0) keeps the hash. The shorter key's bytes are the longer's first bytes.
  const x = 'lokikekba';
  const x0 = `${x}\0`;
  t.is(fnv1a(x), 0);
  t.is(fnv1a(x0), 0);
  // The longer stored, the shorter asked: only the lengths differ.
  const a = new KeyIndex().set(x0, 1);
  t.deepEqual([a.get(x), a.has(x)], [undefined, false]);
  a.set(x, 2);
  t.deepEqual(
    [...a],
    [
      [x0, 1],
      [x, 2],
    ],
  );
  // The shorter stored, followed by a latin1 key (whose tag byte is 0, as a NUL is): the longer asked.
  const b = new KeyIndex().set(x, 1).set('z', 2);
  t.deepEqual([b.get(x0), b.has(x0), b.delete(x0)], [undefined, false, false]);
  b.set(x0, 3);
  t.deepEqual(
    [...b],
    [
      [x, 1],
      ['z', 2],
      [x0, 3],
    ],
  );
});

test('keys that start their probe in the same slot are each found, and a deleted one does not end the probe', (t) => {
  const keys = Array.from({ length: 400 }, (_, i) => `k${i}`);
  const slot5 = keys.filter((k) => slotOf(k) === 5).slice(0, 5);
  t.is(slot5.length, 5);
  t.is(new Set(slot5.map(fnv1a)).size, 5, 'their hashes differ: only the slot is shared');
  const [a, b, c, d, e] = slot5 as [string, string, string, string, string];
  const ki = new KeyIndex();
  const m = new Map<string, number>();
  for (const [i, k] of [a, b, c, d].entries()) {
    ki.set(k, i);
    m.set(k, i);
  }
  answersAsMap(t, ki, m, [e]);
  // A tombstone where b was: c and d, further along the probe, are still found.
  t.true(ki.delete(b));
  m.delete(b);
  answersAsMap(t, ki, m, [b, e]);
  t.false(ki.delete(b));
  // A key set after the delete (maybe into the tombstone) and b again: both found, b now last.
  ki.set(e, 40);
  m.set(e, 40);
  ki.set(b, 10);
  m.set(b, 10);
  answersAsMap(t, ki, m);
  for (const k of [a, c, d]) {
    t.true(ki.delete(k));
    m.delete(k);
  }
  answersAsMap(t, ki, m, [a, c, d]);
});

test('the key in slot 0 can be deleted', (t) => {
  const k = Array.from({ length: 100 }, (_, i) => `k${i}`).find((x) => slotOf(x) === 0) as string;
  t.is(slotOf(k), 0);
  const ki = new KeyIndex().set(k, 7);
  t.true(ki.delete(k));
  t.deepEqual([ki.get(k), ki.has(k), ki.size, [...ki]], [undefined, false, 0, []]);
  t.false(ki.delete(k));
  ki.set(k, 8);
  t.deepEqual([...ki], [[k, 8]]);
});

test('a rebuild drops removed keys: not found, not counted, not iterated, their bytes freed; set again, a key goes last', (t) => {
  const ki = new KeyIndex();
  const m = new Map<string, number>();
  // A new index holds 8 entries: the 9th set rebuilds it, leaving out k3 (removed).
  for (let i = 0; i < 8; i++) {
    ki.set(`k${i}`, i);
    m.set(`k${i}`, i);
  }
  t.true(ki.delete('k3'));
  m.delete('k3');
  t.is(ki.keyBytes, 8 * 3, "a removed key's bytes stay until the rebuild");
  ki.set('x', 100);
  m.set('x', 100);
  t.is(ki.keyBytes, 7 * 3 + 2, 'the rebuild copied the live keys only');
  answersAsMap(t, ki, m, ['k3']);
  t.false(ki.delete('k3'));
  ki.set('k3', 33);
  m.set('k3', 33);
  answersAsMap(t, ki, m);
  t.deepEqual([...ki].at(-1), ['k3', 33]);
});

test('a set that is refused says which id it refused', (t) => {
  const ki = new KeyIndex().set('a', 1);
  for (const bad of [-1, 1.5, 2 ** 31, Number.NaN]) {
    t.throws(() => ki.set('b', bad), { instanceOf: RangeError, message: `a key index holds player ids, not ${bad}` });
  }
  t.deepEqual([...ki], [['a', 1]]);
});

test('a key takes a tag byte and then 1 byte a character when all are latin1, else 2 (UTF-16)', (t) => {
  const cases: Array<[string, number]> = [
    ['', 1],
    ['a', 2],
    ['abc', 4],
    ['\u00ff\u00e9', 3],
    ['\u0100', 3],
    ['名前', 5],
    ['a名', 5],
    ['名a', 5],
    ['😀', 5],
    ['abcdefgh\u0100', 19],
  ];
  for (const [k, bytes] of cases) {
    t.is(bytesOf(k), bytes, k);
    const ki = new KeyIndex().set(k, 1);
    t.is(ki.keyBytes, bytes, `${JSON.stringify(k)} takes ${bytes} bytes`);
    t.deepEqual([...ki], [[k, 1]]);
  }
  // Together: the sum, each read back as itself.
  const ki = new KeyIndex();
  for (const [i, [k]] of cases.entries()) ki.set(k, i);
  t.is(
    ki.keyBytes,
    cases.reduce((sum, [, n]) => sum + n, 0),
  );
  t.deepEqual(
    [...ki],
    cases.map(([k], i) => [k, i]),
  );
});

test('keys longer than the 256-byte lookup buffer are kept whole, latin1 or UTF-16', (t) => {
  const long = [
    'x'.repeat(255), // 256 bytes: fits as it is
    'x'.repeat(256), // 257
    'x'.repeat(300),
    '名'.repeat(127), // 255 bytes
    '名'.repeat(128), // 257: one past the buffer
    '名'.repeat(129),
    `${'a'.repeat(127)}名`, // 128 characters, one of them wide
    '😀'.repeat(100), // 200 UTF-16 code units (surrogate pairs)
    '名前'.repeat(300),
  ];
  for (const k of long) {
    // Each in a new index, so its lookup buffer has its first size.
    const ki = new KeyIndex().set(k, 1);
    t.deepEqual([...ki], [[k, 1]], `${k.length} characters`);
    t.is(ki.keyBytes, bytesOf(k));
    t.deepEqual([ki.get(k), ki.get(k.slice(0, -1)), ki.get(`${k}x`)], [1, undefined, undefined]);
  }
  // All in one index, short keys between them, then deleted and set again: as a Map.
  const ki = new KeyIndex();
  const m = new Map<string, number>();
  for (const [i, k] of long.entries()) {
    ki.set(k, i);
    m.set(k, i);
    ki.set(`s${i}`, 100 + i);
    m.set(`s${i}`, 100 + i);
  }
  answersAsMap(
    t,
    ki,
    m,
    long.map((k) => k.slice(1)),
  );
  for (const k of long.slice(0, 4)) {
    ki.delete(k);
    m.delete(k);
  }
  for (const k of long.slice(0, 2)) {
    ki.set(k, 9);
    m.set(k, 9);
  }
  answersAsMap(t, ki, m);
});

test('keys beyond the byte buffer (1024 at first) grow it: one just filling it, one past it, one over twice its size', (t) => {
  // Exactly 1024 bytes with the next key's: 6 keys of 170 bytes + one of 4.
  const fill = Array.from({ length: 6 }, (_, i) => `${i}`.repeat(169));
  const a = new KeyIndex();
  for (const [i, k] of fill.entries()) a.set(k, i);
  t.is(a.keyBytes, 1020);
  a.set('abc', 6);
  t.is(a.keyBytes, 1024);
  a.set('d', 7);
  t.is(a.keyBytes, 1026);
  t.deepEqual([...a], [...fill.map((k, i) => [k, i]), ['abc', 6], ['d', 7]]);
  // A single key of 3001 bytes in a new index: more than twice the 1024.
  const huge = 'h'.repeat(3000);
  const b = new KeyIndex().set(huge, 1);
  t.deepEqual([...b], [[huge, 1]]);
  t.is(b.keyBytes, 3001);
  b.set('after', 2);
  t.deepEqual(
    [...b],
    [
      [huge, 1],
      ['after', 2],
    ],
  );
  t.deepEqual([b.get(huge), b.get('after'), b.get(huge.slice(1))], [1, 2, undefined]);
  // And one of 5001 bytes after 1024 used.
  const wide = '名'.repeat(2500);
  a.set(wide, 8);
  t.is(a.keyBytes, 1026 + 5001);
  t.deepEqual([...a].at(-1), [wide, 8]);
  t.is(a.get(wide), 8);
});

test("thousands of keys, deleted and set again across several rebuilds: a Map's answers and order after each step", (t) => {
  const ki = new KeyIndex();
  const m = new Map<string, number>();
  const key = (i: number) => (i % 3 === 0 ? `名${i}` : i % 3 === 1 ? `u-${i}` : `${'p'.repeat(i % 40)}${i}`);
  for (let round = 0; round < 4; round++) {
    for (let i = 0; i < 1500; i++) {
      ki.set(key(i + round * 700), i);
      m.set(key(i + round * 700), i);
    }
    for (let i = round; i < 3000; i += 3) {
      t.is(ki.delete(key(i)), m.delete(key(i)));
    }
    answersAsMap(t, ki, m, [key(round), key(10_000)]);
  }
});

test('a KeyIndex answers as a Map over long runs of sets and deletes on few keys', (t) => {
  // Few keys (so deletes meet sets, and tombstones pile up), long runs (so rebuilds happen).
  const key = fc.oneof(
    fc.integer({ min: 0, max: 24 }).map((n) => `k${n}`),
    fc.constantFrom(
      'declinate',
      'macallums',
      'costarring',
      'liquid',
      'lokikekba',
      'lokikekba\0',
      '',
      '名前',
      'x'.repeat(300),
    ),
  );
  const op = fc.oneof(fc.record({ set: key, id: fc.nat({ max: 0x7fffffff }) }), fc.record({ del: key }));
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(op, { minLength: 50, maxLength: 300 }), (ops) => {
        const ki = new KeyIndex();
        const m = new Map<string, number>();
        for (const o of ops) {
          if ('set' in o) {
            ki.set(o.set, o.id);
            m.set(o.set, o.id);
          } else if (ki.delete(o.del) !== m.delete(o.del)) return false;
        }
        const asked = ['k0', 'k24', 'liquid', 'lokikekba\0', ...m.keys()];
        return (
          JSON.stringify(asked.map((k) => [ki.get(k) ?? null, ki.has(k)])) ===
            JSON.stringify(asked.map((k) => [m.get(k) ?? null, m.has(k)])) &&
          ki.size === m.size &&
          JSON.stringify([...ki]) === JSON.stringify([...m])
        );
      }),
      { numRuns: 200 },
    ),
  );
});
