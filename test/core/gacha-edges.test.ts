// Drawing at its edges (issue 23, mutation survivors of core/operations/gacha.ts): what a
// draw records (stats, history, counters) and how long the history is kept, to the
// millisecond; what each result says of a character drawn twice; a re-draw costs and
// grants nothing; fix and point exchange refuse what they must.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, itemsOf } from '../_support/core.js';
import { DAY } from '../../core/time.js';
import { statOf } from '../../core/operations/gacha.js';
import type { DrawRecord, PlayerState } from '../../core/state.js';
import { answerCodec } from '../../core/operation.js';
import { answerProblems } from '../../core/answer-check.js';
import { operationByName } from '../../core/operations/table.js';

const m = master();
const rich = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });
const record = (drawnAt: number): DrawRecord => ({ gachaId: 2, drawnAt, drawType: 1, characterIds: [1013], payment: { ticket: 0, gem: 150, paidGem: 0 }, granted: true });

test('a draw records its stats: draws today and in all, the game day, points, the first ten-draw; a new game day starts the count again', (t) => {
  const a = ok(t, 'drawPlayerGacha', rich(), { gachaId: 2, drawType: 1 });
  t.like(statOf(a.state, 2), { totalDraws: 1, drawsToday: 1, points: 1, firstTenUsed: false, closed: false, pending: null });
  const b = ok(t, 'drawPlayerGacha', a.state, { gachaId: 2, drawType: 3 }, { seed: 'b' });
  const day = statOf(b.state, 2).dayIndex;
  t.like(statOf(b.state, 2), { totalDraws: 11, drawsToday: 11, points: 11, firstTenUsed: true });
  t.true(day > 0);
  const c = ok(t, 'drawPlayerGacha', b.state, { gachaId: 2, drawType: 1 }, { seed: 'c', now: NOW + DAY });
  t.like(statOf(c.state, 2), { totalDraws: 12, drawsToday: 1, dayIndex: day + 1, points: 12, firstTenUsed: true });
  // Another gacha's stats are its own.
  t.is(statOf(c.state, 3).totalDraws, 0);
  t.deepEqual(c.state.gachaStats.map((x) => x.gachaId), [2]);
});

test('a draw records what it drew and paid in the history, and counts its characters', (t) => {
  const s = rich();
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 });
  const ids = r.response.gachaResults.map((x) => x.characterId);
  t.deepEqual(r.state.gachaHistory, [{ gachaId: 2, drawnAt: NOW, drawType: 3, characterIds: ids, payment: { ticket: 0, gem: 750, paidGem: 0 }, granted: true }]);
  t.is(r.state.counters.gachaDraws, (s.counters.gachaDraws ?? 0) + 10);
  const paidOnly = ok(t, 'drawPlayerGacha', r.state, { gachaId: 2, drawType: 2 }, { seed: 'p' });
  t.deepEqual(paidOnly.state.gachaHistory.at(-1)?.payment, { ticket: 0, gem: 0, paidGem: 100 });
  t.is(paidOnly.state.counters.gachaDraws, (s.counters.gachaDraws ?? 0) + 11);
});

test('the history keeps the configured days to the millisecond: older draws are dropped when the next is recorded', (t) => {
  const horizon = NOW - m.game.gacha.historyDays * DAY;
  const s = { ...rich(), gachaHistory: [record(horizon - 1), record(horizon), record(horizon + 1)] };
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.deepEqual(r.state.gachaHistory.map((h) => h.drawnAt), [horizon, horizon + 1, NOW]);
  const kept = ok(t, 'drawPlayerGacha', { ...rich(), gachaHistory: [record(horizon)] }, { gachaId: 2, drawType: 1 });
  t.deepEqual(kept.state.gachaHistory.map((h) => h.drawnAt), [horizon, NOW]);
});

