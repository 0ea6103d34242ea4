// The draw tables of a gacha, built once from master data and used both to draw
// and to publish rates: what box/get shows is exactly what draw uses.
import type { Master, GachaIndexed } from '../master/index.js';
import { pickWeighted, type Rng } from '../rng.js';

export interface TableEntry { readonly characterId: number; readonly weight: number; readonly pickup: boolean }
export interface RarityRow { readonly rarity: number; readonly weight: number; readonly entries: ReadonlyArray<TableEntry> }
export type DrawTable = ReadonlyArray<RarityRow>;

const BP = 10000;

/**
 * Two stages, all integer weights: a rarity by its weight, then a character of it.
 * Within a rarity, pickup i has share_i/10000 of the rarity and the others split
 * the rest evenly: weights share_i × others and (10000 − Σshare) each.
 */
export const drawTable = (m: Master, g: GachaIndexed): DrawTable =>
  g.rates.map((r) => {
    const ids = g.pool.filter((id) => m.character.get(id)?.rarity === r.rarity);
    const share = new Map(g.pickups.filter((p) => ids.includes(p.characterId)).map((p) => [p.characterId, p.shareBp]));
    const others = ids.filter((id) => !share.has(id)).length;
    const rest = BP - [...share.values()].reduce((a, b) => a + b, 0);
    const entries = ids.map((id) => {
      const s = share.get(id);
      if (s !== undefined) return { characterId: id, weight: others > 0 ? s * others : s, pickup: true };
      return { characterId: id, weight: rest, pickup: false };
    }).filter((e) => e.weight > 0);
    return { rarity: r.rarity, weight: r.weight, entries };
  }).filter((r) => r.entries.length > 0);

/** The rows a draw may use: all, or those at or above a guaranteed rarity. */
export const rowsFrom = (table: DrawTable, minRarity: number): DrawTable => table.filter((r) => r.rarity >= minRarity);

export const drawOne = (rng: Rng, rows: DrawTable): number => pickWeighted(rng, pickWeighted(rng, rows).entries).characterId;

export interface PublishedRate { readonly characterId: number; readonly rarity: number; readonly pickup: boolean; readonly probability: number }

const sum = (xs: ReadonlyArray<{ weight: number }>): number => xs.reduce((a, x) => a + x.weight, 0);

/** Exact probabilities of every character and every rarity for rows of a table. */
export const publish = (rows: DrawTable): { rarities: Array<{ rarity: number; probability: number }>; characters: PublishedRate[] } => {
  const total = sum(rows);
  const rarities = rows.map((r) => ({ rarity: r.rarity, probability: r.weight / total }));
  const characters = rows.flatMap((r) => {
    const within = sum(r.entries);
    return r.entries.map((e) => ({ characterId: e.characterId, rarity: r.rarity, pickup: e.pickup, probability: (r.weight / total) * (e.weight / within) }));
  });
  return { rarities, characters };
};

/** Memoised per master data and gacha: tables are built once. */
const cache = new WeakMap<Master, Map<number, DrawTable>>();
export const tableOf = (m: Master, g: GachaIndexed): DrawTable => {
  let perMaster = cache.get(m);
  if (!perMaster) { perMaster = new Map(); cache.set(m, perMaster); }
  let table = perMaster.get(g.gachaId);
  if (!table) { table = drawTable(m, g); perMaster.set(g.gachaId, table); }
  return table;
};

/**
 * Draws n characters. In a multi-draw with a guarantee, if none reached the
 * guaranteed rarity the last pull is redrawn from the rows at or above it.
 */
export const drawMany = (m: Master, g: GachaIndexed, rng: Rng, n: number): number[] => {
  const table = tableOf(m, g);
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(drawOne(rng, table));
  const min = g.guaranteeMinRarity;
  if (n > 1 && min !== null && !ids.some((id) => (m.character.get(id)?.rarity ?? 0) >= min)) {
    ids[n - 1] = drawOne(rng, rowsFrom(table, min));
  }
  return ids;
};

/** Whether a gacha is open at an instant: inside its period and on an allowed weekday. */
export const isOpen = (g: GachaIndexed, now: number, weekday: number): boolean =>
  now >= g.startsAt && (g.endsAt === null || now < g.endsAt) && (g.weekdays === null || g.weekdays.includes(weekday));
