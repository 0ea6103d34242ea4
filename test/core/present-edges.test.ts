// The present box at its edges (issue 23, mutation survivors of core/operations/present.ts):
// deadlines and the kept age at the exact millisecond, what each present not received
// says, receipts that change nothing, and the stepCode riding on a receipt.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import { sendPresent } from '../../core/shared/grant.js';
import { RESULT_CODES } from '../../core/errors.js';
import { DAY } from '../../core/time.js';
import type { PlayerState } from '../../core/state.js';
import { answerCodec } from '../../core/operation.js';
import { answerProblems } from '../../core/answer-check.js';
import { operationByName, operationNamed } from '../../core/operations/table.js';

const gold = (s: PlayerState, amount: number, at: number, deadline: number | null = null) => {
  const r = sendPresent(s, { kind: 'gold', objectId: 0, amount }, { title: `gold ${amount}`, message: '', source: 'operator', deadline }, at);
  return { state: r.state, id: r.present.managedPresentId };
};

test('a present whose deadline is now has expired: not listed, not received, and says so', (t) => {
  const { state: s, id } = gold(freshPlayer(), 5, NOW, NOW + DAY);
  const listed = (now: number) => ok(t, 'getAllPlayerPresent', s, {}, { now }).response.presents.map((p) => p.managedPresentId);
  t.true(listed(NOW + DAY - 1).includes(id), 'a millisecond before the deadline it is listed');
  t.false(listed(NOW + DAY).includes(id), 'at the deadline it is not');
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(id) }, { now: NOW + DAY });
  t.deepEqual(r.response.notReceived, [{ managedPresentId: id, reason: 'EXPIRED', resultCode: 0, resultMessage: 'The present expired.' }]);
  t.is(r.state.gold, s.gold);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: String(id) }, { now: NOW + DAY - 1 }).state.gold, s.gold + 5);
});

test('a receipt exactly the kept days old is still kept; a millisecond older is dropped', (t) => {
  const keep = master().game.presents.receivedKeepDays * DAY;
  const a = gold(freshPlayer(), 1, NOW);
  const b = gold(a.state, 2, NOW);
  const got = ok(t, 'getPlayerPresent', b.state, { managedPresentId: String(a.id) }).state;
  const received = (now: number) => ok(t, 'getReceivedPlayerPresent', got, {}, { now }).response.receivedPresents.map((p) => p.managedPresentId);
  t.deepEqual(received(NOW + keep), [a.id]);
  t.deepEqual(received(NOW + keep + 1), []);
  // A later receipt prunes the stored list with the same rule.
  const atEdge = ok(t, 'getPlayerPresent', got, { managedPresentId: String(b.id) }, { now: NOW + keep }).state;
  t.deepEqual(atEdge.received.map((p) => p.managedPresentId), [b.id, a.id]);
  const past = ok(t, 'getPlayerPresent', got, { managedPresentId: String(b.id) }, { now: NOW + keep + 1 }).state;
  t.deepEqual(past.received.map((p) => p.managedPresentId), [b.id]);
});

test('an empty id list is 103 and too many ids 102, each naming the field', (t) => {
  const s = freshPlayer();
  t.like(fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: '' }), { field: 'managedPresentId' });
  const max = master().game.presents.receiveMax;
  const many = Array.from({ length: max + 1 }, (_, i) => i + 1).join(',');
  const e = fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: many });
  t.like(e, { field: 'managedPresentId', reason: `at most ${max} presents at once` });
  // Exactly the maximum is allowed (the ids need not exist).
  ok(t, 'getPlayerPresent', s, { managedPresentId: Array.from({ length: max }, (_, i) => i + 1).join(',') });
});

test('each present not received says why, with its own result code and message, in the order named', (t) => {
  const a = gold(freshPlayer(), 1, NOW);
  const e = gold(a.state, 2, NOW, NOW + 10);
  const s = ok(t, 'getPlayerPresent', e.state, { managedPresentId: String(a.id) }).state;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: `${a.id},999999,${e.id}` }, { now: NOW + 10 });
  t.deepEqual(r.response.notReceived, [
    { managedPresentId: a.id, reason: 'ALREADY_RECEIVED', resultCode: 0, resultMessage: 'Already received.' },
    { managedPresentId: 999999, reason: 'NOT_FOUND', resultCode: RESULT_CODES.NOT_FOUND.resultCode, resultMessage: 'No present with id 999999.' },
    { managedPresentId: e.id, reason: 'EXPIRED', resultCode: 0, resultMessage: 'The present expired.' },
  ]);
  t.deepEqual(r.response.receivedPresents, []);
});

