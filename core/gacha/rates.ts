// Drawing from a gacha's table (table.ts) with the master data: the table built with it
// (gachaTables), the guarantee, and whether a gacha is open.
import type { Master } from '../master/model.js';
import type { Rng } from '../rng.js';
import { drawOne, drawTable, rowsFrom, type DrawTable, type GachaIndexed } from './table.js';

export * from './table.js';

/** A gacha's table, built with the master data (gachaTables); one of a gacha changed since is built afresh. */
export const tableOf = (m: Master, g: GachaIndexed): DrawTable => {
  const built = m.gachaTables.get(g.gachaId);
  return built !== undefined && built.gacha === g ? built.table : drawTable(m, g);
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
