// The town layout, content rooms and the field party.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import { DAY, HOUR } from '../../core/time.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { PlayerState } from '../../core/state.js';
import { answerProblems } from '../../core/answer-check.js';
import { PublicTownView, TownView } from '../../core/operations/town.js';
import type { ResponseOf } from '../../core/operations/table.js';

// Title 1: characters 1011-1015; title 2: 1021-1024. Their content rooms: 101 and 102 (capacity 3).
const ROOM1 = 101;
const ROOM2 = 102;

const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => {
  let cur = s;
  for (const id of characterIds) {
    const r = tryGrant(master(), cur, { kind: 'character', objectId: id, amount: 1 }, NOW);
    if (r._tag === 'Left') throw new Error(r.left.code);
    cur = r.right.state;
  }
  return cur;
};
const mid = (s: PlayerState, characterId: number): number => s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;

const player = (playerId = 1): PlayerState =>
  withCharacters(withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 }), [1011, 1012, 1013, 1014, 1021]);

const withFacilities = (t: ExecutionContext, s: PlayerState, n: number): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: 1, amount: n }] });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};

// ---- content rooms ----
test('a content room appears (new) when a character of its title is first owned; set_shown marks it seen', (t) => {
  const s0 = freshPlayer();
  fails(t, 'NOT_FOUND', 'setShownPlayerContentRoom', s0, { contentRoomId: ROOM1 });
  const s = withCharacters(s0, [1011]);
  const before = ok(t, 'getAllPlayerContentRoomMember', s, { contentRoomId: ROOM1 });
  t.true(before.response.isNew);
  const r = ok(t, 'setShownPlayerContentRoom', s, { contentRoomId: ROOM1 });
  t.false(ok(t, 'getAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM1 }).response.isNew);
  // The changed content rooms come with the answer.
  t.deepEqual(r.response.contentRooms?.map((x) => [x.contentRoomId, x.isNew]), [[ROOM1, false]]);
  // Marking it again changes nothing.
  t.is(ok(t, 'setShownPlayerContentRoom', r.state, { contentRoomId: ROOM1 }).state, r.state);
});

test('set_shown: an unknown content room is 107', (t) => {
  fails(t, 'NOT_FOUND', 'setShownPlayerContentRoom', player(), { contentRoomId: 999 });
});

test('member/set_all sets the residents; member/get_all lists them', (t) => {
  const s = player();
  const ids = [mid(s, 1011), mid(s, 1012)];
  const r = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: ids });
  const got = ok(t, 'getAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM1 });
  t.deepEqual(got.response.members, [{ managedCharacterId: ids[0], characterId: 1011 }, { managedCharacterId: ids[1], characterId: 1012 }]);
  // Replacing with an empty list empties the room.
  const empty = ok(t, 'setAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM1, managedCharacterIds: [] });
  t.deepEqual(ok(t, 'getAllPlayerContentRoomMember', empty.state, { contentRoomId: ROOM1 }).response.members, []);
});

test('member/get_all: an unknown content room or one not appeared yet is 107', (t) => {
  const s = player();
  fails(t, 'NOT_FOUND', 'getAllPlayerContentRoomMember', s, { contentRoomId: 999 });
  fails(t, 'NOT_FOUND', 'getAllPlayerContentRoomMember', s, { contentRoomId: 103 });
});

test('member/set_all: over capacity, a repeat or a character of another title is 102; not owned or unknown room is 107', (t) => {
  const s = player();
  const four = [1011, 1012, 1013, 1014].map((c) => mid(s, c));
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: four });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [four[0], four[0]] });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [mid(s, 1021)] });
  fails(t, 'NOT_FOUND', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [99999] });
  fails(t, 'NOT_FOUND', 'setAllPlayerContentRoomMember', s, { contentRoomId: 103, managedCharacterIds: [] });
});

