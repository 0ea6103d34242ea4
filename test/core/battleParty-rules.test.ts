// Battle party rules at their edges (docs/rules/social.md, Battle parties): a name of
// exactly nameMaxLength characters and one more, the party and slot counts, a weapon
// twice in a party (fitting both characters), names kept when left out, and what each
// refusal names: the field the client sent, down to the slot, or the kind and id of
// what is not owned.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import { newCharacter } from '../../core/shared/grant.js';
import type { PlayerState } from '../../core/state.js';
import type { GameError } from '../../core/errors.js';

const m = master();
const MAX = m.social.battleParty.nameMaxLength;
const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

// Two characters of one class (the second with its own weapon), one of another class.
const c1 = m.characters[0]!;
const c1b = m.characters.find((c) => c.classId === c1.classId && c.characterId !== c1.characterId && m.weapons.some((w) => w.characterId === c.characterId))!;
const c2 = m.characters.find((c) => c.classId !== c1.classId)!;
const common1 = m.weapons.find((w) => w.classId === c1.classId && w.characterId === null)!;
const common2 = m.weapons.find((w) => w.classId === c2.classId && w.characterId === null)!;
const ownOfC1b = m.weapons.find((w) => w.characterId === c1b.characterId)!;

const setup = () => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const ids = { ch1: id, ch1b: id + 1, ch2: id + 2, w1: id + 3, w2: id + 4, wOwn: id + 5 };
  const weapon = (managedWeaponId: number, weaponId: number) => ({ managedWeaponId, weaponId, level: 1, exp: 0, createdAt: NOW });
  const s: PlayerState = {
    ...s0, nextManagedId: id + 6,
    characters: [newCharacter(ids.ch1, c1.characterId, NOW), newCharacter(ids.ch1b, c1b.characterId, NOW), newCharacter(ids.ch2, c2.characterId, NOW)],
    weapons: [weapon(ids.w1, common1.weaponId), weapon(ids.w2, common2.weaponId), weapon(ids.wOwn, ownOfC1b.weaponId)],
  };
  return { s, ...ids };
};

type Slot = { managedCharacterId?: number | null; managedWeaponId?: number | null };
type Party = { managedBattlePartyId?: number; name?: string; slots: Slot[] };
const empty = (): Slot[] => Array.from({ length: 5 }, () => ({ managedCharacterId: null, managedWeaponId: null }));
const withSlots = (...xs: Slot[]): Slot[] => [...xs, ...empty()].slice(0, 5);
/** The 15 parties in order, the first with these slots (and extra fields). */
const parties = (first: Slot[], extra: Partial<Party> = {}): Party[] =>
  Array.from({ length: 15 }, (_, i) => (i === 0 ? { slots: first, ...extra } : { slots: empty() }));

test('a party name of exactly nameMaxLength characters (code points) is taken; one more is 102 naming the field and the limit', (t) => {
  const { s } = setup();
  const longest = '🌟'.repeat(MAX);
  t.is(ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 2, name: longest }).state.battleParties[1]?.name, longest);
  t.is(ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty(), { name: longest }) }).state.battleParties[0]?.name, longest);
  t.is(ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 2, name: 'x'.repeat(MAX) }).state.battleParties[1]?.name, 'x'.repeat(MAX));

  const over = `${longest}x`;
  const byName = fails(t, 'INVALID_PARAMETERS', 'setNamePlayerBattleParty', s, { managedBattlePartyId: 2, name: over });
  t.is(fieldOf(byName), 'name');
  t.regex(reasonOf(byName), new RegExp(`\\b${MAX}\\b`));
  const list = parties(empty());
  list[3] = { slots: empty(), name: over };
  const inList = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list });
  t.is(fieldOf(inList), 'managedBattleParties.3.name');
  t.regex(reasonOf(inList), new RegExp(`\\b${MAX}\\b`));
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: list })), 'battleParties.3.name', 'the field the client sent');
});

test('every party has exactly 5 slots: 4 or 6 is 102 naming that party\'s slots', (t) => {
  const { s } = setup();
  for (const n of [4, 6]) {
    const list = parties(empty());
    list[2] = { slots: Array.from({ length: n }, () => ({ managedCharacterId: null })) };
    const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list });
    t.is(fieldOf(e), 'managedBattleParties.2.slots', `${n} slots`);
    t.regex(reasonOf(e), /\b5\b/, `${n} slots`);
  }
});

