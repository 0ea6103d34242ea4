// The town: the layout of content buildings (with the facilities near each) and
// of the build points. Anyone's layout can be read; only public data is shown.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import { nullable } from '../views/codecs.js';
import type { Master } from '../master/index.js';
import type { OwnedFacility, PlayerState } from '../state.js';
import type { TownLayout } from '../state/town.js';
import { ok } from '../shared/result.js';
import { checkTown, readTarget, roomState, settleFacility, touchesPlayer } from '../shared/town.js';
import { BuildPoints } from './townFacility.js';

/** A placed facility as anyone may see it: what it is and its level, never its managed id. */
const PublicPlacedFacility = t.type(
  { facilityId: t.number, level: t.number, covered: t.boolean, levelingUp: t.boolean },
  'PublicPlacedFacility',
);
/** The owner's own placed facility: the same with its managed id. */
const PlacedFacility = t.type({ managedTownFacilityId: t.number, ...PublicPlacedFacility.props }, 'PlacedFacility');
const PublicResident = t.type({ characterId: t.number }, 'PublicTownResident');
const Resident = t.type({ managedCharacterId: t.number, characterId: t.number }, 'TownResident');

/** A town as shown: a place names no facility (null) when the one placed there is gone. */
const townCodec = <F extends t.Mixed, R extends t.Mixed>(facility: F, resident: R, name: string) =>
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

/** The layout with each placed facility and resident shown by the given functions. */
const layoutView = <F, R>(
  m: Master,
  s: PlayerState,
  now: number,
  facility: (id: number, f: OwnedFacility) => F,
  resident: (managedCharacterId: number, characterId: number) => R,
) => {
  const placed = (id: number): F | null => {
    const f = s.facilities.find((x) => x.managedTownFacilityId === id);
    return f ? facility(id, settleFacility(m, f, now)) : null;
  };
  return {
    playerId: s.playerId,
    name: s.name,
    buildPoints: s.townLayout.buildPoints.map((b) => ({
      buildPointId: b.buildPointId,
      facility: placed(b.managedTownFacilityId),
    })),
    contentBuildings: s.townLayout.contentBuildings.map((c) => ({
      lotId: c.lotId,
      contentRoomId: c.contentRoomId,
      titleId: m.contentRoom.get(c.contentRoomId)?.titleId ?? 0,
      residents: roomState(s, c.contentRoomId).managedCharacterIds.map((id) =>
        resident(id, s.characters.find((x) => x.managedCharacterId === id)?.characterId ?? 0),
      ),
      facilities: c.facilities.map((x) => ({ slot: x.slot, facility: placed(x.managedTownFacilityId) })),
    })),
  };
};

const publicPlaced = (f: OwnedFacility): t.TypeOf<typeof PublicPlacedFacility> => ({
  facilityId: f.facilityId,
  level: f.level,
  covered: f.covered,
  levelingUp: f.levelUp !== null,
});

/** The owner's town: managed ids of facilities and residents too. */
export const townView = (m: Master, s: PlayerState, now: number): TownView =>
  layoutView(
    m,
    s,
    now,
    (id, f) => ({ managedTownFacilityId: id, ...publicPlaced(f) }),
    (managedCharacterId, characterId) => ({ managedCharacterId, characterId }),
  );

/** Another player's town: facility kinds, levels and resident characters only. */
export const publicTownView = (m: Master, s: PlayerState, now: number): PublicTownView =>
  layoutView(
    m,
    s,
    now,
    (_id, f) => publicPlaced(f),
    (_id, characterId) => ({ characterId }),
  );

const getAll = defineOp({
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
  touches: touchesPlayer,
  reduce: (s, req, _rng, now, { master: m, others }) => {
    const r = readTarget(s, req.playerId, others);
    if (r._tag === 'Left') return r;
    const { target, own } = r.right;
    return ok({ state: s, response: { town: own ? townView(m, target, now) : publicTownView(m, target, now) } });
  },
});

const ContentBuildings = t.array(
  obj({
    lotId: PosInt,
    contentRoomId: PosInt,
    facilities: t.array(obj({ slot: PosInt, managedTownFacilityId: PosInt })),
  }),
);

const set = defineOp({
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
  reduce: (s, req, _rng, _now, { master: m }) => {
    const layout: TownLayout = {
      buildPoints: req.buildPoints ?? s.townLayout.buildPoints,
      contentBuildings: req.contentBuildings,
    };
    const checked = checkTown(m, s, layout);
    if (checked._tag === 'Left') return checked;
    return ok({ state: { ...s, townLayout: layout }, response: {} });
  },
});

export const townOps = [getAll, set] as const;
