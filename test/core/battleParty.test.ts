import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import type { Master } from '../../core/master/index.js';
import type { PlayerState } from '../../core/state.js';
import { newCharacter } from '../../core/shared/grant.js';
import type { GameError } from '../../core/errors.js';

const fieldOf = (e: GameError): unknown => ('field' in e ? e.field : undefined);

/** A player owning two characters of different classes and fitting and unfitting weapons. */
const setup = () => {
  const m = master();
  const c1 = m.characters[0]!;
  const c2 = m.characters.find((c) => c.classId !== c1.classId)!;
  const w1 = m.weapons.find((w) => w.classId === c1.classId && w.characterId === null)!;
  const w2 = m.weapons.find((w) => w.classId === c2.classId && w.characterId === null)!;
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const s: PlayerState = {
    ...s0, nextManagedId: id + 5,
    characters: [newCharacter(id, c1.characterId, NOW), newCharacter(id + 1, c2.characterId, NOW)],
    weapons: [
      { managedWeaponId: id + 2, weaponId: w1.weaponId, level: 1, exp: 0, createdAt: NOW },
      { managedWeaponId: id + 3, weaponId: w1.weaponId, level: 1, exp: 0, createdAt: NOW },
      { managedWeaponId: id + 4, weaponId: w2.weaponId, level: 1, exp: 0, createdAt: NOW },
    ],
  };
  return { s, ch1: id, ch2: id + 1, w1a: id + 2, w1b: id + 3, w2: id + 4, c1, w1 };
};

type Slot = { managedCharacterId?: number | null; managedWeaponId?: number | null };
const empty = (): Slot[] => Array.from({ length: 5 }, () => ({ managedCharacterId: null, managedWeaponId: null }));
const parties = (first: Slot[], extra: Record<string, unknown> = {}) =>
  Array.from({ length: 15 }, (_, i) => (i === 0 ? { slots: first, ...extra } : { slots: empty() }));
const withSlots = (...xs: Slot[]): Slot[] => [...xs, ...empty()].slice(0, 5);

test('get_all gives the 15 parties of 5 empty slots of a new player', (t) => {
  const r = ok(t, 'getAllPlayerBattleParty', freshPlayer(), {});
  const list = r.response.managedBattleParties;
  t.deepEqual(list.map((p) => p.managedBattlePartyId), Array.from({ length: 15 }, (_, i) => i + 1));
  t.true(list.every((p) => p.slots.length === 5));
});

test('set_all replaces all parties, keeping names not given, and the response lists them', (t) => {
  const { s, ch1, ch2, w1a, w2 } = setup();
  const r = ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1a }, { managedCharacterId: ch2, managedWeaponId: w2 }), { name: 'Vanguard' }) });
  t.is(r.state.battleParties[0]?.name, 'Vanguard');
  t.is(r.state.battleParties[1]?.name, 'Party 2');
  t.deepEqual(r.state.battleParties[0]?.slots[1], { managedCharacterId: ch2, managedWeaponId: w2 });
  t.deepEqual(r.response.managedBattleParties, r.state.battleParties);
  // Parties may name their ids in any order.
  const reversed = Array.from({ length: 15 }, (_, i) => ({ managedBattlePartyId: 15 - i, slots: i === 0 ? withSlots({ managedCharacterId: ch1 }) : empty() }));
  const r2 = ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: reversed });
  t.is(r2.state.battleParties[14]?.slots[0]?.managedCharacterId, ch1);
  t.is(r2.state.battleParties[14]?.managedBattlePartyId, 15);
});

test('set_all: not 15 parties, not 5 slots or repeated party ids are 102', (t) => {
  const { s } = setup();
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty()).slice(0, 14) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty().slice(0, 4)) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty()).map((p) => ({ ...p, managedBattlePartyId: 1 })) });
});

test('set_all: characters and weapons not owned are 107', (t) => {
  const { s, ch1 } = setup();
  fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: 999 })) });
  fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: 999 })) });
});

test('set_all: a repeated character or weapon in a party, a weapon without a character, or of another class is 102', (t) => {
  const { s, ch1, ch2, w1a, w2 } = setup();
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedCharacterId: ch1 })) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1a }, { managedCharacterId: ch2, managedWeaponId: w1a })) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: null, managedWeaponId: w1a })) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w2 })) });
  // The same character in two different parties is allowed.
  const two = parties(withSlots({ managedCharacterId: ch1 }));
  two[1] = { slots: withSlots({ managedCharacterId: ch1 }) };
  ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: two });
});

test('set_all: a character\'s own weapon fits only that character (102 for another)', (t) => {
  const { s, ch1, w1a, w1, c1 } = setup();
  const other = master().characters.find((c) => c.characterId !== c1.characterId)!;
  const base = master();
  const own = { ...w1, characterId: other.characterId };
  const m: Master = { ...base, weapon: new Map([...base.weapon, [w1.weaponId, own]]) };
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1a })) }, { m });
  const mine: Master = { ...base, weapon: new Map([...base.weapon, [w1.weaponId, { ...w1, characterId: c1.characterId }]]) };
  ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1a })) }, { m: mine });
});

test('set_all and set_name: a name over the master-data length is 102', (t) => {
  const { s } = setup();
  const long = 'x'.repeat(master().social.battleParty.nameMaxLength + 1);
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty(), { name: long }) });
  fails(t, 'INVALID_PARAMETERS', 'setNamePlayerBattleParty', s, { managedBattlePartyId: 3, name: long });
});

test('set_name renames one party; an id outside 1-15 is 102', (t) => {
  const { s } = setup();
  const r = ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 3, name: 'Night Watch' });
  t.is(r.state.battleParties[2]?.name, 'Night Watch');
  t.is(r.state.battleParties[0], s.battleParties[0], 'other parties keep their references');
  t.deepEqual(r.response.managedBattleParties, r.state.battleParties, 'the changed list is in the answer');
  fails(t, 'INVALID_PARAMETERS', 'setNamePlayerBattleParty', s, { managedBattlePartyId: 16, name: 'Nope' });
  fails(t, 'INVALID_PARAMETERS', 'setNamePlayerBattleParty', s, { managedBattlePartyId: 0, name: 'Nope' });
});

test('set_all takes the list as managedBattleParties (the original\'s name) or, as an alias, battleParties; errors name the field sent', (t) => {
  const { s, ch1 } = setup();
  const list = parties(withSlots({ managedCharacterId: ch1 }));
  const byNew = ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: list });
  const byOld = ok(t, 'setAllPlayerBattleParty', s, { battleParties: list });
  t.deepEqual(byOld.state.battleParties, byNew.state.battleParties);
  t.deepEqual(byOld.response.managedBattleParties, byNew.response.managedBattleParties);
  t.is(byNew.state.battleParties[0]?.slots[0]?.managedCharacterId, ch1);
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedCharacterId: ch1 })) });
  t.is(fieldOf(e), 'battleParties.0.slots.1.managedCharacterId');
  const e2 = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list.slice(0, 14) });
  t.is(fieldOf(e2), 'managedBattleParties');
});

test('set_all: neither list is 103, both lists is 102, a malformed list 102; nothing changes', (t) => {
  const { s } = setup();
  const list = parties(empty());
  t.is(fieldOf(fails(t, 'INSUFFICIENT_PARAMETERS', 'setAllPlayerBattleParty', s, {})), 'managedBattleParties');
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list, battleParties: list })), 'battleParties');
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: 'parties' });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: [{ slots: 'none' }] });
});
