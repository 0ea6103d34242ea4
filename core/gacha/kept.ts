// A re-draw gacha's kept result (issue 33; docs/rules/foundation.md, Gacha): owned at
// once, and replaceable until the player moves on. grantKept grants a result and says
// what it granted; takeBack undoes exactly that (a re-roll, never an accumulation);
// closeMovedOn, an after-hook, ends the replaceable result at any other change.
import type { Master } from '../master/model.js';
import type { DrawRecord, GachaStat, PlayerState } from '../state.js';
import type { KeptGrant } from '../state/gacha.js';
import { itemAmount } from '../shared/player.js';
import { setItem } from '../shared/pay.js';
import { grantOrPresent, ownedCharacter } from '../shared/grant.js';
import { ok, type Result } from '../shared/result.js';
import { withFields } from '../state/copy.js';
import { keepHistory } from './ledger.js';

/** The record that makes a re-draw gacha's result final (drawType 0, the kind `fix`): granting it, for a held result. */
export const finalRecord = (gachaId: number, characterIds: number[], granted: boolean, now: number): DrawRecord => ({
  gachaId,
  drawnAt: now,
  drawType: 0,
  characterIds,
  payment: { ticket: 0, gem: 0, paidGem: 0 },
  granted,
});

/** Grants the drawn characters, one at a time the way every draw does, and records what each changed. */
export const grantKept = (
  m: Master,
  s: PlayerState,
  ids: ReadonlyArray<number>,
  now: number,
  rolls: number,
): Result<{ state: PlayerState; kept: KeptGrant }, 'NOT_FOUND'> => {
  let cur = s;
  const created: number[] = [];
  const items = new Map<number, number>();
  const awakened = new Map<number, number>();
  const presents = new Map<number, number>();
  for (const id of ids) {
    const owned = ownedCharacter(cur, id);
    const r = grantOrPresent(m, cur, { kind: 'character', objectId: id, amount: 1 }, now);
    if (r._tag === 'Left') return r;
    const o = r.right.outcome;
    created.push(...o.managedIds);
    if (o.duplicate) items.set(o.duplicate.itemId, (items.get(o.duplicate.itemId) ?? 0) + o.duplicate.amount);
    // Awakening raised on a character owned before the result (one it created goes whole).
    if (owned && !created.includes(owned.managedCharacterId) && !awakened.has(owned.managedCharacterId)) {
      const after = ownedCharacter(r.right.state, id);
      if (after && after.awakening !== owned.awakening) awakened.set(owned.managedCharacterId, owned.awakening);
    }
    if (o.managedPresentId !== null) presents.set(o.managedPresentId, (presents.get(o.managedPresentId) ?? 0) + 1);
    cur = r.right.state;
  }
  return ok({
    state: cur,
    kept: {
      managedCharacterIds: created,
      items: [...items].map(([itemId, amount]) => ({ itemId, amount })),
      awakened: [...awakened].map(([managedCharacterId, awakening]) => ({ managedCharacterId, awakening })),
      presents: [...presents].map(([managedPresentId, amount]) => ({ managedPresentId, amount })),
      rolls,
    },
  });
};

/**
 * The state without what a kept result granted. Exact, because any other change to the
 * player ends the result first (closeMovedOn): nothing can have been done with it. The
 * one thing not given back is an expired present a new overflow present displaced (it
 * could never be listed or received again).
 */
export const takeBack = (s: PlayerState, kept: KeptGrant): PlayerState => {
  const fields: Partial<PlayerState> = {};
  if (kept.managedCharacterIds.length > 0 || kept.awakened.length > 0) {
    const gone = new Set(kept.managedCharacterIds);
    const was = new Map(kept.awakened.map((a) => [a.managedCharacterId, a.awakening]));
    fields.characters = s.characters
      .filter((c) => !gone.has(c.managedCharacterId))
      .map((c) => {
        const awakening = was.get(c.managedCharacterId);
        return awakening === undefined ? c : { ...c, awakening };
      });
  }
  if (kept.items.length > 0)
    fields.items = kept.items.reduce(
      (bag, x) => setItem(bag, x.itemId, Math.max(0, itemAmount(bag, x.itemId) - x.amount)),
      s.items,
    );
  if (kept.presents.length > 0) {
    const put = new Map(kept.presents.map((p) => [p.managedPresentId, p.amount]));
    fields.presents = s.presents.flatMap((p) => {
      const n = put.get(p.managedPresentId);
      if (n === undefined) return [p];
      return p.amount > n ? [{ ...p, amount: p.amount - n }] : [];
    });
  }
  return Object.keys(fields).length === 0 ? s : withFields(s, fields);
};

/**
 * The after-hook: a kept result that this operation neither drew nor re-rolled (its
 * roll count unchanged) is final now and its gacha closed, as a fix makes it, with the
 * same record in the draw history (a fix's, granting nothing). So the player moving on
 * (the tutorial's next step, a fix, anything else that changes the player) ends the
 * re-draws. Results held before issue 33 (no `kept`) wait for their fix.
 */
export const closeMovedOn = (before: PlayerState, after: PlayerState, now: number, m: Master): PlayerState => {
  let stats: GachaStat[] | undefined;
  let history = after.gachaHistory;
  after.gachaStats.forEach((st, i) => {
    const kept = st.pending?.kept;
    if (kept === undefined) return;
    const was = before.gachaStats.find((x) => x.gachaId === st.gachaId)?.pending?.kept;
    if (was === undefined || was.rolls !== kept.rolls) return;
    (stats ??= after.gachaStats.slice())[i] = { ...st, pending: null, closed: true };
    history = keepHistory(m, history, finalRecord(st.gachaId, st.pending?.characterIds ?? [], false, now), now);
  });
  return stats === undefined ? after : withFields(after, { gachaStats: stats, gachaHistory: history });
};
