// What box/get publishes is what draw draws: 100,000 draws in-process, every
// rarity and pickup rate inside the 99.9% band around the published probability.
import test from 'ava';
import { freshPlayer, master, ok } from '../_support/core.js';
import { rngFromSeed } from '../../core/rng.js';
import { drawMany } from '../../core/gacha/rates.js';

const N = 100_000;
const Z999 = 3.2905; // two-sided 99.9%

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
    t.is([...byRarity.values()].reduce((a, b) => a + b, 0), N);
  });
}
