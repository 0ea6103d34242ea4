// Fair by disclosure (issue 20): box/get's ten-draw rates are exact (checked by
// enumerating every outcome of the rarity stage), draws do not depend on the order
// of the master file's pools, and master data keeping under 90 days of history is
// refused at load.
import test from 'ava';
import fc from 'fast-check';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FIXTURES, loadMaster, masterFromFiles, masterSourceOf, MasterDataError } from '../../adapters/master/load.js';
import { drawMany, multiDrawRates, publish, rowsFrom, tableOf, type DrawTable } from '../../core/gacha/rates.js';
import { rngFromSeed } from '../../core/rng.js';
import { freshPlayer, master, ok } from '../_support/core.js';

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
    t.true(Math.abs(ten.guaranteeProbability - exact.fire) < 1e-12, `guarantee ${ten.guaranteeProbability} vs ${exact.fire}`);
    for (const r of ten.rarityRates) t.true(Math.abs(r.probability - (exact.share.get(r.rarity) ?? NaN)) < 1e-12, `★${r.rarity}`);
    t.true(Math.abs(ten.rarityRates.reduce((a, r) => a + r.probability, 0) - 1) < 1e-12, 'the rarities sum to 1');
    // A pickup keeps its share of its rarity, in the single table and in the guarantee's.
    for (const p of ten.pickups) {
      const single = box.pickups.find((x) => x.characterId === p.characterId)!;
      const rarity = (rates: ReadonlyArray<{ rarity: number; probability: number }>) => rates.find((x) => x.rarity === p.rarity)!.probability;
      t.true(Math.abs(p.probability / rarity(ten.rarityRates) - single.probability / rarity(box.rarityRates)) < 1e-12, `pickup ${p.characterId}`);
    }
    if (g.guaranteeMinRarity === null) {
      t.is(ten.guaranteeProbability, 0);
      t.deepEqual(ten.rarityRates, box.rarityRates, 'no guarantee: a ten-draw is ten single draws');
    } else {
      const below = box.rarityRates.filter((r) => r.rarity < g.guaranteeMinRarity!).reduce((a, r) => a + r.probability, 0);
      t.true(Math.abs(ten.guaranteeProbability - below ** ten.draws) < 1e-15);
      for (const r of ten.rarityRates) {
        const single = box.rarityRates.find((x) => x.rarity === r.rarity)!.probability;
        t.true(r.rarity >= g.guaranteeMinRarity ? r.probability > single : r.probability < single, `★${r.rarity} moves the right way`);
      }
    }
  });
}

test('the standard gacha publishes ★5 3.124 % and ★4 19.265 % per pull of a ten-draw, the guarantee firing 8.886 % of the time', (t) => {
  const ten = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId: 2 }).response.tenDraw;
  const pct = (x: number) => Math.round(x * 1e5) / 1e3;
  t.deepEqual(ten.rarityRates.map((r) => [r.rarity, pct(r.probability)]), [[5, 3.124], [4, 19.265], [3, 77.611]]);
  t.is(pct(ten.guaranteeProbability), 8.886);
});

test('multiDrawRates of a single pull, or without a guarantee, is the single table', (t) => {
  const m = master();
  const table = tableOf(m, m.gacha.get(3)!);
  const single = publish(table);
  for (const [n, min] of [[1, 4], [10, null]] as const) {
    const r = multiDrawRates(table, n, min);
    t.deepEqual(r.rarities, single.rarities);
    t.deepEqual(r.characters, single.characters);
    t.is(r.guaranteeProbability, 0);
  }
});

// ---- stable ids ----
type RawGacha = { rates: unknown[]; pool: number[]; pickups: unknown[]; targets: unknown[] };

const shuffled = <T>(xs: ReadonlyArray<T>, keys: ReadonlyArray<number>): T[] =>
  xs.map((x, i) => ({ x, k: keys[i % Math.max(1, keys.length)] ?? 0, i })).sort((a, b) => a.k - b.k || b.i - a.i).map((e) => e.x);

test('draws pick by stable ids: any reordering of a gacha\'s rates, pool and pickups draws the same with the same seed', (t) => {
  const m = master();
  const raw = masterSourceOf(m)!.raw;
  fc.assert(fc.property(
    fc.constantFrom(...m.gachas.map((g) => g.gachaId)),
    fc.array(fc.nat(1000), { minLength: 1, maxLength: 60 }),
    fc.string({ minLength: 1, maxLength: 8 }),
    (gachaId, keys, seed) => {
      const gachas = (raw['gachas'] as RawGacha[]).map((g) => (g as unknown as { gachaId: number }).gachaId === gachaId
        ? { ...g, rates: shuffled(g.rates, keys), pool: shuffled(g.pool, [...keys].reverse()), pickups: shuffled(g.pickups, keys) }
        : g);
      const permuted = masterFromFiles({ ...raw, gachas });
      const a = m.gacha.get(gachaId)!;
      const b = permuted.gacha.get(gachaId)!;
      for (const n of [1, 10]) {
        t.deepEqual(drawMany(permuted, b, rngFromSeed(seed), n), drawMany(m, a, rngFromSeed(seed), n));
      }
      const box = (mm: typeof m) => ok(t, 'getPlayerGachaBox', freshPlayer({ m: mm }), { gachaId }, { m: mm }).response;
      const [x, y] = [box(m), box(permuted)];
      t.deepEqual([y.rarityRates, y.tenDraw, y.characters, y.pickups], [x.rarityRates, x.tenDraw, x.characters, x.pickups]);
      return true;
    },
  ), { numRuns: 60, seed: 2020 });
});

test('a reversed pool draws the same ten characters through the draw operation itself', (t) => {
  const m = master();
  const raw = masterSourceOf(m)!.raw;
  const gachas = (raw['gachas'] as RawGacha[]).map((g) => ({ ...g, pool: [...g.pool].reverse(), rates: [...g.rates].reverse() }));
  const reversed = masterFromFiles({ ...raw, gachas });
  const draw = (mm: typeof m) => ok(t, 'drawPlayerGacha', { ...freshPlayer({ m: mm }), gem: 10_000 }, { gachaId: 2, drawType: 3 }, { m: mm, seed: 'reversed' })
    .response.gachaResults.map((x) => x.characterId);
  t.deepEqual(draw(reversed), draw(m));
});

// ---- history kept ----
test('master data keeping less than 90 days of draw history is refused at load, naming the field', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-history-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  cpSync(DEFAULT_FIXTURES, dir, { recursive: true });
  const path = join(dir, 'game.json');
  const game = JSON.parse(readFileSync(path, 'utf8')) as { gacha: { historyDays: number } };
  for (const days of [7, 89]) {
    game.gacha.historyDays = days;
    writeFileSync(path, JSON.stringify(game));
    const e = t.throws(() => loadMaster(dir), { instanceOf: MasterDataError });
    t.regex(e?.message ?? '', /game\.json: gacha\.historyDays: must be at least 90/);
  }
  game.gacha.historyDays = 90;
  writeFileSync(path, JSON.stringify(game));
  t.is(loadMaster(dir).game.gacha.historyDays, 90);
});
