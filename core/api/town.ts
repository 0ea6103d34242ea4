// The descriptions of core/operations/town.ts's entries (name, path, codecs, errors, doc): no reducer.
import { describeOp } from './describe.js';
import * as t from 'io-ts';
import { nullable } from '../views/codecs.js';
import { obj, PosInt, objWithOptional } from '../codecs.js';
import { BuildPoints } from './townFacility.js';

/** A placed facility as anyone may see it: what it is and its level, never its managed id. */
export const PublicPlacedFacility = t.type(
  { facilityId: t.number, level: t.number, covered: t.boolean, levelingUp: t.boolean },
  'PublicPlacedFacility',
);
/** The owner's own placed facility: the same with its managed id. */
export const PlacedFacility = t.type(
  { managedTownFacilityId: t.number, ...PublicPlacedFacility.props },
  'PlacedFacility',
);
export const PublicResident = t.type({ characterId: t.number }, 'PublicTownResident');
export const Resident = t.type({ managedCharacterId: t.number, characterId: t.number }, 'TownResident');

/** A town as shown: a place names no facility (null) when the one placed there is gone. */
export const townCodec = <F extends t.Mixed, R extends t.Mixed>(facility: F, resident: R, name: string) =>
  t.type(
    {
      playerId: t.number,
      name: t.string,
      buildPoints: t.array(t.type({ buildPointId: t.number, facility: nullable(facility) })),
      contentBuildings: t.array(
        t.type({
          lotId: t.number,
          contentRoomId: t.number,
          titleId: t.number,
          residents: t.array(resident),
          facilities: t.array(t.type({ slot: t.number, facility: nullable(facility) })),
        }),
      ),
    },
    name,
  );
/** The caller's own town, with managed ids. */
export const TownView = townCodec(PlacedFacility, Resident, 'TownView');
export type TownView = t.TypeOf<typeof TownView>;
/** Another player's town: public data only. */
export const PublicTownView = townCodec(PublicPlacedFacility, PublicResident, 'PublicTownView');
export type PublicTownView = t.TypeOf<typeof PublicTownView>;

export const ContentBuildings = t.array(
  obj({
    lotId: PosInt,
    contentRoomId: PosInt,
    facilities: t.array(obj({ slot: PosInt, managedTownFacilityId: PosInt })),
  }),
);

export const getAll = describeOp({
  name: 'getAllPlayerTown',
  method: 'GET',
  path: '/player/town/get_all',
  group: 'town',
  readOnly: true,
  summary:
    "The town layout of the given player (default: the caller): content buildings, their residents and nearby facilities, and the build points. Another player's shows public data only.",
  request: objWithOptional({}, { playerId: PosInt }, 'GetAllPlayerTownRequest'),
  response: t.type({ town: t.union([TownView, PublicTownView]) }, 'GetAllPlayerTownResponse'),
  errors: ['PLAYER_NOT_FOUND'],
});

export const set = describeOp({
  name: 'setPlayerTown',
  method: 'POST',
  path: '/player/town/set',
  group: 'town',
  summary:
    'Sets the town layout: the content buildings with the facilities near each, and (when given) the build points.',
  request: objWithOptional(
    { contentBuildings: ContentBuildings },
    { buildPoints: BuildPoints },
    'SetPlayerTownRequest',
  ),
  response: t.type({}, 'SetPlayerTownResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
});

/** The group's descriptions, in the table's order. */
export const townApi = [getAll, set] as const;
