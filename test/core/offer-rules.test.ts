// Craft offers at their edges (docs/rules/social.md "Offers"): each 317 gives its own
// reason, a quest counts only once cleared, each offer's completions and run are its own,
// completing one offer leaves the others running, and a reward over a capacity goes to the
// present box.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';
import type { QuestRecord } from '../../core/state/social.js';
import { SECOND } from '../../core/time.js';

const MEND = 1; // no conditions, no limit, 1 hour
const POLISH = 2; // no conditions, no limit, 10 minutes, 2,000 coins
const COMPASS = 3; // needs level 5 and quest 1005 cleared, limit 1
const m = master();
const rich = (): PlayerState => withWealth(freshPlayer(), { gold: 1_000_000, items: { 31001: 100, 31002: 100, 31003: 100 } });
const record = (questId: number, clears: number): QuestRecord => ({ questId, clears, failures: clears === 0 ? 1 : 0, bestClearRank: clears === 0 ? 0 : 3, firstClearedAt: clears === 0 ? null : NOW, lastPlayedAt: NOW, skillUse: null });
const duration = (offerId: number) => m.offer.get(offerId)!.durationSeconds * SECOND;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const entityOf = (e: GameError): string => ('entity' in e ? e.entity : '');

test('an unknown offer is 107 naming the offer and its id; one not running is 107 naming the on-going offer', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerOffer', rich(), { offerId: 999 }), { entity: 'offer', id: 999 });
  t.like(fails(t, 'NOT_FOUND', 'completePlayerOffer', rich(), { offerId: 999 }), { entity: 'offer', id: 999 });
  t.like(fails(t, 'NOT_FOUND', 'completePlayerOffer', rich(), { offerId: MEND }), { entity: 'on-going offer', id: MEND });
});

test('completing before completesAt is 316 naming the offer and when it completes', (t) => {
  const a = ok(t, 'orderPlayerOffer', rich(), { offerId: MEND });
  const e = fails(t, 'TIMER_RUNNING', 'completePlayerOffer', a.state, { offerId: MEND }, { now: NOW + duration(MEND) - 1 });
  t.regex(entityOf(e), new RegExp(`offer ${MEND}\\b`));
  t.like(e, { completesAt: NOW + duration(MEND) });
});

test('each unmet condition is 317 with its own reason, naming the offer and what is missing', (t) => {
  const s = rich();
  const running = ok(t, 'orderPlayerOffer', s, { offerId: MEND }).state;
  const already = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', running, { offerId: MEND }));
  t.regex(already, /offer 1\b/);
  t.regex(already, /on-going/);
  const level = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, questRecords: [record(1005, 1)] }, { offerId: COMPASS }));
  t.regex(level, /offer 3\b/);
  t.regex(level, /level 5\b/);
  const quest = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, level: 5 }, { offerId: COMPASS }));
  t.regex(quest, /offer 3\b/);
  t.regex(quest, /quest 1005\b/);
  const once: PlayerState = { ...s, level: 5, questRecords: [record(1005, 1)], offerCompletions: [{ offerId: COMPASS, count: 1 }] };
  const limit = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', once, { offerId: COMPASS }));
  t.regex(limit, /offer 3\b/);
  t.regex(limit, /completed 1 times/);
  const max = m.social.offer.maxActive;
  let full = s;
  for (const id of [MEND, POLISH, 5, 6].slice(0, max)) full = ok(t, 'orderPlayerOffer', full, { offerId: id }).state;
  const slot = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', full, { offerId: 6 }));
  t.regex(slot, new RegExp(`at most ${max}\\b`));
  t.is(new Set([already, level, quest, limit, slot]).size, 5, 'each reason is its own');
});

