import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth, itemsOf } from '../_support/core.js';
import { DAY, HOUR } from '../../core/time.js';
import { statOf } from '../../core/operations/gacha.js';
import { operationByName } from '../../core/operations/table.js';
import { answerCodec } from '../../core/operation.js';
import { answerProblems } from '../../core/answer-check.js';

/** What is wrong with an answer against its operation's codec, strictly (undeclared fields too). */
const problems = (name: string, response: unknown): string[] => answerProblems(answerCodec(operationByName(name)!), response);

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

test('a single draw with the ticket held spends the ticket, not gems', (t) => {
  const s = receiveAll(t, freshPlayer());
  t.is(itemsOf(s)['3001'], 1);
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.is(itemsOf(r.state)['3001'], undefined);
  t.is(r.state.gem, s.gem);
  t.is(r.response.gachaResults.length, 1);
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
  t.is(b.response.gachaResults.length, 10);
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
    const rarities = r.response.gachaResults.map((x) => m.character.get(x.characterId)?.rarity ?? 0);
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
  const res = r2.response.gachaResults[0]!;
  t.false(res.isNew);
  t.is(res.itemId, c.limitBreakItemId);
});

test('first-time gacha: reDraw true opens the re-draw cycle (held), re-draws replace it free, fix grants and closes', (t) => {
  const s = rich(t);
  const a = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  t.is(a.state.characters.length, 0, 'nothing granted while pending');
  t.true(a.response.pending);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', a.state, { gachaId: 1, drawType: 3, reDraw: false });
  let cur = a.state;
  for (let i = 0; i < 30; i++) cur = ok(t, 'drawPlayerGacha', cur, { gachaId: 1, drawType: 3, reDraw: true }, { seed: `re${i}` }).state;
  t.is(cur.gem, s.gem);
  const pending = statOf(cur, 1).pending!.characterIds;
  const f = ok(t, 'fixPlayerGacha', cur, {});
  t.deepEqual(f.state.characters.map((c) => c.characterId), [...new Set(pending)]);
  t.true(statOf(f.state, 1).closed);
  t.truthy(f.response.managedCharacters);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', f.state, { gachaId: 1, drawType: 3 });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', f.state, {});
});

test('the tutorial draw: reDraw false keeps the result at once (owned, nothing pending), records the step and closes the first-time gacha', (t) => {
  const s = rich(t);
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, stepCode: 4, reDraw: false });
  const drawn = [...new Set(r.response.gachaResults.map((x) => x.characterId))];
  t.false(r.response.pending);
  t.deepEqual(r.state.characters.map((c) => c.characterId), drawn, 'the drawn characters are owned at once');
  t.deepEqual(r.response.managedCharacters.map((c) => c.characterId), drawn, 'and read from managedCharacters, as the clients do');
  t.is(r.state.tutorial.step, 4);
  t.like(statOf(r.state, 1), { closed: true, pending: null, totalDraws: 10 });
  t.true(r.state.gachaHistory.at(-1)!.granted);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', r.state, { gachaId: 1, drawType: 3, reDraw: false });
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', r.state, { gachaId: 1, drawType: 3, reDraw: true });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', r.state, {});
  // reDraw absent is reDraw false.
  const plain = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3 });
  t.false(plain.response.pending);
  t.is(plain.state.characters.length, new Set(plain.response.gachaResults.map((x) => x.characterId)).size);
});

test('a draw\'s stepCode follows the tutorial rules: 0 records nothing, going back is 102 and nothing changes', (t) => {
  const s = rich(t);
  t.is(ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1, stepCode: 0 }).state.tutorial.step, s.tutorial.step);
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', { ...s, tutorial: { ...s.tutorial, step: 4 } }, { gachaId: 1, drawType: 3, stepCode: 3, reDraw: false });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', { ...s, tutorial: { ...s.tutorial, step: 4 } }, { gachaId: 1, drawType: 3, stepCode: 3, reDraw: true });
});

test('re-draw on a normal gacha is 102', (t) => {
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', rich(t), { gachaId: 2, drawType: 3, reDraw: true });
});

test('bad draw requests: drawType out of range is 102, a missing gachaId 103', (t) => {
  const s = rich(t);
  t.is(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2, drawType: 4 }).code, 'INVALID_PARAMETERS');
  fails(t, 'INSUFFICIENT_PARAMETERS', 'drawPlayerGacha', s, { drawType: 1 });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2.5, drawType: 1 });
});

test('numeric strings are accepted where integers are expected', (t) => {
  const r = ok(t, 'drawPlayerGacha', rich(t), { gachaId: '2', drawType: '1' });
  t.is(r.response.gachaResults.length, 1);
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
  t.is(r.response.isNew, !had);
  fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', cur, { gachaId: 3, characterId: 1013 });
  fails(t, 'NOT_FOUND', 'pointToCharacterPlayerGacha', cur, { gachaId: 99, characterId: 1012 });
});

test('get_all lists open gachas with the player\'s counts; named ids list those, unknown is 107', (t) => {
  const s = rich(t);
  const all = ok(t, 'getAllPlayerGacha', s, {});
  const ids = all.response.gachas.map((g) => g.gacha.id);
  t.deepEqual(ids, [1, 2, 3, 4, 6]);
  const named = ok(t, 'getAllPlayerGacha', s, { gachaIds: '5,2' });
  t.deepEqual(named.response.gachas.map((g) => [g.gacha.id, g.open]), [[5, false], [2, true]]);
  fails(t, 'NOT_FOUND', 'getAllPlayerGacha', s, { gachaIds: '2,77' });
  t.is(all.state, s, 'a read changes nothing');
});

