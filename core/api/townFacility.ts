// The descriptions of core/operations/townFacility.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { obj, PosInt, objWithOptional, NonNegInt, Int } from '../codecs.js';
import * as t from 'io-ts';
import { WireTime } from '../views/codecs.js';

export const ById = (name: string) => obj({ managedTownFacilityId: PosInt }, name);

// ---- buy_all ----
export const BuyAllRequest = obj(
  { facilities: t.array(obj({ facilityId: PosInt, amount: PosInt })) },
  'BuyAllPlayerTownFacilityRequest',
);

// ---- item_up ----
export const ItemUpRequest = objWithOptional(
  { managedTownFacilityId: PosInt, itemNo: NonNegInt, amount: PosInt },
  { actionTime: Int },
  'ItemUpPlayerTownFacilityRequest',
);

// ---- build_point/set_all ----
export const BuildPoints = t.array(obj({ buildPointId: PosInt, managedTownFacilityId: PosInt }));

export const buyAll = describeOp({
  name: 'buyAllPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/buy_all',
  group: 'townFacility',
  summary: 'Buys facilities with coins and town points; each new facility is covered until opened.',
  request: BuyAllRequest,
  response: t.type({ managedTownFacilityIds: t.array(t.number) }, 'BuyAllPlayerTownFacilityResponse'),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'FACILITY_LIMIT', 'GOLD_IS_SHORT', 'KIRARA_IS_SHORT'],
});

// ---- open_up ----
export const openUp = describeOp({
  name: 'openUpPlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/open_up',
  group: 'townFacility',
  summary: 'Removes the cover of a new facility; its production starts now.',
  request: ById('OpenUpPlayerTownFacilityRequest'),
  response: t.type({ managedTownFacilityId: t.number }, 'OpenUpPlayerTownFacilityResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
});

// ---- level_up ----
export const levelUp = describeOp({
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
});

// ---- gem_level_up ----
export const gemLevelUp = describeOp({
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
});

export const itemUp = describeOp({
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
});

// ---- sale ----
export const sale = describeOp({
  name: 'salePlayerTownFacility',
  method: 'POST',
  path: '/player/town_facility/sale',
  group: 'townFacility',
  summary: 'Sells a facility for coins and removes it from the town; what it held uncollected goes with it.',
  request: ById('SalePlayerTownFacilityRequest'),
  response: t.type({ managedTownFacilityId: t.number, gold: t.number }, 'SalePlayerTownFacilityResponse'),
  errors: ['NOT_FOUND', 'TIMER_RUNNING', 'CURRENCY_LIMIT'],
});

// ---- limit/add ----
export const limitAdd = describeOp({
  name: 'addPlayerTownFacilityLimit',
  method: 'POST',
  path: '/player/town_facility/limit/add',
  group: 'townFacility',
  summary: 'Adds facility storage slots (the configured step) for gems, up to the cap.',
  request: objWithOptional({}, {}, 'AddPlayerTownFacilityLimitRequest'),
  response: t.type({ facilityLimit: t.number }, 'AddPlayerTownFacilityLimitResponse'),
  errors: ['FACILITY_EXT_LIMIT', 'GEM_IS_SHORT'],
});

export const setBuildPoints = describeOp({
  name: 'setAllPlayerTownFacilityBuildPoint',
  method: 'POST',
  path: '/player/town_facility/build_point/set_all',
  group: 'townFacility',
  summary:
    "Replaces the facilities placed on the town's build points; every facility owned and placed once in the whole town.",
  request: obj({ buildPoints: BuildPoints }, 'SetAllPlayerTownFacilityBuildPointRequest'),
  response: t.type({}, 'SetAllPlayerTownFacilityBuildPointResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const townFacilityApi = [limitAdd, buyAll, gemLevelUp, itemUp, levelUp, openUp, sale, setBuildPoints] as const;
