// Town facilities: buy (covered until opened), open, level up on a timer or at
// once for gems, collect production, sell, add storage slots, place on build points.
import * as t from 'io-ts';
import { Int, NonNegInt, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { OwnedFacility, PlayerState } from '../state.js';
import { fail, ok, type Result } from '../shared/result.js';
import { itemCount, limitDef, storageLimit } from '../shared/player.js';
import { startTimer } from '../shared/timer.js';
import {
  accrue,
  addStorageLimit,
  checkTown,
  findFacility,
  gemPriceLeft,
  levelDef,
  productionOf,
  putFacility,
  settleFacility,
  settleTimer,
  unplaceFacilities,
} from '../shared/town.js';
import type { Master } from '../master/index.js';
import type { FacilityLevelUp } from '../master/town.js';
import { formatTime } from '../time.js';
import { WireTime } from '../views/codecs.js';
import { pay } from '../shared/pay.js';
import { tryGrant } from '../shared/grant.js';

const ById = (name: string) => obj({ managedTownFacilityId: PosInt }, name);

/** The facility as of now; refused while covered. */
const openFacility = (
  m: Master,
  s: PlayerState,
  id: number,
  now: number,
): Result<OwnedFacility, 'NOT_FOUND' | 'STATE_CONFLICT'> => {
  const found = findFacility(s, id);
  if (found._tag === 'Left') return found;
  const f = settleFacility(m, found.right, now);
  if (f.covered) return fail('STATE_CONFLICT', { reason: `town facility ${id} is still covered: open it first` });
  return ok(f);
};

const levelUpOf = (m: Master, f: OwnedFacility): Result<FacilityLevelUp, 'STATE_CONFLICT'> => {
  const lu = levelDef(m, f)?.levelUp;
  return lu
    ? ok(lu)
    : fail('STATE_CONFLICT', {
        reason: `town facility ${f.managedTownFacilityId} is already at its maximum level ${f.level}`,
      });
};

const running = (f: OwnedFacility): Result<never, 'TIMER_RUNNING'> =>
  fail('TIMER_RUNNING', {
    entity: `level-up of town facility ${f.managedTownFacilityId}`,
    completesAt: f.levelUp?.completesAt ?? 0,
  });

// ---- buy_all ----
const BuyAllRequest = obj(
  { facilities: t.array(obj({ facilityId: PosInt, amount: PosInt })) },
  'BuyAllPlayerTownFacilityRequest',
);

const buyAll = defineOp({
  name: 'buyAllPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/buy_all',
  group: 'townFacility',
  summary: 'Buys facilities with coins and town points; each new facility is covered until opened.',
  request: BuyAllRequest,
  response: t.type({ managedTownFacilityIds: t.array(t.number) }, 'BuyAllPlayerTownFacilityResponse'),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'FACILITY_LIMIT', 'GOLD_IS_SHORT', 'KIRARA_IS_SHORT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    if (req.facilities.length === 0)
      return fail('INVALID_PARAMETERS', { field: 'facilities', reason: 'must name at least one facility' });
    const total = req.facilities.reduce((n, x) => n + x.amount, 0);
    const cap = limitDef(m, 'facility').cap;
    if (total > cap)
      return fail('INVALID_PARAMETERS', { field: 'facilities', reason: `at most ${cap} facilities in all` });
    let gold = 0;
    let kirara = 0;
    for (const x of req.facilities) {
      const def = m.facility.get(x.facilityId);
      if (!def) return fail('NOT_FOUND', { entity: 'town facility', id: x.facilityId });
      gold += def.price.gold * x.amount;
      kirara += def.price.kirara * x.amount;
    }
    const max = storageLimit(m, s, 'facility');
    if (s.facilities.length + total > max) return fail('FACILITY_LIMIT', { max });
    const paid = pay(m, s, { gold, kirara }, now);
    if (paid._tag === 'Left') return paid;
    let state = paid.right;
    const ids: number[] = [];
    for (const x of req.facilities) {
      const r = tryGrant(m, state, { kind: 'townFacility', objectId: x.facilityId, amount: x.amount }, now);
      if (r._tag === 'Left') return r;
      state = r.right.state;
      ids.push(...r.right.outcome.managedIds);
    }
    return ok({ state, response: { managedTownFacilityIds: ids } });
  },
});

