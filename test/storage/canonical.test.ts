// canonicalJson reuses the JSON of state parts it has seen (by identity); it must
// give exactly the key-sorted JSON of the whole state, before and after updates.
import test from 'ava';
import fc from 'fast-check';
import { canonicalJson, canonicalPieces, stateHash } from '../../adapters/storage/canonical.js';
import { freshPlayer, ok, receiveAll } from '../_support/core.js';
import { decodeState } from '../../core/state.js';

const sortedAll = (v: unknown): string =>
  JSON.stringify(v, (_k, x: unknown) => {
    if (x === null || typeof x !== 'object' || Array.isArray(x)) return x;
    const o = x as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, o[k]]),
    );
  });

test('canonicalJson is the key-sorted JSON of the state, also for states that share parts with ones seen before', (t) => {
  let s = { ...receiveAll(t, freshPlayer()), gem: 99_999 };
  t.is(canonicalJson(s), sortedAll(s));
  for (let i = 0; i < 5; i++) {
    s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: `c${i}` }).state;
    t.is(canonicalJson(s), sortedAll(s));
  }
  // A state decoded with its fields in another order gives the same bytes.
  const reordered = Object.fromEntries(Object.entries(s).reverse());
  t.is(canonicalJson(reordered), canonicalJson(s));
});

test('canonicalJson matches the sorted JSON on arbitrary objects', (t) => {
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })),
      (o) => canonicalJson(o) === sortedAll(o),
    ),
    { numRuns: 200 },
  );
  t.pass();
});

test("canonicalPieces join to canonicalJson, a long list a few hundred elements a piece (a seasoned player's history, with undefined among a list's elements)", (t) => {
  let s = { ...receiveAll(t, freshPlayer()), gem: 99_999 };
  for (let i = 0; i < 3; i++) s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: `p${i}` }).state;
  const first = s.gachaHistory[0]!;
  const seasoned = { ...s, gachaHistory: Array.from({ length: 3_000 }, (_, i) => ({ ...first, drawnAt: i })) };
  for (const x of [s, seasoned]) t.is([...canonicalPieces(x)].join(''), canonicalJson(x));
  const pieces = [...canonicalPieces(seasoned)];
  t.true(pieces.length >= 15 + Object.keys(seasoned).length - 1, `${pieces.length} pieces`);
  t.true(
    pieces.every((p) => p.length < 60_000),
    'no piece holds the whole history',
  );
  const odd = { b: Array.from({ length: 450 }, (_, i) => (i % 7 === 0 ? undefined : { i })), a: 1, c: undefined };
  t.is([...canonicalPieces(odd)].join(''), canonicalJson(odd));
  t.is([...canonicalPieces({})].join(''), '{}');
  fc.assert(
    fc.property(
      fc.dictionary(fc.string({ maxLength: 4 }), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 500 })),
      (o) => [...canonicalPieces(o)].join('') === canonicalJson(o),
    ),
    { numRuns: 50 },
  );
});

test('stateHash is the same for the same data however it was built, and changes with any field, in a list too', (t) => {
  let s = { ...receiveAll(t, freshPlayer()), gem: 99_999 };
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: 'h1' }).state;
  const h = stateHash(s);
  const reread = decodeState(JSON.parse(canonicalJson(s)));
  if (reread._tag === 'Left') return t.fail('does not decode');
  t.is(stateHash(reread.right), h, 'read back from its JSON');
  t.is(stateHash(Object.fromEntries(Object.entries(s).reverse()) as typeof s), h, 'fields in another order');
  const [first, ...rest] = s.characters;
  if (!first) return t.fail('no character');
  t.not(stateHash({ ...s, characters: [{ ...first, level: first.level + 1 }, ...rest] }), h, 'an element of a list');
  t.not(stateHash({ ...s, gold: s.gold + 1 }), h, 'a number');
  t.not(stateHash({ ...s, stamina: { ...s.stamina, value: s.stamina.value + 1 } }), h, 'a nested object');
  t.is(stateHash({ ...s, characters: [first, ...rest] }), h, 'an equal list that is another array');
});

test('canonicalJson keeps a "__proto__" key and puts array-index keys first, as the sorted object\'s JSON does', (t) => {
  const o = JSON.parse('{"b":1,"__proto__":{"x":2},"10":3,"2":4,"a":{"__proto__":5,"07":1,"7":2}}') as Record<
    string,
    unknown
  >;
  t.is(canonicalJson(o), sortedAll(o));
  t.is(canonicalJson(o), '{"2":4,"10":3,"__proto__":{"x":2},"a":{"7":2,"07":1,"__proto__":5},"b":1}');
});
