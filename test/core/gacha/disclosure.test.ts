// Fair by disclosure (issue 20): box/get's ten-draw rates are exact, checked by enumerating
// every outcome of the rarity stage with the guarantee applied as the draw applies it
// (core/gacha/table.ts multiDrawRates).
import test from 'ava';
import { multiDrawRates, publish, rowsFrom, tableOf, type DrawTable } from '../../../core/gacha/rates.js';
import { freshPlayer, master, ok } from '../../_support/core.js';

/**
 * The ten-draw by brute force: every sequence of rarities of the n pulls with its
 * probability, the guarantee applied as drawMany applies it. Gives the per-pull share
 * of each rarity and the chance the guarantee fires.
 */
const enumerate = (table: DrawTable, n: number, min: number | null) => {
  const single = publish(table).rarities;
  const guaranteed = min === null ? [] : publish(rowsFrom(table, min)).rarities;
  const share = new Map<number, number>(single.map((r) => [r.rarity, 0]));
  let fire = 0;
  const walk = (i: number, p: number, seq: number[]): void => {
    if (i === n) {
      const fires = min !== null && n > 1 && seq.every((r) => r < min);
      for (const [j, r] of seq.entries()) {
        if (fires && j === n - 1) {
          for (const gr of guaranteed) share.set(gr.rarity, (share.get(gr.rarity) ?? 0) + (p * gr.probability) / n);
        } else share.set(r, (share.get(r) ?? 0) + p / n);
      }
      if (fires) fire += p;
      return;
    }
    for (const r of single) walk(i + 1, p * r.probability, [...seq, r.rarity]);
  };
  walk(0, 1, []);
  return { share, fire };
};

for (const gachaId of [2, 3, 4, 6]) {
  test(`gacha ${gachaId}: box/get's tenDraw is the exact enumeration of every ten-draw (3^10 rarity sequences)`, (t) => {
    const m = master();
    const g = m.gacha.get(gachaId)!;
    const box = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId }).response;
    const ten = box.tenDraw;
    t.is(ten.draws, m.game.gacha.tenDrawSize);
    const exact = enumerate(tableOf(m, g), ten.draws, g.guaranteeMinRarity);
    t.true(
      Math.abs(ten.guaranteeProbability - exact.fire) < 1e-12,
      `guarantee ${ten.guaranteeProbability} vs ${exact.fire}`,
    );
    for (const r of ten.rarityRates)
      t.true(Math.abs(r.probability - (exact.share.get(r.rarity) ?? NaN)) < 1e-12, `★${r.rarity}`);
    t.true(Math.abs(ten.rarityRates.reduce((a, r) => a + r.probability, 0) - 1) < 1e-12, 'the rarities sum to 1');
    // A pickup keeps its share of its rarity, in the single table and in the guarantee's.
    for (const p of ten.pickups) {
      const single = box.pickups.find((x) => x.characterId === p.characterId)!;
      const rarity = (rates: ReadonlyArray<{ rarity: number; probability: number }>) =>
        rates.find((x) => x.rarity === p.rarity)!.probability;
      t.true(
        Math.abs(p.probability / rarity(ten.rarityRates) - single.probability / rarity(box.rarityRates)) < 1e-12,
        `pickup ${p.characterId}`,
      );
    }
    if (g.guaranteeMinRarity === null) {
      t.is(ten.guaranteeProbability, 0);
      t.deepEqual(ten.rarityRates, box.rarityRates, 'no guarantee: a ten-draw is ten single draws');
    } else {
      const below = box.rarityRates
        .filter((r) => r.rarity < g.guaranteeMinRarity!)
        .reduce((a, r) => a + r.probability, 0);
      t.true(Math.abs(ten.guaranteeProbability - below ** ten.draws) < 1e-15);
      for (const r of ten.rarityRates) {
        const single = box.rarityRates.find((x) => x.rarity === r.rarity)!.probability;
        t.true(
          r.rarity >= g.guaranteeMinRarity ? r.probability > single : r.probability < single,
          `★${r.rarity} moves the right way`,
        );
      }
    }
  });
}

test('the standard gacha publishes ★5 3.124 % and ★4 19.265 % per pull of a ten-draw, the guarantee firing 8.886 % of the time', (t) => {
  const ten = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId: 2 }).response.tenDraw;
  const pct = (x: number) => Math.round(x * 1e5) / 1e3;
  t.deepEqual(
    ten.rarityRates.map((r) => [r.rarity, pct(r.probability)]),
    [
      [5, 3.124],
      [4, 19.265],
      [3, 77.611],
    ],
  );
  t.is(pct(ten.guaranteeProbability), 8.886);
});

test('multiDrawRates of a single pull, or without a guarantee, is the single table', (t) => {
  const m = master();
  const table = tableOf(m, m.gacha.get(3)!);
  const single = publish(table);
  for (const [n, min] of [
    [1, 4],
    [10, null],
  ] as const) {
    const r = multiDrawRates(table, n, min);
    t.deepEqual(r.rarities, single.rarities);
    t.deepEqual(r.characters, single.characters);
    t.is(r.guaranteeProbability, 0);
  }
});
