import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import { sendPresent } from '../../core/shared/grant.js';
import { DAY } from '../../core/time.js';

test('a new player has the welcome presents, newest first in get_all', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'getAllPlayerPresent', s, {});
  const list = r.response.presents;
  t.is(list.length, master().welcome.length);
  t.deepEqual(list.map((p) => p.managedPresentId), [...s.presents.map((p) => p.managedPresentId)].reverse());
  t.true(list.some((p) => p.kind === 'gem' && p.amount >= 1500), 'enough gems for a ten-draw');
  t.true(list.some((p) => p.kind === 'item'), 'a ticket');
});

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
  t.deepEqual(again.response.notReceived.map((x) => x.reason), ids.map(() => 'ALREADY_RECEIVED'));
  const rec = ok(t, 'getReceivedPlayerPresent', r.state, {});
  t.is(rec.response.receivedPresents.length, ids.length);
});

test('unknown and expired ids are reported, not fatal; the rest are received', (t) => {
  let s = freshPlayer();
  s = sendPresent(s, { kind: 'gold', objectId: 0, amount: 5 }, { title: 'x', message: '', source: 'operator', deadline: NOW + DAY }, NOW).state;
  const expiring = s.presents.at(-1)!.managedPresentId;
  const first = s.presents[0]!.managedPresentId;
  const later = NOW + 2 * DAY;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: `${first},${expiring},999999` }, { now: later });
  t.deepEqual(r.response.notReceived.map((x) => [x.managedPresentId, x.reason]), [[expiring, 'EXPIRED'], [999999, 'NOT_FOUND']]);
  t.is(r.response.receivedPresents.length, 1);
  const listed = ok(t, 'getAllPlayerPresent', r.state, {}, { now: later }).response.presents;
  t.false(listed.some((p) => p.managedPresentId === expiring), 'expired presents are not listed');
});

test('a present over a capacity stays in the box with its reason', (t) => {
  let s = withWealth(freshPlayer(), { gem: master().game.currencyMax.gem - 10 });
  s = sendPresent(s, { kind: 'gem', objectId: 0, amount: 100 }, { title: 'x', message: '', source: 'operator', deadline: null }, NOW).state;
  const id = s.presents.at(-1)!.managedPresentId;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(id) });
  const nr = r.response.notReceived[0]!;
  t.is(nr.reason, 'CAPACITY');
  t.is(nr.resultCode, 311);
  t.true(r.state.presents.some((p) => p.managedPresentId === id));
  t.is(r.state.gem, s.gem);
});

test('receive: more ids than the configured maximum is 102; none is 103; a bad list is 102', (t) => {
  const s = freshPlayer();
  const many = Array.from({ length: master().game.presents.receiveMax + 1 }, (_, i) => i + 1).join(',');
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: many });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerPresent', s, {});
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: '1,x' });
  fails(t, 'INVALID_PARAMETERS', 'getPlayerPresent', s, { managedPresentId: '1,-2' });
});

test('a positive stepCode on receive records the tutorial step', (t) => {
  const s = freshPlayer();
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: String(s.presents[0]!.managedPresentId), stepCode: 2 });
  t.is(r.state.tutorial.step, 2);
});

test('the received list keeps the configured count, newest first', (t) => {
  let s = freshPlayer();
  const keep = master().game.presents.receivedKeepCount;
  for (let i = 0; i < keep + 5; i++) s = sendPresent(s, { kind: 'gold', objectId: 0, amount: 1 }, { title: `p${i}`, message: '', source: 'operator', deadline: null }, NOW).state;
  const ids = s.presents.map((p) => p.managedPresentId);
  s = ok(t, 'getPlayerPresent', s, { managedPresentId: ids.slice(0, 100).join(',') }).state;
  s = ok(t, 'getPlayerPresent', s, { managedPresentId: ids.slice(100).join(',') }, { now: NOW + 1000 }).state;
  const rec = ok(t, 'getReceivedPlayerPresent', s, {}, { now: NOW + 2000 }).response.receivedPresents;
  t.is(rec.length, keep);
  t.is(rec[0]!.managedPresentId, ids.at(-1)!, "the newest receipt, highest id first");
  const old = ok(t, 'getReceivedPlayerPresent', s, {}, { now: NOW + (master().game.presents.receivedKeepDays + 1) * DAY }).response.receivedPresents;
  t.is(old.length, 0, 'older than the configured age is not listed');
});