test('exactly 15 parties: 14 is 102, and so is 16 even when its ids name each party 1 to 15', (t) => {
  const { s } = setup();
  const fifteen = parties(empty()).map((p, i) => ({ ...p, managedBattlePartyId: i + 1 }));
  for (const list of [fifteen.slice(0, 14), [...fifteen, { managedBattlePartyId: 1, slots: empty() }]]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list });
    t.is(fieldOf(e), 'managedBattleParties', `${list.length} parties`);
    t.regex(reasonOf(e), /\b15\b/, `${list.length} parties`);
  }
});

test('party ids name each party 1 to 15 once: a repeat is 102 naming the list sent', (t) => {
  const { s } = setup();
  const list = parties(empty()).map((p, i) => ({ ...p, managedBattlePartyId: i === 14 ? 1 : i + 1 }));
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: list });
  t.is(fieldOf(e), 'battleParties');
  t.regex(reasonOf(e), /\b15\b/);
  t.regex(reasonOf(e), /once/);
});

test('both list names at once is 102 naming battleParties and saying to send one', (t) => {
  const { s } = setup();
  const list = parties(empty());
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list, battleParties: list });
  t.is(fieldOf(e), 'battleParties');
  t.regex(reasonOf(e), /only one/);
});

test('a weapon without a character in its slot is 102 naming that slot\'s weapon', (t) => {
  const { s, ch1, w1 } = setup();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedWeaponId: w1 })) });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.1.managedWeaponId');
  t.regex(reasonOf(e), /character/);
});

test('a character or weapon not owned is 107 naming its kind and the id sent', (t) => {
  const { s, ch1 } = setup();
  t.like(fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: 987654 })) }), { entity: 'character', id: 987654 });
  t.like(fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: 987655 })) }), { entity: 'weapon', id: 987655 });
});

test('a character twice in a party is 102 naming the second slot\'s character', (t) => {
  const { s, ch1 } = setup();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedCharacterId: null }, { managedCharacterId: ch1 })) });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.2.managedCharacterId');
  t.regex(reasonOf(e), /already in this party/);
});

test('a weapon twice in a party is 102 naming the second slot\'s weapon, even when it fits both characters', (t) => {
  const { s, ch1, ch1b, w1 } = setup();
  // The weapon fits each character alone.
  ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: ch1b, managedWeaponId: w1 })) });
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1 }, { managedCharacterId: ch1b, managedWeaponId: w1 })),
  });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.1.managedWeaponId');
  t.regex(reasonOf(e), /already in this party/);
});

test('a weapon of another class is 102 naming the slot\'s weapon', (t) => {
  const { s, ch1, w2 } = setup();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(withSlots({ managedCharacterId: null }, { managedCharacterId: ch1, managedWeaponId: w2 })) });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.1.managedWeaponId');
  t.regex(reasonOf(e), /class/);
});

test('a character\'s own weapon fits only that character: in another\'s slot of the same class it is 102 naming the slot\'s weapon', (t) => {
  const { s, ch1, ch1b, wOwn } = setup();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: wOwn })) });
  t.is(fieldOf(e), 'battleParties.0.slots.0.managedWeaponId');
  t.regex(reasonOf(e), /another character/);
  ok(t, 'setAllPlayerBattleParty', s, { battleParties: parties(withSlots({ managedCharacterId: ch1b, managedWeaponId: wOwn })) });
});

test('a name left out keeps the name the party has, wherever the party is in the list', (t) => {
  const { s } = setup();
  const named = ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 3, name: 'Night Watch' }).state;
  const inOrder = ok(t, 'setAllPlayerBattleParty', named, { managedBattleParties: parties(empty()) }).state;
  t.is(inOrder.battleParties[2]?.name, 'Night Watch');
  const reversed = Array.from({ length: 15 }, (_, i) => ({ managedBattlePartyId: 15 - i, slots: empty() }));
  const r = ok(t, 'setAllPlayerBattleParty', named, { managedBattleParties: reversed });
  t.deepEqual(r.state.battleParties.map((p) => p.name), named.battleParties.map((p) => p.name));
  t.is(r.state.battleParties[2]?.name, 'Night Watch');
});
