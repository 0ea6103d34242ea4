// Limits and grants at their edges (issue 23): the total draw limit counts the draws
// a request makes, a point exchange needs every point, and a present named twice is
// received once. Each test fails on a fault the suite once let through.
import test from 'ava';
import { fails, freshPlayer, NOW, ok, receiveAll, withWealth } from '../_support/core.js';
import { statOf } from '../../core/operations/gacha.js';
import { sendPresent } from '../../core/shared/grant.js';
import type { GachaStat, PlayerState } from '../../core/state.js';

/** A state whose stat for a gacha is the given one (the other stats kept). */
const withStat = (s: PlayerState, st: Partial<GachaStat> & { gachaId: number }): PlayerState => ({
  ...s,
  gachaStats: [...s.gachaStats.filter((x) => x.gachaId !== st.gachaId), { ...statOf(s, st.gachaId), ...st }].sort((a, b) => a.gachaId - b.gachaId),
});

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

// Gacha 6 (Weekend Gacha): at most 100 draws in all, 20 a day; open on NOW, a Saturday.
const WEEKEND = 6;

test('the total draw limit counts the draws a request makes: a ten-draw at 91 and a single at 100 are 309, a ten-draw at 90 succeeds', (t) => {
  const s = rich(t);
  // dayIndex 0: no draws today, so only the total limit can refuse.
  const at = (totalDraws: number) => withStat(s, { gachaId: WEEKEND, totalDraws, dayIndex: 0, drawsToday: 0, firstTenUsed: true });
  const ten = fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', at(91), { gachaId: WEEKEND, drawType: 3 });
  t.regex(JSON.stringify(ten), /100 draws in all/);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', at(100), { gachaId: WEEKEND, drawType: 1 });
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', at(100), { gachaId: WEEKEND, drawType: 2 });
  const r = ok(t, 'drawPlayerGacha', at(90), { gachaId: WEEKEND, drawType: 3 });
  t.is((r.response['gachaResults'] as unknown[]).length, 10);
  t.is(statOf(r.state, WEEKEND).totalDraws, 100);
  t.is(s.gem - r.state.gem, 1500, 'paid the ten price');
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', r.state, { gachaId: WEEKEND, drawType: 1 }, { seed: 'next' });
  ok(t, 'drawPlayerGacha', at(99), { gachaId: WEEKEND, drawType: 1 });
});

test('a point exchange one point short is 442 and changes nothing; at the price it spends every point', (t) => {
  const s = rich(t);
  // Gacha 3's target 1012 costs 50 points.
  const short = withStat(s, { gachaId: 3, points: 49 });
  const e = fails(t, 'GACHA_POINT_IS_SHORT', 'pointToCharacterPlayerGacha', short, { gachaId: 3, characterId: 1012 });
  t.like(e, { need: 50, have: 49 });
  const r = ok(t, 'pointToCharacterPlayerGacha', withStat(s, { gachaId: 3, points: 50 }), { gachaId: 3, characterId: 1012 });
  t.is(statOf(r.state, 3).points, 0);
  t.is(r.state.characters.filter((c) => c.characterId === 1012).length, s.characters.filter((c) => c.characterId === 1012).length + 1);
});

test('a present id named twice is granted once and listed once', (t) => {
  const base = freshPlayer();
  const s = sendPresent(base, { kind: 'gold', objectId: 0, amount: 700 }, { title: 'x', message: '', source: 'operator', deadline: null }, NOW).state;
  const id = s.presents.at(-1)!.managedPresentId;
  const r = ok(t, 'getPlayerPresent', s, { managedPresentId: `${id},${id}` });
  t.is(r.state.gold, s.gold + 700, 'granted once');
  t.deepEqual((r.response['receivedPresents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId), [id]);
  t.deepEqual(r.response['notReceived'], [], 'the repeat is not reported as missing');
  t.is(r.state.received.filter((p) => p.managedPresentId === id).length, 1);
  t.false(r.state.presents.some((p) => p.managedPresentId === id));
});
