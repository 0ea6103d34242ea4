// Receiving presents (present/get, docs/rules/foundation.md, Presents): each present granted
// once and moved to the received list; those not received reported, each with its reason and
// result code, in the order named; an id named twice received once; the id list's bounds;
// a receipt that receives nothing changes nothing; stepCode on a receipt.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../../_support/core.js';
import { sendPresent } from '../../../core/shared/grant.js';
import { DAY } from '../../../core/time.js';
import { RESULT_CODES } from '../../../core/errors.js';
import type { PlayerState } from '../../../core/state.js';

const gold = (s: PlayerState, amount: number, at: number, deadline: number | null = null) => {
  const r = sendPresent(
    s,
    { kind: 'gold', objectId: 0, amount },
    { title: `gold ${amount}`, message: '', source: 'operator', deadline },
    at,
  );
  return { state: r.state, id: r.present.managedPresentId };
};

test('receiving grants each present once, moves it to received, and lists what changed', (t) => {
  const s = freshPlayer();
  const ids = s.presents.map((p) => p.managedPresentId);
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: ids.join(','), stepCode: 0 });
  t.is(r.state.presents.length, 0);
  t.is(r.state.gem, s.gem + 3000);
  t.is(r.state.gold, s.gold + 50000);
  t.is(r.response.receivedPresents.length, ids.length);
  t.truthy(r.response.player, 'changed currencies are returned');
  const again = ok(t, 'getPlayerPresent', r.state, { managedPresentId: ids.join(',') });
  t.is(again.state.gem, r.state.gem, 'nothing granted twice');
  t.deepEqual(
    again.response.notReceived.map((x) => x.reason),
    ids.map(() => 'ALREADY_RECEIVED'),
  );
  const rec = ok(t, 'getReceivedPlayerPresent', r.state, {});
  t.is(rec.response.receivedPresents.length, ids.length);
});

test('unknown and expired ids are reported, not fatal; the rest are received', (t) => {
  let s = freshPlayer();
  s = sendPresent(
    s,
    { kind: 'gold', objectId: 0, amount: 5 },
    { title: 'x', message: '', source: 'operator', deadline: NOW + DAY },
    NOW,
  ).state;
  const expiring = s.presents.at(-1)!.managedPresentId;
  const first = s.presents[0]!.managedPresentId;
  const later = NOW + 2 * DAY;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: `${first},${expiring},999999` }, { now: later });
  t.deepEqual(
    r.response.notReceived.map((x) => [x.managedPresentId, x.reason]),
    [
      [expiring, 'EXPIRED'],
      [999999, 'NOT_FOUND'],
    ],
  );
  t.is(r.response.receivedPresents.length, 1);
  const listed = ok(t, 'getAllPlayerPresent', r.state, {}, { now: later }).response.presents;
  t.false(
    listed.some((p) => p.managedPresentId === expiring),
    'expired presents are not listed',
  );
});

test('a present over a capacity stays in the box with its reason', (t) => {
  let s = withWealth(freshPlayer(), { gem: master().game.currencyMax.gem - 10 });
  s = sendPresent(
    s,
    { kind: 'gem', objectId: 0, amount: 100 },
    { title: 'x', message: '', source: 'operator', deadline: null },
    NOW,
  ).state;
  const id = s.presents.at(-1)!.managedPresentId;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(id) });
  const nr = r.response.notReceived[0]!;
  t.is(nr.reason, 'CAPACITY');
  t.is(nr.resultCode, 311);
  t.true(r.state.presents.some((p) => p.managedPresentId === id));
  t.is(r.state.gem, s.gem);
});

test('each present not received says why, with its own result code and message, in the order named', (t) => {
  const a = gold(freshPlayer(), 1, NOW);
  const e = gold(a.state, 2, NOW, NOW + 10);
  const s = ok(t, 'getPlayerPresent', e.state, { managedPresentId: String(a.id) }).state;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: `${a.id},999999,${e.id}` }, { now: NOW + 10 });
  t.deepEqual(r.response.notReceived, [
    { managedPresentId: a.id, reason: 'ALREADY_RECEIVED', resultCode: 0, resultMessage: 'Already received.' },
    {
      managedPresentId: 999999,
      reason: 'NOT_FOUND',
      resultCode: RESULT_CODES.NOT_FOUND.resultCode,
      resultMessage: 'No present with id 999999.',
    },
    { managedPresentId: e.id, reason: 'EXPIRED', resultCode: 0, resultMessage: 'The present expired.' },
  ]);
  t.deepEqual(r.response.receivedPresents, []);
});

test('a present id named twice is granted once and listed once', (t) => {
  const base = freshPlayer();
  const s = sendPresent(
    base,
    { kind: 'gold', objectId: 0, amount: 700 },
    { title: 'x', message: '', source: 'operator', deadline: null },
    NOW,
  ).state;
  const id = s.presents.at(-1)!.managedPresentId;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: `${id},${id}` });
  t.is(r.state.gold, s.gold + 700, 'granted once');
  t.deepEqual(
    (r.response['receivedPresents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId),
    [id],
  );
  t.deepEqual(r.response['notReceived'], [], 'the repeat is not reported as missing');
  t.is(r.state.received.filter((p) => p.managedPresentId === id).length, 1);
  t.false(r.state.presents.some((p) => p.managedPresentId === id));
});

test('a receipt that receives nothing changes nothing (nothing to commit)', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: '999999' });
  t.false(r.changed);
  t.is(r.state, s);
});

// ---- requests ----

test('receive: more ids than the configured maximum is 102; none is 103; a bad list is 102', (t) => {
  const s = freshPlayer();
  const many = Array.from({ length: master().game.presents.receiveMax + 1 }, (_, i) => i + 1).join(',');
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: many });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerPresent', s, {});
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: '1,x' });
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: '1,-2' });
});

test('an empty id list is 103 and too many ids 102, each naming the field', (t) => {
  const s = freshPlayer();
  t.like(fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: '' }), {
    field: 'managedPresentId',
  });
  const max = master().game.presents.receiveMax;
  const many = Array.from({ length: max + 1 }, (_, i) => i + 1).join(',');
  const e = fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: many });
  t.like(e, { field: 'managedPresentId', reason: `at most ${max} presents at once` });
  // Exactly the maximum is allowed (the ids need not exist).
  ok(t, 'getPlayerPresent', s, { managedPresentId: Array.from({ length: max }, (_, i) => i + 1).join(',') });
});

test('a positive stepCode on receive records the tutorial step', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(s.presents[0]!.managedPresentId), stepCode: 2 });
  t.is(r.state.tutorial.step, 2);
});

test('stepCode on a receipt: absent or 0 leaves the step, an invalid one refuses the whole receipt', (t) => {
  const base = freshPlayer();
  const s: PlayerState = { ...base, tutorial: { ...base.tutorial, step: 3 } };
  const id = String(s.presents[0]!.managedPresentId);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: id }).state.tutorial.step, 3);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: id, stepCode: 0 }).state.tutorial.step, 3);
  t.is(ok(t, 'getPlayerPresent', s, { managedPresentId: id, stepCode: 4 }).state.tutorial.step, 4);
  t.like(fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: id, stepCode: 2 }), {
    field: 'stepCode',
  });
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: id, stepCode: 99_999 });
});
