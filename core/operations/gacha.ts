// Gacha: list, publish rates, draw (ticket or gems chosen by the server), the
// first-time re-draw gacha's fix, and gacha points exchanged for a target.
// The answers' views are in core/views/gacha.ts, a player's gacha stats in core/gacha/stats.ts.
import * as t from 'io-ts';
import { Flag, IdList, Int, IntEnum, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { GachaIndexed, Master } from '../master/index.js';
import type { DrawRecord, GachaStat, Payment, PlayerState } from '../state.js';
import { LocalTime, type Cost } from '../master/common.js';
import { DAY, parseTime } from '../time.js';
import { drawMany } from '../gacha/rates.js';
import { DRAW_PAID_SINGLE, DRAW_SINGLE, DRAW_TEN, drawsToday, openNow, statOf, today } from '../gacha/stats.js';
import { fail, ok, type Result } from '../shared/result.js';
import { itemCount } from '../shared/player.js';
import { pay, splitGems } from '../shared/pay.js';
import { grantOrPresent, ownedCharacter } from '../shared/grant.js';
import { charactersView, timeText } from '../view.js';
import { CharacterView, nullable } from '../views/codecs.js';
import {
  BoxPickup, BoxTarget, boxOf, drawCounts, GachaResult, GachaStepView, gachaInfo, Guarantee, HistoryEntry, historyKinds,
  NamedRate, PlayerGachaView, RarityRate, resultView, TenDraw, type HistoryKind,
} from '../views/gacha.js';
import { countersBumped } from '../shared/counters.js';
import { withFields } from '../state/copy.js';
import { applyStep } from './tutorial.js';

// The player's stats of a gacha, read by tests and scripts from here (core/gacha/stats.ts).
export { statOf };

/** drawType on the wire (the original's values). */
export const DrawType = IntEnum('DrawType', {
  [DRAW_SINGLE]: 'single draw: the gacha\'s ticket when held, else gems (free first)',
  [DRAW_PAID_SINGLE]: 'single draw with paid gems only',
  [DRAW_TEN]: 'ten-draw with gems (the first ten-draw may be discounted)',
});

const num = t.number;
const str = t.string;
const bool = t.boolean;

const statsWith = (s: PlayerState, st: GachaStat): GachaStat[] => {
  const i = s.gachaStats.findIndex((x) => x.gachaId === st.gachaId);
  return i < 0 ? [...s.gachaStats, st].sort((a, b) => a.gachaId - b.gachaId) : s.gachaStats.map((x, j) => (j === i ? st : x));
};
const putStat = (s: PlayerState, st: GachaStat): PlayerState => ({ ...s, gachaStats: statsWith(s, st) });

const gachaOf = (m: Master, gachaId: number): Result<GachaIndexed, 'NOT_FOUND'> => {
  const g = m.gacha.get(gachaId);
  return g ? ok(g) : fail('NOT_FOUND', { entity: 'gacha', id: gachaId });
};

/** What a draw costs and how it is paid: the server chooses ticket or gems. */
const priceOf = (m: Master, s: PlayerState, g: GachaIndexed, st: GachaStat, drawType: number): Result<{ cost: Cost; payment: Payment }, 'INVALID_PARAMETERS'> => {
  const c = g.cost;
  if (drawType === DRAW_SINGLE) {
    if (c.ticketItemId !== null && itemCount(s, c.ticketItemId) >= c.ticketAmount) {
      return ok({ cost: { items: [{ itemId: c.ticketItemId, amount: c.ticketAmount }] }, payment: { ticket: c.ticketAmount, gem: 0, paidGem: 0 } });
    }
    return ok({ cost: { gem: c.singleGem }, payment: { ticket: 0, ...splitGems(s, c.singleGem) } });
  }
  if (drawType === DRAW_PAID_SINGLE) {
    if (c.paidSingleGem === null) return fail('INVALID_PARAMETERS', { field: 'drawType', reason: `gacha ${g.gachaId} has no paid-gem single draw` });
    return ok({ cost: { paidGem: c.paidSingleGem }, payment: { ticket: 0, gem: 0, paidGem: c.paidSingleGem } });
  }
  const price = !st.firstTenUsed && c.firstTenGem !== null ? c.firstTenGem : c.tenGem;
  return ok({ cost: { gem: price }, payment: { ticket: 0, ...splitGems(s, price) } });
};

/** Pays a draw's price: a ticket is chosen only when held, so only free or paid gems can be short. */
const payPrice = (m: Master, s: PlayerState, cost: Cost, now: number): Result<PlayerState, 'GEM_IS_SHORT' | 'UNLIMITED_GEM_IS_SHORT'> =>
  pay(m, s, cost, now) as Result<PlayerState, 'GEM_IS_SHORT' | 'UNLIMITED_GEM_IS_SHORT'>;

/**
 * Appends a draw; entries older than the kept days are dropped (only when there are
 * any: the list is in time order), and beyond gacha.historyMax records the oldest
 * (issue 18: the state is bounded; a record is what was drawn, never what is owned).
 */
const keepHistory = (m: Master, history: ReadonlyArray<DrawRecord>, rec: DrawRecord, now: number): DrawRecord[] => {
  const horizon = now - m.game.gacha.historyDays * DAY;
  const first = history[0];
  const kept = first === undefined || first.drawnAt >= horizon ? [...history, rec] : [...history.filter((h) => h.drawnAt >= horizon), rec];
  const over = kept.length - m.game.gacha.historyMax;
  // Stryker disable next-line EqualityOperator: equivalent (`over >= 0`: at over 0, kept.slice(0) is the same records in the same order)
  return over > 0 ? kept.slice(over) : kept;
};

const grantCharacters = (m: Master, s: PlayerState, ids: ReadonlyArray<number>, now: number): Result<PlayerState, 'NOT_FOUND'> => {
  let cur = s;
  for (const id of ids) {
    const r = grantOrPresent(m, cur, { kind: 'character', objectId: id, amount: 1 }, now);
    if (r._tag === 'Left') return r;
    cur = r.right.state;
  }
  return ok(cur);
};

// ---- draw ----
const DrawRequest = objWithOptional(
  { gachaId: PosInt, drawType: DrawType },
  { stepCode: Int, reDraw: Flag },
  'DrawPlayerGachaRequest',
);

const draw = defineOp({
  name: 'drawPlayerGacha', method: 'POST', path: '/player/gacha/draw', group: 'gacha',
  summary: 'Draws a gacha once or ten times; the server pays with the ticket when held, else gems. On a re-draw gacha, reDraw false (or absent) keeps the result at once and closes the gacha; reDraw true opens the re-draw cycle (held until fix) or re-draws the held result. stepCode records the tutorial step (4: the tutorial gacha).',
  request: DrawRequest,
  response: t.type({
    gachaResults: t.array(GachaResult),
    /** True when the result is held as pending (a re-draw gacha drawn with reDraw true): nothing granted until fix. */
    pending: bool,
    managedCharacters: t.array(CharacterView),
  }, 'DrawPlayerGachaResponse'),
  errors: ['NOT_FOUND', 'GACHA_OUT_OF_PERIOD', 'GACHA_DRAW_LIMIT', 'INVALID_PARAMETERS', 'GEM_IS_SHORT', 'UNLIMITED_GEM_IS_SHORT'],
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
      if (!g.reDraw) return fail('INVALID_PARAMETERS', { field: 'reDraw', reason: `gacha ${g.gachaId} does not allow re-draws` });
      // With nothing pending, reDraw opens the cycle: the paid draw below, held. With a result
      // pending, a re-draw replaces it: free, unlimited, nothing granted.
      if (st.pending) {
        const ids = drawMany(m, g, rng, st.pending.characterIds.length);
        const rec: DrawRecord = { gachaId: g.gachaId, drawnAt: now, drawType: req.drawType, characterIds: ids, payment: { ticket: 0, gem: 0, paidGem: 0 }, granted: false };
        const next = applyStep(m, putStat({ ...s, gachaHistory: keepHistory(m, s.gachaHistory, rec, now) }, { ...st, pending: { characterIds: ids, drawnAt: now } }), req.stepCode);
        if (next._tag === 'Left') return next;
        return ok({ state: next.right, response: { gachaResults: resultView(m, s, g, ids), pending: true, managedCharacters: charactersView(next.right.characters, ctx, s.characters) } });
      }
    }
    if (g.reDraw && st.pending) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: 'a draw is pending: re-draw or fix it' });
    // Held only when a re-draw gacha is drawn with reDraw: true; any other draw is kept at once
    // (on a re-draw gacha that also closes it, as fix would: the original's clients never call fix).
    const hold = g.reDraw && req.reDraw === true;

    const day = today(m, now);
    const todays = drawsToday(m, st, now);
    if (g.limits.perDay !== null && todays + n > g.limits.perDay) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: `at most ${g.limits.perDay} draws a day` });
    if (g.limits.total !== null && st.totalDraws + n > g.limits.total) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: `at most ${g.limits.total} draws in all` });

    const price = priceOf(m, s, g, st, req.drawType);
    if (price._tag === 'Left') return price;
    const paid = payPrice(m, s, price.right.cost, now);
    if (paid._tag === 'Left') return paid;

    const ids = drawMany(m, g, rng, n);
    const results = resultView(m, s, g, ids);
    const stat: GachaStat = {
      ...st, totalDraws: st.totalDraws + n, dayIndex: day, drawsToday: todays + n,
      points: st.points + g.pointsPerDraw * n,
      firstTenUsed: st.firstTenUsed || req.drawType === DRAW_TEN,
      pending: hold ? { characterIds: ids, drawnAt: now } : null,
      closed: g.reDraw && !hold,
    };
    const rec: DrawRecord = { gachaId: g.gachaId, drawnAt: now, drawType: req.drawType, characterIds: ids, payment: price.right.payment, granted: !hold };
    // One copy of the state for the history, the stats and the draw counter.
    let next = withFields(paid.right, {
      gachaHistory: keepHistory(m, s.gachaHistory, rec, now), gachaStats: statsWith(paid.right, stat), counters: countersBumped(paid.right, 'gachaDraws', n),
    });
    if (!hold) {
      const granted = grantCharacters(m, next, ids, now);
      if (granted._tag === 'Left') return granted;
      next = granted.right;
    }
    const stepped = applyStep(m, next, req.stepCode);
    if (stepped._tag === 'Left') return stepped;
    next = stepped.right;
    return ok({ state: next, response: { gachaResults: results, pending: hold, managedCharacters: charactersView(next.characters, ctx, s.characters) } });
  },
});

