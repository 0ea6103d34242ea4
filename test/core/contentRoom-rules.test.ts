// Content rooms at their edges (docs/rules/town.md, "Content rooms and the field
// party"): a room filled to exactly its capacity, what each refusal of
// member/set_all names, and a character living in one room at most.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok, grantCharacters } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
// Title 1: characters 1011-1015 (content room 101); title 2: 1021-1024 (room 102). Each room holds 3.
const ROOM1 = 101;
const ROOM2 = 102;

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
const mid = (s: PlayerState, characterId: number): number => s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;
const player = (): PlayerState => withCharacters(freshPlayer(), [1011, 1012, 1013, 1014, 1021, 1022]);
const members = (s: PlayerState, contentRoomId: number): number[] => s.contentRooms.find((r) => r.contentRoomId === contentRoomId)?.managedCharacterIds ?? [];

test('a content room takes exactly its capacity; one more is 102 on managedCharacterIds naming the room and its capacity', (t) => {
  const s = player();
  const capacity = m.contentRoom.get(ROOM1)!.capacity; // 3
  const ids = [1011, 1012, 1013, 1014].map((c) => mid(s, c));
  const r = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: ids.slice(0, capacity) });
  t.deepEqual(members(r.state, ROOM1), ids.slice(0, capacity));
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: ids.slice(0, capacity + 1) });
  t.is(fieldOf(e), 'managedCharacterIds');
  t.regex(reasonOf(e), new RegExp(`content room ${ROOM1}\\b.*\\b${capacity} characters`));
});

test('member/set_all refusals name what is wrong: a repeat (102), a character not owned (107), one of another title (102, naming it and the title)', (t) => {
  const s = player();
  const a = mid(s, 1011);
  const twice = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [a, a] });
  t.is(fieldOf(twice), 'managedCharacterIds');
  t.regex(reasonOf(twice), /twice/);
  t.like(fails(t, 'NOT_FOUND', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [a, 99999] }), { entity: 'character', id: 99999 });
  const other = mid(s, 1021);
  const title = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [a, other] });
  t.is(fieldOf(title), 'managedCharacterIds');
  t.regex(reasonOf(title), new RegExp(`character ${other}\\b.*title 1$`));
});

test('a character lives in one room at most: joining a room takes it out of the room it lived in, whose other residents stay', (t) => {
  const s = player();
  const [a, b, x] = [mid(s, 1011), mid(s, 1021), mid(s, 1022)];
  // Under earlier master data character 1011 was of title 2, and moved into room 102 then.
  const earlier: Master = { ...m, character: new Map(m.character).set(1011, { ...m.character.get(1011)!, titleId: 2 }) };
  const before = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM2, managedCharacterIds: [b, a, x] }, { m: earlier }).state;
  t.deepEqual(members(before, ROOM2), [b, a, x]);
  // Now of title 1, it joins room 101 and leaves room 102.
  const r = ok(t, 'setAllPlayerContentRoomMember', before, { contentRoomId: ROOM1, managedCharacterIds: [a] });
  t.deepEqual(members(r.state, ROOM1), [a]);
  t.deepEqual(members(r.state, ROOM2), [b, x]);
  const party = ok(t, 'getAllPlayerFieldPartyMember', r.state, {}).response.fieldPartyMembers;
  t.deepEqual(party.map((p) => [p.contentRoomId, p.characterId]), [[ROOM1, 1011], [ROOM2, 1021], [ROOM2, 1022]]);
});

test('joining a room leaves the other rooms\' residents untouched when none of them joins', (t) => {
  const s = player();
  const two = ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM2, managedCharacterIds: [mid(s, 1021)] }).state;
  const r = ok(t, 'setAllPlayerContentRoomMember', two, { contentRoomId: ROOM1, managedCharacterIds: [mid(s, 1011), mid(s, 1012)] });
  t.deepEqual(r.state.contentRooms.find((x) => x.contentRoomId === ROOM2), two.contentRooms.find((x) => x.contentRoomId === ROOM2));
});
