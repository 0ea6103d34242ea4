// The request object codecs validate field by field (fast path); they must accept,
// keep and refuse exactly as io-ts's exact type and intersection do, with the same
// first error (the one a client sees).
import test from 'ava';
import fc from 'fast-check';
import * as t from 'io-ts';
import { Flag, IdList, Int, IntRange, PosInt, Text, obj, objWithOptional, requestError } from '../../core/codecs.js';

const required = { id: PosInt, kind: IntRange(1, 3), items: t.array(obj({ itemId: PosInt, amount: Int }, 'Item')) };
const optional = { note: Text(0, 4), flag: Flag, ids: IdList(3) };
const fast = objWithOptional(required, optional, 'Req');
const slow = t.exact(t.intersection([t.type(required), t.partial(optional)]), 'Req');
const fastObj = obj(required, 'Only');
const slowObj = t.exact(t.type(required), 'Only');

const outcome = (r: t.Validation<unknown>) => (r._tag === 'Right' ? { ok: r.right } : { error: requestError(r.left) });
/** io-ts names the intersection member too (`0.id`); the client is told the field (`id`). */
const memberless = (o: ReturnType<typeof outcome>) =>
  'error' in o && o.error && 'field' in o.error
    ? { error: { ...o.error, field: String(o.error.field).replace(/^[01]\./, '') } }
    : o;
/**
 * io-ts keeps an optional key given as undefined; the fast path leaves it out, as if
 * absent (a request from JSON never holds undefined; to a reducer the two read alike).
 */
const undefinedLeftOut = (o: ReturnType<typeof outcome>): ReturnType<typeof outcome> =>
  'ok' in o && o.ok !== null && typeof o.ok === 'object'
    ? { ok: Object.fromEntries(Object.entries(o.ok).filter(([, v]) => v !== undefined)) }
    : o;

const anyValue = fc.oneof(
  fc.integer({ min: -3, max: 5 }),
  fc.constantFrom('1', '2', 'x', '', '1,2', '0', 'true'),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.array(
    fc.record(
      {
        itemId: fc.oneof(fc.integer({ min: -1, max: 3 }), fc.constant('2')),
        amount: fc.oneof(fc.integer(), fc.constant('a')),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 3 },
  ),
);
const body = fc.oneof(
  fc.record(
    { id: anyValue, kind: anyValue, items: anyValue, note: anyValue, flag: anyValue, ids: anyValue, extra: anyValue },
    { requiredKeys: [] },
  ),
  fc.constantFrom(null, 3, 'x', [1, 2]),
);

test('the field-by-field codecs decode as io-ts does, with the same first error', (t) => {
  fc.assert(
    fc.property(body, (b) => {
      t.deepEqual(outcome(fast.decode(b)), memberless(undefinedLeftOut(outcome(slow.decode(b)))));
      t.deepEqual(outcome(fastObj.decode(b)), outcome(slowObj.decode(b)));
    }),
    { numRuns: 1000 },
  );
});

test('unknown fields are dropped and optional ones left out when absent', (t) => {
  t.deepEqual(fast.decode({ id: '4', kind: 2, items: [{ itemId: 1, amount: 2, x: 1 }], extra: 1 }), {
    _tag: 'Right',
    right: { id: 4, kind: 2, items: [{ itemId: 1, amount: 2 }] },
  });
  // Given as undefined: left out too (io-ts would keep the key, holding undefined).
  const given = fast.decode({ id: 1, kind: 2, items: [], note: undefined, ids: undefined });
  t.deepEqual(given, { _tag: 'Right', right: { id: 1, kind: 2, items: [] } });
  t.false(given._tag === 'Right' && 'note' in given.right);
});
