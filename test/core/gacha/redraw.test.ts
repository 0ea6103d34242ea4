// The first-time gacha's re-draw cycle (docs/rules/foundation.md, Gacha): reDraw true holds
// a result that re-draws replace for free, fix grants the held result and closes the gacha;
// the tutorial's draw (reDraw false) keeps its result at once. A re-draw grants and costs
// nothing; fix refuses an unknown gacha or one with nothing held, and finds the gacha that
// holds a result.
import test from 'ava';
import { fails, freshPlayer, ok, receiveAll, withWealth, master, NOW } from '../../_support/core.js';
import { statOf } from '../../../core/operations/gacha.js';
import type { PlayerState } from '../../../core/state.js';

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

const m = master();
const wealthy = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });

test('first-time gacha: reDraw true opens the re-draw cycle (held), re-draws replace it free, fix grants and closes', (t) => {
  const s = rich(t);
  const a = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  t.is(a.state.characters.length, 0, 'nothing granted while pending');
  t.true(a.response.pending);
  fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', a.state, { gachaId: 1, drawType: 3, reDraw: false });
  let cur = a.state;
  for (let i = 0; i < 30; i++)
    cur = ok(t, 'drawPlayerGacha', cur, { gachaId: 1, drawType: 3, reDraw: true }, { seed: `re${i}` }).state;
  t.is(cur.gem, s.gem);
  const pending = statOf(cur, 1).pending!.characterIds;
  const f = ok(t, 'fixPlayerGacha', cur, {});
  t.deepEqual(
    f.state.characters.map((c) => c.characterId),
    [...new Set(pending)],
  );
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
  t.deepEqual(
    r.state.characters.map((c) => c.characterId),
    drawn,
    'the drawn characters are owned at once',
  );
  t.deepEqual(
    r.response.managedCharacters.map((c) => c.characterId),
    drawn,
    'and read from managedCharacters, as the clients do',
  );
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

test('re-draw on a normal gacha is 102', (t) => {
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', rich(t), { gachaId: 2, drawType: 3, reDraw: true });
});

test('a re-draw is free and grants nothing; its record says so; a closed gacha is 309', (t) => {
  const s = wealthy();
  const held = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  const re = ok(t, 'drawPlayerGacha', held.state, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 're' });
  const ids = re.response.gachaResults.map((x) => x.characterId);
  t.is(ids.length, 10);
  t.deepEqual(statOf(re.state, 1).pending, { characterIds: ids, drawnAt: NOW });
  t.like(re.state.gachaHistory.at(-1), {
    drawType: 3,
    characterIds: ids,
    payment: { ticket: 0, gem: 0, paidGem: 0 },
    granted: false,
  });
  t.is(re.state.characters.length, 0);
  t.is(re.state.gem, s.gem);
  t.true(re.response.pending);
  const fixed = ok(t, 'fixPlayerGacha', re.state, { gachaId: 1 });
  t.deepEqual(
    fixed.response.gachaResults.map((x) => x.characterId),
    ids,
  );
  t.is(fixed.response.gachaId, 1);
  t.like(fixed.state.gachaHistory.at(-1), {
    gachaId: 1,
    drawType: 0,
    characterIds: ids,
    payment: { ticket: 0, gem: 0, paidGem: 0 },
    granted: true,
  });
  t.like(statOf(fixed.state, 1), { closed: true, pending: null });
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', fixed.state, { gachaId: 1, drawType: 3, reDraw: true }), {
    gachaId: 1,
  });
});

test('while a re-draw gacha holds a result, a draw without reDraw is 309, even one the limits allow', (t) => {
  const held = ok(t, 'drawPlayerGacha', wealthy(), { gachaId: 1, drawType: 1, reDraw: true }).state;
  t.is(statOf(held, 1).totalDraws, 1);
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', held, { gachaId: 1, drawType: 1 }), {
    reason: 'a draw is pending: re-draw or fix it',
  });
});

// ---- fix ----

test('fix: an unknown gacha is 107; a gacha with nothing pending is 315', (t) => {
  const s = wealthy();
  t.like(fails(t, 'NOT_FOUND', 'fixPlayerGacha', s, { gachaId: 999 }), { entity: 'gacha', id: 999 });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', s, { gachaId: 2 });
  const held = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }).state;
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', held, { gachaId: 2 });
});

test('fix without a gachaId fixes the gacha that holds a result, not the first one drawn', (t) => {
  // A second re-draw gacha (gacha 1's twin, id 7) in a copy of the master data.
  const g1 = m.gacha.get(1)!;
  const twin = { ...g1, gachaId: 7 };
  const m2 = {
    ...m,
    gacha: new Map([...m.gacha, [7, twin]]),
    gachas: [...m.gachas, { ...m.gachas.find((x) => x.gachaId === 1)!, gachaId: 7 }],
  };
  const s = wealthy();
  const closed = { ...statOf(s, 1), totalDraws: 10, closed: true };
  const pending = { ...statOf(s, 7), totalDraws: 1, pending: { characterIds: [1013], drawnAt: NOW } };
  const r = ok(t, 'fixPlayerGacha', { ...s, gachaStats: [closed, pending] }, {}, { m: m2 });
  t.is(r.response.gachaId, 7);
  t.deepEqual(
    r.state.characters.map((c) => c.characterId),
    [1013],
  );
});
