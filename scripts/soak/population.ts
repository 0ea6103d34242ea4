// The soak's players, written straight into the store before the server starts
// (as the bench does, scripts/bench/players.ts), with the storage code of the
// checkout under test (--root), so its files or tables are as that version writes
// them: filler players (new accounts, the friend requests' targets) and active
// players seasoned through the reducers, with every gem, a full stack of the
// standard gacha's tickets, candies to sell, presents in the box and a full draw history.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import type { Storage } from '../../adapters/storage/storage.js';
import type { Master } from '../../core/master/index.js';
import type { DrawRecord } from '../../core/state.js';
import { setItem } from '../../core/shared/pay.js';
import { activePlayer, fillStore, GACHA_ID, type StoredPlayer } from '../bench/players.js';

export type Where =
  | { readonly store: 'file'; readonly dir: string }
  | { readonly store: 'pg'; readonly url: string; readonly schema: string };

interface FileModule {
  readonly FileStorage: { open(o: { dir: string; cacheSize: number }): Promise<Storage> };
}
interface PgModule {
  readonly PostgresStorage: {
    open(o: { connectionString: string; schema: string; poolSize: number }): Promise<Storage>;
  };
}

/** The storage of the checkout at `root`, opened on `where` (a dynamic import: it may be another version's code). */
const openStore = async (root: string, where: Where): Promise<Storage> => {
  if (where.store === 'file') {
    const mod = (await import(pathToFileURL(join(root, 'adapters/storage/file.ts')).href)) as FileModule;
    return mod.FileStorage.open({ dir: where.dir, cacheSize: 100 });
  }
  const mod = (await import(pathToFileURL(join(root, 'adapters/storage/postgres.ts')).href)) as PgModule;
  return mod.PostgresStorage.open({ connectionString: where.url, schema: where.schema, poolSize: 4 });
};

/**
 * A seasoned player's draw history: full (gacha.historyMax records, the draws it made
 * repeated, a second apart, ending before `now`). A player state stops growing there;
 * seeded with a short one, the soak's players (each drawing ~80 times a minute) would
 * grow for its first half hour, and their growth would read as the server's.
 */
const fullHistory = (m: Master, made: ReadonlyArray<DrawRecord>, now: number): DrawRecord[] => {
  const n = m.game.gacha.historyMax;
  if (made.length === 0) return [];
  return Array.from({ length: n }, (_, i) => ({
    ...(made[i % made.length] as DrawRecord),
    drawnAt: now - (n - i) * 1000,
  }));
};

export interface Population {
  /** Filler players' ids: 1..filler. */
  readonly fillers: number[];
  readonly actives: StoredPlayer[];
  /** Single draws each active player can pay for (tickets, then gems). */
  readonly drawBudget: number;
}

/** Writes `filler` filler players and `players` active ones (ids after the fillers) and closes the store. */
export const seed = async (
  m: Master,
  root: string,
  where: Where,
  o: { players: number; filler: number; presents: number; history: 'full' | 'short' },
  now: number,
): Promise<Population> => {
  const gacha = m.gacha.get(GACHA_ID);
  if (!gacha) throw new Error(`the master data has no gacha ${GACHA_ID}`);
  const ticket = gacha.cost.ticketItemId;
  const tickets = ticket === null ? 0 : (m.item.get(ticket)?.max ?? 0);
  const extra = Array.from({ length: o.players }, (_, i) => {
    const a = activePlayer(m, o.filler + 1 + i, now, o.presents);
    const state =
      o.history === 'full' ? { ...a.state, gachaHistory: fullHistory(m, a.state.gachaHistory, now) } : a.state;
    return { state: ticket === null ? state : { ...state, items: setItem(state.items, ticket, tickets) } };
  });
  const gems = extra[0]?.state.gem ?? 0;
  // Every filler is ordinary (no id is a multiple of filler + 1); the active ones come as `extra`.
  const filled = await fillStore(await openStore(root, where), m, o.filler, o.filler + 1, now, extra);
  return {
    fillers: Array.from({ length: o.filler }, (_, i) => i + 1),
    actives: filled.extra,
    drawBudget: tickets + Math.floor(gems / Math.max(1, gacha.cost.singleGem)),
  };
};
