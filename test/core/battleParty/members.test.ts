// Who stands in a battle party's slots (docs/rules/social.md, Battle parties): owned
// characters and weapons, no character or weapon twice in a party (even a weapon that fits
// both characters), no weapon without a character or of another class, and a character's
// own weapon for that character only. Each refusal names the slot's field, or the kind and
// id of what is not owned.
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../../_support/core.js';
import type { Master } from '../../../core/master/index.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';
import type { GameError } from '../../../core/errors.js';

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
    ...s0,
    nextManagedId: id + 5,
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
const withSlots = (...xs: Slot[]): Slot[] => [...xs, ...empty()].slice(0, 5);

const m = master();
const fieldOf = (e: GameError): string | undefined => ('field' in e ? e.field : undefined);
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

// Two characters of one class (the second with its own weapon), one of another class.
const c1 = m.characters[0]!;
const c1b = m.characters.find(
  (c) =>
    c.classId === c1.classId &&
    c.characterId !== c1.characterId &&
    m.weapons.some((w) => w.characterId === c.characterId),
)!;
const c2 = m.characters.find((c) => c.classId !== c1.classId)!;
const common1 = m.weapons.find((w) => w.classId === c1.classId && w.characterId === null)!;
const common2 = m.weapons.find((w) => w.classId === c2.classId && w.characterId === null)!;
const ownOfC1b = m.weapons.find((w) => w.characterId === c1b.characterId)!;

const setupWithOwnWeapon = () => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const ids = { ch1: id, ch1b: id + 1, ch2: id + 2, w1: id + 3, w2: id + 4, wOwn: id + 5 };
  const weapon = (managedWeaponId: number, weaponId: number) => ({
    managedWeaponId,
    weaponId,
    level: 1,
    exp: 0,
    createdAt: NOW,
  });
  const s: PlayerState = {
    ...s0,
    nextManagedId: id + 6,
    characters: [
      newCharacter(ids.ch1, c1.characterId, NOW),
      newCharacter(ids.ch1b, c1b.characterId, NOW),
      newCharacter(ids.ch2, c2.characterId, NOW),
    ],
    weapons: [weapon(ids.w1, common1.weaponId), weapon(ids.w2, common2.weaponId), weapon(ids.wOwn, ownOfC1b.weaponId)],
  };
  return { s, ...ids };
};
type Party = { managedBattlePartyId?: number; name?: string; slots: Slot[] };
/** The 15 parties in order, the first with these slots (and extra fields). */
const parties = (first: Slot[], extra: Partial<Party> = {}): Party[] =>
  Array.from({ length: 15 }, (_, i) => (i === 0 ? { slots: first, ...extra } : { slots: empty() }));

test('set_all: characters and weapons not owned are 107', (t) => {
  const { s, ch1 } = setup();
  fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: 999 })),
  });
  fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: 999 })),
  });
});

test('set_all: a repeated character or weapon in a party, a weapon without a character, or of another class is 102', (t) => {
  const { s, ch1, ch2, w1a, w2 } = setup();
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedCharacterId: ch1 })),
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(
      withSlots({ managedCharacterId: ch1, managedWeaponId: w1a }, { managedCharacterId: ch2, managedWeaponId: w1a }),
    ),
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: null, managedWeaponId: w1a })),
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w2 })),
  });
  // The same character in two different parties is allowed.
  const two = parties(withSlots({ managedCharacterId: ch1 }));
  two[1] = { slots: withSlots({ managedCharacterId: ch1 }) };
  ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: two });
});

test("set_all: a character's own weapon fits only that character (102 for another)", (t) => {
  const { s, ch1, w1a, w1, c1 } = setup();
  const other = master().characters.find((c) => c.characterId !== c1.characterId)!;
  const base = master();
  const own = { ...w1, characterId: other.characterId };
  const m: Master = { ...base, weapon: new Map([...base.weapon, [w1.weaponId, own]]) };
  fails(
    t,
    'INVALID_PARAMETERS',
    'setAllPlayerBattleParty',
    s,
    { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1a })) },
    { m },
  );
  const mine: Master = {
    ...base,
    weapon: new Map([...base.weapon, [w1.weaponId, { ...w1, characterId: c1.characterId }]]),
  };
  ok(
    t,
    'setAllPlayerBattleParty',
    s,
    { managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: w1a })) },
    { m: mine },
  );
});

test("a weapon without a character in its slot is 102 naming that slot's weapon", (t) => {
  const { s, ch1, w1 } = setupWithOwnWeapon();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedWeaponId: w1 })),
  });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.1.managedWeaponId');
  t.regex(reasonOf(e), /character/);
});

test('a character or weapon not owned is 107 naming its kind and the id sent', (t) => {
  const { s, ch1 } = setupWithOwnWeapon();
  t.like(
    fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, {
      managedBattleParties: parties(withSlots({ managedCharacterId: 987654 })),
    }),
    { entity: 'character', id: 987654 },
  );
  t.like(
    fails(t, 'NOT_FOUND', 'setAllPlayerBattleParty', s, {
      managedBattleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: 987655 })),
    }),
    { entity: 'weapon', id: 987655 },
  );
});

test("a character twice in a party is 102 naming the second slot's character", (t) => {
  const { s, ch1 } = setupWithOwnWeapon();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(
      withSlots({ managedCharacterId: ch1 }, { managedCharacterId: null }, { managedCharacterId: ch1 }),
    ),
  });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.2.managedCharacterId');
  t.regex(reasonOf(e), /already in this party/);
});

test("a weapon twice in a party is 102 naming the second slot's weapon, even when it fits both characters", (t) => {
  const { s, ch1, ch1b, w1 } = setupWithOwnWeapon();
  // The weapon fits each character alone.
  ok(t, 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(withSlots({ managedCharacterId: ch1b, managedWeaponId: w1 })),
  });
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(
      withSlots({ managedCharacterId: ch1, managedWeaponId: w1 }, { managedCharacterId: ch1b, managedWeaponId: w1 }),
    ),
  });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.1.managedWeaponId');
  t.regex(reasonOf(e), /already in this party/);
});

test("a weapon of another class is 102 naming the slot's weapon", (t) => {
  const { s, ch1, w2 } = setupWithOwnWeapon();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(
      withSlots({ managedCharacterId: null }, { managedCharacterId: ch1, managedWeaponId: w2 }),
    ),
  });
  t.is(fieldOf(e), 'managedBattleParties.0.slots.1.managedWeaponId');
  t.regex(reasonOf(e), /class/);
});

test("a character's own weapon fits only that character: in another's slot of the same class it is 102 naming the slot's weapon", (t) => {
  const { s, ch1, ch1b, wOwn } = setupWithOwnWeapon();
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    battleParties: parties(withSlots({ managedCharacterId: ch1, managedWeaponId: wOwn })),
  });
  t.is(fieldOf(e), 'battleParties.0.slots.0.managedWeaponId');
  t.regex(reasonOf(e), /another character/);
  ok(t, 'setAllPlayerBattleParty', s, {
    battleParties: parties(withSlots({ managedCharacterId: ch1b, managedWeaponId: wOwn })),
  });
});
