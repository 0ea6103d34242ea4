// Gacha: list, publish rates, draw (ticket or gems chosen by the server), the
// first-time re-draw gacha's fix, and gacha points exchanged for a target.
// The answers' views are in core/views/gacha.ts, a player's gacha stats in core/gacha/stats.ts.
// The draw and the fix are in gacha-draw.ts, with their helpers in core/gacha/ledger.ts and price.ts.
import * as t from 'io-ts';
import { IdList, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { GachaIndexed } from '../master/index.js';
import type { DrawRecord } from '../state.js';
import { LocalTime } from '../master/common.js';
import { parseTime } from '../time.js';
import { openNow, statOf } from '../gacha/stats.js';
import { gachaOf, putStat } from '../gacha/ledger.js';
import { fail, ok } from '../shared/result.js';
import { grantOrPresent, ownedCharacter } from '../shared/grant.js';
import { timeText } from '../view.js';
import { nullable } from '../views/codecs.js';
import {
  BoxPickup,
  BoxTarget,
  boxOf,
  drawCounts,
  type GachaStepView,
  gachaInfo,
  Guarantee,
  HistoryEntry,
  historyKinds,
  NamedRate,
  PlayerGachaView,
  RarityRate,
  TenDraw,
  type HistoryKind,
} from '../views/gacha.js';
import { draw, DrawType, fix } from './gacha-draw.js';
import * as api from '../api/gacha.js';

// The player's stats of a gacha, read by tests and scripts from here (core/gacha/stats.ts).
export { statOf };
// drawType on the wire, with the draw (gacha-draw.ts).
export { DrawType };

// ---- get_all ----
const getAll = implementOp(api.getAll, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const named = req.gachaIds ?? [];
    for (const id of named) if (!m.gacha.has(id)) return fail('NOT_FOUND', { entity: 'gacha', id });
    const list =
      named.length > 0
        ? named.map((id) => m.gacha.get(id) as GachaIndexed)
        : m.gachas
            .map((g) => m.gacha.get(g.gachaId) as GachaIndexed)
            .filter((g) => openNow(m, g, now) && !statOf(s, g.gachaId).closed);
    const counts = drawCounts(m, s, now);
    const gachaSteps: GachaStepView[] = [];
    return ok({
      state: s,
      response: { gachas: list.map((g) => gachaInfo(m, s, g, counts.get(g.gachaId), now)), gachaSteps },
    });
  },
});

// ---- box/get ----
const box = implementOp(api.box, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const gr = gachaOf(m, req.gachaId);
    if (gr._tag === 'Left') return gr;
    const g = gr.right;
    const box = boxOf(m, g);
    const st = statOf(s, g.gachaId);
    return ok({
      state: s,
      response: {
        gachaId: g.gachaId,
        name: g.name,
        points: st.points,
        pickups: box.pickups,
        targets: box.targets.map((x) => ({ ...x, owned: ownedCharacter(s, x.characterId) !== undefined })),
        rarityRates: box.rarityRates,
        characters: box.characters,
        guarantee: box.guarantee,
        tenDraw: box.tenDraw,
      },
    });
  },
});

// ---- point_to_character ----
const pointToCharacter = implementOp(api.pointToCharacter, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const gr = gachaOf(m, req.gachaId);
    if (gr._tag === 'Left') return gr;
    const target = gr.right.targets.find((x) => x.characterId === req.characterId);
    if (!target)
      return fail('INVALID_PARAMETERS', {
        field: 'characterId',
        reason: `character ${req.characterId} is not a target of gacha ${req.gachaId}`,
      });
    const st = statOf(s, req.gachaId);
    if (st.points < target.points)
      return fail('GACHA_POINT_IS_SHORT', { gachaId: req.gachaId, need: target.points, have: st.points });
    const isNew = !ownedCharacter(s, req.characterId);
    const granted = grantOrPresent(
      m,
      putStat(s, { ...st, points: st.points - target.points }),
      { kind: 'character', objectId: req.characterId, amount: 1 },
      now,
    );
    if (granted._tag === 'Left') return granted;
    return ok({
      state: granted.right.state,
      response: { gachaId: req.gachaId, characterId: req.characterId, points: st.points - target.points, isNew },
    });
  },
});
const HISTORY_PAGE_DEFAULT = 20;

const history = implementOp(api.history, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const offset = m.game.timezoneOffsetMinutes;
    const from = req.from === undefined ? -Infinity : parseTime(req.from, offset);
    const to = req.to === undefined ? Infinity : parseTime(req.to, offset);
    if (from === undefined) return fail('INVALID_PARAMETERS', { field: 'from', reason: 'not a valid time' });
    if (to === undefined) return fail('INVALID_PARAMETERS', { field: 'to', reason: 'not a valid time' });
    if (from > to) return fail('INVALID_PARAMETERS', { field: 'from', reason: 'after to' });
    const kinds = historyKinds(m, s.gachaHistory);
    const matching: number[] = [];
    for (let i = s.gachaHistory.length - 1; i >= 0; i--) {
      const r = s.gachaHistory[i] as DrawRecord;
      if ((req.gachaId === undefined || r.gachaId === req.gachaId) && r.drawnAt >= from && r.drawnAt < to)
        matching.push(i);
    }
    const page = req.page ?? 1;
    const pageSize = req.pageSize ?? HISTORY_PAGE_DEFAULT;
    const ctx = { master: m, now };
    const draws = matching.slice((page - 1) * pageSize, page * pageSize).map((i) => {
      const r = s.gachaHistory[i] as DrawRecord;
      const g = m.gacha.get(r.gachaId);
      return {
        gachaId: r.gachaId,
        name: g?.name ?? '',
        drawnAt: timeText(ctx, r.drawnAt),
        drawType: r.drawType,
        kind: kinds[i] as HistoryKind,
        paid: {
          ticket: r.payment.ticket,
          ticketItemId: r.payment.ticket > 0 ? (g?.cost.ticketItemId ?? null) : null,
          gem: r.payment.gem,
          paidGem: r.payment.paidGem,
        },
        characters: r.characterIds.map((id) => {
          const c = m.character.get(id);
          return {
            characterId: id,
            name: c?.name ?? '',
            rarity: c?.rarity ?? 0,
            pickup: g?.pickups.some((p) => p.characterId === id) ?? false,
          };
        }),
        granted: r.granted,
      };
    });
    return ok({
      state: s,
      response: { draws, total: matching.length, page, pageSize, historyDays: m.game.gacha.historyDays },
    });
  },
});

export const gachaOps = [draw, fix, getAll, box, pointToCharacter, history] as const;
