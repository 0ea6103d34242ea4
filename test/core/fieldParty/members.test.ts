// The field party (docs/rules/town.md, Content rooms and the field party): the residents of
// the town, room by room, each with a 24-hour schedule of known spots in game-day order from
// the reset hour; another player's without managed ids; remove_all takes out exactly the
// characters named. Each refusal names the characters field or the character.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth, grantCharacters } from '../../_support/core.js';
import { DAY, HOUR } from '../../../core/time.js';
import type { PlayerState } from '../../../core/state.js';
import type { ResponseOf } from '../../../core/operations/table.js';
import type { GameError } from '../../../core/errors.js';

// Title 1: characters 1011-1015; title 2: 1021-1024. Their content rooms: 101 and 102 (capacity 3).
const ROOM1 = 101;
const ROOM2 = 102;
const mid = (s: PlayerState, characterId: number): number =>
  s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;

const player = (playerId = 1): PlayerState =>
  withCharacters(
    withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 }),
    [1011, 1012, 1013, 1014, 1021],
  );

const housed = (t: ExecutionContext, s: PlayerState = player()): PlayerState => {
  const a = ok(t, 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s, 1011), mid(s, 1012)],
  }).state;
  return ok(t, 'setAllPlayerContentRoomMember', a, { contentRoomId: ROOM2, managedCharacterIds: [mid(s, 1021)] }).state;
};
type Member = ResponseOf<'getAllPlayerFieldPartyMember'>['fieldPartyMembers'][number];
const members = (t: ExecutionContext, s: PlayerState, req: unknown = {}, opts = {}): Member[] =>
  ok(t, 'getAllPlayerFieldPartyMember', s, req, opts).response.fieldPartyMembers;

const m = master();

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
/** Characters 1011 and 1012 live in room 101; 1013 is owned but lives nowhere. */
const housedInOneRoom = (t: ExecutionContext): PlayerState => {
  const s = withCharacters(freshPlayer(), [1011, 1012, 1013]);
  return ok(t, 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s, 1011), mid(s, 1012)],
  }).state;
};

const rich = (playerId = 1): PlayerState =>
  withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
/** A player owning characters of titles 1 and 2 (so content rooms 101 and 102 have appeared). */
const townsfolk = (playerId = 1): PlayerState => withCharacters(rich(playerId), [1011, 1012, 1021]);

test('field_party/member/get_all lists the residents with a 24-hour schedule of known spots', (t) => {
  const s = housed(t);
  const list = members(t, s);
  t.deepEqual(
    list.map((x) => x.characterId),
    [1011, 1012, 1021],
  );
  const spots = new Set(master().town.fieldSpots.map((x) => x.spotId));
  for (const x of list) {
    t.is(x.schedule.length, 24);
    t.deepEqual(new Set(x.schedule.map((h) => h.hour)).size, 24);
    t.true(x.schedule.every((h) => spots.has(h.spotId)));
  }
});

test('field party schedules: the same game day gives the same schedule on every call; another day another', (t) => {
  const s = housed(t);
  const morning = members(t, s, {}, { now: NOW, seed: 'a' });
  const evening = members(t, s, {}, { now: NOW + 8 * HOUR, seed: 'b' });
  t.deepEqual(morning, evening);
  const days = [1, 2, 3].map((d) => members(t, s, {}, { now: NOW + d * DAY }));
  t.true(
    days.some((d) => JSON.stringify(d) !== JSON.stringify(morning)),
    'some later day differs',
  );
  // Pinned: the generator is seeded by player, character (its managed id, in the player's own id range) and day, nothing else.
  t.deepEqual(
    morning.map((x) => x.schedule.map((h) => h.spotId).join(',')),
    [
      '4,1,2,1,1,7,6,1,1,1,3,1,3,4,2,1,6,1,2,6,4,1,1,1',
      '3,9,1,1,2,3,2,4,4,2,8,9,1,3,5,1,6,3,9,7,6,1,1,1',
      '2,3,6,2,3,2,1,5,1,5,3,4,5,6,2,6,3,4,9,1,2,1,2,3',
    ],
  );
  // The game day starts at the reset hour.
  t.is(morning[0]!.schedule[0]!.hour, master().game.dayResetHour);
});

