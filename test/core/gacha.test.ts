import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth, itemsOf } from '../_support/core.js';
import { DAY, HOUR } from '../../core/time.js';
import { statOf } from '../../core/operations/gacha.js';

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

test('a single draw with the ticket held spends the ticket, not gems', (t) => {
  const s = receiveAll(t, freshPlayer());
  t.is(itemsOf(s)['3001'], 1);
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.is(itemsOf(r.state)['3001'], undefined);
  t.is(r.state.gem, s.gem);
  t.is((r.response['gachaResults'] as unknown[]).length, 1);
  t.is(r.state.gachaHistory.at(-1)?.payment.ticket, 1);
});

test('a single draw without a ticket spends free gems before paid gems', (t) => {
  const s = withWealth(freshPlayer(), { gem: 100, paidGem: 100 });
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.is(r.state.gem, 0);
  t.is(r.state.paidGem, 50);
  t.deepEqual(r.state.gachaHistory.at(-1)?.payment, { ticket: 0, gem: 100, paidGem: 50 });
});

test('drawType 2 spends only paid gems, and is 443 when paid gems are short even with free gems', (t) => {
  const s = withWealth(freshPlayer(), { gem: 10_000, paidGem: 99 });
  fails(t, 'UNLIMITED_GEM_IS_SHORT', 'drawPlayerGacha', s, { gachaId: 2, drawType: 2 });
  const r = ok(t, 'drawPlayerGacha', withWealth(s, { paidGem: 100 }), { gachaId: 2, drawType: 2 });
  t.is(r.state.paidGem, 0);
  t.is(r.state.gem, 10_000);
});

test('a ten-draw spends the first-ten price once, then the ten price', (t) => {
  const s = withWealth(freshPlayer(), { gem: 10_000 });
  const a = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 });
  t.is(s.gem - a.state.gem, 750);
  const b = ok(t, 'drawPlayerGacha', a.state, { gachaId: 2, drawType: 3 }, { seed: 'second' });
  t.is(a.state.gem - b.state.gem, 1500);
  t.is((b.response['gachaResults'] as unknown[]).length, 10);
});

test('short of gems is 445 and changes nothing', (t) => {
  fails(t, 'GEM_IS_SHORT', 'drawPlayerGacha', withWealth(freshPlayer(), { gem: 700 }), { gachaId: 2, drawType: 3 });
});

test('an unknown gacha is 107 (NOT_FOUND); an out-of-period gacha is 462', (t) => {
  const s = rich(t);
  fails(t, 'NOT_FOUND', 'drawPlayerGacha', s, { gachaId: 999, drawType: 1 });
  fails(t, 'GACHA_OUT_OF_PERIOD', 'drawPlayerGacha', s, { gachaId: 5, drawType: 1 });
});

test('weekday flags: the weekend gacha opens on Saturday and is 462 on Monday', (t) => {
  const s = rich(t);
  ok(t, 'drawPlayerGacha', s, { gachaId: 6, drawType: 1 }); // NOW is a Saturday
  fails(t, 'GACHA_OUT_OF_PERIOD', 'drawPlayerGacha', s, { gachaId: 6, drawType: 1 }, { now: NOW + 2 * DAY });
});

test('the per-day limit is 309 until the game day turns', (t) => {
  const s = rich(t);
  const a = ok(t, 'drawPlayerGacha', s, { gachaId: 4, drawType: 1 });
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', a.state, { gachaId: 4, drawType: 1 }, { now: NOW + HOUR });
  ok(t, 'drawPlayerGacha', a.state, { gachaId: 4, drawType: 1 }, { now: NOW + DAY });
});

test('a ten-draw over the per-day limit is 309 (draws are counted per character)', (t) => {
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', rich(t), { gachaId: 4, drawType: 3 });
});

test('draws earn gacha points per character drawn', (t) => {
  const r = ok(t, 'drawPlayerGacha', rich(t), { gachaId: 3, drawType: 3 });
  t.is(statOf(r.state, 3).points, 10);
});

test('the ten-draw guarantee: every ten-draw holds a ★4 or better', (t) => {
  let s = rich(t);
  const m = master();
  for (let i = 0; i < 200; i++) {
    const r = ok(t, 'drawPlayerGacha', withWealth(s, { gem: 100_000 }), { gachaId: 2, drawType: 3 }, { seed: `g${i}` });
    const rarities = (r.response['gachaResults'] as Array<{ characterId: number }>).map((x) => m.character.get(x.characterId)?.rarity ?? 0);
    t.true(rarities.some((x) => x >= 4), `draw ${i}: ${rarities.join(',')}`);
    s = r.state;
  }
});

test('a duplicate becomes its limit-break item and raises awakening', (t) => {
  const m = master();
  let s = rich(t);
  const r1 = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'dup' });
  const id = r1.state.characters[0]!.characterId;
  // The same seed on a state that already owns the character draws it again.
  s = { ...s, characters: r1.state.characters, nextManagedId: r1.state.nextManagedId };
  const r2 = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'dup' });
  const c = m.character.get(id)!;
  const amount = m.rarity.get(c.rarity)!.duplicateItemAmount;
  t.is(r2.state.characters.length, 1);
  t.is(itemsOf(r2.state)[String(c.limitBreakItemId)], amount);
  t.is(r2.state.characters[0]!.awakening, 1);
  const res = (r2.response['gachaResults'] as Array<{ isNew: boolean; itemId: number }>)[0]!;
  t.false(res.isNew);
  t.is(res.itemId, c.limitBreakItemId);
});

