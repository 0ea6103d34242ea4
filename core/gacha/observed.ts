// The rates a gacha gave, counted from players' draw histories, to set beside the
// published ones (rates.ts): single pulls and whole ten-draws apart, as published.
// A fix (drawType 0) grants an earlier draw's result and is not counted again;
// re-draws are new draws from the same table and are. Histories are bounded
// (gacha.historyDays, historyMax), so these are the rates over what is kept.
// Each share comes with its 95% Wilson score interval: a share of a few dozen pulls
// is far from the rate, and the interval says how far it can honestly be.
import type { Master } from '../master/index.js';
import type { DrawRecord } from '../state.js';
import type { DrawTable } from './rates.js';

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The Wilson score interval of a share of `k` successes in `n` trials (95% by
 * default). Unlike share ± z·√(share(1 − share)/n) it stays inside [0, 1] and is
 * not empty at 0 or n successes; with no trial it is all of [0, 1].
 */
export const wilsonInterval = (k: number, n: number, z = Z95): { readonly low: number; readonly high: number } => {
  if (n <= 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2n = (z * z) / n;
  const centre = (p + z2n / 2) / (1 + z2n);
  const half = (z / (1 + z2n)) * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n));
  // At 0 or n successes the bound is exactly 0 or 1; rounding must not move it.
  return { low: k <= 0 ? 0 : Math.max(0, centre - half), high: k >= n ? 1 : Math.min(1, centre + half) };
};

/** A count of pulls, its share of the pulls counted and the share's 95% Wilson interval. */
export interface ObservedShare {
  readonly pulls: number;
  readonly share: number;
  readonly low: number;
  readonly high: number;
}

export interface ObservedRates {
  /** Draws counted (a ten-draw is one). */
  readonly draws: number;
  /** Characters drawn by them. */
  readonly pulls: number;
  /** Each rarity of the table: its pulls and their share of `pulls` (0 when none, its interval [0, 1]). */
  readonly rarities: ReadonlyArray<{ readonly rarity: number } & ObservedShare>;
  /** Each character drawn at least once, most drawn first. */
  readonly characters: ReadonlyArray<{ readonly characterId: number } & ObservedShare>;
}

const DRAW_TEN = 3;
const FIX = 0;

const rates = (m: Pick<Master, 'character'>, table: DrawTable, records: ReadonlyArray<DrawRecord>): ObservedRates => {
  const byCharacter = new Map<number, number>();
  const byRarity = new Map<number, number>(table.map((r) => [r.rarity, 0]));
  let pulls = 0;
  for (const r of records) {
    for (const id of r.characterIds) {
      pulls++;
      byCharacter.set(id, (byCharacter.get(id) ?? 0) + 1);
      const rarity = m.character.get(id)?.rarity ?? 0;
      byRarity.set(rarity, (byRarity.get(rarity) ?? 0) + 1);
    }
  }
  const share = (n: number): ObservedShare => ({
    pulls: n,
    share: pulls === 0 ? 0 : n / pulls,
    ...wilsonInterval(n, pulls),
  });
  return {
    draws: records.length,
    pulls,
    rarities: [...byRarity].sort(([a], [b]) => b - a).map(([rarity, n]) => ({ rarity, ...share(n) })),
    characters: [...byCharacter]
      .sort(([a, x], [b, y]) => y - x || a - b)
      .map(([characterId, n]) => ({ characterId, ...share(n) })),
  };
};

/** A gacha's observed rates over the given histories: single pulls (drawType 1, 2) and ten-draws (3) apart. */
export const observedRates = (
  m: Pick<Master, 'character'>,
  gachaId: number,
  table: DrawTable,
  histories: Iterable<ReadonlyArray<DrawRecord>>,
): { readonly single: ObservedRates; readonly tenDraw: ObservedRates } => {
  const single: DrawRecord[] = [];
  const ten: DrawRecord[] = [];
  for (const h of histories) {
    for (const r of h) {
      if (r.gachaId !== gachaId || r.drawType === FIX) continue;
      (r.drawType === DRAW_TEN ? ten : single).push(r);
    }
  }
  return { single: rates(m, table, single), tenDraw: rates(m, table, ten) };
};