test("field_party/member/get_all?playerId shows another player's residents without managed ids; unknown player 202", (t) => {
  const other = housed(t, player(2));
  const list = members(t, player(1), { playerId: 2 }, { others: [other] });
  t.deepEqual(
    list.map((x) => x.characterId),
    [1011, 1012, 1021],
  );
  t.true(list.every((x) => !('managedCharacterId' in x)));
  // The same schedule as its owner sees.
  t.deepEqual(
    list.map((x) => x.schedule),
    members(t, other).map((x) => x.schedule),
  );
  fails(t, 'PLAYER_NOT_FOUND', 'getAllPlayerFieldPartyMember', player(1), { playerId: 3 }, { others: [undefined] });
});

test('a schedule runs through the game day hour by hour from the reset hour round the clock: 4 … 23, then 0 … 3', (t) => {
  t.is(m.game.dayResetHour, 4, "the fixture's game day starts at 04:00");
  const party = ok(t, 'getAllPlayerFieldPartyMember', housedInOneRoom(t), {}).response.fieldPartyMembers;
  const day = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3];
  t.is(party.length, 2);
  for (const member of party)
    t.deepEqual(
      member.schedule.map((h) => h.hour),
      day,
    );
});

test('the field party lists the residents room by room in room id order, whatever order the rooms were filled in', (t) => {
  const s0 = townsfolk();
  const a = ok(t, 'setAllPlayerContentRoomMember', s0, {
    contentRoomId: ROOM2,
    managedCharacterIds: [mid(s0, 1021)],
  }).state;
  const b = ok(t, 'setAllPlayerContentRoomMember', a, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s0, 1012), mid(s0, 1011)],
  }).state;
  const list = ok(t, 'getAllPlayerFieldPartyMember', b, {}).response.fieldPartyMembers;
  t.deepEqual(
    list.map((x) => [x.contentRoomId, x.characterId]),
    [
      [ROOM1, 1012],
      [ROOM1, 1011],
      [ROOM2, 1021],
    ],
  );
  t.deepEqual(
    b.contentRooms.map((r) => r.contentRoomId),
    [ROOM1, ROOM2],
    'stored by room id',
  );
});

// ---- remove_all ----

test('field_party/member/remove_all removes exactly the characters named', (t) => {
  const s = housed(t);
  const r = ok(t, 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1012), mid(s, 1021)] });
  t.deepEqual(
    members(t, r.state).map((x) => x.characterId),
    [1011],
  );
  t.deepEqual(ok(t, 'getAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM2 }).response.members, []);
});

test('field_party/member/remove_all: empty or repeated is 102, not owned 107, not living in town 317', (t) => {
  const s = housed(t);
  fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [] });
  fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, {
    managedCharacterIds: [mid(s, 1011), mid(s, 1011)],
  });
  fails(t, 'NOT_FOUND', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [99999] });
  fails(t, 'STATE_CONFLICT', 'removeAllPlayerFieldPartyMember', s, {
    managedCharacterIds: [mid(s, 1011), mid(s, 1013)],
  });
});

test('remove_all naming nobody, or someone twice, is 102 on managedCharacterIds saying why', (t) => {
  const s = housedInOneRoom(t);
  const none = fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [] });
  t.is(fieldOf(none), 'managedCharacterIds');
  t.regex(reasonOf(none), /at least one/);
  const twice = fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, {
    managedCharacterIds: [mid(s, 1011), mid(s, 1011)],
  });
  t.is(fieldOf(twice), 'managedCharacterIds');
  t.regex(reasonOf(twice), /twice/);
});

test('remove_all of a character not owned is 107 naming it; of an owned one not living in the town 317 naming it', (t) => {
  const s = housedInOneRoom(t);
  t.like(fails(t, 'NOT_FOUND', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), 99999] }), {
    entity: 'character',
    id: 99999,
  });
  const idle = mid(s, 1013);
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), idle] }),
    ),
    new RegExp(`character ${idle}\\b.*does not live in the town`),
  );
});