test('first-time gacha: draw holds a pending result, re-draw replaces it free, fix grants and closes', (t) => {
  const s = rich(t);
  const a = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: false });
  t.is(a.state.characters.length, 0, 'nothing granted while pending');
  t.true(a.response['pending'] as boolean);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', a.state, { gachaId: 1, drawType: 3, reDraw: false });
  let cur = a.state;
  for (let i = 0; i < 30; i++) cur = ok(t, 'drawPlayerGacha', cur, { gachaId: 1, drawType: 3, reDraw: true }, { seed: `re${i}` }).state;
  t.is(cur.gem, s.gem);
  const pending = statOf(cur, 1).pending!.characterIds;
  const f = ok(t, 'fixPlayerGacha', cur, {});
  t.deepEqual(f.state.characters.map((c) => c.characterId), [...new Set(pending)]);
  t.true(statOf(f.state, 1).closed);
  t.truthy(f.response['managedCharacters']);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', f.state, { gachaId: 1, drawType: 3 });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', f.state, {});
});

test('re-draw without a pending draw is 315; re-draw on a normal gacha is 102', (t) => {
  const s = rich(t);
  fails(t, 'GACHA_NOTHING_PENDING', 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2, drawType: 3, reDraw: true });
});

test('bad draw requests: drawType out of range is 102, a missing gachaId 103', (t) => {
  const s = rich(t);
  t.is(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2, drawType: 4 }).code, 'INVALID_PARAMETERS');
  fails(t, 'INSUFFICIENT_PARAMETERS', 'drawPlayerGacha', s, { drawType: 1 });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2.5, drawType: 1 });
});

test('numeric strings are accepted where integers are expected', (t) => {
  const r = ok(t, 'drawPlayerGacha', rich(t), { gachaId: '2', drawType: '1' });
  t.is((r.response['gachaResults'] as unknown[]).length, 1);
});

test('point_to_character spends the target price and grants the character; short is 442', (t) => {
  const s = rich(t);
  fails(t, 'GACHA_POINT_IS_SHORT', 'pointToCharacterPlayerGacha', s, { gachaId: 3, characterId: 1012 });
  let cur = s;
  for (let i = 0; i < 5; i++) cur = ok(t, 'drawPlayerGacha', withWealth(cur, { gem: 100_000 }), { gachaId: 3, drawType: 3 }, { seed: `p${i}` }).state;
  t.is(statOf(cur, 3).points, 50);
  const had = cur.characters.some((c) => c.characterId === 1012);
  const r = ok(t, 'pointToCharacterPlayerGacha', cur, { gachaId: 3, characterId: 1012 });
  t.is(statOf(r.state, 3).points, 0);
  t.true(r.state.characters.some((c) => c.characterId === 1012));
  t.is(r.response['isNew'], !had);
  fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', cur, { gachaId: 3, characterId: 1013 });
  fails(t, 'NOT_FOUND', 'pointToCharacterPlayerGacha', cur, { gachaId: 99, characterId: 1012 });
});

test('get_all lists open gachas with the player\'s counts; named ids list those, unknown is 107', (t) => {
  const s = rich(t);
  const all = ok(t, 'getAllPlayerGacha', s, {});
  const ids = (all.response['gachas'] as Array<{ gachaId: number }>).map((g) => g.gachaId);
  t.deepEqual(ids, [1, 2, 3, 4, 6]);
  const named = ok(t, 'getAllPlayerGacha', s, { gachaIds: '5,2' });
  t.deepEqual((named.response['gachas'] as Array<{ gachaId: number; open: boolean }>).map((g) => [g.gachaId, g.open]), [[5, false], [2, true]]);
  fails(t, 'NOT_FOUND', 'getAllPlayerGacha', s, { gachaIds: '2,77' });
  t.is(all.state, s, 'a read changes nothing');
});

test('box/get publishes probabilities that sum to 1 and pickup shares of their rarity', (t) => {
  const r = ok(t, 'getPlayerGachaBox', rich(t), { gachaId: 3 });
  const chars = r.response['characters'] as Array<{ characterId: number; probability: number; rarity: number; pickup: boolean }>;
  const sum = chars.reduce((a, c) => a + c.probability, 0);
  t.true(Math.abs(sum - 1) < 1e-9);
  const r5 = (r.response['rarityRates'] as Array<{ rarity: number; probability: number }>).find((x) => x.rarity === 5)!;
  t.is(r5.probability, 0.03);
  const pick5 = chars.find((c) => c.pickup && c.rarity === 5)!;
  t.true(Math.abs(pick5.probability - 0.015) < 1e-12);
  fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerGachaBox', rich(t), {});
});
