// Craft offers listed and ordered (docs/rules/social.md, Offers): get_all lists the offers
// the player can start and the running ones, with each offer's own completion count; order
// pays the materials and starts the timer; each unmet condition refused with its own reason.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, itemsOf } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { HOUR, SECOND } from '../../../core/time.js';
import type { GameError } from '../../../core/errors.js';
import type { QuestRecord } from '../../../core/state/social.js';

const MEND = 1; // needs 3 Whisper Moss and coins, no conditions, no limit
const POLISH = 2; // no conditions, no limit, 10 minutes, 2,000 coins
const COMPASS = 3; // needs level 5 and quest 1005 cleared, limit 1
const rich = (): PlayerState =>
  withWealth(freshPlayer(), { gold: 1_000_000, items: { 31001: 100, 31002: 100, 31003: 100 } });
const cleared = (s: PlayerState, questId: number): PlayerState => ({
  ...s,
  questRecords: [
    ...s.questRecords,
    { questId, clears: 1, failures: 0, bestClearRank: 3, firstClearedAt: NOW, lastPlayedAt: NOW, skillUse: null },
  ],
});
const duration = (offerId: number) => master().offer.get(offerId)!.durationSeconds * SECOND;
const m = master();
const record = (questId: number, clears: number): QuestRecord => ({
  questId,
  clears,
  failures: clears === 0 ? 1 : 0,
  bestClearRank: clears === 0 ? 0 : 3,
  firstClearedAt: clears === 0 ? null : NOW,
  lastPlayedAt: NOW,
  skillUse: null,
});
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('get_all lists the offers the player can start, not those whose conditions are unmet, and the on-going ones', (t) => {
  const s = rich();
  const r = ok(t, 'getAllPlayerOffer', s, {});
  const ids = r.response.offers.map((o) => o.offerId);
  t.true(ids.includes(MEND));
  t.false(ids.includes(COMPASS));
  const started = ok(t, 'orderPlayerOffer', s, { offerId: MEND }).state;
  const r2 = ok(t, 'getAllPlayerOffer', started, {});
  t.false(r2.response.offers.some((o) => o.offerId === MEND));
  t.deepEqual(
    r2.response.ongoing.map((o) => o.offerId),
    [MEND],
  );
});

test('order pays the materials and starts the timer; complete before it passes is 316, after it gives the rewards', (t) => {
  const s = rich();
  const o = master().offer.get(MEND)!;
  const a = ok(t, 'orderPlayerOffer', s, { offerId: MEND });
  t.is(a.state.gold, s.gold - o.materials.gold);
  t.is(itemsOf(a.state)['31001'], 100 - 3);
  fails(t, 'TIMER_RUNNING', 'completePlayerOffer', a.state, { offerId: MEND }, { now: NOW + duration(MEND) - 1 });
  fails(t, 'TIMER_RUNNING', 'completePlayerOffer', a.state, { offerId: MEND }, { now: NOW - HOUR }); // a clock that went back
  const done = ok(t, 'completePlayerOffer', a.state, { offerId: MEND }, { now: NOW + duration(MEND) });
  t.deepEqual(done.state.offers, []);
  t.is(itemsOf(done.state)['9001'], 1);
  t.deepEqual(done.state.offerCompletions, [{ offerId: MEND, count: 1 }]);
  t.is(done.state.counters['offersCompleted'], 1);
  // Later is the same as on time: the timer is settled whenever it is read.
  t.deepEqual(
    ok(t, 'completePlayerOffer', a.state, { offerId: MEND }, { now: NOW + 100 * HOUR }).state.items,
    done.state.items,
  );
});

