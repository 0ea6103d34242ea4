// Town facilities: buy (covered until opened), open, level up on a timer or at
// once for gems, collect production, sell, add storage slots, place on build points.
import * as t from 'io-ts';
import { Int, NonNegInt, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
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
import * as api from '../api/townFacility.js';
export { BuildPoints } from '../api/townFacility.js';

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

const buyAll = implementOp(api.buyAll, {
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
const openUp = implementOp(api.openUp, {
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
const levelUp = implementOp(api.levelUp, {
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
const gemLevelUp = implementOp(api.gemLevelUp, {
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

const itemUp = implementOp(api.itemUp, {
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
const sale = implementOp(api.sale, {
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
const limitAdd = implementOp(api.limitAdd, {
  reduce: (s, _req, _rng, now, { master: m }) => {
    const r = addStorageLimit(m, s, 'facility', now);
    if (r._tag === 'Left') return r;
    return ok({ state: r.right, response: { facilityLimit: storageLimit(m, r.right, 'facility') } });
  },
});

const setBuildPoints = implementOp(api.setBuildPoints, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const layout = { ...s.townLayout, buildPoints: req.buildPoints };
    const checked = checkTown(m, s, layout);
    if (checked._tag === 'Left') return checked;
    return ok({ state: { ...s, townLayout: layout }, response: {} });
  },
});

export const townFacilityOps = [limitAdd, buyAll, gemLevelUp, itemUp, levelUp, openUp, sale, setBuildPoints] as const;
