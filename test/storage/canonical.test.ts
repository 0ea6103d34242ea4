// canonicalJson reuses the JSON of state parts it has seen (by identity); it must
// give exactly the key-sorted JSON of the whole state, before and after updates.
import test from 'ava';
import fc from 'fast-check';
import { canonicalJson, serialised, stateHash } from '../../adapters/storage/log.js';
import { freshPlayer, ok, receiveAll } from '../_support/core.js';

const sortedAll = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => {
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return x;
  const o = x as Record<string, unknown>;
  return Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]]));
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
  fc.assert(fc.property(fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 3 })), (o) => canonicalJson(o) === sortedAll(o)), { numRuns: 200 });
  t.pass();
});

test('serialised makes each state\'s JSON once, and its log hash from that JSON', (t) => {
  const s = receiveAll(t, freshPlayer());
  const given = { state: { ...s, version: s.version + 1 }, expectedVersion: s.version };
  const { players, results } = serialised([given, { state: s, expectedVersion: null, json: canonicalJson(s) }]);
  t.is(players[0]?.json, canonicalJson(given.state));
  t.is(players[0]?.expectedVersion, s.version);
  t.deepEqual(results.map((r) => [r.playerId, r.version, r.stateHash]), [
    [s.playerId, s.version + 1, stateHash(given.state)], [s.playerId, s.version, stateHash(s)],
  ]);
});
