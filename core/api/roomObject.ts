// The descriptions of core/operations/roomObject.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import { objWithOptional, PosInt, obj } from '../codecs.js';
import { FloorId, Placement } from './room.js';
import * as t from 'io-ts';

export const buySet = describeOp({
  name: 'buySetPlayerRoomObject',
  method: 'POST',
  path: '/player/room_object/buy_set',
  aliases: ['/player/room_object/buy'],
  group: 'roomObject',
  summary:
    'Buys an amount of one room object with coins (bargain price inside its period) and places the bought ones given positions on a floor.',
  request: objWithOptional(
    { roomObjectId: PosInt, amount: PosInt },
    { floorId: FloorId, placements: t.array(Placement) },
    'BuySetPlayerRoomObjectRequest',
  ),
  response: t.type({ managedRoomObjectIds: t.array(t.number), unitPrice: t.number }, 'BuySetPlayerRoomObjectResponse'),
  errors: [
    'INVALID_PARAMETERS',
    'NOT_FOUND',
    'BUY_OUT_OF_PERIOD',
    'ROOM_OBJECT_LIMIT',
    'STATE_CONFLICT',
    'ROOM_LIMIT',
    'GOLD_IS_SHORT',
  ],
});

export const sale = describeOp({
  name: 'salePlayerRoomObject',
  method: 'POST',
  path: '/player/room_object/sale',
  group: 'roomObject',
  summary: 'Sells owned room objects for coins; placed ones leave the room.',
  request: obj({ managedRoomObjectIds: t.array(PosInt) }, 'SalePlayerRoomObjectRequest'),
  response: t.type({ managedRoomObjectIds: t.array(t.number), gold: t.number }, 'SalePlayerRoomObjectResponse'),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'CURRENCY_LIMIT'],
});

export const limitAdd = describeOp({
  name: 'addPlayerRoomObjectLimit',
  method: 'POST',
  path: '/player/room_object/limit/add',
  group: 'roomObject',
  summary: 'Raises the room-object storage by the configured step for gems, up to the cap.',
  request: objWithOptional({}, {}, 'AddPlayerRoomObjectLimitRequest'),
  response: t.type({ roomObjectLimit: t.number }, 'AddPlayerRoomObjectLimitResponse'),
  errors: ['ROOM_OBJECT_EXT_LIMIT', 'GEM_IS_SHORT'],
});

/** The group's descriptions, in the table's order. */
export const roomObjectApi = [limitAdd, buySet, sale] as const;