test('a character drawn twice in one ten-draw is new once; the copy says what it turns into', (t) => {
  // Find a seed whose ten-draw holds a character twice (deterministic: the same seeds every run).
  const s = rich();
  let found: { r: ReturnType<typeof ok<'drawPlayerGacha'>>; id: number } | undefined;
  for (let i = 0; i < 200 && !found; i++) {
    const r = ok(t, 'drawPlayerGacha', s, { gachaId: 3, drawType: 3 }, { seed: `dup${i}` });
    const ids = r.response.gachaResults.map((x) => x.characterId);
    const id = ids.find((x, j) => ids.indexOf(x) !== j);
    if (id !== undefined) found = { r, id };
  }
  if (!found) { t.fail('no ten-draw with a repeat in 200 seeds'); return; }
  const { r, id } = found;
  const c = m.character.get(id)!;
  const copies = r.response.gachaResults.filter((x) => x.characterId === id);
  t.like(copies[0], { isNew: true, itemId: null, itemAmount: 0, rarity: c.rarity });
  t.like(copies[1], { isNew: false, itemId: c.limitBreakItemId, itemAmount: m.rarity.get(c.rarity)!.duplicateItemAmount, rarity: c.rarity });
  const pickups = new Set(m.gacha.get(3)!.pickups.map((p) => p.characterId));
  for (const x of r.response.gachaResults) t.is(x.pickup, pickups.has(x.characterId), `pickup flag of ${x.characterId}`);
  t.is(itemsOf(r.state)[String(c.limitBreakItemId)], m.rarity.get(c.rarity)!.duplicateItemAmount * (copies.length - 1));
});

test('a ticket is used only when enough are held; drawType 2 needs a gacha with a paid-gem price', (t) => {
  const s = withWealth(rich(), { items: { 3001: 1 } });
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.deepEqual(r.state.gachaHistory.at(-1)?.payment, { ticket: 1, gem: 0, paidGem: 0 });
  t.is(r.state.gem, s.gem);
  const e = fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', rich(), { gachaId: 1, drawType: 2 });
  t.like(e, { field: 'drawType' });
});

test('a re-draw is free and grants nothing; its record says so; a closed gacha is 309', (t) => {
  const s = rich();
  const held = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  const re = ok(t, 'drawPlayerGacha', held.state, { gachaId: 1, drawType: 3, reDraw: true }, { seed: 're' });
  const ids = re.response.gachaResults.map((x) => x.characterId);
  t.is(ids.length, 10);
  t.deepEqual(statOf(re.state, 1).pending, { characterIds: ids, drawnAt: NOW });
  t.like(re.state.gachaHistory.at(-1), { drawType: 3, characterIds: ids, payment: { ticket: 0, gem: 0, paidGem: 0 }, granted: false });
  t.is(re.state.characters.length, 0);
  t.is(re.state.gem, s.gem);
  t.true(re.response.pending);
  const fixed = ok(t, 'fixPlayerGacha', re.state, { gachaId: 1 });
  t.deepEqual(fixed.response.gachaResults.map((x) => x.characterId), ids);
  t.is(fixed.response.gachaId, 1);
  t.like(fixed.state.gachaHistory.at(-1), { gachaId: 1, drawType: 0, characterIds: ids, payment: { ticket: 0, gem: 0, paidGem: 0 }, granted: true });
  t.like(statOf(fixed.state, 1), { closed: true, pending: null });
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', fixed.state, { gachaId: 1, drawType: 3, reDraw: true }), { gachaId: 1 });
});

test('fix: an unknown gacha is 107; a gacha with nothing pending is 315', (t) => {
  const s = rich();
  t.like(fails(t, 'NOT_FOUND', 'fixPlayerGacha', s, { gachaId: 999 }), { entity: 'gacha', id: 999 });
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', s, { gachaId: 2 });
  const held = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true }).state;
  fails(t, 'GACHA_NOTHING_PENDING', 'fixPlayerGacha', held, { gachaId: 2 });
});

