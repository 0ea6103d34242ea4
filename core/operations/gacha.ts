// Gacha: list, publish rates, draw (ticket or gems chosen by the server), the
// first-time re-draw gacha's fix, and gacha points exchanged for a target.
import * as t from 'io-ts';
import { Flag, IdList, IntRange, Int, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp, type AnyOperation } from '../operation.js';
import type { GachaIndexed, Master } from '../master/index.js';
import type { DrawRecord, GachaStat, Payment, PlayerState } from '../state.js';
import type { Cost } from '../master/common.js';
import { DAY, dayIndex, weekdayOf } from '../time.js';
import { drawMany, isOpen, publish, rowsFrom, tableOf } from '../gacha/rates.js';
import { fail, ok, type Result } from '../shared/result.js';
import { itemCount } from '../shared/player.js';
import { pay, splitGems } from '../shared/pay.js';
import { grantOrPresent, ownedCharacter } from '../shared/grant.js';
import { charactersView, optTime, shared, timeText } from '../view.js';
import { countersBumped } from '../shared/counters.js';
import { withFields } from '../state/copy.js';

const DRAW_SINGLE = 1;
const DRAW_PAID_SINGLE = 2;
const DRAW_TEN = 3;

const today = (m: Master, now: number): number => dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const openNow = (m: Master, g: GachaIndexed, now: number): boolean => isOpen(g, now, weekdayOf(today(m, now)));

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

const gachaOf = (m: Master, gachaId: number): Result<GachaIndexed> => {
  const g = m.gacha.get(gachaId);
  return g ? ok(g) : fail('NOT_FOUND', { entity: 'gacha', id: gachaId });
};

/** What a draw costs and how it is paid: the server chooses ticket or gems. */
const priceOf = (m: Master, s: PlayerState, g: GachaIndexed, st: GachaStat, drawType: number): Result<{ cost: Cost; payment: Payment }> => {
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

/** Appends a draw; entries older than the kept days are dropped (only when there are any: the list is in time order). */
const keepHistory = (m: Master, history: ReadonlyArray<DrawRecord>, rec: DrawRecord, now: number): DrawRecord[] => {
  const horizon = now - m.game.gacha.historyDays * DAY;
  const first = history[0];
  if (first === undefined || first.drawnAt >= horizon) return [...history, rec];
  return [...history.filter((h) => h.drawnAt >= horizon), rec];
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


const grantCharacters = (m: Master, s: PlayerState, ids: ReadonlyArray<number>, now: number): Result<PlayerState> => {
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
  { gachaId: PosInt, drawType: IntRange(1, 3) },
  { stepCode: Int, reDraw: Flag },
  'DrawPlayerGachaRequest',
);

const GachaResult = t.type({
  characterId: t.number, rarity: t.number, isNew: t.boolean, pickup: t.boolean,
  itemId: t.union([t.number, t.null]), itemAmount: t.number,
});

const draw = defineOp({
  name: 'drawPlayerGacha', method: 'POST', path: '/player/gacha/draw', group: 'gacha', access: 'session',
  summary: 'Draws a gacha once or ten times; the server pays with the ticket when held, else gems.',
  request: DrawRequest,
  response: t.type({ gachaResults: t.array(GachaResult), pending: t.boolean, managedCharacters: t.array(t.unknown) }, 'DrawPlayerGachaResponse'),
  errors: ['NOT_FOUND', 'GACHA_OUT_OF_PERIOD', 'GACHA_DRAW_LIMIT', 'GACHA_NOTHING_PENDING', 'INVALID_PARAMETERS', 'GEM_IS_SHORT', 'UNLIMITED_GEM_IS_SHORT'],
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
      // A re-draw replaces the pending result: free, unlimited, nothing granted.
      if (!g.reDraw) return fail('INVALID_PARAMETERS', { field: 'reDraw', reason: `gacha ${g.gachaId} does not allow re-draws` });
      if (!st.pending) return fail('GACHA_NOTHING_PENDING', { gachaId: g.gachaId });
      const ids = drawMany(m, g, rng, st.pending.characterIds.length);
      const rec: DrawRecord = { gachaId: g.gachaId, drawnAt: now, drawType: req.drawType, characterIds: ids, payment: { ticket: 0, gem: 0, paidGem: 0 }, granted: false };
      const next = putStat({ ...s, gachaHistory: keepHistory(m, s.gachaHistory, rec, now) }, { ...st, pending: { characterIds: ids, drawnAt: now } });
      return ok({ state: next, response: { gachaResults: resultView(m, s, g, ids), pending: true, managedCharacters: charactersView(next.characters, ctx, s.characters) } });
    }
    if (g.reDraw && st.pending) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: 'a draw is pending: re-draw or fix it' });

    const day = today(m, now);
    const todays = drawsToday(m, st, now);
    if (g.limits.perDay !== null && todays + n > g.limits.perDay) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: `at most ${g.limits.perDay} draws a day` });
    if (g.limits.total !== null && st.totalDraws + n > g.limits.total) return fail('GACHA_DRAW_LIMIT', { gachaId: g.gachaId, reason: `at most ${g.limits.total} draws in all` });

    const price = priceOf(m, s, g, st, req.drawType);
    if (price._tag === 'Left') return price;
    const paid = pay(m, s, price.right.cost, now);
    if (paid._tag === 'Left') return paid;

    const ids = drawMany(m, g, rng, n);
    const results = resultView(m, s, g, ids);
    const stat: GachaStat = {
      ...st, totalDraws: st.totalDraws + n, dayIndex: day, drawsToday: todays + n,
      points: st.points + g.pointsPerDraw * n,
      firstTenUsed: st.firstTenUsed || req.drawType === DRAW_TEN,
      pending: g.reDraw ? { characterIds: ids, drawnAt: now } : null,
    };
    const rec: DrawRecord = { gachaId: g.gachaId, drawnAt: now, drawType: req.drawType, characterIds: ids, payment: price.right.payment, granted: !g.reDraw };
    // One copy of the state for the history, the stats and the draw counter.
    let next = withFields(paid.right, {
      gachaHistory: keepHistory(m, s.gachaHistory, rec, now), gachaStats: statsWith(paid.right, stat), counters: countersBumped(paid.right, 'gachaDraws', n),
    });
    if (!g.reDraw) {
      const granted = grantCharacters(m, next, ids, now);
      if (granted._tag === 'Left') return granted;
      next = granted.right;
    }
    return ok({ state: next, response: { gachaResults: results, pending: g.reDraw, managedCharacters: charactersView(next.characters, ctx, s.characters) } });
  },
});

