// The operator API's searches over every player's row on PostgreSQL: by name, and
// each draw history in pages (a row with deltas is read whole, as a load reads it).
import * as t from 'io-ts';
import { DrawRecord, type PlayerState } from '../../core/state.js';
import type { Query } from './postgres-options.js';
import { decodeStored } from './storage.js';

/** A player's draw history as the state holds it (drawHistories reads it alone). */
const HISTORY = t.readonlyArray(DrawRecord);

/** Players read a query by drawHistories. */
const HISTORY_PAGE = 500;

/** A player's current state from its row (the store's readRow). */
type ReadRow = (playerId: number) => Promise<PlayerState | undefined>;

/** Players named `name`, by id, at most `limit`. */
export const playersNamed = async (
  query: Query,
  s: string,
  readRow: ReadRow,
  name: string,
  limit: number,
): Promise<number[]> => {
  // A name changed since a row's base is in one of its deltas: those rows are candidates too,
  // and every row with deltas is read whole to see the name it has now.
  const r = await query<{ player_id: number; has_deltas: boolean }>(
    `SELECT p.player_id, p.base_version IS NOT NULL AS has_deltas FROM ${s}.players p
        WHERE p.state->>'name' = $1 OR (p.base_version IS NOT NULL AND EXISTS (SELECT 1 FROM ${s}.player_deltas d WHERE d.player_id = p.player_id AND d.delta->'set'->>'name' = $1))
        ORDER BY p.player_id`,
    [name],
  );
  const out: number[] = [];
  for (const row of r.rows) {
    if (out.length >= limit) break;
    if (!row.has_deltas || (await readRow(Number(row.player_id)))?.name === name) out.push(Number(row.player_id));
  }
  return out;
};

/** In pages of players by id, the history alone selected (a row with deltas read whole): memory bounded by a page, whatever the players. */
export const eachDrawHistory = async (
  query: Query,
  s: string,
  readRow: ReadRow,
  visit: (history: ReadonlyArray<DrawRecord>) => void,
): Promise<number> => {
  let after = 0;
  let players = 0;
  for (;;) {
    const r = await query<{ player_id: number; h: unknown; has_deltas: boolean }>(
      `SELECT player_id, CASE WHEN base_version IS NULL THEN state->'gachaHistory' END AS h, base_version IS NOT NULL AS has_deltas
          FROM ${s}.players WHERE player_id > $1 ORDER BY player_id LIMIT ${HISTORY_PAGE}`,
      [after],
    );
    for (const row of r.rows) {
      if (row.has_deltas) visit((await readRow(Number(row.player_id)))?.gachaHistory ?? []);
      else visit(row.h === null ? [] : decodeStored(HISTORY, row.h, `player ${row.player_id}'s draw history`));
    }
    players += r.rows.length;
    const last = r.rows[r.rows.length - 1];
    if (!last || r.rows.length < HISTORY_PAGE) return players;
    after = last.player_id;
  }
};