// ---- fix ----
const FixRequest = objWithOptional({}, { gachaId: PosInt }, 'FixPlayerGachaRequest');

const fix = defineOp({
  name: 'fixPlayerGacha', method: 'POST', path: '/player/gacha/fix', group: 'gacha',
  summary: 'Fixes the pending result of a re-draw gacha: grants it and closes the gacha for the player.',
  request: FixRequest,
  response: t.type({ gachaId: num, gachaResults: t.array(GachaResult), managedCharacters: t.array(CharacterView) }, 'FixPlayerGachaResponse'),
  errors: ['NOT_FOUND', 'GACHA_NOTHING_PENDING'],
  reduce: (s, req, _rng, now, { master: m }) => {
    // The spec's body is free-form: without gachaId, the one gacha with a pending draw.
    const st = req.gachaId !== undefined ? statOf(s, req.gachaId) : s.gachaStats.find((x) => x.pending !== null);
    if (req.gachaId !== undefined && !m.gacha.has(req.gachaId)) return fail('NOT_FOUND', { entity: 'gacha', id: req.gachaId });
    if (!st || !st.pending) return fail('GACHA_NOTHING_PENDING', { gachaId: req.gachaId ?? 0 });
    const g = m.gacha.get(st.gachaId) as GachaIndexed;
    const ids = st.pending.characterIds;
    const results = resultView(m, s, g, ids);
    const granted = grantCharacters(m, putStat(s, { ...st, pending: null, closed: true }), ids, now);
    if (granted._tag === 'Left') return granted;
    const rec: DrawRecord = { gachaId: g.gachaId, drawnAt: now, drawType: 0, characterIds: ids, payment: { ticket: 0, gem: 0, paidGem: 0 }, granted: true };
    const next = { ...granted.right, gachaHistory: keepHistory(m, granted.right.gachaHistory, rec, now) };
    return ok({ state: next, response: { gachaId: g.gachaId, gachaResults: results, managedCharacters: charactersView(next.characters, { master: m, now }, s.characters) } });
  },
});