test('a receipt that receives nothing changes nothing (nothing to commit)', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: '999999' });
  t.false(r.changed);
  t.is(r.state, s);
});

test('stepCode on a receipt: absent or 0 leaves the step, an invalid one refuses the whole receipt', (t) => {
  const base = freshPlayer();
  const s: PlayerState = { ...base, tutorial: { ...base.tutorial, step: 3 } };
  const id = String(s.presents[0]!.managedPresentId);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: id }).state.tutorial.step, 3);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: id, stepCode: 0 }).state.tutorial.step, 3);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: id, stepCode: 4 }).state.tutorial.step, 4);
  t.like(fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: id, stepCode: 2 }), { field: 'stepCode' });
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: id, stepCode: 99_999 });
});

test('the box after a receipt is listed as get_all lists it: newest first, without the expired', (t) => {
  let s = freshPlayer();
  const older = gold(s, 1, NOW - 2000); s = older.state;
  const newer = gold(s, 2, NOW - 1000); s = newer.state;
  const expiring = gold(s, 3, NOW - 500, NOW + 5); s = expiring.state;
  const taken = gold(s, 4, NOW - 100); s = taken.state;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(taken.id) }, { now: NOW + 10 });
  const box = r.response.presents;
  t.deepEqual(box, ok(t, 'getAllPlayerPresent', r.state, {}, { now: NOW + 10 }).response.presents);
  const ids = box.map((p) => p.managedPresentId);
  t.false(ids.includes(expiring.id));
  t.false(ids.includes(taken.id));
  t.true(ids.indexOf(newer.id) < ids.indexOf(older.id), 'newest first');
  t.like(box.find((p) => p.managedPresentId === newer.id), { kind: 'gold', amount: 2, title: 'gold 2' });
});

test('every present answer is exactly its declared codec (the client contract); the reads are declared read-only', (t) => {
  let s = freshPlayer();
  const expired = gold(s, 1, NOW, NOW + 5); s = expired.state;
  const got = ok(t, 'getPlayerPresent', s, { managedPresentId: `${s.presents[0]!.managedPresentId},999999,${expired.id}` }, { now: NOW + 10 });
  t.true(got.response.receivedPresents.length > 0 && got.response.notReceived.length > 0 && got.response.presents.length > 0);
  const answers = [
    ['getPlayerPresent', got.response],
    ['getAllPlayerPresent', ok(t, 'getAllPlayerPresent', got.state, {}, { now: NOW + 10 }).response],
    ['getReceivedPlayerPresent', ok(t, 'getReceivedPlayerPresent', got.state, {}, { now: NOW + 10 }).response],
  ] as const;
  for (const [name, answer] of answers) t.deepEqual(answerProblems(answerCodec(operationByName(name)!), answer), [], name);
  t.is(operationNamed('getAllPlayerPresent').readOnly, true);
  t.is(operationNamed('getReceivedPlayerPresent').readOnly, true);
  t.not(operationNamed('getPlayerPresent').readOnly, true);
});

test('a reward that did not fit merges into the reward present of the same thing, as overflow does; another source or a deadline does not', (t) => {
  const m = master();
  const reward = { title: 'Quest', message: 'A quest reward that did not fit in your storage.', source: 'reward', deadline: null };
  const send = (s: PlayerState, meta: typeof reward | { title: string; message: string; source: string; deadline: number | null }) =>
    sendPresent(s, { kind: 'gold', objectId: 0, amount: 5 }, meta, NOW, m).state;
  const twice = send(send(freshPlayer(), reward), reward);
  const start = freshPlayer().presents.length;
  t.is(twice.presents.length, start + 1, 'one reward present');
  t.like(twice.presents.at(-1), { source: 'reward', amount: 10 });
  const operator = { ...reward, source: 'operator' };
  t.is(send(send(freshPlayer(), operator), operator).presents.length, start + 2, 'an operator\'s presents stay apart');
  const dated = { ...reward, deadline: NOW + DAY };
  t.is(send(send(freshPlayer(), dated), dated).presents.length, start + 2, 'presents with a deadline stay apart');
});
