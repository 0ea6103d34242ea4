// A gacha draw (docs/rules/foundation.md, Gacha): what it pays (a ticket held, free gems
// before paid ones, paid gems only, the first ten-draw's price), what it grants (the ten-draw
// guarantee, duplicates as limit-break items, points per character) and what it records
// (stats per gacha and game day, the history entry, the counters); when a gacha may be drawn
// (its period and weekdays, the per-day limit until the game day turns, the total limit,
// which counts the draws the request itself makes); bad requests and what each refusal
// names. The re-draw gacha: redraw.test.ts.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth, itemsOf } from '../../_support/core.js';
import { DAY, HOUR } from '../../../core/time.js';
import { statOf } from '../../../core/operations/gacha.js';
import type { PlayerState, GachaStat } from '../../../core/state.js';
import { answerCodec } from '../../../core/operation.js';
import { answerProblems } from '../../../core/answer-check.js';
import { operationByName } from '../../../core/operations/table.js';

const rich = (t: Parameters<typeof receiveAll>[0]) => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });

const m = master();
const wealthy = (): PlayerState => withWealth(freshPlayer(), { gem: 100_000, paidGem: 1_000 });

/** A state whose stat for a gacha is the given one (the other stats kept). */
const withStat = (s: PlayerState, st: Partial<GachaStat> & { gachaId: number }): PlayerState => ({
  ...s,
  gachaStats: [...s.gachaStats.filter((x) => x.gachaId !== st.gachaId), { ...statOf(s, st.gachaId), ...st }].sort(
    (a, b) => a.gachaId - b.gachaId,
  ),
});

// Gacha 6 (Weekend Gacha): at most 100 draws in all, 20 a day; open on NOW, a Saturday.
const WEEKEND = 6;

// ---- paying ----

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

test('a ticket is used only when enough are held; drawType 2 needs a gacha with a paid-gem price', (t) => {
  const s = withWealth(wealthy(), { items: { 3001: 1 } });
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.deepEqual(r.state.gachaHistory.at(-1)?.payment, { ticket: 1, gem: 0, paidGem: 0 });
  t.is(r.state.gem, s.gem);
  const e = fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', wealthy(), { gachaId: 1, drawType: 2 });
  t.like(e, { field: 'drawType' });
});

// ---- what a draw grants and records ----

test('draws earn gacha points per character drawn', (t) => {
  const r = ok(t, 'drawPlayerGacha', rich(t), { gachaId: 3, drawType: 3 });
  t.is(statOf(r.state, 3).points, 10);
});

test('a draw records its stats: draws today and in all, the game day, points, the first ten-draw; a new game day starts the count again', (t) => {
  const a = ok(t, 'drawPlayerGacha', wealthy(), { gachaId: 2, drawType: 1 });
  t.like(statOf(a.state, 2), {
    totalDraws: 1,
    drawsToday: 1,
    points: 1,
    firstTenUsed: false,
    closed: false,
    pending: null,
  });
  const b = ok(t, 'drawPlayerGacha', a.state, { gachaId: 2, drawType: 3 }, { seed: 'b' });
  const day = statOf(b.state, 2).dayIndex;
  t.like(statOf(b.state, 2), { totalDraws: 11, drawsToday: 11, points: 11, firstTenUsed: true });
  t.true(day > 0);
  const c = ok(t, 'drawPlayerGacha', b.state, { gachaId: 2, drawType: 1 }, { seed: 'c', now: NOW + DAY });
  t.like(statOf(c.state, 2), { totalDraws: 12, drawsToday: 1, dayIndex: day + 1, points: 12, firstTenUsed: true });
  // Another gacha's stats are its own.
  t.is(statOf(c.state, 3).totalDraws, 0);
  t.deepEqual(
    c.state.gachaStats.map((x) => x.gachaId),
    [2],
  );
});