// ---- field party ----
const housed = (t: ExecutionContext, s: PlayerState = player()): PlayerState => {
  const a = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [mid(s, 1011), mid(s, 1012)] }).state;
  return ok(t, 'setAllPlayerContentRoomMember', a, { contentRoomId: ROOM2, managedCharacterIds: [mid(s, 1021)] }).state;
};
type Member = ResponseOf<'getAllPlayerFieldPartyMember'>['fieldPartyMembers'][number];
const members = (t: ExecutionContext, s: PlayerState, req: unknown = {}, opts = {}): Member[] =>
  ok(t, 'getAllPlayerFieldPartyMember', s, req, opts).response.fieldPartyMembers;

test('field_party/member/get_all lists the residents with a 24-hour schedule of known spots', (t) => {
  const s = housed(t);
  const list = members(t, s);
  t.deepEqual(list.map((x) => x.characterId), [1011, 1012, 1021]);
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
  t.true(days.some((d) => JSON.stringify(d) !== JSON.stringify(morning)), 'some later day differs');
  // Pinned: the generator is seeded by player, character (its managed id, in the player's own id range) and day, nothing else.
  t.deepEqual(morning.map((x) => x.schedule.map((h) => h.spotId).join(',')), [
    '4,1,2,1,1,7,6,1,1,1,3,1,3,4,2,1,6,1,2,6,4,1,1,1',
    '3,9,1,1,2,3,2,4,4,2,8,9,1,3,5,1,6,3,9,7,6,1,1,1',
    '2,3,6,2,3,2,1,5,1,5,3,4,5,6,2,6,3,4,9,1,2,1,2,3',
  ]);
  // The game day starts at the reset hour.
  t.is(morning[0]!.schedule[0]!.hour, master().game.dayResetHour);
});

test('field_party/member/get_all?playerId shows another player\'s residents without managed ids; unknown player 202', (t) => {
  const other = housed(t, player(2));
  const list = members(t, player(1), { playerId: 2 }, { others: [other] });
  t.deepEqual(list.map((x) => x.characterId), [1011, 1012, 1021]);
  t.true(list.every((x) => !('managedCharacterId' in x)));
  // The same schedule as its owner sees.
  t.deepEqual(list.map((x) => x.schedule), members(t, other).map((x) => x.schedule));
  fails(t, 'PLAYER_NOT_FOUND', 'getAllPlayerFieldPartyMember', player(1), { playerId: 3 }, { others: [undefined] });
});

test('field_party/member/remove_all removes exactly the characters named', (t) => {
  const s = housed(t);
  const r = ok(t, 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1012), mid(s, 1021)] });
  t.deepEqual(members(t, r.state).map((x) => x.characterId), [1011]);
  t.deepEqual(ok(t, 'getAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM2 }).response.members, []);
});

test('field_party/member/remove_all: empty or repeated is 102, not owned 107, not living in town 317', (t) => {
  const s = housed(t);
  fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [] });
  fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), mid(s, 1011)] });
  fails(t, 'NOT_FOUND', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [99999] });
  fails(t, 'STATE_CONFLICT', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), mid(s, 1013)] });
});

// ---- the town ----
/** Whether a town shown is exactly the owner's view (managed ids included). */
const isOwnTown = (town: TownView | PublicTownView): town is TownView => answerProblems(TownView, town).length === 0;