test('order: unknown 107, conditions unmet 317, already on-going 317, no free slot 317, short of coins 441 or items 442', (t) => {
  const s = rich();
  fails(t, 'NOT_FOUND', 'orderPlayerOffer', s, { offerId: 999 });
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', s, { offerId: COMPASS });
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, level: 5 }, { offerId: COMPASS }, {}); // level met, quest not cleared
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', cleared(s, 1005), { offerId: COMPASS }); // quest cleared, level not met
  ok(t, 'orderPlayerOffer', cleared({ ...s, level: 5 }, 1005), { offerId: COMPASS });
  const a = ok(t, 'orderPlayerOffer', s, { offerId: MEND }).state;
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', a, { offerId: MEND });
  const max = master().social.offer.maxActive;
  let full = s;
  for (const o of master()
    .offers.filter((x) => x.requires.questId === null && x.requires.playerLevel <= 1)
    .slice(0, max))
    full = ok(t, 'orderPlayerOffer', full, { offerId: o.offerId }).state;
  t.is(full.offers.length, max);
  const spare = master().offers.find(
    (x) => x.requires.questId === null && !full.offers.some((r) => r.offerId === x.offerId),
  )!;
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', full, { offerId: spare.offerId });
  fails(t, 'GOLD_IS_SHORT', 'orderPlayerOffer', withWealth(s, { gold: 10 }), { offerId: POLISH });
  fails(t, 'ITEM_IS_SHORT', 'orderPlayerOffer', withWealth(s, { items: { 31001: 2 } }), { offerId: MEND });
});

test('an offer with a limit cannot be started again once completed that many times (317)', (t) => {
  const s = cleared({ ...rich(), level: 5 }, 1005);
  const a = ok(t, 'orderPlayerOffer', s, { offerId: COMPASS }).state;
  const done = ok(t, 'completePlayerOffer', a, { offerId: COMPASS }, { now: NOW + duration(COMPASS) }).state;
  fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', done, { offerId: COMPASS }, { now: NOW + duration(COMPASS) });
  t.false(ok(t, 'getAllPlayerOffer', done, {}).response.offers.some((o) => o.offerId === COMPASS));
});

test('each unmet condition is 317 with its own reason, naming the offer and what is missing', (t) => {
  const s = rich();
  const running = ok(t, 'orderPlayerOffer', s, { offerId: MEND }).state;
  const already = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', running, { offerId: MEND }));
  t.regex(already, /offer 1\b/);
  t.regex(already, /on-going/);
  const level = reasonOf(
    fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, questRecords: [record(1005, 1)] }, { offerId: COMPASS }),
  );
  t.regex(level, /offer 3\b/);
  t.regex(level, /level 5\b/);
  const quest = reasonOf(fails(t, 'STATE_CONFLICT', 'orderPlayerOffer', { ...s, level: 5 }, { offerId: COMPASS }));
  t.regex(quest, /offer 3\b/);
  t.regex(quest, /quest 1005\b/);
  const once: PlayerState = {
    ...s,
    level: 5,
    questRecords: [record(1005, 1)],
    offerCompletions: [{ offerId: COMPASS, count: 1 }],
  };
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
  fails(
    t,
    'STATE_CONFLICT',
    'orderPlayerOffer',
    { ...s, questRecords: [record(other, 3), record(1005, 0)] },
    { offerId: COMPASS },
  );
  const listed = (st: PlayerState) =>
    ok(t, 'getAllPlayerOffer', st, {}).response.offers.some((o) => o.offerId === COMPASS);
  t.false(listed({ ...s, questRecords: [record(other, 3), record(1005, 0)] }));
  t.true(listed({ ...s, questRecords: [record(other, 3), record(1005, 1)] }));
  ok(t, 'orderPlayerOffer', { ...s, questRecords: [record(other, 0), record(1005, 1)] }, { offerId: COMPASS });
});

test('get_all gives each offer its own completion count', (t) => {
  const s: PlayerState = {
    ...rich(),
    offerCompletions: [
      { offerId: MEND, count: 2 },
      { offerId: 5, count: 7 },
    ],
  };
  const offers = ok(t, 'getAllPlayerOffer', s, {}).response.offers;
  t.deepEqual(
    offers.filter((o) => [MEND, POLISH, 5].includes(o.offerId)).map((o) => [o.offerId, o.completed]),
    [
      [MEND, 2],
      [POLISH, 0],
      [5, 7],
    ],
  );
});
