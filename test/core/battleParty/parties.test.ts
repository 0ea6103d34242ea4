// The battle parties as a whole (docs/rules/social.md, Battle parties): get_all gives 15
// parties of 5 slots; set_all replaces them all, under either of its list names, and
// set_name renames one. Exactly 15 parties of exactly 5 slots, ids 1 to 15 once each, a
// name of at most nameMaxLength characters (kept when left out); each refusal names the
// field the client sent.
import test from 'ava';
import { fails, freshPlayer, master, ok } from '../../_support/core.js';

import { setup, empty, withSlots, m, fieldOf, reasonOf, setupWithOwnWeapon, Party, parties } from './_setup.js';
const MAX = m.social.battleParty.nameMaxLength;

test('get_all gives the 15 parties of 5 empty slots of a new player', (t) => {
  const r = ok(t, 'getAllPlayerBattleParty', freshPlayer(), {});
  const list = r.response.managedBattleParties;
  t.deepEqual(
    list.map((p) => p.managedBattlePartyId),
    Array.from({ length: 15 }, (_, i) => i + 1),
  );
  t.true(list.every((p) => p.slots.length === 5));
});

test('set_all replaces all parties, keeping names not given, and the response lists them', (t) => {
  const { s, ch1, ch2, w1a, w2 } = setup();
  const r = ok(t, 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(
      withSlots({ managedCharacterId: ch1, managedWeaponId: w1a }, { managedCharacterId: ch2, managedWeaponId: w2 }),
      { name: 'Vanguard' },
    ),
  });
  t.is(r.state.battleParties[0]?.name, 'Vanguard');
  t.is(r.state.battleParties[1]?.name, 'Party 2');
  t.deepEqual(r.state.battleParties[0]?.slots[1], { managedCharacterId: ch2, managedWeaponId: w2 });
  t.deepEqual(r.response.managedBattleParties, r.state.battleParties);
  // Parties may name their ids in any order.
  const reversed = Array.from({ length: 15 }, (_, i) => ({
    managedBattlePartyId: 15 - i,
    slots: i === 0 ? withSlots({ managedCharacterId: ch1 }) : empty(),
  }));
  const r2 = ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: reversed });
  t.is(r2.state.battleParties[14]?.slots[0]?.managedCharacterId, ch1);
  t.is(r2.state.battleParties[14]?.managedBattlePartyId, 15);
});

test('set_all: not 15 parties, not 5 slots or repeated party ids are 102', (t) => {
  const { s } = setup();
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty()).slice(0, 14) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty().slice(0, 4)) });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(empty()).map((p) => ({ ...p, managedBattlePartyId: 1 })),
  });
});

test("every party has exactly 5 slots: 4 or 6 is 102 naming that party's slots", (t) => {
  const { s } = setupWithOwnWeapon();
  for (const n of [4, 6]) {
    const list = parties(empty());
    list[2] = { slots: Array.from({ length: n }, () => ({ managedCharacterId: null })) };
    const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list });
    t.is(fieldOf(e), 'managedBattleParties.2.slots', `${n} slots`);
    t.regex(reasonOf(e), /\b5\b/, `${n} slots`);
  }
});

test('exactly 15 parties: 14 is 102, and so is 16 even when its ids name each party 1 to 15', (t) => {
  const { s } = setupWithOwnWeapon();
  const fifteen = parties(empty()).map((p, i) => ({ ...p, managedBattlePartyId: i + 1 }));
  for (const list of [fifteen.slice(0, 14), [...fifteen, { managedBattlePartyId: 1, slots: empty() }]]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list });
    t.is(fieldOf(e), 'managedBattleParties', `${list.length} parties`);
    t.regex(reasonOf(e), /\b15\b/, `${list.length} parties`);
  }
});

test('party ids name each party 1 to 15 once: a repeat is 102 naming the list sent', (t) => {
  const { s } = setupWithOwnWeapon();
  const list = parties(empty()).map((p, i) => ({ ...p, managedBattlePartyId: i === 14 ? 1 : i + 1 }));
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: list });
  t.is(fieldOf(e), 'battleParties');
  t.regex(reasonOf(e), /\b15\b/);
  t.regex(reasonOf(e), /once/);
});

// ---- names ----

test('set_all and set_name: a name over the master-data length is 102', (t) => {
  const { s } = setup();
  const long = 'x'.repeat(master().social.battleParty.nameMaxLength + 1);
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: parties(empty(), { name: long }),
  });
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

