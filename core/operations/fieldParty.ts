// The field party: the characters living in the town (the content rooms'
// residents) with today's hourly schedule, drawn from a generator seeded by
// player, character and game day, so every call and server gives the same day.
import * as t from 'io-ts';
import { PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import { pickWeighted, rngFromSeed } from '../rng.js';
import { dayIndex } from '../time.js';
import { fail, ok } from '../shared/result.js';
import { putRoomState, readTarget, residents, roomState, touchesPlayer } from '../shared/town.js';

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

const ScheduleEntry = t.type({ hour: t.number, spotId: t.number }, 'FieldScheduleEntry');
/** A resident of another player's town: no managed id. */
const PublicFieldPartyMember = t.type(
  { characterId: t.number, contentRoomId: t.number, schedule: t.array(ScheduleEntry) },
  'PublicFieldPartyMember',
);
/** One of the caller's own residents. */
const FieldPartyMember = t.type({ managedCharacterId: t.number, ...PublicFieldPartyMember.props }, 'FieldPartyMember');
type FieldPartyMember = t.TypeOf<typeof FieldPartyMember>;
type PublicFieldPartyMember = t.TypeOf<typeof PublicFieldPartyMember>;

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

const getAll = defineOp({
  name: 'getAllPlayerFieldPartyMember',
  method: 'GET',
  path: '/player/field_party/member/get_all',
  group: 'fieldParty',
  readOnly: true,
  summary:
    "The characters living in the town of the given player (default: the caller), each with today's schedule: where it goes each hour.",
  request: objWithOptional({}, { playerId: PosInt }, 'GetAllPlayerFieldPartyMemberRequest'),
  response: t.type(
    {
      playerId: t.number,
      dayIndex: t.number,
      fieldPartyMembers: t.union([t.array(FieldPartyMember), t.array(PublicFieldPartyMember)]),
    },
    'GetAllPlayerFieldPartyMemberResponse',
  ),
  errors: ['PLAYER_NOT_FOUND'],
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

const removeAll = defineOp({
  name: 'removeAllPlayerFieldPartyMember',
  method: 'POST',
  path: '/player/field_party/member/remove_all',
  group: 'fieldParty',
  summary: 'Makes exactly the named characters stop living in the town (they leave their content rooms).',
  request: obj({ managedCharacterIds: t.array(PosInt) }, 'RemoveAllPlayerFieldPartyMemberRequest'),
  response: t.type({ removed: t.array(t.number) }, 'RemoveAllPlayerFieldPartyMemberResponse'),
  errors: ['INVALID_PARAMETERS', 'NOT_FOUND', 'STATE_CONFLICT'],
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