test('a point exchange: a character not a target is 102; new or owned is said; the points left are answered', (t) => {
  const base = rich();
  const st = { ...statOf(base, 3), points: 120 };
  const s = { ...base, gachaStats: [st] };
  t.like(fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', s, { gachaId: 3, characterId: 1013 }), { field: 'characterId' });
  const a = ok(t, 'pointToCharacterPlayerGacha', s, { gachaId: 3, characterId: 1012 });
  t.like(a.response, { gachaId: 3, characterId: 1012, points: 70, isNew: true });
  const b = ok(t, 'pointToCharacterPlayerGacha', a.state, { gachaId: 3, characterId: 1012 });
  t.like(b.response, { points: 20, isNew: false });
  t.is(b.state.characters.filter((c) => c.characterId === 1012).length, 1);
  t.like(fails(t, 'GACHA_POINT_IS_SHORT', 'pointToCharacterPlayerGacha', b.state, { gachaId: 3, characterId: 1022 }), { need: 50, have: 20 });
});

test('each gacha keeps its own stats, in gacha order, whatever order they were drawn in', (t) => {
  const a = ok(t, 'drawPlayerGacha', rich(), { gachaId: 3, drawType: 1 });
  const b = ok(t, 'drawPlayerGacha', a.state, { gachaId: 2, drawType: 3 }, { seed: 'b' });
  const c = ok(t, 'drawPlayerGacha', b.state, { gachaId: 3, drawType: 1 }, { seed: 'c' });
  t.deepEqual(c.state.gachaStats.map((x) => [x.gachaId, x.totalDraws, x.firstTenUsed]), [[2, 10, true], [3, 2, false]]);
});

test('refusals name what refused: the gacha, the field, the limit', (t) => {
  const s = rich();
  t.like(fails(t, 'NOT_FOUND', 'drawPlayerGacha', s, { gachaId: 999, drawType: 1 }), { entity: 'gacha', id: 999 });
  t.like(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 1, drawType: 2 }), { field: 'drawType', reason: 'gacha 1 has no paid-gem single draw' });
  t.like(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2, drawType: 1, reDraw: true }), { field: 'reDraw', reason: 'gacha 2 does not allow re-draws' });
  const daily = ok(t, 'drawPlayerGacha', s, { gachaId: 4, drawType: 1 }).state;
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', daily, { gachaId: 4, drawType: 1 }), { gachaId: 4, reason: 'at most 1 draws a day' });
  const fixed = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 1 }).state;
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', fixed, { gachaId: 1, drawType: 1 }), { gachaId: 1, reason: 'its result was already fixed' });
  const base = { ...s, gachaStats: [{ ...statOf(s, 3), points: 10 }] };
  t.like(fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', base, { gachaId: 3, characterId: 1013 }), { field: 'characterId', reason: 'character 1013 is not a target of gacha 3' });
});

test('while a re-draw gacha holds a result, a draw without reDraw is 309, even one the limits allow', (t) => {
  const held = ok(t, 'drawPlayerGacha', rich(), { gachaId: 1, drawType: 1, reDraw: true }).state;
  t.is(statOf(held, 1).totalDraws, 1);
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', held, { gachaId: 1, drawType: 1 }), { reason: 'a draw is pending: re-draw or fix it' });
});

test('fix without a gachaId fixes the gacha that holds a result, not the first one drawn', (t) => {
  // A second re-draw gacha (gacha 1's twin, id 7) in a copy of the master data.
  const g1 = m.gacha.get(1)!;
  const twin = { ...g1, gachaId: 7 };
  const m2 = { ...m, gacha: new Map([...m.gacha, [7, twin]]), gachas: [...m.gachas, { ...m.gachas.find((x) => x.gachaId === 1)!, gachaId: 7 }] };
  const s = rich();
  const closed = { ...statOf(s, 1), totalDraws: 10, closed: true };
  const pending = { ...statOf(s, 7), totalDraws: 1, pending: { characterIds: [1013], drawnAt: NOW } };
  const r = ok(t, 'fixPlayerGacha', { ...s, gachaStats: [closed, pending] }, {}, { m: m2 });
  t.is(r.response.gachaId, 7);
  t.deepEqual(r.state.characters.map((c) => c.characterId), [1013]);
});

test('every draw, fix and point exchange answer is exactly its declared codec', (t) => {
  const s = rich();
  const drawn = ok(t, 'drawPlayerGacha', s, { gachaId: 3, drawType: 3 });
  const held = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  const fixed = ok(t, 'fixPlayerGacha', held.state, {});
  const points = ok(t, 'pointToCharacterPlayerGacha', { ...s, gachaStats: [{ ...statOf(s, 3), points: 50 }] }, { gachaId: 3, characterId: 1012 });
  const answers = [['drawPlayerGacha', drawn.response], ['drawPlayerGacha', held.response], ['fixPlayerGacha', fixed.response], ['pointToCharacterPlayerGacha', points.response]] as const;
  for (const [name, answer] of answers) t.deepEqual(answerProblems(answerCodec(operationByName(name)!), answer), [], name);
});
