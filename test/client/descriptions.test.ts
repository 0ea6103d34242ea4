// The operations' descriptions (core/api/) and the operations table are one list:
// each entry of the table is its description with a reducer (implementOp), in the same
// order, so what the client calls is what the server routes.
import test from 'ava';
import * as t from 'io-ts';
import { DESCRIPTIONS } from '../../core/api/index.js';
import { describeOp } from '../../core/api/describe.js';
import { accessOf, findOf, implementOp } from '../../core/operation.js';
import { OPERATIONS, OPERATOR_OPERATIONS } from '../../core/operations/table.js';
import { operatorApi } from '../../core/api/operator.js';
import { ok } from '../../core/shared/result.js';

test("every table entry is its description's, in the same order, with the description's codecs", (tt) => {
  tt.deepEqual(
    OPERATIONS.map((o) => o.name),
    DESCRIPTIONS.map((d) => d.name),
  );
  OPERATIONS.forEach((op, i) => {
    const d = DESCRIPTIONS[i];
    if (!d) return tt.fail(op.name);
    for (const [k, v] of Object.entries(d)) tt.is((op as unknown as Record<string, unknown>)[k], v, `${op.name}.${k}`);
    tt.is(accessOf(op), accessOf(d), op.name);
  });
  tt.deepEqual(
    OPERATOR_OPERATIONS.map((o) => o.name),
    operatorApi.map((d) => d.name),
  );
});

test('an implementation must find its player as its description says', (tt) => {
  const d = describeOp({
    name: 'testPublic',
    method: 'GET',
    path: '/test/public',
    group: 'test',
    summary: 'A public entry.',
    access: 'public',
    request: t.type({}),
    response: t.type({}),
    errors: [],
  });
  const reduce = () => ok({ state: undefined as never, response: {} });
  tt.throws(() => implementOp(d, { reduce }), { message: /testPublic: finds its player by session.*says public/ });
  const op = implementOp(d, { find: { by: 'none' }, reduce });
  tt.is(findOf(op).by, 'none');
  tt.is(accessOf(op), 'public');
});