// ---- open_up ----
const openUp = defineOp({
  name: 'openUpPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/open_up',
  group: 'townFacility',
  summary: 'Removes the cover of a new facility; its production starts now.',
  request: ById('OpenUpPlayerTownFacilityRequest'),
  response: t.type({ managedTownFacilityId: t.number }, 'OpenUpPlayerTownFacilityResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
  reduce: (s, req, _rng, now) => {
    const found = findFacility(s, req.managedTownFacilityId);
    if (found._tag === 'Left') return found;
    const f = found.right;
    if (!f.covered)
      return fail('STATE_CONFLICT', { reason: `town facility ${f.managedTownFacilityId} is already open` });
    const opened: OwnedFacility = { ...f, covered: false, accruedAt: now, stock: 0, carry: 0 };
    return ok({ state: putFacility(s, opened), response: { managedTownFacilityId: f.managedTownFacilityId } });
  },
});

// ---- level_up ----
const levelUp = defineOp({
  name: 'levelUpPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/level_up',
  group: 'townFacility',
  summary: 'Pays the level-up cost and starts its timer; the level rises when the timer has passed.',
  request: ById('LevelUpPlayerTownFacilityRequest'),
  response: t.type(
    { managedTownFacilityId: t.number, level: t.number, completesAt: WireTime },
    'LevelUpPlayerTownFacilityResponse',
  ),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'TIMER_RUNNING', 'GOLD_IS_SHORT', 'ITEM_IS_SHORT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const opened = openFacility(m, s, req.managedTownFacilityId, now);
    if (opened._tag === 'Left') return opened;
    const f = opened.right;
    if (f.levelUp) return running(f);
    const lu = levelUpOf(m, f);
    if (lu._tag === 'Left') return lu;
    const paid = pay(m, s, { gold: lu.right.gold, items: lu.right.items }, now);
    if (paid._tag === 'Left') return paid;
    // Production was settled up to now above; it pauses while the facility levels.
    const next: OwnedFacility = { ...f, levelUp: startTimer(now, lu.right.durationSeconds * 1000) };
    return ok({
      state: putFacility(paid.right, next),
      response: {
        managedTownFacilityId: f.managedTownFacilityId,
        level: f.level,
        completesAt: formatTime(now + lu.right.durationSeconds * 1000, m.game.timezoneOffsetMinutes),
      },
    });
  },
});

// ---- gem_level_up ----
const gemLevelUp = defineOp({
  name: 'gemLevelUpPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/gem_level_up',
  group: 'townFacility',
  summary:
    'Finishes a running level-up now for gems priced on the time left, or levels an idle facility at once for its cost and the full gem price.',
  request: ById('GemLevelUpPlayerTownFacilityRequest'),
  response: t.type(
    { managedTownFacilityId: t.number, level: t.number, gemSpent: t.number },
    'GemLevelUpPlayerTownFacilityResponse',
  ),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'GEM_IS_SHORT', 'GOLD_IS_SHORT', 'ITEM_IS_SHORT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const opened = openFacility(m, s, req.managedTownFacilityId, now);
    if (opened._tag === 'Left') return opened;
    const f = opened.right;
    const lu = levelUpOf(m, f);
    if (lu._tag === 'Left') return lu;
    const gem = f.levelUp ? gemPriceLeft(lu.right.gemPrice, f.levelUp, now) : lu.right.gemPrice;
    // A running level-up was paid when it started; an idle one pays its cost too.
    const cost = f.levelUp ? { gem } : { gem, gold: lu.right.gold, items: lu.right.items };
    const paid = pay(m, s, cost, now);
    if (paid._tag === 'Left') return paid;
    const next: OwnedFacility = { ...f, level: f.level + 1, levelUp: null, accruedAt: now };
    return ok({
      state: putFacility(paid.right, next),
      response: { managedTownFacilityId: f.managedTownFacilityId, level: next.level, gemSpent: gem },
    });
  },
});

// ---- item_up ----
const ItemUpRequest = objWithOptional(
  { managedTownFacilityId: PosInt, itemNo: NonNegInt, amount: PosInt },
  { actionTime: Int },
  'ItemUpPlayerTownFacilityRequest',
);

