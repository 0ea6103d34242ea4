// The mark that lets an adapter keep a view's JSON by identity (core/view.ts shared) must
// not show: not in the JSON, the keys, a spread or a deep comparison.
import test from 'ava';
import { isShared, keepPlayerViews, shared } from '../../../core/view.js';

// The mark is set only while players' views are kept (ANSWER_CACHE_MB > 0; off by default).
keepPlayerViews(true);

test('a shared view is marked without a trace in its JSON, keys, spread or deep equality', (t) => {
  const v = shared({ managedCharacterId: 1, level: 2 });
  t.true(isShared(v));
  t.is(JSON.stringify(v), '{"managedCharacterId":1,"level":2}');
  t.deepEqual(Object.keys(v), ['managedCharacterId', 'level']);
  t.deepEqual(Object.getOwnPropertySymbols({ ...v }), []);
  t.deepEqual(v, { managedCharacterId: 1, level: 2 });
  t.false(isShared({ managedCharacterId: 1, level: 2 }), 'an equal object that was not marked');
  t.false(isShared({ ...v }), 'a copy is not marked');
});

test('lists and objects that take no property are marked too', (t) => {
  const list = shared([1, 2, 3]);
  const frozen = shared(Object.freeze({ a: 1 }));
  t.true(isShared(list));
  t.true(isShared(frozen));
  t.is(JSON.stringify(list), '[1,2,3]');
  t.false(isShared([1, 2, 3]));
});