test('town/set places content buildings with nearby facilities; town/get_all reads the own layout with managed ids', (t) => {
  const f = withFacilities(t, housed(t), 3);
  const r = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 1, managedTownFacilityId: f.ids[0] }, { slot: 3, managedTownFacilityId: f.ids[1] }] }],
    buildPoints: [{ buildPointId: 4, managedTownFacilityId: f.ids[2] }],
  });
  t.deepEqual(r.response.town, r.state.townLayout, 'the changed layout comes with the answer');
  const town = ok(t, 'getAllPlayerTown', r.state, {}).response.town;
  if (!isOwnTown(town)) return t.fail('the own town shows managed ids');
  t.deepEqual(town.buildPoints, [{ buildPointId: 4, facility: { managedTownFacilityId: f.ids[2]!, facilityId: 1, level: 1, covered: true, levelingUp: false } }]);
  const cb = town.contentBuildings[0]!;
  t.is(cb.contentRoomId, ROOM1);
  t.is(cb.titleId, 1);
  t.deepEqual(cb.residents, [{ managedCharacterId: mid(r.state, 1011), characterId: 1011 }, { managedCharacterId: mid(r.state, 1012), characterId: 1012 }]);
  t.is(cb.facilities.length, 2);
  // Without buildPoints, the build points stay as they are.
  const again = ok(t, 'setPlayerTown', r.state, { contentBuildings: [] });
  t.deepEqual(again.state.townLayout.buildPoints, r.state.townLayout.buildPoints);
  t.deepEqual(again.state.townLayout.contentBuildings, []);
});

test('town/set: an unknown lot, a content room not appeared or a facility not owned is 107', (t) => {
  const f = withFacilities(t, player(), 1);
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, { contentBuildings: [{ lotId: 99, contentRoomId: ROOM1, facilities: [] }] });
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, { contentBuildings: [{ lotId: 1, contentRoomId: 103, facilities: [] }] });
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, { contentBuildings: [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 1, managedTownFacilityId: 9999 }] }] });
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, { contentBuildings: [], buildPoints: [{ buildPointId: 999, managedTownFacilityId: f.ids[0] }] });
});

test('town/set: a lot, content room or slot used twice, a slot past the lot, or a facility placed twice is 102', (t) => {
  const f = withFacilities(t, player(), 2);
  const [a, b] = f.ids as [number, number];
  const cb = (lotId: number, contentRoomId: number, facilities: Array<{ slot: number; managedTownFacilityId: number }> = []) => ({ lotId, contentRoomId, facilities });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1), cb(1, ROOM2)] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1), cb(2, ROOM1)] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }, { slot: 1, managedTownFacilityId: b }])] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1, [{ slot: 4, managedTownFacilityId: a }])] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }]), cb(2, ROOM2, [{ slot: 1, managedTownFacilityId: a }])] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }])], buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }] });
  // A facility already placed near a content building cannot also go on a build point.
  const placed = ok(t, 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }])] }).state;
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerTownFacilityBuildPoint', placed, { buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(0, ROOM1)] });
});

test('town/get_all?playerId shows another player\'s layout: no managed ids, no currencies or items', (t) => {
  const f = withFacilities(t, housed(t, player(2)), 1);
  const other = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [{ lotId: 2, contentRoomId: ROOM1, facilities: [{ slot: 2, managedTownFacilityId: f.ids[0] }] }],
  }).state;
  const r = ok(t, 'getAllPlayerTown', player(1), { playerId: 2 }, { others: [other] });
  t.is(r.state.version, player(1).version, 'a read changes nothing');
  const text = JSON.stringify(r.response);
  for (const secret of ['managed', 'gold', 'gem', 'kirara', 'items', 'myCode']) t.false(text.includes(secret), `no ${secret}`);
  const town = r.response.town;
  t.deepEqual(answerProblems(PublicTownView, town), [], 'exactly the public view');
  t.is(town.playerId, 2);
  t.deepEqual(town.contentBuildings[0]!.residents, [{ characterId: 1011 }, { characterId: 1012 }]);
  t.deepEqual(town.contentBuildings[0]!.facilities, [{ slot: 2, facility: { facilityId: 1, level: 1, covered: true, levelingUp: false } }]);
});

test('town/get_all?playerId: an unknown player is 202; one\'s own id reads one\'s own layout', (t) => {
  const s = player(1);
  fails(t, 'PLAYER_NOT_FOUND', 'getAllPlayerTown', s, { playerId: 77 }, { others: [undefined] });
  const own = ok(t, 'getAllPlayerTown', s, { playerId: 1 }, { others: [s] });
  t.true(isOwnTown(own.response.town));
  t.is(own.response.town.playerId, 1);
});
