// What the draw draws is what box/get publishes (core/gacha/rates.ts): 100,000 draws
// in-process, every rarity and pickup rate inside the 99.9% band around the published
// probability; and draws pick by stable ids, so the order of the master file's rates, pool
// and pickups changes nothing.
import test from 'ava';
import fc from 'fast-check';
import { freshPlayer, master, ok } from '../../_support/core.js';
import { rngFromSeed } from '../../../core/rng.js';
import { drawMany } from '../../../core/gacha/rates.js';
import { masterFromFiles, masterSourceOf } from '../../../adapters/master/load.js';

const N = 100_000;
const Z999 = 3.2905; // two-sided 99.9%

type RawGacha = { rates: unknown[]; pool: number[]; pickups: unknown[]; targets: unknown[] };

const shuffled = <T>(xs: ReadonlyArray<T>, keys: ReadonlyArray<number>): T[] =>
  xs
    .map((x, i) => ({ x, k: keys[i % Math.max(1, keys.length)] ?? 0, i }))
    .sort((a, b) => a.k - b.k || b.i - a.i)
    .map((e) => e.x);

for (const gachaId of [2, 3, 6]) {
  test(`gacha ${gachaId}: observed rarity and pickup rates lie in the 99.9% band of box/get over ${N} draws`, (t) => {
    const m = master();
    const box = ok(t, 'getPlayerGachaBox', freshPlayer(), { gachaId }).response;
    const rarityRates = box['rarityRates'] as Array<{ rarity: number; probability: number }>;
    const pickups = box['pickups'] as Array<{ characterId: number; probability: number }>;
    const g = m.gacha.get(gachaId)!;
    const rng = rngFromSeed(`rates-${gachaId}`);
    const byRarity = new Map<number, number>();
    const byChar = new Map<number, number>();
    for (let i = 0; i < N; i++) {
      const id = drawMany(m, g, rng, 1)[0]!;
      const r = m.character.get(id)!.rarity;
      byRarity.set(r, (byRarity.get(r) ?? 0) + 1);
      byChar.set(id, (byChar.get(id) ?? 0) + 1);
    }
    const check = (label: string, p: number, count: number) => {
      const band = Z999 * Math.sqrt((p * (1 - p)) / N);
      const observed = count / N;
      t.true(Math.abs(observed - p) <= band, `${label}: observed ${observed}, published ${p} ± ${band.toFixed(5)}`);
    };
    for (const r of rarityRates) check(`rarity ${r.rarity}`, r.probability, byRarity.get(r.rarity) ?? 0);
    for (const p of pickups) check(`pickup ${p.characterId}`, p.probability, byChar.get(p.characterId) ?? 0);
    t.is(
      [...byRarity.values()].reduce((a, b) => a + b, 0),
      N,
    );
  });
}

test("draws pick by stable ids: any reordering of a gacha's rates, pool and pickups draws the same with the same seed", (t) => {
  const m = master();
  const raw = masterSourceOf(m)!.raw;
  fc.assert(
    fc.property(
      fc.constantFrom(...m.gachas.map((g) => g.gachaId)),
      fc.array(fc.nat(1000), { minLength: 1, maxLength: 60 }),
      fc.string({ minLength: 1, maxLength: 8 }),
      (gachaId, keys, seed) => {
        const gachas = (raw['gachas'] as RawGacha[]).map((g) =>
          (g as unknown as { gachaId: number }).gachaId === gachaId
            ? {
                ...g,
                rates: shuffled(g.rates, keys),
                pool: shuffled(g.pool, [...keys].reverse()),
                pickups: shuffled(g.pickups, keys),
              }
            : g,
        );
        const permuted = masterFromFiles({ ...raw, gachas });
        const a = m.gacha.get(gachaId)!;
        const b = permuted.gacha.get(gachaId)!;
        for (const n of [1, 10]) {
          t.deepEqual(drawMany(permuted, b, rngFromSeed(seed), n), drawMany(m, a, rngFromSeed(seed), n));
        }
        const box = (mm: typeof m) =>
          ok(t, 'getPlayerGachaBox', freshPlayer({ m: mm }), { gachaId }, { m: mm }).response;
        const [x, y] = [box(m), box(permuted)];
        t.deepEqual(
          [y.rarityRates, y.tenDraw, y.characters, y.pickups],
          [x.rarityRates, x.tenDraw, x.characters, x.pickups],
        );
        return true;
      },
    ),
    { numRuns: 60, seed: 2020 },
  );
});

test('a reversed pool draws the same ten characters through the draw operation itself', (t) => {
  const m = master();
  const raw = masterSourceOf(m)!.raw;
  const gachas = (raw['gachas'] as RawGacha[]).map((g) => ({
    ...g,
    pool: [...g.pool].reverse(),
    rates: [...g.rates].reverse(),
  }));
  const reversed = masterFromFiles({ ...raw, gachas });
  const draw = (mm: typeof m) =>
    ok(
      t,
      'drawPlayerGacha',
      { ...freshPlayer({ m: mm }), gem: 10_000 },
      { gachaId: 2, drawType: 3 },
      { m: mm, seed: 'reversed' },
    ).response.gachaResults.map((x) => x.characterId);
  t.deepEqual(draw(reversed), draw(m));
});
