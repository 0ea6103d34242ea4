// Raising weapons (docs/rules/progression.md, Weapons): upgrade with weapon exp items at
// coins per item by level, exp past the maximum level lost and the rest of the items kept;
// evolution at the maximum level into the evolved form, keeping level and exp. Each refusal
// names what refused. The exp rules shared with characters: test/core/shared/growth.test.ts.
import test from 'ava';
import { fails, freshPlayer, master, ok, withWealth, itemsOf } from '../../_support/core.js';
import { tryGrant } from '../../../core/shared/grant.js';
import type { Grant } from '../../../core/master/common.js';
import type { OwnedWeapon, PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const PLAIN_BLADE = 103; // ★3, recipe 1000 coins + 5 Iron Ore, max level 20, evolves to 104
const OWN_1011 = 11011; // Nehi Meos's own weapon, max 20, evolves to 21011
const WHET = 10001; // 100 weapon exp
const BIG_WHET = 10003; // 2000 weapon exp

const grantAll = (s0: PlayerState, gs: Grant[]): PlayerState =>
  gs.reduce((s, g) => {
    const r = tryGrant(m, s, g, 0);
    if (r._tag === 'Left') throw new Error(r.left.code);
    return r.right.state;
  }, s0);
const withWeapons = (ids: number[], w: Parameters<typeof withWealth>[1] = {}): PlayerState =>
  withWealth(
    grantAll(
      freshPlayer(),
      ids.map((objectId) => ({ kind: 'weapon', objectId, amount: 1 })),
    ),
    w,
  );
const wp = (s: PlayerState, i = 0): OwnedWeapon => s.weapons[i] as OwnedWeapon;
const patchW = (s: PlayerState, w: Partial<OwnedWeapon>, i = 0): PlayerState => ({
  ...s,
  weapons: s.weapons.map((x, j) => (j === i ? { ...x, ...w } : x)),
});
const tableTotal = (level: number, tableId = 1) => m.weaponExpTable.get(tableId)?.totalExp[level - 1] ?? 0;
const GREAT_BLADE = 105; // max level 40, no evolution
const CANDY = 2001; // a character exp item, not a weapon exp item

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const weapons = (n: number, weaponId = PLAIN_BLADE): OwnedWeapon[] =>
  Array.from({ length: n }, (_, i) => ({ managedWeaponId: 10_000 + i, weaponId, level: 1, exp: 0, createdAt: 0 }));
const holding = (n: number, w: Parameters<typeof withWealth>[1] = {}): PlayerState =>
  withWealth({ ...freshPlayer(), weapons: weapons(n) }, w);
const ids = (s: PlayerState) => s.weapons.map((w) => w.managedWeaponId);

test('upgrade: weapon exp items level the weapon, each costing level × 10 + 50 coins', (t) => {
  const s = withWeapons([PLAIN_BLADE], { gold: 10_000, items: { [WHET]: 3 } });
  const r = ok(t, 'upgradePlayerWeapon', s, {
    managedWeaponId: wp(s).managedWeaponId,
    items: [{ itemId: WHET, amount: 3 }],
  });
  // 0 → 100 (level 1: level 2 needs 150) → 200 (level 2) → 300 (level 3 needs 360).
  t.like(wp(r.state), { level: 2, exp: 300 });
  t.is(s.gold - r.state.gold, 60 + 60 + 70);
  t.is(itemsOf(r.state)[String(WHET)], undefined);
});

test('upgrade: exp past the maximum level is lost and the rest of the items stay', (t) => {
  const s = withWeapons([PLAIN_BLADE], { gold: 1_000_000, items: { [BIG_WHET]: 50 } });
  const r = ok(t, 'upgradePlayerWeapon', s, {
    managedWeaponId: wp(s).managedWeaponId,
    items: [{ itemId: BIG_WHET, amount: 50 }],
  });
  t.like(wp(r.state), { level: 20, exp: tableTotal(20) });
  t.is(50 - (itemsOf(r.state)[String(BIG_WHET)] ?? 0), Math.ceil(tableTotal(20) / 2000));
});

test('upgrade errors: at the maximum 293, unknown weapon 107, not a weapon exp item 102, short 442 and 441', (t) => {
  const s = withWeapons([PLAIN_BLADE], { gold: 100, items: { [WHET]: 5, 2001: 5 } });
  const id = wp(s).managedWeaponId;
  fails(t, 'WEAPON_UPGRADE_LIMIT', 'upgradePlayerWeapon', patchW(s, { level: 20, exp: tableTotal(20) }), {
    managedWeaponId: id,
    items: [{ itemId: WHET, amount: 1 }],
  });
  fails(t, 'NOT_FOUND', 'upgradePlayerWeapon', s, { managedWeaponId: 999_999, items: [{ itemId: WHET, amount: 1 }] });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerWeapon', s, {
    managedWeaponId: id,
    items: [{ itemId: 2001, amount: 1 }],
  });
  fails(t, 'ITEM_IS_SHORT', 'upgradePlayerWeapon', s, { managedWeaponId: id, items: [{ itemId: WHET, amount: 6 }] });
  fails(t, 'GOLD_IS_SHORT', 'upgradePlayerWeapon', s, { managedWeaponId: id, items: [{ itemId: WHET, amount: 2 }] });
});

