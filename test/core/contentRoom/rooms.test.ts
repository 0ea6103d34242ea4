// Content rooms (docs/rules/town.md, Content rooms and the field party): a room appears when
// a character of its title is first owned, and set_shown marks it seen; member/set_all sets
// its residents (at most its capacity, of its title, each living in one room at most) and
// member/get_all lists them. Each refusal names what is wrong.
import test from 'ava';
import { fails, freshPlayer, ok, withWealth, master, receiveAll, NOW, grantCharacters } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { appearedRooms } from '../../../core/shared/town.js';
import { contentRoomsView } from '../../../core/views/town.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

// Title 1: characters 1011-1015 (content room 101); title 2: 1021-1024 (room 102). Each room holds 3.
const ROOM1 = 101;
const mid = (s: PlayerState, characterId: number): number =>
  s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;

const player = (playerId = 1): PlayerState =>
  withCharacters(
    withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 }),
    [1011, 1012, 1013, 1014, 1021],
  );

const rich = (playerId = 1): PlayerState =>
  withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });

const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
/** A player owning characters of titles 1 and 2 (so content rooms 101 and 102 have appeared). */
const townsfolk = (playerId = 1): PlayerState => withCharacters(rich(playerId), [1011, 1012, 1021]);

const m = master();
const ROOM2 = 102;

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const playerOwningSix = (): PlayerState => withCharacters(freshPlayer(), [1011, 1012, 1013, 1014, 1021, 1022]);
const members = (s: PlayerState, contentRoomId: number): number[] =>
  s.contentRooms.find((r) => r.contentRoomId === contentRoomId)?.managedCharacterIds ?? [];

// ---- appearing ----

test('a content room appears (new) when a character of its title is first owned; set_shown marks it seen', (t) => {
  const s0 = freshPlayer();
  fails(t, 'NOT_FOUND', 'setShownPlayerContentRoom', s0, { contentRoomId: ROOM1 });
  const s = withCharacters(s0, [1011]);
  const before = ok(t, 'getAllPlayerContentRoomMember', s, { contentRoomId: ROOM1 });
  t.true(before.response.isNew);
  const r = ok(t, 'setShownPlayerContentRoom', s, { contentRoomId: ROOM1 });
  t.false(ok(t, 'getAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM1 }).response.isNew);
  // The changed content rooms come with the answer.
  t.deepEqual(
    r.response.contentRooms?.map((x) => [x.contentRoomId, x.isNew]),
    [[ROOM1, false]],
  );
  // Marking it again changes nothing.
  t.is(ok(t, 'setShownPlayerContentRoom', r.state, { contentRoomId: ROOM1 }).state, r.state);
});

test('set_shown: an unknown content room is 107', (t) => {
  fails(t, 'NOT_FOUND', 'setShownPlayerContentRoom', player(), { contentRoomId: 999 });
});

test('a draw shows the content rooms exactly when a room appeared, and the same rooms as a fresh view', (t) => {
  const m = master();
  let s = withWealth(receiveAll(t, freshPlayer()), { gem: 999_999 });
  let shown = 0;
  let quiet = 0;
  for (let i = 0; i < 40; i++) {
    const before = appearedRooms(m, s).map((r) => r.contentRoomId);
    const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: i % 4 === 0 ? 3 : 1 }, { seed: `rooms${i}` });
    const after = appearedRooms(m, r.state).map((x) => x.contentRoomId);
    const appeared = before.join() !== after.join();
    t.is('contentRooms' in r.response, appeared, `draw ${i}`);
    if (appeared) {
      shown++;
      t.deepEqual(r.response.contentRooms, contentRoomsView(m, { ...r.state, characters: [...r.state.characters] }));
    } else quiet++;
    s = r.state;
  }
  // Both cases happened (the seeds give new titles early and repeats later).
  t.true(shown > 0 && quiet > 0, `${shown} shown, ${quiet} quiet`);
});

test('a room emptied before it was ever shown is not kept; one that was shown is kept, still shown', (t) => {
  const s0 = townsfolk();
  const lived = ok(t, 'setAllPlayerContentRoomMember', s0, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s0, 1011)],
  }).state;
  t.deepEqual(lived.contentRooms, [{ contentRoomId: ROOM1, shown: false, managedCharacterIds: [mid(s0, 1011)] }]);
  const emptied = ok(t, 'setAllPlayerContentRoomMember', lived, {
    contentRoomId: ROOM1,
    managedCharacterIds: [],
  }).state;
  t.deepEqual(emptied.contentRooms, [], 'nothing to remember: not shown, nobody living there');
  t.true(ok(t, 'getAllPlayerContentRoomMember', emptied, { contentRoomId: ROOM1 }).response.isNew);
  const shown = ok(t, 'setShownPlayerContentRoom', lived, { contentRoomId: ROOM1 }).state;
  const shownEmptied = ok(t, 'setAllPlayerContentRoomMember', shown, {
    contentRoomId: ROOM1,
    managedCharacterIds: [],
  }).state;
  t.deepEqual(shownEmptied.contentRooms, [{ contentRoomId: ROOM1, shown: true, managedCharacterIds: [] }]);
  t.false(ok(t, 'getAllPlayerContentRoomMember', shownEmptied, { contentRoomId: ROOM1 }).response.isNew);
});

