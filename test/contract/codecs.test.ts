// The client contract at the codec level: every answer is declared (no unknown
// anywhere in a response codec), the view codecs cover every collection, and the
// strict answer check catches what io-ts's own `is` lets through.
import test from 'ava';
import * as io from 'io-ts';
import { OPERATIONS } from '../../core/operations/table.js';
import { answerCodec } from '../../core/operation.js';
import { answerProblems, unknownPaths } from '../../core/answer-check.js';
import { COLLECTIONS, fullView } from '../../core/view.js';
import { COLLECTION_CODECS, FullView } from '../../core/views/codecs.js';
import { freshPlayer, master, NOW } from '../_support/core.js';

test('no response codec declares unknown anywhere', (t) => {
  const untyped = OPERATIONS.flatMap((op) => unknownPaths(answerCodec(op)).map((p) => `${op.name}: ${p}`));
  t.deepEqual(untyped, []);
});

test('every collection the views build has its codec, and every codec a collection', (t) => {
  t.deepEqual(COLLECTIONS.map((c) => c.wire).sort(), Object.keys(COLLECTION_CODECS).sort());
});

test("a new player's whole view is exactly FullView", (t) => {
  t.deepEqual(answerProblems(FullView, fullView(freshPlayer(), { master: master(), now: NOW })), []);
});

const Item = io.type({ id: io.number, name: io.union([io.string, io.null]) });
const Answer = io.intersection([io.type({ items: io.array(Item) }), io.partial({ count: io.number })]);

test('the strict check finds undeclared, missing and mistyped fields, at their paths', (t) => {
  t.deepEqual(answerProblems(Answer, { items: [{ id: 1, name: null }], count: 2 }), []);
  t.deepEqual(answerProblems(Answer, { items: [{ id: 1, name: 'a', extra: true }] }), [
    '(answer).items.0.extra: not declared',
  ]);
  t.deepEqual(answerProblems(Answer, { items: [{ id: 1 }] }), ['(answer).items.0.name: missing']);
  t.deepEqual(answerProblems(Answer, { items: [{ id: '1', name: 'a' }] }), [
    '(answer).items.0.id: is not number ("1")',
  ]);
  t.deepEqual(answerProblems(Answer, { items: [], count: 'x' }), ['(answer).count: is not number ("x")']);
  t.deepEqual(answerProblems(Answer, { items: [], other: 1 }), ['(answer).other: not declared']);
  // io-ts's own check lets the undeclared field through: the reason for the strict one.
  t.true(Answer.is({ items: [], other: 1 }));
});

test('the strict check reports a codec that declares unknown', (t) => {
  t.deepEqual(answerProblems(io.type({ a: io.unknown }), { a: 1 }), ['(answer).a: declared as unknown']);
  t.deepEqual(unknownPaths(io.type({ a: io.array(io.unknown), b: io.record(io.string, io.unknown) })), [
    '(answer).a[]',
    '(answer).b{}',
  ]);
});