test('upgrade with an item that is not a weapon exp item is 102 on items, naming the item', (t) => {
  const s = holding(1, { gold: 10_000, items: { [CANDY]: 1, [WHET]: 1 } });
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerWeapon', s, {
    managedWeaponId: ids(s)[0],
    items: [{ itemId: CANDY, amount: 1 }],
  });
  t.like(e, { field: 'items' });
  t.regex(reasonOf(e), /item 2001 is not a weapon exp item/);
});

// ---- evolution ----

test('evolution at the maximum level pays the recipe and turns the weapon into its evolved form, keeping level and exp', (t) => {
  const s = patchW(withWeapons([OWN_1011], { gold: 30_000, items: { 10601: 3, 4001: 2 } }), {
    level: 20,
    exp: tableTotal(20, 2),
  });
  const r = ok(t, 'evolutionPlayerWeapon', s, { managedWeaponId: wp(s).managedWeaponId });
  t.like(wp(r.state), { weaponId: 21011, level: 20, exp: tableTotal(20, 2), managedWeaponId: wp(s).managedWeaponId });
  t.is(r.state.gold, 10_000);
  // The evolved form levels on to its own maximum.
  const more = ok(t, 'upgradePlayerWeapon', withWealth(r.state, { items: { [WHET]: 1 } }), {
    managedWeaponId: wp(s).managedWeaponId,
    items: [{ itemId: WHET, amount: 1 }],
  });
  t.is(wp(more.state).exp, tableTotal(20, 2) + 100);
});

test('evolution errors: below the maximum 317, no evolution 317, short 441 and 442, unknown 107', (t) => {
  const s = patchW(withWeapons([OWN_1011], { gold: 30_000, items: { 10601: 3, 4001: 2 } }), {
    level: 20,
    exp: tableTotal(20, 2),
  });
  const id = wp(s).managedWeaponId;
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', patchW(s, { level: 19, exp: tableTotal(19, 2) }), {
    managedWeaponId: id,
  });
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', patchW(s, { weaponId: 21011, level: 40 }), {
    managedWeaponId: id,
  });
  fails(t, 'GOLD_IS_SHORT', 'evolutionPlayerWeapon', withWealth(s, { gold: 19_999 }), { managedWeaponId: id });
  fails(t, 'ITEM_IS_SHORT', 'evolutionPlayerWeapon', withWealth(s, { items: { 10601: 2 } }), { managedWeaponId: id });
  fails(t, 'NOT_FOUND', 'evolutionPlayerWeapon', s, { managedWeaponId: 999_999 });
});

test('evolution refusals name the weapon with no evolution, and the level needed and had', (t) => {
  const top: PlayerState = {
    ...holding(0, { gold: 100_000 }),
    weapons: [{ ...(weapons(1, GREAT_BLADE)[0] as OwnedWeapon), level: 40 }],
  };
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', top, { managedWeaponId: ids(top)[0] })),
    /weapon 105 has no evolution/,
  );
  const low: PlayerState = {
    ...holding(0, { gold: 100_000, items: { 4001: 1 } }),
    weapons: [{ ...(weapons(1)[0] as OwnedWeapon), level: 19, exp: tableTotal(19) }],
  };
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', low, { managedWeaponId: ids(low)[0] })),
    /needs level 20, the weapon is level 19/,
  );
});