// ---- get_all ----
const getAll = defineOp({
  name: 'getAllPlayerGacha', method: 'GET', path: '/player/gacha/get_all', group: 'gacha', readOnly: true,
  summary: 'Lists the gachas open now (or those named by gachaIds) with the player\'s draws and points, in the original\'s shape.',
  request: objWithOptional({}, { gachaIds: IdList(100) }, 'GetAllPlayerGachaRequest'),
  response: t.type({
    gachas: t.array(PlayerGachaView),
    /** Steps of step-up gachas: hoshi has none, so always empty (kept for the original's shape). */
    gachaSteps: t.array(GachaStepView),
  }, 'GetAllPlayerGachaResponse'),
  errors: ['NOT_FOUND'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const named = req.gachaIds ?? [];
    for (const id of named) if (!m.gacha.has(id)) return fail('NOT_FOUND', { entity: 'gacha', id });
    const list = named.length > 0
      ? named.map((id) => m.gacha.get(id) as GachaIndexed)
      : m.gachas.map((g) => m.gacha.get(g.gachaId) as GachaIndexed).filter((g) => openNow(m, g, now) && !statOf(s, g.gachaId).closed);
    const counts = drawCounts(m, s, now);
    const gachaSteps: GachaStepView[] = [];
    return ok({ state: s, response: { gachas: list.map((g) => gachaInfo(m, s, g, counts.get(g.gachaId), now)), gachaSteps } });
  },
});