const itemUp = defineOp({
  name: 'itemUpPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/item_up',
  group: 'townFacility',
  summary:
    'Collects what a facility produced up to actionTime (clamped to the last collection and now), at most the amount asked.',
  request: ItemUpRequest,
  response: t.type(
    { managedTownFacilityId: t.number, itemNo: t.number, amount: t.number, stock: t.number },
    'ItemUpPlayerTownFacilityResponse',
  ),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', 'TIMER_RUNNING', 'INVALID_PARAMETERS', 'ITEM_LIMIT', 'CURRENCY_LIMIT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findFacility(s, req.managedTownFacilityId);
    if (found._tag === 'Left') return found;
    const timed = settleTimer(found.right, now);
    if (timed.covered)
      return fail('STATE_CONFLICT', {
        reason: `town facility ${timed.managedTownFacilityId} is still covered: open it first`,
      });
    if (timed.levelUp) return running(timed);
    const p = productionOf(m, timed);
    if (!p) return fail('STATE_CONFLICT', { reason: `town facility ${timed.managedTownFacilityId} produces nothing` });
    const itemNo = p.itemId ?? 0;
    if (req.itemNo !== itemNo)
      return fail('INVALID_PARAMETERS', {
        field: 'itemNo',
        reason: `town facility ${timed.managedTownFacilityId} produces ${itemNo === 0 ? 'coins (itemNo 0)' : `item ${itemNo}`}`,
      });
    // The limit is the largest storage the facility has at any level (a stable master-data number).
    const maxCap = Math.max(...(m.facility.get(timed.facilityId)?.levels ?? []).map((l) => l.production?.cap ?? 0));
    if (req.amount > maxCap)
      return fail('INVALID_PARAMETERS', {
        field: 'amount',
        reason: `at most ${maxCap}, the facility's largest storage`,
      });
    // The client's clock is trusted only between the last collection and now.
    const at = Math.min(now, Math.max(timed.accruedAt, req.actionTime ?? now));
    const f = accrue(m, timed, at);
    let take = Math.min(req.amount, f.stock);
    // Take only what fits; the rest stays in the facility rather than being lost.
    const room =
      p.itemId === null ? m.game.currencyMax.gold - s.gold : (m.item.get(p.itemId)?.max ?? 0) - itemCount(s, p.itemId);
    if (take > 0 && room <= 0) {
      return p.itemId === null
        ? fail('CURRENCY_LIMIT', { currency: 'gold', max: m.game.currencyMax.gold })
        : fail('ITEM_LIMIT', { itemId: p.itemId, max: m.item.get(p.itemId)?.max ?? 0 });
    }
    take = Math.min(take, room);
    const response = { managedTownFacilityId: f.managedTownFacilityId, itemNo, amount: take, stock: f.stock - take };
    // Nothing collected: settling is not worth a write (it gives the same result later).
    if (take === 0) return ok({ state: s, response });
    const granted = tryGrant(
      m,
      s,
      p.itemId === null
        ? { kind: 'gold', objectId: 0, amount: take }
        : { kind: 'item', objectId: p.itemId, amount: take },
      now,
    );
    if (granted._tag === 'Left') return granted;
    return ok({ state: putFacility(granted.right.state, { ...f, stock: f.stock - take }), response });
  },
});

// ---- sale ----
const sale = defineOp({
  name: 'salePlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/sale',
  group: 'townFacility',
  summary: 'Sells a facility for coins and removes it from the town; what it held uncollected goes with it.',
  request: ById('SalePlayerTownFacilityRequest'),
  response: t.type({ managedTownFacilityId: t.number, gold: t.number }, 'SalePlayerTownFacilityResponse'),
  errors: ['NOT_FOUND', 'TIMER_RUNNING', 'CURRENCY_LIMIT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findFacility(s, req.managedTownFacilityId);
    if (found._tag === 'Left') return found;
    const f = settleTimer(found.right, now);
    if (f.levelUp) return running(f);
    const price = m.facility.get(f.facilityId)?.salePrice ?? 0;
    let state: PlayerState = s;
    if (price > 0) {
      const r = tryGrant(m, s, { kind: 'gold', objectId: 0, amount: price }, now);
      if (r._tag === 'Left') return r;
      state = r.right.state;
    }
    const id = f.managedTownFacilityId;
    state = {
      ...state,
      facilities: state.facilities.filter((x) => x.managedTownFacilityId !== id),
      townLayout: unplaceFacilities(state.townLayout, new Set([id])),
    };
    return ok({ state, response: { managedTownFacilityId: id, gold: price } });
  },
});

// ---- limit/add ----
const limitAdd = defineOp({
  name: 'addPlayerTownFacilityLimit',
  method: 'POST',
  path: '/player/town_facility/limit/add',
  group: 'townFacility',
  summary: 'Adds facility storage slots (the configured step) for gems, up to the cap.',
  request: objWithOptional({}, {}, 'AddPlayerTownFacilityLimitRequest'),
  response: t.type({ facilityLimit: t.number }, 'AddPlayerTownFacilityLimitResponse'),
  errors: ['FACILITY_EXT_LIMIT', 'GEM_IS_SHORT'],
  reduce: (s, _req, _rng, now, { master: m }) => {
    const r = addStorageLimit(m, s, 'facility', now);
    if (r._tag === 'Left') return r;
    return ok({ state: r.right, response: { facilityLimit: storageLimit(m, r.right, 'facility') } });
  },
});

// ---- build_point/set_all ----
export const BuildPoints = t.array(obj({ buildPointId: PosInt, managedTownFacilityId: PosInt }));

const setBuildPoints = defineOp({
  name: 'setAllPlayerTownFacilityBuildPoint',
  method: 'POST',
  path: '/player/town_facility/build_point/set_all',
  group: 'townFacility',
  summary:
    "Replaces the facilities placed on the town's build points; every facility owned and placed once in the whole town.",
  request: obj({ buildPoints: BuildPoints }, 'SetAllPlayerTownFacilityBuildPointRequest'),
  response: t.type({}, 'SetAllPlayerTownFacilityBuildPointResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
  reduce: (s, req, _rng, _now, { master: m }) => {
    const layout = { ...s.townLayout, buildPoints: req.buildPoints };
    const checked = checkTown(m, s, layout);
    if (checked._tag === 'Left') return checked;
    return ok({ state: { ...s, townLayout: layout }, response: {} });
  },
});

export const townFacilityOps = [limitAdd, buyAll, gemLevelUp, itemUp, levelUp, openUp, sale, setBuildPoints] as const;
