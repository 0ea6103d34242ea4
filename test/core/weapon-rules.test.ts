// Weapon rules at their edges (docs/rules/progression.md, Weapons): storage full is
// checked before paying, a sale of exactly saleMax weapons and one more, coins that
// reach the coin maximum exactly and one past, and what each refusal names.
import test from 'ava';
import { fails, freshPlayer, master, ok, withWealth } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import { storageLimit } from '../../core/shared/player.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import type { OwnedWeapon, PlayerState } from '../../core/state.js';

const m = master();
const PLAIN_BLADE = 103; // recipe 1000 coins + 5 Iron Ore; sells for 300; max level 20
const GREAT_BLADE = 105; // max level 40, no evolution
const OWN_1011 = 11011; // Nehi Meos's own weapon: no recipe
const WHET = 10001;
const CANDY = 2001; // a character exp item, not a weapon exp item
const GOLD_MAX = m.game.currencyMax.gold;
const SALE_MAX = m.progression.weapon.saleMax; // 50

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const weapons = (n: number, weaponId = PLAIN_BLADE): OwnedWeapon[] =>
  Array.from({ length: n }, (_, i) => ({ managedWeaponId: 10_000 + i, weaponId, level: 1, exp: 0, createdAt: 0 }));
const holding = (n: number, w: Parameters<typeof withWealth>[1] = {}): PlayerState => withWealth({ ...freshPlayer(), weapons: weapons(n) }, w);
const ids = (s: PlayerState) => s.weapons.map((w) => w.managedWeaponId);
const tableTotal = (level: number, tableId = 1) => m.weaponExpTable.get(tableId)?.totalExp[level - 1] ?? 0;
/** Character 1011 at a level, its own weapon not yet received. */
const withLevelled = (level: number): PlayerState => {
  const r = tryGrant(m, freshPlayer(), { kind: 'character', objectId: 1011, amount: 1 }, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  return { ...r.right.state, characters: r.right.state.characters.map((c) => ({ ...c, level, limitBreak: 4, evolved: true })) };
};
/** Master data an operator retuned: character 1011's own weapon gone. */
const withoutOwnWeapon = (characterId: number): Master => ({ ...m, ownWeapon: new Map([...m.ownWeapon].filter(([k]) => k !== characterId)) });

// ---- make ----
test('make: an unknown weapon is 107 naming it; one without a recipe is 102 on weaponId, naming it', (t) => {
  const s = withWealth(freshPlayer(), { gold: 5000, items: { 5001: 6 } });
  t.like(fails(t, 'NOT_FOUND', 'makePlayerWeapon', s, { weaponId: 999 }), { entity: 'weapon', id: 999 });
  const e = fails(t, 'INVALID_PARAMETERS', 'makePlayerWeapon', s, { weaponId: OWN_1011 });
  t.like(e, { field: 'weaponId' });
  t.regex(reasonOf(e), /weapon 11011 has no recipe/);
});

test('make: full storage is 301 even when the coins are short too (checked before paying); one slot free makes the last weapon', (t) => {
  const max = storageLimit(m, freshPlayer(), 'weapon');
  t.like(fails(t, 'WEAPON_LIMIT', 'makePlayerWeapon', holding(max, { gold: 0, items: { 5001: 6 } }), { weaponId: PLAIN_BLADE }), { max });
  const r = ok(t, 'makePlayerWeapon', holding(max - 1, { gold: 1000, items: { 5001: 5 } }), { weaponId: PLAIN_BLADE });
  t.is(r.state.weapons.length, max);
  t.is(r.state.gold, 0);
});

// ---- receive ----
test('receive: a character master data gives no own weapon is 107 naming the character', (t) => {
  const s = withLevelled(100);
  const e = fails(t, 'NOT_FOUND', 'receivePlayerWeapon', s, { managedCharacterId: s.characters[0]?.managedCharacterId }, { m: withoutOwnWeapon(1011) });
  t.like(e, { entity: 'own weapon of character', id: 1011 });
});

test('receive refusals say why: already received, and the level needed (100) and had (99)', (t) => {
  const s = withLevelled(100);
  const id = s.characters[0]?.managedCharacterId;
  const got = ok(t, 'receivePlayerWeapon', s, { managedCharacterId: id }).state;
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', got, { managedCharacterId: id })), /already received/);
  const low = withLevelled(99);
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', low, { managedCharacterId: low.characters[0]?.managedCharacterId })), /must be level 100, it is level 99/);
});

// ---- upgrade ----
test('upgrade with an item that is not a weapon exp item is 102 on items, naming the item', (t) => {
  const s = holding(1, { gold: 10_000, items: { [CANDY]: 1, [WHET]: 1 } });
  const e = fails(t, 'INVALID_PARAMETERS', 'upgradePlayerWeapon', s, { managedWeaponId: ids(s)[0], items: [{ itemId: CANDY, amount: 1 }] });
  t.like(e, { field: 'items' });
  t.regex(reasonOf(e), /item 2001 is not a weapon exp item/);
});

// ---- evolution ----
test('evolution refusals name the weapon with no evolution, and the level needed and had', (t) => {
  const top: PlayerState = { ...holding(0, { gold: 100_000 }), weapons: [{ ...weapons(1, GREAT_BLADE)[0] as OwnedWeapon, level: 40 }] };
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', top, { managedWeaponId: ids(top)[0] })), /weapon 105 has no evolution/);
  const low: PlayerState = { ...holding(0, { gold: 100_000, items: { 4001: 1 } }), weapons: [{ ...weapons(1)[0] as OwnedWeapon, level: 19, exp: tableTotal(19) }] };
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', low, { managedWeaponId: ids(low)[0] })), /needs level 20, the weapon is level 19/);
});

// ---- sale ----
test('sale of exactly saleMax (50) weapons sells them all; 51 is 102 on managedWeaponIds naming the limit, nothing sold', (t) => {
  const s = holding(SALE_MAX + 1);
  const all = ids(s);
  const r = ok(t, 'salePlayerWeapon', s, { managedWeaponIds: all.slice(0, SALE_MAX) });
  t.is(r.state.weapons.length, 1);
  t.is(r.response.gold, SALE_MAX * 300);
  t.is(r.state.gold - s.gold, SALE_MAX * 300);
  const e = fails(t, 'INVALID_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: all });
  t.like(e, { field: 'managedWeaponIds' });
  t.regex(reasonOf(e), /at most 50 weapons/);
});

test('sale refusals name the list: none (103), a weapon named twice (102), a weapon in a battle party (317 naming it)', (t) => {
  const s = holding(2);
  const [a, b] = ids(s) as [number, number];
  t.like(fails(t, 'INSUFFICIENT_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [] }), { field: 'managedWeaponIds' });
  const twice = fails(t, 'INVALID_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [a, a] });
  t.like(twice, { field: 'managedWeaponIds' });
  t.regex(reasonOf(twice), /twice/);
  const inParty: PlayerState = { ...s, battleParties: s.battleParties.map((p, i) => (i === 0 ? { ...p, slots: p.slots.map((x, j) => (j === 0 ? { ...x, managedWeaponId: b } : x)) } : p)) };
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'salePlayerWeapon', inParty, { managedWeaponIds: [a, b] })), new RegExp(`weapon ${b} is in a battle party`));
});

test('sale: coins reaching the coin maximum exactly are paid; one coin past it is 311 on gold naming the maximum', (t) => {
  const s = holding(1);
  const r = ok(t, 'salePlayerWeapon', withWealth(s, { gold: GOLD_MAX - 300 }), { managedWeaponIds: ids(s) });
  t.is(r.state.gold, GOLD_MAX);
  const e = fails(t, 'CURRENCY_LIMIT', 'salePlayerWeapon', withWealth(s, { gold: GOLD_MAX - 299 }), { managedWeaponIds: ids(s) });
  t.like(e, { currency: 'gold', max: GOLD_MAX });
});
