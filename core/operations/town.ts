// The town: the layout of content buildings (with the facilities near each) and
// of the build points. Anyone's layout can be read; only public data is shown.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp, type AnyOperation } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import type { TownLayout } from '../state/town.js';
import { ok } from '../shared/result.js';
import { checkTown, readTarget, roomState, settleFacility, touchesPlayer } from '../shared/town.js';
import { BuildPoints } from './townFacility.js';

/** A placed facility as others may see it: what it is and its level, never its managed id. */
const placedView = (m: Master, s: PlayerState, id: number, now: number, own: boolean) => {
  const f = s.facilities.find((x) => x.managedTownFacilityId === id);
  if (!f) return null;
  const st = settleFacility(m, f, now);
  const pub = { facilityId: st.facilityId, level: st.level, covered: st.covered, levelingUp: st.levelUp !== null };
  return own ? { managedTownFacilityId: id, ...pub } : pub;
};

export const townView = (m: Master, s: PlayerState, now: number, own: boolean) => ({
  playerId: s.playerId,
  name: s.name,
  buildPoints: s.townLayout.buildPoints.map((b) => ({ buildPointId: b.buildPointId, facility: placedView(m, s, b.managedTownFacilityId, now, own) })),
  contentBuildings: s.townLayout.contentBuildings.map((c) => ({
    lotId: c.lotId,
    contentRoomId: c.contentRoomId,
    titleId: m.contentRoom.get(c.contentRoomId)?.titleId ?? 0,
    // Residents by character (public); the owner also sees the managed ids.
    residents: roomState(s, c.contentRoomId).managedCharacterIds.map((id) => {
      const characterId = s.characters.find((x) => x.managedCharacterId === id)?.characterId ?? 0;
      return own ? { managedCharacterId: id, characterId } : { characterId };
    }),
    facilities: c.facilities.map((x) => ({ slot: x.slot, facility: placedView(m, s, x.managedTownFacilityId, now, own) })),
  })),
});

const TownResponse = t.type({ playerId: t.number, name: t.string, buildPoints: t.array(t.unknown), contentBuildings: t.array(t.unknown) });

const getAll = defineOp({
  name: 'getAllPlayerTown', method: 'GET', path: '/player/town/get_all', group: 'town', access: 'session', readOnly: true,
  summary: 'The town layout of the given player (default: the caller): content buildings, their residents and nearby facilities, and the build points. Another player\'s shows public data only.',
  request: objWithOptional({}, { playerId: PosInt }, 'GetAllPlayerTownRequest'),
  response: t.type({ town: TownResponse }, 'GetAllPlayerTownResponse'),
  errors: ['PLAYER_NOT_FOUND'],
  touches: touchesPlayer,
  reduce: (s, req, _rng, now, { master: m, others }) => {
    const r = readTarget(s, req.playerId, others);
    if (r._tag === 'Left') return r;
    return ok({ state: s, response: { town: townView(m, r.right.target, now, r.right.own) } });
  },
});

const ContentBuildings = t.array(obj({
  lotId: PosInt, contentRoomId: PosInt,
  facilities: t.array(obj({ slot: PosInt, managedTownFacilityId: PosInt })),
}));

const set = defineOp({
  name: 'setPlayerTown', method: 'POST', path: '/player/town/set', group: 'town', access: 'session',
  summary: 'Sets the town layout: the content buildings with the facilities near each, and (when given) the build points.',
  request: objWithOptional({ contentBuildings: ContentBuildings }, { buildPoints: BuildPoints }, 'SetPlayerTownRequest'),
  response: t.type({}, 'SetPlayerTownResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
  reduce: (s, req, _rng, _now, { master: m }) => {
    const layout: TownLayout = { buildPoints: req.buildPoints ?? s.townLayout.buildPoints, contentBuildings: req.contentBuildings };
    const checked = checkTown(m, s, layout);
    if (checked._tag === 'Left') return checked;
    return ok({ state: { ...s, townLayout: layout }, response: {} });
  },
});

export const townOps: AnyOperation[] = [getAll, set];