test('a content room not appeared yet is 107 naming the content room', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'setShownPlayerContentRoom', townsfolk(), { contentRoomId: 103 }), {
    entity: 'content room',
    id: 103,
  });
});

// ---- residents ----

test('member/set_all sets the residents; member/get_all lists them', (t) => {
  const s = player();
  const ids = [mid(s, 1011), mid(s, 1012)];
  const r = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: ids });
  const got = ok(t, 'getAllPlayerContentRoomMember', r.state, { contentRoomId: ROOM1 });
  t.deepEqual(got.response.members, [
    { managedCharacterId: ids[0], characterId: 1011 },
    { managedCharacterId: ids[1], characterId: 1012 },
  ]);
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
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: four,
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [four[0], four[0]],
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s, 1021)],
  });
  fails(t, 'NOT_FOUND', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [99999] });
  fails(t, 'NOT_FOUND', 'setAllPlayerContentRoomMember', s, { contentRoomId: 103, managedCharacterIds: [] });
});

test('a content room takes exactly its capacity; one more is 102 on managedCharacterIds naming the room and its capacity', (t) => {
  const s = playerOwningSix();
  const capacity = m.contentRoom.get(ROOM1)!.capacity; // 3
  const ids = [1011, 1012, 1013, 1014].map((c) => mid(s, c));
  const r = ok(t, 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: ids.slice(0, capacity),
  });
  t.deepEqual(members(r.state, ROOM1), ids.slice(0, capacity));
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: ids.slice(0, capacity + 1),
  });
  t.is(fieldOf(e), 'managedCharacterIds');
  t.regex(reasonOf(e), new RegExp(`content room ${ROOM1}\\b.*\\b${capacity} characters`));
});

test('member/set_all refusals name what is wrong: a repeat (102), a character not owned (107), one of another title (102, naming it and the title)', (t) => {
  const s = playerOwningSix();
  const a = mid(s, 1011);
  const twice = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [a, a],
  });
  t.is(fieldOf(twice), 'managedCharacterIds');
  t.regex(reasonOf(twice), /twice/);
  t.like(
    fails(t, 'NOT_FOUND', 'setAllPlayerContentRoomMember', s, {
      contentRoomId: ROOM1,
      managedCharacterIds: [a, 99999],
    }),
    { entity: 'character', id: 99999 },
  );
  const other = mid(s, 1021);
  const title = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [a, other],
  });
  t.is(fieldOf(title), 'managedCharacterIds');
  t.regex(reasonOf(title), new RegExp(`character ${other}\\b.*title 1$`));
});

test('a character lives in one room at most: joining a room takes it out of the room it lived in, whose other residents stay', (t) => {
  const s = playerOwningSix();
  const [a, b, x] = [mid(s, 1011), mid(s, 1021), mid(s, 1022)];
  // Under earlier master data character 1011 was of title 2, and moved into room 102 then.
  const earlier: Master = {
    ...m,
    character: new Map(m.character).set(1011, { ...m.character.get(1011)!, titleId: 2 }),
  };
  const before = ok(
    t,
    'setAllPlayerContentRoomMember',
    s,
    { contentRoomId: ROOM2, managedCharacterIds: [b, a, x] },
    { m: earlier },
  ).state;
  t.deepEqual(members(before, ROOM2), [b, a, x]);
  // Now of title 1, it joins room 101 and leaves room 102.
  const r = ok(t, 'setAllPlayerContentRoomMember', before, { contentRoomId: ROOM1, managedCharacterIds: [a] });
  t.deepEqual(members(r.state, ROOM1), [a]);
  t.deepEqual(members(r.state, ROOM2), [b, x]);
  const party = ok(t, 'getAllPlayerFieldPartyMember', r.state, {}).response.fieldPartyMembers;
  t.deepEqual(
    party.map((p) => [p.contentRoomId, p.characterId]),
    [
      [ROOM1, 1011],
      [ROOM2, 1021],
      [ROOM2, 1022],
    ],
  );
});

test("joining a room leaves the other rooms' residents untouched when none of them joins", (t) => {
  const s = playerOwningSix();
  const two = ok(t, 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM2,
    managedCharacterIds: [mid(s, 1021)],
  }).state;
  const r = ok(t, 'setAllPlayerContentRoomMember', two, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s, 1011), mid(s, 1012)],
  });
  t.deepEqual(
    r.state.contentRooms.find((x) => x.contentRoomId === ROOM2),
    two.contentRooms.find((x) => x.contentRoomId === ROOM2),
  );
});
