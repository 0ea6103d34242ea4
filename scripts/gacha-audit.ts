// The gacha audit behind npm run audit:gacha (scripts/audit-gacha.ts): draws N
// times through the core (drawMany, the draw's own code) and gives, for every
// rarity and pickup, the rate box/get publishes, the observed rate and whether
// it lies inside the two-sided 99.9% band; the guaranteed last pull of a
// multi-draw is audited the same way against box/get's guarantee rates.
import { drawMany, drawOne, rowsFrom, tableOf } from '../core/gacha/rates.js';
import type { Master } from '../core/master/index.js';
import { run } from '../core/operation.js';
import { operationByName } from '../core/operations/table.js';
import { rngFromSeed } from '../core/rng.js';
import type { PlayerState } from '../core/state.js';

const Z999 = 3.2905; // two-sided 99.9% of the normal approximation to the binomial

interface Rate { readonly probability: number }
interface Box {
  readonly name: string;
  readonly rarityRates: ReadonlyArray<Rate & { rarity: number }>;
  readonly pickups: ReadonlyArray<Rate & { characterId: number }>;
  readonly guarantee: null | { minRarity: number; rarities: ReadonlyArray<Rate & { rarity: number }> };
}

/** What box/get serves for a gacha, read through the operation itself. */
const boxOf = (m: Master, player: PlayerState, gachaId: number): Box => {
  const r = run(operationByName('getPlayerGachaBox')!, player, { gachaId }, rngFromSeed('box'), player.createdAt, { master: m, others: [] });
  if (r._tag === 'Left') throw new Error(`box/get for gacha ${gachaId}: ${r.left.code}`);
  return r.right.response as unknown as Box;
};

export interface Line { readonly label: string; readonly published: number; readonly observed: number; readonly band: number; readonly inside: boolean }

export const line = (label: string, p: number, count: number, n: number): Line => {
  const band = Z999 * Math.sqrt((p * (1 - p)) / n);
  const observed = count / n;
  return { label, published: p, observed, band, inside: Math.abs(observed - p) <= band };
};

export const pct = (x: number, digits = 4) => `${(x * 100).toFixed(digits)}%`;

/** Audits one gacha: N single draws, and N draws of the guaranteed pull when it has a guarantee. */
export const auditGacha = (m: Master, player: PlayerState, gachaId: number, n: number, seed: string): Line[] => {
  const g = m.gacha.get(gachaId);
  if (!g) throw new Error(`no gacha ${gachaId} in the master data`);
  const box = boxOf(m, player, gachaId);
  const rng = rngFromSeed(`${seed}:${gachaId}`);
  const byRarity = new Map<number, number>();
  const byChar = new Map<number, number>();
  const rarityOf = (id: number) => m.character.get(id)?.rarity ?? 0;
  for (let i = 0; i < n; i++) {
    const id = drawMany(m, g, rng, 1)[0] as number;
    byRarity.set(rarityOf(id), (byRarity.get(rarityOf(id)) ?? 0) + 1);
    byChar.set(id, (byChar.get(id) ?? 0) + 1);
  }
  const lines = [
    ...box.rarityRates.map((r) => line(`★${r.rarity}`, r.probability, byRarity.get(r.rarity) ?? 0, n)),
    ...box.pickups.map((p) => line(`pickup ${p.characterId}`, p.probability, byChar.get(p.characterId) ?? 0, n)),
  ];
  if (box.guarantee) {
    const rows = rowsFrom(tableOf(m, g), box.guarantee.minRarity);
    const gRarity = new Map<number, number>();
    for (let i = 0; i < n; i++) {
      const r = rarityOf(drawOne(rng, rows));
      gRarity.set(r, (gRarity.get(r) ?? 0) + 1);
    }
    lines.push(...box.guarantee.rarities.map((r) => line(`guaranteed pull ★${r.rarity}`, r.probability, gRarity.get(r.rarity) ?? 0, n)));
  }
  return lines;
};

