// Gacha: list, publish rates, draw (ticket or gems chosen by the server), the
// first-time re-draw gacha's fix, and gacha points exchanged for a target.
import * as t from 'io-ts';
import { Flag, IdList, Int, IntEnum, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { GachaIndexed, Master } from '../master/index.js';
import { Gacha } from '../master/base.js';
import type { DrawRecord, GachaStat, Payment, PlayerState } from '../state.js';
import { LocalTime, type Cost } from '../master/common.js';
import { DAY, dayIndex, parseTime, weekdayOf } from '../time.js';
import { drawMany, isOpen, tableOf } from '../gacha/rates.js';
import { fail, ok, type Result } from '../shared/result.js';
import { itemCount } from '../shared/player.js';
import { pay, splitGems } from '../shared/pay.js';
import { grantOrPresent, ownedCharacter } from '../shared/grant.js';
import { charactersView, optTime, timeText } from '../view.js';
import { buildBox } from '../gacha/box.js';
import { CharacterView, WireTime, nullable } from '../views/codecs.js';
import { countersBumped } from '../shared/counters.js';
import { withFields } from '../state/copy.js';
import { applyStep } from './tutorial.js';

const DRAW_SINGLE = 1;
const DRAW_PAID_SINGLE = 2;
const DRAW_TEN = 3;

/** drawType on the wire (the original's values). */
export const DrawType = IntEnum('DrawType', {
  [DRAW_SINGLE]: 'single draw: the gacha\'s ticket when held, else gems (free first)',
  [DRAW_PAID_SINGLE]: 'single draw with paid gems only',
  [DRAW_TEN]: 'ten-draw with gems (the first ten-draw may be discounted)',
});

const num = t.number;
const str = t.string;
const bool = t.boolean;

const today = (m: Master, now: number): number => dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
/** Whether a gacha can be drawn now: in its period, on an open weekday of the game day. */
export const openNow = (m: Master, g: GachaIndexed, now: number): boolean => isOpen(g, now, weekdayOf(today(m, now)));

const emptyStat = (gachaId: number): GachaStat => ({
  gachaId, points: 0, totalDraws: 0, dayIndex: 0, drawsToday: 0, firstTenUsed: false, closed: false, pending: null,
});

export const statOf = (s: PlayerState, gachaId: number): GachaStat => s.gachaStats.find((x) => x.gachaId === gachaId) ?? emptyStat(gachaId);
const drawsToday = (m: Master, st: GachaStat, now: number): number => (st.dayIndex === today(m, now) ? st.drawsToday : 0);

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

const resultView = (m: Master, s: PlayerState, g: GachaIndexed, ids: ReadonlyArray<number>) => {
  const seen = new Set<number>();
  return ids.map((id) => {
    const c = m.character.get(id);
    const isNew = !ownedCharacter(s, id) && !seen.has(id);
    seen.add(id);
    return {
      characterId: id, rarity: c?.rarity ?? 0, isNew,
      pickup: g.pickups.some((p) => p.characterId === id),
      // What a duplicate turns into (for a re-draw gacha, what it would turn into when fixed).
      itemId: isNew ? null : c?.limitBreakItemId ?? null,
      itemAmount: isNew ? 0 : m.rarity.get(c?.rarity ?? 0)?.duplicateItemAmount ?? 0,
    };
  });
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

export const GachaResult = t.type({
  characterId: num, rarity: num,
  /** Not owned before this draw (a second copy in the same ten-draw is not new). */
  isNew: bool, pickup: bool,
  /** What a duplicate turns into (for a re-draw gacha's pending result, would turn into): its limit-break item; null when new. */
  itemId: nullable(num), itemAmount: num,
}, 'GachaResult');

const draw = defineOp({
  name: 'drawPlayerGacha', method: 'POST', path: '/player/gacha/draw', group: 'gacha', access: 'session',
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
  name: 'fixPlayerGacha', method: 'POST', path: '/player/gacha/fix', group: 'gacha', access: 'session',
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
// The answer has the shape of the original's one captured get_all answer: each entry
// is `{gacha: {id, name, type, gem1, ...}, gem1Total, ...}` with "none" as -1 in the
// gacha's numbers, as the original had it; hoshi's own fields stand beside, declared.
// docs/rules/foundation.md gives the mapping.

/** The original's value for "none" in a gacha's numbers (no price, no ticket, no limit). */
const NONE = -1;
const orNone = (n: number | null): number => n ?? NONE;

/** The gacha itself, as the original's `gacha` object, for this player (first10 is -1 once used). */
export const GachaDefinitionView = t.type({
  id: num, name: str,
  /** The original's gacha type: 1, a normal gacha (hoshi has no step-up gachas). */
  type: num,
  /** hoshi's kind: standard, pickup, or firstTime (the re-draw gacha). */
  kind: Gacha.props.kind,
  /** Gems for a single draw (drawType 1 without the ticket). */
  gem1: num,
  /** Gems for a ten-draw (drawType 3). */
  gem10: num,
  /** Gems for this player's first ten-draw; -1 when there is no discount or it was used. */
  first10: num,
  /** Paid gems for a paid single draw (drawType 2); -1 when not offered. */
  unlimitedGem: num,
  /** The ticket item a single draw spends when held, and how many; -1 when none. */
  itemId: num, itemAmount: num,
  startAt: WireTime,
  /** null when the gacha has no end. */
  endAt: nullable(WireTime),
  /** Open on that weekday (game day): 1, else 0. */
  sun: num, mon: num, tue: num, wed: num, thu: num, fri: num, sat: num,
  /** 1 for a re-draw gacha (the first-time gacha), else -1. */
  reDraw: num,
  /** Characters a player may draw a game day (a ten-draw counts ten); -1: no limit. */
  drawLimit: num,
  /** Characters a player may draw in all; -1: no limit. */
  allLimit: num,
  /** Gacha points earned per character drawn. */
  pointsPerDraw: num,
}, 'GachaDefinition');
export type GachaDefinitionView = t.TypeOf<typeof GachaDefinitionView>;

/** The player's draws of each kind (draws, not characters), in the kept draw history; re-draws are not draws. */
const DRAW_COUNTS = ['uGem1Total', 'uGem1Daily', 'gem1Total', 'gem1Daily', 'gem10Total', 'gem10Daily', 'itemTotal', 'itemDaily'] as const;
type DrawCounts = Record<(typeof DRAW_COUNTS)[number], number>;
const DrawCountsView = Object.fromEntries(DRAW_COUNTS.map((k) => [k, num])) as Record<(typeof DRAW_COUNTS)[number], t.NumberC>;

/** One entry of get_all: the gacha, the player's draws of each kind, and hoshi's per-player fields. */
export const PlayerGachaView = t.type({
  gacha: GachaDefinitionView,
  ...DrawCountsView,
  /** Drawable now (period and weekday); a gacha named by gachaIds may be listed closed. */
  open: bool,
  /** How many of the gacha's ticket the player holds (0 when it has none). */
  ticketHeld: num,
  /** Characters drawn this game day and in all: what drawLimit and allLimit count. */
  drawsToday: num, totalDraws: num,
  /** The player's gacha points of this gacha. */
  points: num,
  /** A re-draw gacha fixed by the player: it cannot be drawn again. */
  closed: bool,
  /** A re-draw gacha's pending result (character ids), null when none. */
  pending: nullable(t.array(num)),
}, 'PlayerGacha');
export type PlayerGachaView = t.TypeOf<typeof PlayerGachaView>;

/** A step of a step-up gacha (the original's gachaSteps). hoshi has none: the list is always empty. */
export const GachaStepView = t.type({
  gachaId: num,
  /** The step, from 1. */
  step: num,
  /** Gems the step costs, and the characters it draws. */
  gem: num, drawCount: num,
  /** Times the player drew this step. */
  drawn: num,
}, 'GachaStep');
export type GachaStepView = t.TypeOf<typeof GachaStepView>;

const zeroCounts = (): DrawCounts => ({ uGem1Total: 0, uGem1Daily: 0, gem1Total: 0, gem1Daily: 0, gem10Total: 0, gem10Daily: 0, itemTotal: 0, itemDaily: 0 });

/** The kind a draw record counts as; null for a fix (drawType 0). */
const kindOf = (r: DrawRecord): 'uGem1' | 'gem1' | 'gem10' | 'item' | null => {
  if (r.drawType === DRAW_PAID_SINGLE) return 'uGem1';
  if (r.drawType === DRAW_TEN) return 'gem10';
  if (r.drawType === DRAW_SINGLE) return r.payment.ticket > 0 ? 'item' : 'gem1';
  return null;
};

/**
 * The player's draws of each kind per gacha, from the draw history (kept gacha.historyDays
 * days). A re-draw gacha's re-draws replace the pending draw: only the draw that started
 * it counts (the records after it, up to its fix, are re-draws).
 */
const drawCounts = (m: Master, s: PlayerState, now: number): Map<number, DrawCounts> => {
  const day = today(m, now);
  const out = new Map<number, DrawCounts>();
  const pendingOf = new Set<number>();
  for (const r of s.gachaHistory) {
    const kind = kindOf(r);
    if (kind === null) { pendingOf.delete(r.gachaId); continue; }
    if (m.gacha.get(r.gachaId)?.reDraw) {
      if (pendingOf.has(r.gachaId)) continue;
      pendingOf.add(r.gachaId);
    }
    let c = out.get(r.gachaId);
    if (!c) { c = zeroCounts(); out.set(r.gachaId, c); }
    c[`${kind}Total` as const]++;
    if (today(m, r.drawnAt) === day) c[`${kind}Daily` as const]++;
  }
  return out;
};

const definitionView = (m: Master, g: GachaIndexed, st: GachaStat, now: number): GachaDefinitionView => {
  const ctx = { master: m, now };
  const c = g.cost;
  const days = g.weekdays;
  const flag = (d: number) => (days === null || days.includes(d) ? 1 : 0);
  return {
    id: g.gachaId, name: g.name, type: 1, kind: g.kind,
    gem1: c.singleGem, gem10: c.tenGem,
    first10: st.firstTenUsed ? NONE : orNone(c.firstTenGem),
    unlimitedGem: orNone(c.paidSingleGem),
    itemId: orNone(c.ticketItemId), itemAmount: c.ticketItemId === null ? NONE : c.ticketAmount,
    startAt: timeText(ctx, g.startsAt), endAt: optTime(ctx, g.endsAt),
    sun: flag(0), mon: flag(1), tue: flag(2), wed: flag(3), thu: flag(4), fri: flag(5), sat: flag(6),
    reDraw: g.reDraw ? 1 : NONE,
    drawLimit: orNone(g.limits.perDay), allLimit: orNone(g.limits.total),
    pointsPerDraw: g.pointsPerDraw,
  };
};

const gachaInfo = (m: Master, s: PlayerState, g: GachaIndexed, counts: DrawCounts | undefined, now: number): PlayerGachaView => {
  const st = statOf(s, g.gachaId);
  return {
    gacha: definitionView(m, g, st, now),
    ...(counts ?? zeroCounts()),
    open: openNow(m, g, now),
    ticketHeld: g.cost.ticketItemId === null ? 0 : itemCount(s, g.cost.ticketItemId),
    drawsToday: drawsToday(m, st, now), totalDraws: st.totalDraws,
    points: st.points,
    closed: st.closed, pending: st.pending ? st.pending.characterIds : null,
  };
};

const getAll = defineOp({
  name: 'getAllPlayerGacha', method: 'GET', path: '/player/gacha/get_all', group: 'gacha', access: 'session', readOnly: true,
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
/** What box/get shows that depends only on master data: built with it (core/gacha/box.ts); one of a gacha changed since is built afresh. */
export const boxOf = (m: Master, g: GachaIndexed) => {
  const built = m.gachaTables.get(g.gachaId);
  return built !== undefined && built.gacha === g ? built.box : buildBox(m, g, tableOf(m, g));
};

export const RarityRate = t.type({ rarity: num, probability: num }, 'GachaRarityRate');
const CharacterRate = t.type({ characterId: num, rarity: num, pickup: bool, probability: num }, 'GachaCharacterRate');
export const NamedRate = t.type({ characterId: num, name: str, rarity: num, pickup: bool, probability: num }, 'GachaBoxCharacter');
const BoxPickup = t.type({ characterId: num, name: str, rarity: num, probability: num }, 'GachaBoxPickup');
const BoxTarget = t.type({
  characterId: num, name: str, rarity: num,
  /** Gacha points point_to_character costs. */
  points: num,
  owned: bool,
}, 'GachaBoxTarget');
/** The ten-draw guarantee and the rates its redrawn last pull follows. */
export const Guarantee = t.type({
  minRarity: num, appliesTo: str, rarities: t.array(RarityRate), characters: t.array(CharacterRate),
}, 'GachaGuarantee');

/** A whole ten-draw's effective rates, per pull, the guarantee included (exact, from the draw's tables). */
export const TenDraw = t.type({
  /** Pulls in a ten-draw (master data gacha.tenDrawSize). */
  draws: num,
  /** Share of a ten-draw's characters of each rarity: the chance of the rarity per pull, averaged over the draw. */
  rarityRates: t.array(RarityRate),
  /** The same for each pickup character. */
  pickups: t.array(BoxPickup),
  /** The chance that no pull reaches guarantee.minRarity, so the last pull is redrawn from the guarantee's rates; 0 without a guarantee. */
  guaranteeProbability: num,
}, 'GachaTenDrawRates');

const box = defineOp({
  name: 'getPlayerGachaBox', method: 'GET', path: '/player/gacha/box/get', group: 'gacha', access: 'session', readOnly: true,
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
  name: 'pointToCharacterPlayerGacha', method: 'POST', path: '/player/gacha/point_to_character', group: 'gacha', access: 'session',
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
/** What a record of the draw history was: a draw (by how it was paid), a re-draw of a pending result, or the fix that granted it. */
const HistoryKind = t.keyof({ single: null, paidSingle: null, ticket: null, ten: null, reDraw: null, fix: null }, 'GachaHistoryKind');
type HistoryKind = t.TypeOf<typeof HistoryKind>;

const HistoryEntry = t.type({
  gachaId: num,
  /** The gacha's name in the master data now ('' for a gacha no longer in it). */
  name: str,
  drawnAt: WireTime,
  /** The request's drawType (0 for a fix). */
  drawType: num,
  kind: HistoryKind,
  /** What the draw cost: tickets (of ticketItemId), free gems and paid gems. Re-draws and fixes cost nothing. */
  paid: t.type({ ticket: num, ticketItemId: nullable(num), gem: num, paidGem: num }, 'GachaHistoryPayment'),
  /** The characters drawn, in the order drawn; pickup: a pickup of the gacha in the master data now. */
  characters: t.array(t.type({ characterId: num, name: str, rarity: num, pickup: bool }, 'GachaHistoryCharacter')),
  /** Whether the characters were granted by this record (false for a re-draw gacha's pending draws). */
  granted: bool,
}, 'GachaHistoryEntry');

const HISTORY_PAGE_MAX = 100;
const HISTORY_PAGE_DEFAULT = 20;

/** The kind of every record of a history, in its order: a re-draw gacha's records after its first draw, up to the fix, are re-draws. */
const historyKinds = (m: Master, history: ReadonlyArray<DrawRecord>): HistoryKind[] => {
  const pending = new Set<number>();
  return history.map((r) => {
    const kind = kindOf(r);
    if (kind === null) { pending.delete(r.gachaId); return 'fix'; }
    if (m.gacha.get(r.gachaId)?.reDraw || !r.granted) {
      if (pending.has(r.gachaId)) return 'reDraw';
      pending.add(r.gachaId);
    }
    return ({ uGem1: 'paidSingle', gem1: 'single', gem10: 'ten', item: 'ticket' } as const)[kind];
  });
};

const history = defineOp({
  name: 'getHistoryPlayerGacha', method: 'GET', path: '/player/gacha/history', group: 'gacha', access: 'session', readOnly: true,
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
