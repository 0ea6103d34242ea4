// The field party: the characters living in the town (the content rooms'
// residents) with today's hourly schedule, drawn from a generator seeded by
// player, character and game day, so every call and server gives the same day.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import { pickWeighted, rngFromSeed } from '../rng.js';
import { dayIndex } from '../time.js';
import { fail, ok } from '../shared/result.js';
import { putRoomState, readTarget, residents, roomState, touchesPlayer } from '../shared/town.js';
import * as api from '../api/fieldParty.js';
import { type FieldPartyMember, type PublicFieldPartyMember } from '../api/fieldParty.js';

const HOURS_A_DAY = 24;

/** Where a character goes each hour of a game day: the same for the same player, character and day. */
export const scheduleOf = (
  m: Master,
  playerId: number,
  managedCharacterId: number,
  day: number,
): Array<{ hour: number; spotId: number }> => {
  const rng = rngFromSeed(`${playerId}:${managedCharacterId}:${day}`);
  return Array.from({ length: HOURS_A_DAY }, (_, i) => ({
    // The game day starts at the reset hour, so its hours run from there round the clock.
    hour: (m.game.dayResetHour + i) % HOURS_A_DAY,
    spotId: pickWeighted(rng, m.town.fieldSpots).spotId,
  }));
};

const membersView = (m: Master, s: PlayerState, now: number): FieldPartyMember[] => {
  const day = dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
  return residents(s).map((r) => ({
    managedCharacterId: r.managedCharacterId,
    characterId: s.characters.find((c) => c.managedCharacterId === r.managedCharacterId)?.characterId ?? 0,
    contentRoomId: r.contentRoomId,
    schedule: scheduleOf(m, s.playerId, r.managedCharacterId, day),
  }));
};

/** Another player's residents: the same without managed ids. */
const publicMembersView = (m: Master, s: PlayerState, now: number): PublicFieldPartyMember[] =>
  membersView(m, s, now).map(({ characterId, contentRoomId, schedule }) => ({ characterId, contentRoomId, schedule }));

const getAll = implementOp(api.getAll, {
  touches: touchesPlayer,
  reduce: (s, req, _rng, now, { master: m, others }) => {
    const r = readTarget(s, req.playerId, others);
    if (r._tag === 'Left') return r;
    const { target, own } = r.right;
    return ok({
      state: s,
      response: {
        playerId: target.playerId,
        dayIndex: dayIndex(now, m.game.timezoneOffsetMinutes, m.game.dayResetHour),
        fieldPartyMembers: own ? membersView(m, target, now) : publicMembersView(m, target, now),
      },
    });
  },
});

const removeAll = implementOp(api.removeAll, {
  reduce: (s, req, _rng, _now) => {
    const ids = req.managedCharacterIds;
    if (ids.length === 0)
      return fail('INVALID_PARAMETERS', { field: 'managedCharacterIds', reason: 'must name at least one character' });
    if (new Set(ids).size !== ids.length)
      return fail('INVALID_PARAMETERS', { field: 'managedCharacterIds', reason: 'names a character twice' });
    const living = new Map(residents(s).map((r) => [r.managedCharacterId, r.contentRoomId]));
    for (const id of ids) {
      if (!s.characters.some((c) => c.managedCharacterId === id)) return fail('NOT_FOUND', { entity: 'character', id });
      if (!living.has(id)) return fail('STATE_CONFLICT', { reason: `character ${id} does not live in the town` });
    }
    const gone = new Set(ids);
    let state = s;
    for (const roomId of new Set(ids.map((id) => living.get(id) as number))) {
      const rs = roomState(state, roomId);
      state = putRoomState(state, { ...rs, managedCharacterIds: rs.managedCharacterIds.filter((x) => !gone.has(x)) });
    }
    return ok({ state, response: { removed: ids } });
  },
});

export const fieldPartyOps = [getAll, removeAll] as const;