test('each gacha keeps its own stats, in gacha order, whatever order they were drawn in', (t) => {
  const a = ok(t, 'drawPlayerGacha', wealthy(), { gachaId: 3, drawType: 1 });
  const b = ok(t, 'drawPlayerGacha', a.state, { gachaId: 2, drawType: 3 }, { seed: 'b' });
  const c = ok(t, 'drawPlayerGacha', b.state, { gachaId: 3, drawType: 1 }, { seed: 'c' });
  t.deepEqual(
    c.state.gachaStats.map((x) => [x.gachaId, x.totalDraws, x.firstTenUsed]),
    [
      [2, 10, true],
      [3, 2, false],
    ],
  );
});

test('a draw records what it drew and paid in the history, and counts its characters', (t) => {
  const s = wealthy();
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 3 });
  const ids = r.response.gachaResults.map((x) => x.characterId);
  t.deepEqual(r.state.gachaHistory, [
    {
      gachaId: 2,
      drawnAt: NOW,
      drawType: 3,
      characterIds: ids,
      payment: { ticket: 0, gem: 750, paidGem: 0 },
      granted: true,
    },
  ]);
  t.is(r.state.counters.gachaDraws, (s.counters.gachaDraws ?? 0) + 10);
  const paidOnly = ok(t, 'drawPlayerGacha', r.state, { gachaId: 2, drawType: 2 }, { seed: 'p' });
  t.deepEqual(paidOnly.state.gachaHistory.at(-1)?.payment, { ticket: 0, gem: 0, paidGem: 100 });
  t.is(paidOnly.state.counters.gachaDraws, (s.counters.gachaDraws ?? 0) + 11);
});

