// The field party at its edges (docs/rules/town.md, "Content rooms and the field
// party"): the schedule's hours in game-day order from the reset hour, and what
// each refusal of member/remove_all names.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, grantCharacters } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { GameError } from '../../core/errors.js';
import type { PlayerState } from '../../core/state.js';

const m = master();
const ROOM1 = 101; // title 1: characters 1011-1015

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');
const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
const mid = (s: PlayerState, characterId: number): number => s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;
/** Characters 1011 and 1012 live in room 101; 1013 is owned but lives nowhere. */
const housed = (t: ExecutionContext): PlayerState => {
  const s = withCharacters(freshPlayer(), [1011, 1012, 1013]);
  return ok(t, 'setAllPlayerContentRoomMember', s, { contentRoomId: ROOM1, managedCharacterIds: [mid(s, 1011), mid(s, 1012)] }).state;
};

test('a schedule runs through the game day hour by hour from the reset hour round the clock: 4 … 23, then 0 … 3', (t) => {
  t.is(m.game.dayResetHour, 4, 'the fixture\'s game day starts at 04:00');
  const party = ok(t, 'getAllPlayerFieldPartyMember', housed(t), {}).response.fieldPartyMembers;
  const day = [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3];
  t.is(party.length, 2);
  for (const member of party) t.deepEqual(member.schedule.map((h) => h.hour), day);
});

test('remove_all naming nobody, or someone twice, is 102 on managedCharacterIds saying why', (t) => {
  const s = housed(t);
  const none = fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [] });
  t.is(fieldOf(none), 'managedCharacterIds');
  t.regex(reasonOf(none), /at least one/);
  const twice = fails(t, 'INVALID_PARAMETERS', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), mid(s, 1011)] });
  t.is(fieldOf(twice), 'managedCharacterIds');
  t.regex(reasonOf(twice), /twice/);
});

test('remove_all of a character not owned is 107 naming it; of an owned one not living in the town 317 naming it', (t) => {
  const s = housed(t);
  t.like(fails(t, 'NOT_FOUND', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), 99999] }), { entity: 'character', id: 99999 });
  const idle = mid(s, 1013);
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'removeAllPlayerFieldPartyMember', s, { managedCharacterIds: [mid(s, 1011), idle] })),
    new RegExp(`character ${idle}\\b.*does not live in the town`));
});
