// What the gacha operations write into the player's state: a gacha's stats replaced, a
// draw appended to the bounded history, drawn characters granted; and a gacha looked up.
import type { Master } from '../master/model.js';
import type { DrawRecord, GachaStat, PlayerState } from '../state.js';
import { DAY } from '../time.js';
import { fail, ok, type Result } from '../shared/result.js';
import { grantOrPresent } from '../shared/grant.js';
import type { GachaIndexed } from './table.js';

export const statsWith = (s: PlayerState, st: GachaStat): GachaStat[] => {
  const i = s.gachaStats.findIndex((x) => x.gachaId === st.gachaId);
  return i < 0
    ? [...s.gachaStats, st].sort((a, b) => a.gachaId - b.gachaId)
    : s.gachaStats.map((x, j) => (j === i ? st : x));
};
export const putStat = (s: PlayerState, st: GachaStat): PlayerState => ({ ...s, gachaStats: statsWith(s, st) });

export const gachaOf = (m: Master, gachaId: number): Result<GachaIndexed, 'NOT_FOUND'> => {
  const g = m.gacha.get(gachaId);
  return g ? ok(g) : fail('NOT_FOUND', { entity: 'gacha', id: gachaId });
};

/**
 * Appends a draw; entries older than the kept days are dropped (only when there are
 * any: the list is in time order), and beyond gacha.historyMax records the oldest
 * (issue 18: the state is bounded; a record is what was drawn, never what is owned).
 */
export const keepHistory = (
  m: Master,
  history: ReadonlyArray<DrawRecord>,
  rec: DrawRecord,
  now: number,
): DrawRecord[] => {
  const horizon = now - m.game.gacha.historyDays * DAY;
  const first = history[0];
  const kept =
    first === undefined || first.drawnAt >= horizon
      ? [...history, rec]
      : [...history.filter((h) => h.drawnAt >= horizon), rec];
  const over = kept.length - m.game.gacha.historyMax;
  // Stryker disable next-line EqualityOperator: equivalent (`over >= 0`: at over 0, kept.slice(0) is the same records in the same order)
  return over > 0 ? kept.slice(over) : kept;
};

export const grantCharacters = (
  m: Master,
  s: PlayerState,
  ids: ReadonlyArray<number>,
  now: number,
): Result<PlayerState, 'NOT_FOUND'> => {
  let cur = s;
  for (const id of ids) {
    const r = grantOrPresent(m, cur, { kind: 'character', objectId: id, amount: 1 }, now);
    if (r._tag === 'Left') return r;
    cur = r.right.state;
  }
  return ok(cur);
};