// ---- box/get ----
const box = defineOp({
  name: 'getPlayerGachaBox', method: 'GET', path: '/player/gacha/box/get', group: 'gacha', readOnly: true,
  summary: 'Pickup and target characters of a gacha and the exact probability of every character per pull, and a whole ten-draw\'s effective rates with its guarantee, from the tables the draw uses.',
  request: obj({ gachaId: PosInt }, 'GetPlayerGachaBoxRequest'),
  response: t.type({
    gachaId: num, name: str,
    /** The player's gacha points of this gacha. */
    points: num,
    pickups: t.array(BoxPickup), targets: t.array(BoxTarget),
    /** Exact probability of each rarity, and of each character, per pull. */
    rarityRates: t.array(RarityRate), characters: t.array(NamedRate),
    /** null when the gacha has no ten-draw guarantee. */
    guarantee: nullable(Guarantee),
    /** A whole ten-draw's effective per-pull rates and how often its guarantee fires. */
    tenDraw: TenDraw,
  }, 'GetPlayerGachaBoxResponse'),
  errors: ['NOT_FOUND'],
  reduce: (s, req, _rng, _now, { master: m }) => {
    const gr = gachaOf(m, req.gachaId);
    if (gr._tag === 'Left') return gr;
    const g = gr.right;
    const box = boxOf(m, g);
    const st = statOf(s, g.gachaId);
    return ok({
      state: s,
      response: {
        gachaId: g.gachaId, name: g.name, points: st.points,
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
const pointToCharacter = defineOp({
  name: 'pointToCharacterPlayerGacha', method: 'POST', path: '/player/gacha/point_to_character', group: 'gacha',
  summary: 'Spends gacha points for a chosen target character of the gacha.',
  request: obj({ gachaId: PosInt, characterId: PosInt }, 'PointToCharacterPlayerGachaRequest'),
  response: t.type({
    gachaId: num, characterId: num,
    /** The gacha points left. */
    points: num,
    /** False when the character was owned (it became its limit-break items). */
    isNew: bool,
  }, 'PointToCharacterPlayerGachaResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'GACHA_POINT_IS_SHORT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const gr = gachaOf(m, req.gachaId);
    if (gr._tag === 'Left') return gr;
    const target = gr.right.targets.find((x) => x.characterId === req.characterId);
    if (!target) return fail('INVALID_PARAMETERS', { field: 'characterId', reason: `character ${req.characterId} is not a target of gacha ${req.gachaId}` });
    const st = statOf(s, req.gachaId);
    if (st.points < target.points) return fail('GACHA_POINT_IS_SHORT', { gachaId: req.gachaId, need: target.points, have: st.points });
    const isNew = !ownedCharacter(s, req.characterId);
    const granted = grantOrPresent(m, putStat(s, { ...st, points: st.points - target.points }), { kind: 'character', objectId: req.characterId, amount: 1 }, now);
    if (granted._tag === 'Left') return granted;
    return ok({ state: granted.right.state, response: { gachaId: req.gachaId, characterId: req.characterId, points: st.points - target.points, isNew } });
  },
});

// ---- history ----
const HISTORY_PAGE_MAX = 100;
const HISTORY_PAGE_DEFAULT = 20;

const history = defineOp({
  name: 'getHistoryPlayerGacha', method: 'GET', path: '/player/gacha/history', group: 'gacha', readOnly: true,
  summary: 'The player\'s own draws (kept gacha.historyDays days, at least 90), newest first: what each paid and drew; by gacha and time, in pages.',
  request: objWithOptional({}, {
    gachaId: PosInt,
    /** Game-local times (YYYY-MM-DDTHH:mm:ss, as answers give them): draws at or after from, and before to. */
    from: LocalTime, to: LocalTime,
    /** The page, from 1; pageSize draws a page (default 20, at most 100). */
    page: PosInt, pageSize: IntRange(1, HISTORY_PAGE_MAX),
  }, 'GetHistoryPlayerGachaRequest'),
  response: t.type({
    draws: t.array(HistoryEntry),
    /** Records matching the filters, on every page. */
    total: num,
    page: num, pageSize: num,
    /** Days of draws the service keeps (master data gacha.historyDays). */
    historyDays: num,
  }, 'GetHistoryPlayerGachaResponse'),
  errors: ['INVALID_PARAMETERS'],
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
      if ((req.gachaId === undefined || r.gachaId === req.gachaId) && r.drawnAt >= from && r.drawnAt < to) matching.push(i);
    }
    const page = req.page ?? 1;
    const pageSize = req.pageSize ?? HISTORY_PAGE_DEFAULT;
    const ctx = { master: m, now };
    const draws = matching.slice((page - 1) * pageSize, page * pageSize).map((i) => {
      const r = s.gachaHistory[i] as DrawRecord;
      const g = m.gacha.get(r.gachaId);
      return {
        gachaId: r.gachaId, name: g?.name ?? '', drawnAt: timeText(ctx, r.drawnAt), drawType: r.drawType, kind: kinds[i] as HistoryKind,
        paid: { ticket: r.payment.ticket, ticketItemId: r.payment.ticket > 0 ? g?.cost.ticketItemId ?? null : null, gem: r.payment.gem, paidGem: r.payment.paidGem },
        characters: r.characterIds.map((id) => {
          const c = m.character.get(id);
          return { characterId: id, name: c?.name ?? '', rarity: c?.rarity ?? 0, pickup: g?.pickups.some((p) => p.characterId === id) ?? false };
        }),
        granted: r.granted,
      };
    });
    return ok({ state: s, response: { draws, total: matching.length, page, pageSize, historyDays: m.game.gacha.historyDays } });
  },
});

export const gachaOps = [draw, fix, getAll, box, pointToCharacter, history] as const;
