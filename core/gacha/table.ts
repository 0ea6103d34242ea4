// A gacha's draw table, built once from master data and used both to draw and to
// publish rates: what box/get shows is exactly what draw uses. Nothing here takes the
// whole master data (rates.ts draws with it), so the master data's builder and its
// type (master/model.ts) can use these without an import cycle.
import type { Character, Gacha } from '../master/base.js';
import { pickWeighted, type Rng } from '../rng.js';

/** A gacha with its period parsed to instants. */
export interface GachaIndexed extends Gacha {
  readonly startsAt: number;
  readonly endsAt: number | null;
}

export interface TableEntry {
  readonly characterId: number;
  readonly weight: number;
  readonly pickup: boolean;
}
export interface RarityRow {
  readonly rarity: number;
  readonly weight: number;
  readonly entries: ReadonlyArray<TableEntry>;
}
export type DrawTable = ReadonlyArray<RarityRow>;

const BP = 10000;

/**
 * Two stages, all integer weights: a rarity by its weight, then a character of it.
 * Within a rarity, pickup i has share_i/10000 of the rarity and the others split
 * the rest evenly: weights share_i × others and (10000 − Σshare) each.
 *
 * Rows go by rarity, highest first, and the characters of a row by id: the order of
 * the master file's rates, pool and pickups never changes what a seed draws, so two
 * versions of the numbers can be compared on the same random draws.
 */
export const drawTable = (m: { readonly character: ReadonlyMap<number, Character> }, g: GachaIndexed): DrawTable => {
  const pool = [...g.pool].sort((a, b) => a - b);
  return [...g.rates]
    .sort((a, b) => b.rarity - a.rarity)
    .map((r) => {
      const ids = pool.filter((id) => m.character.get(id)?.rarity === r.rarity);
      const share = new Map(
        g.pickups.filter((p) => ids.includes(p.characterId)).map((p) => [p.characterId, p.shareBp]),
      );
      const others = ids.filter((id) => !share.has(id)).length;
      const rest = BP - [...share.values()].reduce((a, b) => a + b, 0);
      const entries = ids
        .map((id) => {
          const s = share.get(id);
          if (s !== undefined) return { characterId: id, weight: others > 0 ? s * others : s, pickup: true };
          return { characterId: id, weight: rest, pickup: false };
        })
        .filter((e) => e.weight > 0);
      return { rarity: r.rarity, weight: r.weight, entries };
    })
    .filter((r) => r.entries.length > 0);
};

/** The rows a draw may use: all, or those at or above a guaranteed rarity. */
export const rowsFrom = (table: DrawTable, minRarity: number): DrawTable => table.filter((r) => r.rarity >= minRarity);

export const drawOne = (rng: Rng, rows: DrawTable): number =>
  pickWeighted(rng, pickWeighted(rng, rows).entries).characterId;

export interface PublishedRate {
  readonly characterId: number;
  readonly rarity: number;
  readonly pickup: boolean;
  readonly probability: number;
}

const sum = (xs: ReadonlyArray<{ weight: number }>): number => xs.reduce((a, x) => a + x.weight, 0);

/** Exact probabilities of every character and every rarity for rows of a table. */
export const publish = (
  rows: DrawTable,
): { rarities: Array<{ rarity: number; probability: number }>; characters: PublishedRate[] } => {
  const total = sum(rows);
  const rarities = rows.map((r) => ({ rarity: r.rarity, probability: r.weight / total }));
  const characters = rows.flatMap((r) => {
    const within = sum(r.entries);
    return r.entries.map((e) => ({
      characterId: e.characterId,
      rarity: r.rarity,
      pickup: e.pickup,
      probability: (r.weight / total) * (e.weight / within),
    }));
  });
  return { rarities, characters };
};

export interface MultiDrawRates {
  /** Pulls in the draw. */
  readonly size: number;
  /** Per pull, averaged over the draw's pulls: what share of the characters a draw gives are of each rarity, and each character. */
  readonly rarities: Array<{ rarity: number; probability: number }>;
  readonly characters: PublishedRate[];
  /** The chance the guarantee redraws the last pull (no pull reached the guaranteed rarity); 0 without one. */
  readonly guaranteeProbability: number;
}

/**
 * The exact effective rates of a multi-draw of `size` pulls, from the same table the
 * draw uses (drawMany): pulls 1 … size−1 follow the single rates p; the last one too,
 * unless all `size` pulls fell below the guaranteed rarity (probability q^size, q the
 * single chance below it), when it is redrawn from the guarantee's rows (rates g).
 * So the last pull gives rarity r ≥ min with p_r + q^size·g_r and r < min with
 * p_r·(1 − q^(size−1)); the per-pull figure is the mean over the pulls. Characters
 * follow their rarity's row the same way.
 */
export const multiDrawRates = (table: DrawTable, size: number, minRarity: number | null): MultiDrawRates => {
  const single = publish(table);
  if (minRarity === null || size <= 1)
    return { size, rarities: single.rarities, characters: single.characters, guaranteeProbability: 0 };
  const total = sum(table);
  const q = sum(table.filter((r) => r.rarity < minRarity)) / total;
  const fire = q ** size;
  const lost = q ** (size - 1) / size;
  const g = publish(rowsFrom(table, minRarity));
  const gRarity = new Map(g.rarities.map((r) => [r.rarity, r.probability]));
  const gChar = new Map(g.characters.map((c) => [c.characterId, c.probability]));
  const eff = (p: number, rarity: number, guaranteed: number | undefined): number =>
    rarity >= minRarity ? p + (fire * (guaranteed ?? 0)) / size : p * (1 - lost);
  return {
    size,
    rarities: single.rarities.map((r) => ({
      rarity: r.rarity,
      probability: eff(r.probability, r.rarity, gRarity.get(r.rarity)),
    })),
    characters: single.characters.map((c) => ({
      ...c,
      probability: eff(c.probability, c.rarity, gChar.get(c.characterId)),
    })),
    guaranteeProbability: fire,
  };
};
