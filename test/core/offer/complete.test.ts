// Completing a craft offer (docs/rules/social.md, Offers): not before its timer, naming when
// it completes; one more completion of that offer only, the others left running; a reward
// over a capacity to the present box; unknown and not running offers refused naming them.
import test from 'ava';
import { fails, freshPlayer, withWealth, master, NOW, ok } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';
import { SECOND } from '../../../core/time.js';

const MEND = 1; // needs 3 Whisper Moss and coins, no conditions, no limit
const rich = (): PlayerState =>
  withWealth(freshPlayer(), { gold: 1_000_000, items: { 31001: 100, 31002: 100, 31003: 100 } });
const POLISH = 2; // no conditions, no limit, 10 minutes, 2,000 coins
const m = master();
const duration = (offerId: number) => m.offer.get(offerId)!.durationSeconds * SECOND;
const entityOf = (e: GameError): string => ('entity' in e ? e.entity : '');

test('complete: unknown 107, an offer not on-going 107', (t) => {
  fails(t, 'NOT_FOUND', 'completePlayerOffer', rich(), { offerId: 999 });
  fails(t, 'NOT_FOUND', 'completePlayerOffer', rich(), { offerId: MEND });
});

test('an unknown offer is 107 naming the offer and its id; one not running is 107 naming the on-going offer', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerOffer', rich(), { offerId: 999 }), { entity: 'offer', id: 999 });
  t.like(fails(t, 'NOT_FOUND', 'completePlayerOffer', rich(), { offerId: 999 }), { entity: 'offer', id: 999 });
  t.like(fails(t, 'NOT_FOUND', 'completePlayerOffer', rich(), { offerId: MEND }), {
    entity: 'on-going offer',
    id: MEND,
  });
});

test('completing before completesAt is 316 naming the offer and when it completes', (t) => {
  const a = ok(t, 'orderPlayerOffer', rich(), { offerId: MEND });
  const e = fails(
    t,
    'TIMER_RUNNING',
    'completePlayerOffer',
    a.state,
    { offerId: MEND },
    { now: NOW + duration(MEND) - 1 },
  );
  t.regex(entityOf(e), new RegExp(`offer ${MEND}\\b`));
  t.like(e, { completesAt: NOW + duration(MEND) });
});

test('completing an offer counts one more completion of that offer only, the list in offer order', (t) => {
  const first = ok(
    t,
    'completePlayerOffer',
    ok(t, 'orderPlayerOffer', rich(), { offerId: MEND }).state,
    { offerId: MEND },
    { now: NOW + duration(MEND) },
  ).state;
  t.deepEqual(first.offerCompletions, [{ offerId: MEND, count: 1 }]);
  const again = ok(t, 'orderPlayerOffer', first, { offerId: MEND }, { now: NOW + duration(MEND) }).state;
  const second = ok(t, 'completePlayerOffer', again, { offerId: MEND }, { now: NOW + 2 * duration(MEND) }).state;
  t.deepEqual(second.offerCompletions, [{ offerId: MEND, count: 2 }]);
  t.is(second.counters['offersCompleted'], 2);
  // Another offer's count is left alone, before or after it in the list.
  const both: PlayerState = {
    ...rich(),
    offerCompletions: [
      { offerId: MEND, count: 1 },
      { offerId: 5, count: 4 },
    ],
  };
  const third = ok(
    t,
    'completePlayerOffer',
    ok(t, 'orderPlayerOffer', both, { offerId: MEND }).state,
    { offerId: MEND },
    { now: NOW + duration(MEND) },
  ).state;
  t.deepEqual(third.offerCompletions, [
    { offerId: MEND, count: 2 },
    { offerId: 5, count: 4 },
  ]);
  // A first completion joins the list in offer order.
  const later: PlayerState = { ...rich(), offerCompletions: [{ offerId: 5, count: 4 }] };
  const fourth = ok(
    t,
    'completePlayerOffer',
    ok(t, 'orderPlayerOffer', later, { offerId: POLISH }).state,
    { offerId: POLISH },
    { now: NOW + duration(POLISH) },
  ).state;
  t.deepEqual(fourth.offerCompletions, [
    { offerId: POLISH, count: 1 },
    { offerId: 5, count: 4 },
  ]);
});

test('an offer completes on its own timer, and completing it leaves the others running', (t) => {
  let s = ok(t, 'orderPlayerOffer', rich(), { offerId: MEND }).state;
  s = ok(t, 'orderPlayerOffer', s, { offerId: POLISH }).state;
  t.true(duration(POLISH) < duration(MEND));
  // Polish is done while Mend, ordered first, is still running.
  const done = ok(t, 'completePlayerOffer', s, { offerId: POLISH }, { now: NOW + duration(POLISH) });
  t.deepEqual(
    done.state.offers.map((r) => r.offerId),
    [MEND],
  );
  t.deepEqual(
    ok(t, 'getAllPlayerOffer', done.state, {}, { now: NOW + duration(POLISH) }).response.ongoing.map((r) => r.offerId),
    [MEND],
  );
  fails(t, 'TIMER_RUNNING', 'completePlayerOffer', done.state, { offerId: MEND }, { now: NOW + duration(POLISH) });
  const both = ok(t, 'completePlayerOffer', done.state, { offerId: MEND }, { now: NOW + duration(MEND) });
  t.deepEqual(both.state.offers, []);
});

test('a reward over a capacity goes to the present box, from the offer, as a reward', (t) => {
  const o = m.offer.get(POLISH)!;
  const reward = o.rewards[0]!;
  t.is(reward.kind, 'gold');
  const started = ok(t, 'orderPlayerOffer', rich(), { offerId: POLISH }).state;
  const full = withWealth(started, { gold: m.game.currencyMax.gold });
  const r = ok(t, 'completePlayerOffer', full, { offerId: POLISH }, { now: NOW + duration(POLISH) });
  t.is(r.state.gold, m.game.currencyMax.gold);
  const id = r.response.rewards[0]!.managedPresentId;
  t.not(id, null);
  const p = r.state.presents.find((x) => x.managedPresentId === id)!;
  t.like(p, { kind: 'gold', amount: reward.amount, title: o.name, source: 'reward', deadline: null });
  t.true(p.message.length > 0, 'the present says why it is there');
});
