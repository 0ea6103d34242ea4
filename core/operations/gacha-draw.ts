// Gacha draws: the draw (ticket or gems chosen by the server; on a re-draw gacha, a result
// owned at once and re-rolled until the player moves on: core/gacha/kept.ts) and the
// first-time re-draw gacha's fix. gacha.ts lists them in gachaOps.
import type * as t from 'io-ts';
import { Flag, Int, IntEnum, PosInt, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { GachaIndexed, Master } from '../master/index.js';
import type { DrawRecord, GachaStat, PendingDraw, PlayerState } from '../state.js';
import type { Rng } from '../rng.js';
import { drawMany } from '../gacha/rates.js';
import { DRAW_PAID_SINGLE, DRAW_SINGLE, DRAW_TEN, drawsToday, openNow, statOf, today } from '../gacha/stats.js';
import { gachaOf, grantCharacters, keepHistory, putStat, statsWith } from '../gacha/ledger.js';
import { payPrice, priceOf } from '../gacha/price.js';
import { finalRecord, grantKept, takeBack } from '../gacha/kept.js';
import { fail, ok, type Result } from '../shared/result.js';
import { charactersView } from '../view.js';
import { type CharacterView } from '../views/codecs.js';
import { type GachaResult, resultView } from '../views/gacha.js';
import { countersBumped } from '../shared/counters.js';
import { withFields } from '../state/copy.js';
import { applyStep } from './tutorial.js';
import * as api from '../api/gacha-draw.js';
export { DrawType } from '../api/gacha-draw.js';

const NO_PAYMENT = { ticket: 0, gem: 0, paidGem: 0 };

interface DrawResponse {
  gachaResults: Array<t.TypeOf<typeof GachaResult>>;
  pending: boolean;
  replaceable: boolean;
  managedCharacters: Array<t.TypeOf<typeof CharacterView>>;
}

/**
 * A re-draw gacha's re-roll: takes back what the replaceable result granted (nothing, for
 * a result held before issue 33) and grants a new one of the same size, owned at once.
 * Free, outside the limits, no points and no draw counted; recorded as a re-draw.
 */
const reRoll = (
  m: Master,
  s: PlayerState,
  g: GachaIndexed,
  st: GachaStat & { pending: PendingDraw },
  req: { drawType: number; stepCode?: number },
  rng: Rng,
  now: number,
): Result<{ state: PlayerState; response: DrawResponse }, 'NOT_FOUND' | 'INVALID_PARAMETERS'> => {
  const ids = drawMany(m, g, rng, st.pending.characterIds.length);
  const back = st.pending.kept ? takeBack(s, st.pending.kept) : s;
  const granted = grantKept(m, back, ids, now, (st.pending.kept?.rolls ?? 0) + 1);
  if (granted._tag === 'Left') return granted;
  const rec: DrawRecord = {
    gachaId: g.gachaId,
    drawnAt: now,
    drawType: req.drawType,
    characterIds: ids,
    payment: NO_PAYMENT,
    granted: true,
  };
  const next = applyStep(
    m,
    putStat(withFields(granted.right.state, { gachaHistory: keepHistory(m, s.gachaHistory, rec, now) }), {
      ...st,
      pending: { characterIds: ids, drawnAt: now, kept: granted.right.kept },
    }),
    req.stepCode,
  );
  if (next._tag === 'Left') return next;
  return ok({
    state: next.right,
    response: {
      // New or not as against what the player owns without the result taken back.
      gachaResults: resultView(m, back, g, ids),
      pending: false,
      replaceable: true,
      managedCharacters: charactersView(next.right.characters, { master: m, now }, s.characters),
    },
  });
};

export const draw = implementOp(api.draw, {
  reduce: (s, req, rng, now, { master: m }) => {
    const gr = gachaOf(m, req.gachaId);
    if (gr._tag === 'Left') return gr;
    const g = gr.right;
    if (!openNow(m, g, now)) return fail('GACHA_OUT_OF_PERIOD', { gachaId: g.gachaId });
    const st = statOf(s, g.gachaId);
    if (st.closed)
      return fail('GACHA_DRAW_LIMIT', {
        gachaId: g.gachaId,
        reason: 'its result is final (fixed, or the player moved on)',
      });
    if (req.reDraw === true && !g.reDraw)
      return fail('INVALID_PARAMETERS', { field: 'reDraw', reason: `gacha ${g.gachaId} does not allow re-draws` });
    // With a replaceable result, any draw of the gacha re-rolls it: reDraw true, or the
    // clients' repeat of the reDraw false draw (never a second result beside the first).
    if (st.pending) return reRoll(m, s, g, { ...st, pending: st.pending }, req, rng, now);
    const n = req.drawType === DRAW_TEN ? m.game.gacha.tenDrawSize : 1;

    const day = today(m, now);
    const todays = drawsToday(m, st, now);
    if (g.limits.perDay !== null && todays + n > g.limits.perDay)
      return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: `at most ${g.limits.perDay} draws a day` });
    if (g.limits.total !== null && st.totalDraws + n > g.limits.total)
      return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: `at most ${g.limits.total} draws in all` });

    const price = priceOf(m, s, g, st, req.drawType);
    if (price._tag === 'Left') return price;
    const paid = payPrice(m, s, price.right.cost, now);
    if (paid._tag === 'Left') return paid;

    const ids = drawMany(m, g, rng, n);
    const results = resultView(m, s, g, ids);
    const stat: GachaStat = {
      ...st,
      totalDraws: st.totalDraws + n,
      dayIndex: day,
      drawsToday: todays + n,
      points: st.points + g.pointsPerDraw * n,
      firstTenUsed: st.firstTenUsed || req.drawType === DRAW_TEN,
      pending: null,
      closed: false,
    };
    const rec: DrawRecord = {
      gachaId: g.gachaId,
      drawnAt: now,
      drawType: req.drawType,
      characterIds: ids,
      payment: price.right.payment,
      granted: true,
    };
    // One copy of the state for the history, the stats and the draw counter.
    let next = withFields(paid.right, {
      gachaHistory: keepHistory(m, s.gachaHistory, rec, now),
      gachaStats: statsWith(paid.right, stat),
      counters: countersBumped(paid.right, 'gachaDraws', n),
    });
    if (g.reDraw) {
      // Owned at once and replaceable: what it granted is kept for a re-roll to take back.
      const granted = grantKept(m, next, ids, now, 0);
      if (granted._tag === 'Left') return granted;
      next = putStat(granted.right.state, {
        ...stat,
        pending: { characterIds: ids, drawnAt: now, kept: granted.right.kept },
      });
    } else {
      const granted = grantCharacters(m, next, ids, now);
      if (granted._tag === 'Left') return granted;
      next = granted.right;
    }
    const stepped = applyStep(m, next, req.stepCode);
    if (stepped._tag === 'Left') return stepped;
    next = stepped.right;
    return ok({
      state: next,
      response: {
        gachaResults: results,
        pending: false,
        replaceable: g.reDraw,
        managedCharacters: charactersView(next.characters, { master: m, now }, s.characters),
      },
    });
  },
});