test('the ten-draw guarantee: every ten-draw holds a ★4 or better', (t) => {
  let s = rich(t);
  const m = master();
  for (let i = 0; i < 200; i++) {
    const r = ok(t, 'drawPlayerGacha', withWealth(s, { gem: 100_000 }), { gachaId: 2, drawType: 3 }, { seed: `g${i}` });
    const rarities = r.response.gachaResults.map((x) => m.character.get(x.characterId)?.rarity ?? 0);
    t.true(
      rarities.some((x) => x >= 4),
      `draw ${i}: ${rarities.join(',')}`,
    );
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

test('a character drawn twice in one ten-draw is new once; the copy says what it turns into', (t) => {
  // Find a seed whose ten-draw holds a character twice (deterministic: the same seeds every run).
  const s = wealthy();
  let found: { r: ReturnType<typeof ok<'drawPlayerGacha'>>; id: number } | undefined;
  for (let i = 0; i < 200 && !found; i++) {
    const r = ok(t, 'drawPlayerGacha', s, { gachaId: 3, drawType: 3 }, { seed: `dup${i}` });
    const ids = r.response.gachaResults.map((x) => x.characterId);
    const id = ids.find((x, j) => ids.indexOf(x) !== j);
    if (id !== undefined) found = { r, id };
  }
  if (!found) {
    t.fail('no ten-draw with a repeat in 200 seeds');
    return;
  }
  const { r, id } = found;
  const c = m.character.get(id)!;
  const copies = r.response.gachaResults.filter((x) => x.characterId === id);
  t.like(copies[0], { isNew: true, itemId: null, itemAmount: 0, rarity: c.rarity });
  t.like(copies[1], {
    isNew: false,
    itemId: c.limitBreakItemId,
    itemAmount: m.rarity.get(c.rarity)!.duplicateItemAmount,
    rarity: c.rarity,
  });
  const pickups = new Set(m.gacha.get(3)!.pickups.map((p) => p.characterId));
  for (const x of r.response.gachaResults)
    t.is(x.pickup, pickups.has(x.characterId), `pickup flag of ${x.characterId}`);
  t.is(itemsOf(r.state)[String(c.limitBreakItemId)], m.rarity.get(c.rarity)!.duplicateItemAmount * (copies.length - 1));
});

// ---- when a gacha may be drawn ----

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

test('the total draw limit counts the draws a request makes: a ten-draw at 91 and a single at 100 are 309, a ten-draw at 90 succeeds', (t) => {
  const s = rich(t);
  // dayIndex 0: no draws today, so only the total limit can refuse.
  const at = (totalDraws: number) =>
    withStat(s, { gachaId: WEEKEND, totalDraws, dayIndex: 0, drawsToday: 0, firstTenUsed: true });
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

// ---- requests and refusals ----

test("a draw's stepCode follows the tutorial rules: 0 records nothing, going back is 102 and nothing changes", (t) => {
  const s = rich(t);
  t.is(ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1, stepCode: 0 }).state.tutorial.step, s.tutorial.step);
  fails(
    t,
    'INVALID_PARAMETERS',
    'drawPlayerGacha',
    { ...s, tutorial: { ...s.tutorial, step: 4 } },
    { gachaId: 1, drawType: 3, stepCode: 3, reDraw: false },
  );
  fails(
    t,
    'INVALID_PARAMETERS',
    'drawPlayerGacha',
    { ...s, tutorial: { ...s.tutorial, step: 4 } },
    { gachaId: 1, drawType: 3, stepCode: 3, reDraw: true },
  );
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

test('refusals name what refused: the gacha, the field, the limit', (t) => {
  const s = wealthy();
  t.like(fails(t, 'NOT_FOUND', 'drawPlayerGacha', s, { gachaId: 999, drawType: 1 }), { entity: 'gacha', id: 999 });
  t.like(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 1, drawType: 2 }), {
    field: 'drawType',
    reason: 'gacha 1 has no paid-gem single draw',
  });
  t.like(fails(t, 'INVALID_PARAMETERS', 'drawPlayerGacha', s, { gachaId: 2, drawType: 1, reDraw: true }), {
    field: 'reDraw',
    reason: 'gacha 2 does not allow re-draws',
  });
  const daily = ok(t, 'drawPlayerGacha', s, { gachaId: 4, drawType: 1 }).state;
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', daily, { gachaId: 4, drawType: 1 }), {
    gachaId: 4,
    reason: 'at most 1 draws a day',
  });
  const fixed = ok(t, 'fixPlayerGacha', ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 1 }).state, {}).state;
  t.like(fails(t, 'GACHA_DRAW_LIMIT', 'drawPlayerGacha', fixed, { gachaId: 1, drawType: 1 }), {
    gachaId: 1,
    reason: 'its result is final (fixed, or the player moved on)',
  });
  const base = { ...s, gachaStats: [{ ...statOf(s, 3), points: 10 }] };
  t.like(fails(t, 'INVALID_PARAMETERS', 'pointToCharacterPlayerGacha', base, { gachaId: 3, characterId: 1013 }), {
    field: 'characterId',
    reason: 'character 1013 is not a target of gacha 3',
  });
});

test('every draw, fix and point exchange answer is exactly its declared codec', (t) => {
  const s = wealthy();
  const drawn = ok(t, 'drawPlayerGacha', s, { gachaId: 3, drawType: 3 });
  const kept = ok(t, 'drawPlayerGacha', s, { gachaId: 1, drawType: 3, reDraw: true });
  const reRolled = ok(t, 'drawPlayerGacha', kept.state, { gachaId: 1, drawType: 3, reDraw: false });
  const fixed = ok(t, 'fixPlayerGacha', reRolled.state, {});
  const points = ok(
    t,
    'pointToCharacterPlayerGacha',
    { ...s, gachaStats: [{ ...statOf(s, 3), points: 50 }] },
    { gachaId: 3, characterId: 1012 },
  );
  const answers = [
    ['drawPlayerGacha', drawn.response],
    ['drawPlayerGacha', kept.response],
    ['drawPlayerGacha', reRolled.response],
    ['fixPlayerGacha', fixed.response],
    ['pointToCharacterPlayerGacha', points.response],
  ] as const;
  for (const [name, answer] of answers)
    t.deepEqual(answerProblems(answerCodec(operationByName(name)!), answer), [], name);
});