test('get_all answers in the original\'s shape: a gacha object with -1 for none, the player\'s counts beside, no steps', (t) => {
  const r = ok(t, 'getAllPlayerGacha', freshPlayer(), { gachaIds: '1,2,6' });
  t.deepEqual(problems('getAllPlayerGacha', r.response), []);
  t.deepEqual(r.response.gachaSteps, []);
  const [first, standard, weekend] = r.response.gachas;
  t.deepEqual(standard?.gacha, {
    id: 2, name: master().gacha.get(2)!.name, type: 1, kind: 'standard',
    gem1: 150, gem10: 1500, first10: 750, unlimitedGem: 100, itemId: 3001, itemAmount: 1,
    startAt: '2024-01-01T00:00:00', endAt: null,
    sun: 1, mon: 1, tue: 1, wed: 1, thu: 1, fri: 1, sat: 1,
    reDraw: -1, drawLimit: -1, allLimit: -1, pointsPerDraw: 1,
  });
  t.like(first?.gacha, { id: 1, kind: 'firstTime', reDraw: 1, gem10: 0, first10: -1, unlimitedGem: -1, itemId: -1, itemAmount: -1, allLimit: 10, drawLimit: -1 });
  t.like(weekend?.gacha, { id: 6, sun: 1, mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 1, drawLimit: 20, allLimit: 100 });
  t.like(standard, {
    uGem1Total: 0, uGem1Daily: 0, gem1Total: 0, gem1Daily: 0, gem10Total: 0, gem10Daily: 0, itemTotal: 0, itemDaily: 0,
    open: true, ticketHeld: 0, drawsToday: 0, totalDraws: 0, points: 0, closed: false, pending: null,
  });
});

test('get_all counts the player\'s draws of each kind, today and in all; first10 is -1 once used', (t) => {
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: 100_000, paidGem: 1000 });
  t.is(ok(t, 'getAllPlayerGacha', s, { gachaIds: '2' }).response.gachas[0]?.ticketHeld, 1);
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'k1' }).state; // the ticket
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'k2' }).state; // gems
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { seed: 'k3' }).state;
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 2 }, { seed: 'k4' }).state; // paid gems
  const ten = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 }, { seed: 'k5' }); // a ten-draw
  t.deepEqual(problems('drawPlayerGacha', ten.response), []);
  s = ten.state;
  const all = ok(t, 'getAllPlayerGacha', s, { gachaIds: '2' }).response;
  t.deepEqual(problems('getAllPlayerGacha', all), []);
  const today = all.gachas[0]!;
  t.like(today, {
    itemTotal: 1, itemDaily: 1, gem1Total: 2, gem1Daily: 2, uGem1Total: 1, uGem1Daily: 1, gem10Total: 1, gem10Daily: 1,
    ticketHeld: 0, drawsToday: 14, totalDraws: 14, points: 14,
  });
  t.is(today.gacha.first10, -1, 'the first ten-draw discount was used');
  const tomorrow = ok(t, 'getAllPlayerGacha', s, { gachaIds: '2' }, { now: NOW + DAY }).response.gachas[0]!;
  t.like(tomorrow, { itemTotal: 1, itemDaily: 0, gem1Total: 2, gem1Daily: 0, uGem1Total: 1, uGem1Daily: 0, gem10Total: 1, gem10Daily: 0, drawsToday: 0, totalDraws: 14 });
});

test('get_all: a re-draw gacha\'s re-draws and its fix are not draws; its pending result and closing are shown', (t) => {
  let s = rich(t);
  s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }).state;
  for (let i = 0; i < 3; i++) s = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }, { seed: `r${i}` }).state;
  const pending = ok(t, 'getAllPlayerGacha', s, {}).response.gachas.find((g) => g.gacha.id === 1)!;
  t.like(pending, { gem10Total: 1, gem10Daily: 1, closed: false, totalDraws: 10 });
  t.deepEqual(pending.pending, statOf(s, 1).pending!.characterIds);
  s = ok(t, 'fixPlayerGacha', s, {}).state;
  t.false(ok(t, 'getAllPlayerGacha', s, {}).response.gachas.some((g) => g.gacha.id === 1), 'a fixed re-draw gacha leaves the open list');
  t.like(ok(t, 'getAllPlayerGacha', s, { gachaIds: '1' }).response.gachas[0], { gem10Total: 1, closed: true, pending: null });
});

test('box/get publishes probabilities that sum to 1 and pickup shares of their rarity', (t) => {
  const r = ok(t, 'getPlayerGachaBox', rich(t), { gachaId: 3 });
  const chars = r.response.characters;
  const sum = chars.reduce((a, c) => a + c.probability, 0);
  t.true(Math.abs(sum - 1) < 1e-9);
  const r5 = r.response.rarityRates.find((x) => x.rarity === 5)!;
  t.is(r5.probability, 0.03);
  const pick5 = chars.find((c) => c.pickup && c.rarity === 5)!;
  t.true(Math.abs(pick5.probability - 0.015) < 1e-12);
  fails(t, 'INSUFFICIENT_PARAMETERS', 'getPlayerGachaBox', rich(t), {});
});