export const fix = implementOp(api.fix, {
  reduce: (s, req, _rng, now, { master: m }) => {
    // The spec's body is free-form: without gachaId, the one gacha with a pending draw.
    const st = req.gachaId !== undefined ? statOf(s, req.gachaId) : s.gachaStats.find((x) => x.pending !== null);
    if (req.gachaId !== undefined && !m.gacha.has(req.gachaId))
      return fail('NOT_FOUND', { entity: 'gacha', id: req.gachaId });
    if (!st || !st.pending) return fail('GACHA_NOTHING_PENDING', { gachaId: req.gachaId ?? 0 });
    const g = m.gacha.get(st.gachaId) as GachaIndexed;
    const { characterIds: ids, kept } = st.pending;
    // New or not as against what the player owned before the result.
    const results = resultView(m, kept ? takeBack(s, kept) : s, g, ids);
    const closed = putStat(s, { ...st, pending: null, closed: true });
    const granted = kept ? ok(closed) : grantCharacters(m, closed, ids, now);
    if (granted._tag === 'Left') return granted;
    const rec = finalRecord(g.gachaId, ids, !kept, now);
    const next = { ...granted.right, gachaHistory: keepHistory(m, granted.right.gachaHistory, rec, now) };
    return ok({
      state: next,
      response: {
        gachaId: g.gachaId,
        gachaResults: results,
        managedCharacters: charactersView(next.characters, { master: m, now }, s.characters),
      },
    });
  },
});