test('a party name of exactly nameMaxLength characters (code points) is taken; one more is 102 naming the field and the limit', (t) => {
  const { s } = setupWithOwnWeapon();
  const longest = '🌟'.repeat(MAX);
  t.is(
    ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 2, name: longest }).state.battleParties[1]?.name,
    longest,
  );
  t.is(
    ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: parties(empty(), { name: longest }) }).state
      .battleParties[0]?.name,
    longest,
  );
  t.is(
    ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 2, name: 'x'.repeat(MAX) }).state.battleParties[1]
      ?.name,
    'x'.repeat(MAX),
  );

  const over = `${longest}x`;
  const byName = fails(t, 'INVALID_PARAMETERS', 'setNamePlayerBattleParty', s, { managedBattlePartyId: 2, name: over });
  t.is(fieldOf(byName), 'name');
  t.regex(reasonOf(byName), new RegExp(`\\b${MAX}\\b`));
  const list = parties(empty());
  list[3] = { slots: empty(), name: over };
  const inList = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list });
  t.is(fieldOf(inList), 'managedBattleParties.3.name');
  t.regex(reasonOf(inList), new RegExp(`\\b${MAX}\\b`));
  t.is(
    fieldOf(fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: list })),
    'battleParties.3.name',
    'the field the client sent',
  );
});

test('a name left out keeps the name the party has, wherever the party is in the list', (t) => {
  const { s } = setupWithOwnWeapon();
  const named = ok(t, 'setNamePlayerBattleParty', s, { managedBattlePartyId: 3, name: 'Night Watch' }).state;
  const inOrder = ok(t, 'setAllPlayerBattleParty', named, { managedBattleParties: parties(empty()) }).state;
  t.is(inOrder.battleParties[2]?.name, 'Night Watch');
  const reversed = Array.from({ length: 15 }, (_, i) => ({ managedBattlePartyId: 15 - i, slots: empty() }));
  const r = ok(t, 'setAllPlayerBattleParty', named, { managedBattleParties: reversed });
  t.deepEqual(
    r.state.battleParties.map((p) => p.name),
    named.battleParties.map((p) => p.name),
  );
  t.is(r.state.battleParties[2]?.name, 'Night Watch');
});

// ---- the list's two names ----

test("set_all takes the list as managedBattleParties (the original's name) or, as an alias, battleParties; errors name the field sent", (t) => {
  const { s, ch1 } = setup();
  const list = parties(withSlots({ managedCharacterId: ch1 }));
  const byNew = ok(t, 'setAllPlayerBattleParty', s, { managedBattleParties: list });
  const byOld = ok(t, 'setAllPlayerBattleParty', s, { battleParties: list });
  t.deepEqual(byOld.state.battleParties, byNew.state.battleParties);
  t.deepEqual(byOld.response.managedBattleParties, byNew.response.managedBattleParties);
  t.is(byNew.state.battleParties[0]?.slots[0]?.managedCharacterId, ch1);
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    battleParties: parties(withSlots({ managedCharacterId: ch1 }, { managedCharacterId: ch1 })),
  });
  t.is(fieldOf(e), 'battleParties.0.slots.1.managedCharacterId');
  const e2 = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list.slice(0, 14) });
  t.is(fieldOf(e2), 'managedBattleParties');
});

test('set_all: neither list is 103, both lists is 102, a malformed list 102; nothing changes', (t) => {
  const { s } = setup();
  const list = parties(empty());
  t.is(fieldOf(fails(t, 'INSUFFICIENT_PARAMETERS', 'setAllPlayerBattleParty', s, {})), 'managedBattleParties');
  t.is(
    fieldOf(
      fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: list, battleParties: list }),
    ),
    'battleParties',
  );
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { managedBattleParties: 'parties' });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, { battleParties: [{ slots: 'none' }] });
});

test('both list names at once is 102 naming battleParties and saying to send one', (t) => {
  const { s } = setupWithOwnWeapon();
  const list = parties(empty());
  const e = fails(t, 'INVALID_PARAMETERS', 'setAllPlayerBattleParty', s, {
    managedBattleParties: list,
    battleParties: list,
  });
  t.is(fieldOf(e), 'battleParties');
  t.regex(reasonOf(e), /only one/);
});
