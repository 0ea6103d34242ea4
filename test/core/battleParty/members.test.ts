// Who stands in a battle party's slots (docs/rules/social.md, Battle parties): owned
// characters and weapons, no character or weapon twice in a party (even a weapon that fits
// both characters), no weapon without a character or of another class, and a character's
// own weapon for that character only. Each refusal names the slot's field, or the kind and
// id of what is not owned.
import test from 'ava';
import { fails, master, ok } from '../../_support/core.js';
import type { Master } from '../../../core/master/index.js';
import { setup, withSlots, m, fieldOf, reasonOf, c1, setupWithOwnWeapon, parties } from './_setup.js';

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