// ---- fix ----
const FixRequest = objWithOptional({}, { gachaId: PosInt }, 'FixPlayerGachaRequest');

const fix = defineOp({
  name: 'fixPlayerGacha', method: 'POST', path: '/player/gacha/fix', group: 'gacha', access: 'session',
  summary: 'Fixes the pending result of a re-draw gacha: grants it and closes the gacha for the player.',
  request: FixRequest,
  response: t.type({ gachaId: t.number, gachaResults: t.array(GachaResult), managedCharacters: t.array(t.unknown) }, 'FixPlayerGachaResponse'),
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
const gachaInfo = (m: Master, s: PlayerState, g: GachaIndexed, now: number) => {
  const st = statOf(s, g.gachaId);
  const ctx = { master: m, now };
  return {
    gachaId: g.gachaId, name: g.name, kind: g.kind, open: openNow(m, g, now),
    startAt: timeText(ctx, g.startsAt), endAt: optTime(ctx, g.endsAt), weekdays: g.weekdays,
    singleGem: g.cost.singleGem, tenGem: g.cost.tenGem,
    firstTenGem: st.firstTenUsed ? null : g.cost.firstTenGem,
    paidSingleGem: g.cost.paidSingleGem,
    ticketItemId: g.cost.ticketItemId, ticketAmount: g.cost.ticketAmount,
    ticketHeld: g.cost.ticketItemId === null ? 0 : itemCount(s, g.cost.ticketItemId),
    limitPerDay: g.limits.perDay, limitTotal: g.limits.total,
    drawsToday: drawsToday(m, st, now), totalDraws: st.totalDraws,
    points: st.points, pointsPerDraw: g.pointsPerDraw,
    reDraw: g.reDraw, closed: st.closed, pending: st.pending ? st.pending.characterIds : null,
  };
};

const getAll = defineOp({
  name: 'getAllPlayerGacha', method: 'GET', path: '/player/gacha/get_all', group: 'gacha', access: 'session', readOnly: true,
  summary: 'Lists the gachas open now (or those named by gachaIds) with the player\'s draws and points.',
  request: objWithOptional({}, { gachaIds: IdList(100) }, 'GetAllPlayerGachaRequest'),
  response: t.type({ gachas: t.array(t.unknown) }, 'GetAllPlayerGachaResponse'),
  errors: ['NOT_FOUND'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const named = req.gachaIds ?? [];
    for (const id of named) if (!m.gacha.has(id)) return fail('NOT_FOUND', { entity: 'gacha', id });
    const list = named.length > 0
      ? named.map((id) => m.gacha.get(id) as GachaIndexed)
      : m.gachas.map((g) => m.gacha.get(g.gachaId) as GachaIndexed).filter((g) => openNow(m, g, now) && !statOf(s, g.gachaId).closed);
    return ok({ state: s, response: { gachas: list.map((g) => gachaInfo(m, s, g, now)) } });
  },
});

// ---- box/get ----
/** What box/get shows that depends only on master data, built once per gacha (it is most of the answer). */
const boxOf = (() => {
  const cache = new WeakMap<Master, Map<number, ReturnType<typeof buildBox>>>();
  const buildBox = (m: Master, g: GachaIndexed) => {
    const table = tableOf(m, g);
    const rates = publish(table);
    const named = (id: number) => ({ characterId: id, name: m.character.get(id)?.name ?? '', rarity: m.character.get(id)?.rarity ?? 0 });
    return {
      pickups: shared(rates.characters.filter((c) => c.pickup).map((c) => ({ ...named(c.characterId), probability: c.probability }))),
      targets: g.targets.map((x) => ({ ...named(x.characterId), points: x.points })),
      rarityRates: shared(rates.rarities),
      characters: shared(rates.characters.map((c) => ({ ...named(c.characterId), pickup: c.pickup, probability: c.probability }))),
      guarantee: g.guaranteeMinRarity === null ? null : shared({
        minRarity: g.guaranteeMinRarity, appliesTo: 'the last pull of a multi-draw with none at or above minRarity',
        ...publish(rowsFrom(table, g.guaranteeMinRarity)),
      }),
    };
  };
  return (m: Master, g: GachaIndexed) => {
    let perMaster = cache.get(m);
    if (!perMaster) { perMaster = new Map(); cache.set(m, perMaster); }
    let box = perMaster.get(g.gachaId);
    if (!box) { box = buildBox(m, g); perMaster.set(g.gachaId, box); }
    return box;
  };
})();

const box = defineOp({
  name: 'getPlayerGachaBox', method: 'GET', path: '/player/gacha/box/get', group: 'gacha', access: 'session', readOnly: true,
  summary: 'Pickup and target characters of a gacha and the exact probability of every character, from the tables the draw uses.',
  request: obj({ gachaId: PosInt }, 'GetPlayerGachaBoxRequest'),
  response: t.type({ gachaId: t.number, pickups: t.array(t.unknown), targets: t.array(t.unknown), rarityRates: t.array(t.unknown), characters: t.array(t.unknown), guarantee: t.unknown }, 'GetPlayerGachaBoxResponse'),
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
      },
    });
  },
});

// ---- point_to_character ----
const pointToCharacter = defineOp({
  name: 'pointToCharacterPlayerGacha', method: 'POST', path: '/player/gacha/point_to_character', group: 'gacha', access: 'session',
  summary: 'Spends gacha points for a chosen target character of the gacha.',
  request: obj({ gachaId: PosInt, characterId: PosInt }, 'PointToCharacterPlayerGachaRequest'),
  response: t.type({ gachaId: t.number, characterId: t.number, points: t.number, isNew: t.boolean }, 'PointToCharacterPlayerGachaResponse'),
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

export const gachaOps: AnyOperation[] = [draw, fix, getAll, box, pointToCharacter];