test('the quest condition is met only by that quest cleared: a failed try or another quest cleared is not enough', (t) => {
  const s = { ...rich(), level: 5 };
  const other = m.quests.find((q) => q.questId !== 1005)!.questId;
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, questRecords: [record(1005, 0)] }, { offerId: COMPASS });
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, questRecords: [record(other, 3)] }, { offerId: COMPASS });
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, questRecords: [record(other, 3), record(1005, 0)] }, { offerId: COMPASS });
  const listed = (st: PlayerState) => ok(t, 'getAllPlayerOffer', st, {}).response.offers.some((o) => o.offerId === COMPASS);
  t.false(listed({ ...s, questRecords: [record(other, 3), record(1005, 0)] }));
  t.true(listed({ ...s, questRecords: [record(other, 3), record(1005, 1)] }));
  ok(t, 'orderPlayerOffer', { ...s, questRecords: [record(other, 0), record(1005, 1)] }, { offerId: COMPASS });
});

test('get_all gives each offer its own completion count', (t) => {
  const s: PlayerState = { ...rich(), offerCompletions: [{ offerId: MEND, count: 2 }, { offerId: 5, count: 7 }] };
  const offers = ok(t, 'getAllPlayerOffer', s, {}).response.offers;
  t.deepEqual(offers.filter((o) => [MEND, POLISH, 5].includes(o.offerId)).map((o) => [o.offerId, o.completed]), [[MEND, 2], [POLISH, 0], [5, 7]]);
});

test('completing an offer counts one more completion of that offer only, the list in offer order', (t) => {
  const first = ok(t, 'completePlayerOffer', ok(t, 'orderPlayerOffer', rich(), { offerId: MEND }).state, { offerId: MEND }, { now: NOW + duration(MEND) }).state;
  t.deepEqual(first.offerCompletions, [{ offerId: MEND, count: 1 }]);
  const again = ok(t, 'orderPlayerOffer', first, { offerId: MEND }, { now: NOW + duration(MEND) }).state;
  const second = ok(t, 'completePlayerOffer', again, { offerId: MEND }, { now: NOW + 2 * duration(MEND) }).state;
  t.deepEqual(second.offerCompletions, [{ offerId: MEND, count: 2 }]);
  t.is(second.counters['offersCompleted'], 2);
  // Another offer's count is left alone, before or after it in the list.
  const both: PlayerState = { ...rich(), offerCompletions: [{ offerId: MEND, count: 1 }, { offerId: 5, count: 4 }] };
  const third = ok(t, 'completePlayerOffer', ok(t, 'orderPlayerOffer', both, { offerId: MEND }).state, { offerId: MEND }, { now: NOW + duration(MEND) }).state;
  t.deepEqual(third.offerCompletions, [{ offerId: MEND, count: 2 }, { offerId: 5, count: 4 }]);
  // A first completion joins the list in offer order.
  const later: PlayerState = { ...rich(), offerCompletions: [{ offerId: 5, count: 4 }] };
  const fourth = ok(t, 'completePlayerOffer', ok(t, 'orderPlayerOffer', later, { offerId: POLISH }).state, { offerId: POLISH }, { now: NOW + duration(POLISH) }).state;
  t.deepEqual(fourth.offerCompletions, [{ offerId: POLISH, count: 1 }, { offerId: 5, count: 4 }]);
});

test('an offer completes on its own timer, and completing it leaves the others running', (t) => {
  let s = ok(t, 'orderPlayerOffer', rich(), { offerId: MEND }).state;
  s = ok(t, 'orderPlayerOffer', s, { offerId: POLISH }).state;
  t.true(duration(POLISH) < duration(MEND));
  // Polish is done while Mend, ordered first, is still running.
  const done = ok(t, 'completePlayerOffer', s, { offerId: POLISH }, { now: NOW + duration(POLISH) });
  t.deepEqual(done.state.offers.map((r) => r.offerId), [MEND]);
  t.deepEqual(ok(t, 'getAllPlayerOffer', done.state, {}, { now: NOW + duration(POLISH) }).response.ongoing.map((r) => r.offerId), [MEND]);
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
