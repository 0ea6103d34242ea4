// The descriptions of core/operations/chest.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { WireTime, nullable } from '../views/codecs.js';
import { GrantKind } from '../master/common.js';
import { objWithOptional, obj, PosInt } from '../codecs.js';

export const num = t.number;
export const bool = t.boolean;

/** A chest open now: its cost, and the player's step and box. */
export const ChestView = t.type(
  {
    chestId: num,
    name: t.string,
    startAt: WireTime,
    /** null when the chest has no end. */
    endAt: nullable(WireTime),
    /** The item one draw costs, how many, and how many the player holds. */
    costItemId: num,
    costAmount: num,
    held: num,
    /** The player's step (from 1) of stepCount; the last step repeats. */
    step: num,
    stepCount: num,
    jackpotDrawn: bool,
    resets: num,
    /** Prizes left in the current box, and the box's size. */
    remaining: num,
    total: num,
  },
  'ChestView',
);
export type ChestView = t.TypeOf<typeof ChestView>;

export const prizeProps = { prizeId: num, kind: GrantKind, objectId: num, amount: num, jackpot: bool };
/** A prize of the current box: its count and how many are left. */
export const ChestPrizeView = t.type({ ...prizeProps, count: num, remaining: num }, 'ChestPrizeView');
/** A prize drawn, and the present it went to when it did not fit (null when granted). */
export const ChestDrawResult = t.type({ ...prizeProps, managedPresentId: nullable(num) }, 'ChestDrawResult');
/** A chest's current step: the box and what is left in it. */
export const ChestStepResponse = (name: string) =>
  t.type(
    {
      chestId: num,
      step: num,
      stepCount: num,
      jackpotDrawn: bool,
      resets: num,
      remaining: num,
      prizes: t.array(ChestPrizeView),
    },
    name,
  );

// ---- get_all ----
export const getAll = describeOp({
  name: 'getAllPlayerChest',
  method: 'GET',
  path: '/player/chest/get_all',
  group: 'chest',
  readOnly: true,
  summary: "Chests open now with their cost, the player's step and the prizes remaining in its box.",
  request: objWithOptional({}, {}, 'GetAllPlayerChestRequest'),
  response: t.type({ chests: t.array(ChestView) }, 'GetAllPlayerChestResponse'),
  errors: [],
});

// ---- get_step ----
export const getStep = describeOp({
  name: 'getStepPlayerChest',
  method: 'POST',
  path: '/player/chest/get_step',
  group: 'chest',
  readOnly: true,
  summary: 'The prizes of the current step of a chest, each with its count and what remains.',
  request: obj({ chestId: PosInt }, 'GetStepPlayerChestRequest'),
  response: ChestStepResponse('GetStepPlayerChestResponse'),
  errors: ['NOT_FOUND'],
});

// ---- draw ----
export const draw = describeOp({
  name: 'drawPlayerChest',
  method: 'POST',
  path: '/player/chest/draw',
  group: 'chest',
  summary: 'Draws count prizes from a chest, paying count × its cost; each draw is weighted by the remaining counts.',
  request: obj({ chestId: PosInt, count: PosInt }, 'DrawPlayerChestRequest'),
  response: t.type(
    {
      chestId: num,
      /** The step drawn from (from 1). */
      step: num,
      results: t.array(ChestDrawResult),
      /** Prizes left in the box after the draw. */
      remaining: num,
      jackpotDrawn: bool,
    },
    'DrawPlayerChestResponse',
  ),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'CHEST_OUT_OF_PERIOD', 'STATE_CONFLICT', 'ITEM_IS_SHORT'],
});

// ---- reset ----
export const reset = describeOp({
  name: 'resetPlayerChest',
  method: 'POST',
  path: '/player/chest/reset',
  group: 'chest',
  summary: "After the jackpot is drawn, moves the chest to the next step's full box (the last step repeats).",
  request: obj({ chestId: PosInt }, 'ResetPlayerChestRequest'),
  response: ChestStepResponse('ResetPlayerChestResponse'),
  errors: ['NOT_FOUND', 'CHEST_OUT_OF_PERIOD', 'STATE_CONFLICT'],
});

/** The group's descriptions, in the table's order. */
export const chestApi = [draw, getAll, getStep, reset] as const;
