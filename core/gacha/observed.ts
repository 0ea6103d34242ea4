// The rates a gacha gave, counted from players' draw histories, to set beside the
// published ones (rates.ts): single pulls and whole ten-draws apart, as published.
// A fix (drawType 0) grants an earlier draw's result and is not counted again;
// re-draws are new draws from the same table and are. Histories are bounded
// (gacha.historyDays, historyMax), so these are the rates over what is kept.
import type { Master } from '../master/index.js';
import type { DrawRecord } from '../state.js';
import type { DrawTable } from './rates.js';

export interface ObservedRates {
  /** Draws counted (a ten-draw is one). */
  readonly draws: number;
  /** Characters drawn by them. */
  readonly pulls: number;
  /** Each rarity of the table: its pulls and their share of `pulls` (0 when none). */
  readonly rarities: ReadonlyArray<{ readonly rarity: number; readonly pulls: number; readonly share: number }>;
  /** Each character drawn at least once, most drawn first. */
  readonly characters: ReadonlyArray<{ readonly characterId: number; readonly pulls: number; readonly share: number }>;
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
  const share = (n: number) => (pulls === 0 ? 0 : n / pulls);
  return {
    draws: records.length,
    pulls,
    rarities: [...byRarity].sort(([a], [b]) => b - a).map(([rarity, n]) => ({ rarity, pulls: n, share: share(n) })),
    characters: [...byCharacter]
      .sort(([a, x], [b, y]) => y - x || a - b)
      .map(([characterId, n]) => ({ characterId, pulls: n, share: share(n) })),
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
