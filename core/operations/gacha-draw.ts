// Gacha draws: the draw (ticket or gems chosen by the server; on a re-draw gacha, a result
// held until fixed) and the first-time re-draw gacha's fix. gacha.ts lists them in gachaOps.
import * as t from 'io-ts';
import { Flag, Int, IntEnum, PosInt, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { GachaIndexed } from '../master/index.js';
import type { DrawRecord, GachaStat } from '../state.js';
import { drawMany } from '../gacha/rates.js';
import { DRAW_PAID_SINGLE, DRAW_SINGLE, DRAW_TEN, drawsToday, openNow, statOf, today } from '../gacha/stats.js';
import { gachaOf, grantCharacters, keepHistory, putStat, statsWith } from '../gacha/ledger.js';
import { payPrice, priceOf } from '../gacha/price.js';
import { fail, ok } from '../shared/result.js';
import { charactersView } from '../view.js';
import { CharacterView } from '../views/codecs.js';
import { GachaResult, resultView } from '../views/gacha.js';
import { countersBumped } from '../shared/counters.js';
import { withFields } from '../state/copy.js';
import { applyStep } from './tutorial.js';

/** drawType on the wire (the original's values). */
export const DrawType = IntEnum('DrawType', {
  [DRAW_SINGLE]: "single draw: the gacha's ticket when held, else gems (free first)",
  [DRAW_PAID_SINGLE]: 'single draw with paid gems only',
  [DRAW_TEN]: 'ten-draw with gems (the first ten-draw may be discounted)',
});

const num = t.number;
const bool = t.boolean;

// ---- draw ----
const DrawRequest = objWithOptional(
  { gachaId: PosInt, drawType: DrawType },
  { stepCode: Int, reDraw: Flag },
  'DrawPlayerGachaRequest',
);

export const draw = defineOp({
  name: 'drawPlayerGacha',
  method: 'POST',
  path: '/player/gacha/draw',
  group: 'gacha',
  summary:
    'Draws a gacha once or ten times; the server pays with the ticket when held, else gems. On a re-draw gacha, reDraw false (or absent) keeps the result at once and closes the gacha; reDraw true opens the re-draw cycle (held until fix) or re-draws the held result. stepCode records the tutorial step (4: the tutorial gacha).',
  request: DrawRequest,
  response: t.type(
    {
      gachaResults: t.array(GachaResult),
      /** True when the result is held as pending (a re-draw gacha drawn with reDraw true): nothing granted until fix. */
      pending: bool,
      managedCharacters: t.array(CharacterView),
    },
    'DrawPlayerGachaResponse',
  ),
  errors: [
    'NOT_FOUND',
    'GACHA_OUT_OF_PERIOD',
    'GACHA_DRAW_LIMIT',
    'INVALID_PARAMETERS',
    'GEM_IS_SHORT',
    'UNLIMITED_GEM_IS_SHORT',
  ],
  reduce: (s, req, rng, now, { master: m }) => {
    const gr = gachaOf(m, req.gachaId);
    if (gr._tag === 'Left') return gr;
    const g = gr.right;
    if (!openNow(m, g, now)) return fail('GACHA_OUT_OF_PERIOD', { gachaId: g.gachaId });
    const st = statOf(s, g.gachaId);
    if (st.closed) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: 'its result was already fixed' });
    const n = req.drawType === DRAW_TEN ? m.game.gacha.tenDrawSize : 1;
    const ctx = { master: m, now };

    if (req.reDraw === true) {
      if (!g.reDraw)
        return fail('INVALID_PARAMETERS', { field: 'reDraw', reason: `gacha ${g.gachaId} does not allow re-draws` });
      // With nothing pending, reDraw opens the cycle: the paid draw below, held. With a result
      // pending, a re-draw replaces it: free, unlimited, nothing granted.
      if (st.pending) {
        const ids = drawMany(m, g, rng, st.pending.characterIds.length);
        const rec: DrawRecord = {
          gachaId: g.gachaId,
          drawnAt: now,
          drawType: req.drawType,
          characterIds: ids,
          payment: { ticket: 0, gem: 0, paidGem: 0 },
          granted: false,
        };
        const next = applyStep(
          m,
          putStat(
            { ...s, gachaHistory: keepHistory(m, s.gachaHistory, rec, now) },
            { ...st, pending: { characterIds: ids, drawnAt: now } },
          ),
          req.stepCode,
        );
        if (next._tag === 'Left') return next;
        return ok({
          state: next.right,
          response: {
            gachaResults: resultView(m, s, g, ids),
            pending: true,
            managedCharacters: charactersView(next.right.characters, ctx, s.characters),
          },
        });
      }
    }
    if (g.reDraw && st.pending)
      return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: 'a draw is pending: re-draw or fix it' });
    // Held only when a re-draw gacha is drawn with reDraw: true; any other draw is kept at once
    // (on a re-draw gacha that also closes it, as fix would: the original's clients never call fix).
    const hold = g.reDraw && req.reDraw === true;

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
      pending: hold ? { characterIds: ids, drawnAt: now } : null,
      closed: g.reDraw && !hold,
    };
    const rec: DrawRecord = {
      gachaId: g.gachaId,
      drawnAt: now,
      drawType: req.drawType,
      characterIds: ids,
      payment: price.right.payment,
      granted: !hold,
    };
    // One copy of the state for the history, the stats and the draw counter.
    let next = withFields(paid.right, {
      gachaHistory: keepHistory(m, s.gachaHistory, rec, now),
      gachaStats: statsWith(paid.right, stat),
      counters: countersBumped(paid.right, 'gachaDraws', n),
    });
    if (!hold) {
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
        pending: hold,
        managedCharacters: charactersView(next.characters, ctx, s.characters),
      },
    });
  },
});

// ---- fix ----
const FixRequest = objWithOptional({}, { gachaId: PosInt }, 'FixPlayerGachaRequest');

export const fix = defineOp({
  name: 'fixPlayerGacha',
  method: 'POST',
  path: '/player/gacha/fix',
  group: 'gacha',
  summary: 'Fixes the pending result of a re-draw gacha: grants it and closes the gacha for the player.',
  request: FixRequest,
  response: t.type(
    { gachaId: num, gachaResults: t.array(GachaResult), managedCharacters: t.array(CharacterView) },
    'FixPlayerGachaResponse',
  ),
  errors: ['NOT_FOUND', 'GACHA_NOTHING_PENDING'],
  reduce: (s, req, _rng, now, { master: m }) => {
    // The spec's body is free-form: without gachaId, the one gacha with a pending draw.
    const st = req.gachaId !== undefined ? statOf(s, req.gachaId) : s.gachaStats.find((x) => x.pending !== null);
    if (req.gachaId !== undefined && !m.gacha.has(req.gachaId))
      return fail('NOT_FOUND', { entity: 'gacha', id: req.gachaId });
    if (!st || !st.pending) return fail('GACHA_NOTHING_PENDING', { gachaId: req.gachaId ?? 0 });
    const g = m.gacha.get(st.gachaId) as GachaIndexed;
    const ids = st.pending.characterIds;
    const results = resultView(m, s, g, ids);
    const granted = grantCharacters(m, putStat(s, { ...st, pending: null, closed: true }), ids, now);
    if (granted._tag === 'Left') return granted;
    const rec: DrawRecord = {
      gachaId: g.gachaId,
      drawnAt: now,
      drawType: 0,
      characterIds: ids,
      payment: { ticket: 0, gem: 0, paidGem: 0 },
      granted: true,
    };
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
