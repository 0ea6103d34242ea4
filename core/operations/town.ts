// The town: the layout of content buildings (with the facilities near each) and
// of the build points. Anyone's layout can be read; only public data is shown.
import type * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import { nullable } from '../views/codecs.js';
import type { Master } from '../master/index.js';
import type { OwnedFacility, PlayerState } from '../state.js';
import type { TownLayout } from '../state/town.js';
import { ok } from '../shared/result.js';
import { checkTown, readTarget, roomState, settleFacility, touchesPlayer } from '../shared/town.js';
import { BuildPoints } from './townFacility.js';
import * as api from '../api/town.js';
import { type TownView, type PublicPlacedFacility, type PublicTownView } from '../api/town.js';
export { TownView, PublicTownView } from '../api/town.js';

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

const getAll = implementOp(api.getAll, {
  touches: touchesPlayer,
  reduce: (s, req, _rng, now, { master: m, others }) => {
    const r = readTarget(s, req.playerId, others);
    if (r._tag === 'Left') return r;
    const { target, own } = r.right;
    return ok({ state: s, response: { town: own ? townView(m, target, now) : publicTownView(m, target, now) } });
  },
});

const set = implementOp(api.set, {
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
