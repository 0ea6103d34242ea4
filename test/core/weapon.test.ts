import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, ok, runOp, withWealth, itemsOf } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import { storageLimit } from '../../core/shared/player.js';
import type { Grant } from '../../core/master/common.js';
import type { OwnedWeapon, PlayerState } from '../../core/state.js';

const m = master();
const PLAIN_BLADE = 103; // ★3, recipe 1000 coins + 5 Iron Ore, max level 20, evolves to 104
const OWN_1011 = 11011; // Nehi Meos's own weapon, max 20, evolves to 21011
const WHET = 10001; // 100 weapon exp
const BIG_WHET = 10003; // 2000 weapon exp

const grantAll = (s0: PlayerState, gs: Grant[]): PlayerState => gs.reduce((s, g) => {
  const r = tryGrant(m, s, g, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  return r.right.state;
}, s0);
const withWeapons = (ids: number[], w: Parameters<typeof withWealth>[1] = {}): PlayerState =>
  withWealth(grantAll(freshPlayer(), ids.map((objectId) => ({ kind: 'weapon', objectId, amount: 1 }))), w);
const wp = (s: PlayerState, i = 0): OwnedWeapon => s.weapons[i] as OwnedWeapon;
const patchW = (s: PlayerState, w: Partial<OwnedWeapon>, i = 0): PlayerState => ({ ...s, weapons: s.weapons.map((x, j) => (j === i ? { ...x, ...w } : x)) });
const tableTotal = (level: number, tableId = 1) => m.weaponExpTable.get(tableId)?.totalExp[level - 1] ?? 0;

// ---- make ----
test('make pays the recipe and adds the weapon at level 1', (t) => {
  const s = withWealth(freshPlayer(), { gold: 5000, items: { 5001: 6 } });
  const r = ok(t, 'makePlayerWeapon', s, { weaponId: PLAIN_BLADE });
  t.is(r.state.weapons.length, 1);
  t.like(wp(r.state), { weaponId: PLAIN_BLADE, level: 1, exp: 0 });
  t.is(r.state.gold, 4000);
  t.is(itemsOf(r.state)['5001'], 1);
  t.truthy(r.response.managedWeapons);
});

test('make answers the new weapon as its managedWeapons entry shows it', (t) => {
  const s = withWealth(freshPlayer(), { gold: 5000, items: { 5001: 6 } });
  const r = ok(t, 'makePlayerWeapon', s, { weaponId: PLAIN_BLADE });
  t.deepEqual(r.response.managedWeapon, r.response.managedWeapons?.[0]);
  t.like(r.response.managedWeapon, { managedWeaponId: wp(r.state).managedWeaponId, weaponId: PLAIN_BLADE, level: 1, exp: 0 });
  t.is(typeof r.response.managedWeapon.createdAt, 'string');
});

test('make errors: unknown 107, no recipe 102, storage full 301, short of coins 441 or items 442', (t) => {
  const s = withWealth(freshPlayer(), { gold: 5000, items: { 5001: 6 } });
  fails(t, 'NOT_FOUND', 'makePlayerWeapon', s, { weaponId: 999 });
  fails(t, 'INVALID_PARAMETERS', 'makePlayerWeapon', s, { weaponId: OWN_1011 });
  const full: PlayerState = { ...s, weapons: Array.from({ length: storageLimit(m, s, 'weapon') }, (_, i) => ({ managedWeaponId: 10_000 + i, weaponId: PLAIN_BLADE, level: 1, exp: 0, createdAt: 0 })) };
  fails(t, 'WEAPON_LIMIT', 'makePlayerWeapon', full, { weaponId: PLAIN_BLADE });
  fails(t, 'GOLD_IS_SHORT', 'makePlayerWeapon', withWealth(s, { gold: 999 }), { weaponId: PLAIN_BLADE });
  fails(t, 'ITEM_IS_SHORT', 'makePlayerWeapon', withWealth(s, { items: { 5001: 4 } }), { weaponId: PLAIN_BLADE });
});

// ---- receive ----
const withLevelled = (level: number): PlayerState => {
  const s = grantAll(freshPlayer(), [{ kind: 'character', objectId: 1011, amount: 1 }]);
  return { ...s, characters: s.characters.map((c) => ({ ...c, level, limitBreak: 4, evolved: true })) };
};

test('receive gives the character\'s own weapon at level 100, once', (t) => {
  const s = withLevelled(100);
  const id = s.characters[0]?.managedCharacterId;
  const r = ok(t, 'receivePlayerWeapon', s, { managedCharacterId: id });
  t.like(wp(r.state), { weaponId: OWN_1011, level: 1 });
  t.deepEqual(r.state.ownWeaponsReceived, [1011]);
  fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', r.state, { managedCharacterId: id });
  // Selling it does not let the character receive it again.
  const sold = ok(t, 'salePlayerWeapon', r.state, { managedWeaponIds: [wp(r.state).managedWeaponId] });
  fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', sold.state, { managedCharacterId: id });
});

test('receive errors: below level 100 317, unknown character 107, storage full 301', (t) => {
  fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', withLevelled(99), { managedCharacterId: withLevelled(99).characters[0]?.managedCharacterId });
  fails(t, 'NOT_FOUND', 'receivePlayerWeapon', withLevelled(100), { managedCharacterId: 999_999 });
  const s = withLevelled(100);
  const full: PlayerState = { ...s, weapons: Array.from({ length: storageLimit(m, s, 'weapon') }, (_, i) => ({ managedWeaponId: 10_000 + i, weaponId: PLAIN_BLADE, level: 1, exp: 0, createdAt: 0 })) };
  fails(t, 'WEAPON_LIMIT', 'receivePlayerWeapon', full, { managedCharacterId: s.characters[0]?.managedCharacterId });
});

// ---- upgrade ----
test('upgrade: weapon exp items level the weapon, each costing level × 10 + 50 coins', (t) => {
  const s = withWeapons([PLAIN_BLADE], { gold: 10_000, items: { [WHET]: 3 } });
  const r = ok(t, 'upgradePlayerWeapon', s, { managedWeaponId: wp(s).managedWeaponId, items: [{ itemId: WHET, amount: 3 }] });
  // 0 → 100 (level 1: level 2 needs 150) → 200 (level 2) → 300 (level 3 needs 360).
  t.like(wp(r.state), { level: 2, exp: 300 });
  t.is(s.gold - r.state.gold, 60 + 60 + 70);
  t.is(itemsOf(r.state)[String(WHET)], undefined);
});

test('upgrade: exp past the maximum level is lost and the rest of the items stay', (t) => {
  const s = withWeapons([PLAIN_BLADE], { gold: 1_000_000, items: { [BIG_WHET]: 50 } });
  const r = ok(t, 'upgradePlayerWeapon', s, { managedWeaponId: wp(s).managedWeaponId, items: [{ itemId: BIG_WHET, amount: 50 }] });
  t.like(wp(r.state), { level: 20, exp: tableTotal(20) });
  t.is(50 - (itemsOf(r.state)[String(BIG_WHET)] ?? 0), Math.ceil(tableTotal(20) / 2000));
});

test('upgrade errors: at the maximum 293, unknown weapon 107, not a weapon exp item 102, short 442 and 441', (t) => {
  const s = withWeapons([PLAIN_BLADE], { gold: 100, items: { [WHET]: 5, 2001: 5 } });
  const id = wp(s).managedWeaponId;
  fails(t, 'WEAPON_UPGRADE_LIMIT', 'upgradePlayerWeapon', patchW(s, { level: 20, exp: tableTotal(20) }), { managedWeaponId: id, items: [{ itemId: WHET, amount: 1 }] });
  fails(t, 'NOT_FOUND', 'upgradePlayerWeapon', s, { managedWeaponId: 999_999, items: [{ itemId: WHET, amount: 1 }] });
  fails(t, 'INVALID_PARAMETERS', 'upgradePlayerWeapon', s, { managedWeaponId: id, items: [{ itemId: 2001, amount: 1 }] });
  fails(t, 'ITEM_IS_SHORT', 'upgradePlayerWeapon', s, { managedWeaponId: id, items: [{ itemId: WHET, amount: 6 }] });
  fails(t, 'GOLD_IS_SHORT', 'upgradePlayerWeapon', s, { managedWeaponId: id, items: [{ itemId: WHET, amount: 2 }] });
});

// ---- evolution ----
test('evolution at the maximum level pays the recipe and turns the weapon into its evolved form, keeping level and exp', (t) => {
  const s = patchW(withWeapons([OWN_1011], { gold: 30_000, items: { 10601: 3, 4001: 2 } }), { level: 20, exp: tableTotal(20, 2) });
  const r = ok(t, 'evolutionPlayerWeapon', s, { managedWeaponId: wp(s).managedWeaponId });
  t.like(wp(r.state), { weaponId: 21011, level: 20, exp: tableTotal(20, 2), managedWeaponId: wp(s).managedWeaponId });
  t.is(r.state.gold, 10_000);
  // The evolved form levels on to its own maximum.
  const more = ok(t, 'upgradePlayerWeapon', withWealth(r.state, { items: { [WHET]: 1 } }), { managedWeaponId: wp(s).managedWeaponId, items: [{ itemId: WHET, amount: 1 }] });
  t.is(wp(more.state).exp, tableTotal(20, 2) + 100);
});

test('evolution errors: below the maximum 317, no evolution 317, short 441 and 442, unknown 107', (t) => {
  const s = patchW(withWeapons([OWN_1011], { gold: 30_000, items: { 10601: 3, 4001: 2 } }), { level: 20, exp: tableTotal(20, 2) });
  const id = wp(s).managedWeaponId;
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', patchW(s, { level: 19, exp: tableTotal(19, 2) }), { managedWeaponId: id });
  fails(t, 'STATE_CONFLICT', 'evolutionPlayerWeapon', patchW(s, { weaponId: 21011, level: 40 }), { managedWeaponId: id });
  fails(t, 'GOLD_IS_SHORT', 'evolutionPlayerWeapon', withWealth(s, { gold: 19_999 }), { managedWeaponId: id });
  fails(t, 'ITEM_IS_SHORT', 'evolutionPlayerWeapon', withWealth(s, { items: { 10601: 2 } }), { managedWeaponId: id });
  fails(t, 'NOT_FOUND', 'evolutionPlayerWeapon', s, { managedWeaponId: 999_999 });
});

// ---- sale ----
test('sale removes the weapons and pays their sale prices', (t) => {
  const s = withWeapons([PLAIN_BLADE, 105, 104]);
  const r = ok(t, 'salePlayerWeapon', s, { managedWeaponIds: [wp(s, 0).managedWeaponId, wp(s, 1).managedWeaponId] });
  t.is(r.state.gold - s.gold, 300 + 500);
  t.deepEqual(r.state.weapons.map((w) => w.weaponId), [104]);
});

test('sale errors: in a battle party 317, unknown 107, named twice 102, none 103, coins over the maximum 311', (t) => {
  const s = withWeapons([PLAIN_BLADE, 104]);
  const [a, b] = s.weapons.map((w) => w.managedWeaponId);
  const inParty: PlayerState = { ...s, battleParties: s.battleParties.map((p, i) => (i === 3 ? { ...p, slots: p.slots.map((x, j) => (j === 2 ? { ...x, managedWeaponId: b ?? 0 } : x)) } : p)) };
  fails(t, 'STATE_CONFLICT', 'salePlayerWeapon', inParty, { managedWeaponIds: [a, b] });
  ok(t, 'salePlayerWeapon', inParty, { managedWeaponIds: [a] });
  fails(t, 'NOT_FOUND', 'salePlayerWeapon', s, { managedWeaponIds: [a, 999_999] });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [a, a] });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [] });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerWeapon', withWealth(s, { gold: m.game.currencyMax.gold - 100 }), { managedWeaponIds: [a] });
});

// ---- limit/add ----
test('limit/add raises the weapon limit by the step for gems, free gems first', (t) => {
  const l = m.game.limits.weapons;
  const s = withWealth(freshPlayer(), { gem: 30, paidGem: 100 });
  const r = ok(t, 'addPlayerWeaponLimit', s, {});
  t.is(storageLimit(m, r.state, 'weapon'), l.base + l.step);
  t.is(r.state.gem, 0);
  t.is(r.state.paidGem, 100 - (l.gemPrice - 30));
  t.is(r.response.weaponLimit, l.base + l.step);
  t.truthy(r.response.player);
});

test('limit/add over the cap is 299; short of gems 445', (t) => {
  const l = m.game.limits.weapons;
  const s = withWealth(freshPlayer(), { gem: 10_000 });
  const atCap = { ...s, limitAdds: { ...s.limitAdds, weapon: Math.ceil((l.cap - l.base) / l.step) } };
  fails(t, 'WEAPON_EXT_LIMIT', 'addPlayerWeaponLimit', atCap, {});
  fails(t, 'GEM_IS_SHORT', 'addPlayerWeaponLimit', withWealth(freshPlayer(), { gem: l.gemPrice - 1 }), {});
});

test('property: weapon sales conserve value (coins gained equal the sale prices of the weapons removed)', (t) => {
  const pool = [103, 104, 105, 203, 304, 505];
  fc.assert(fc.property(fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 8 }), fc.array(fc.nat(7), { maxLength: 8 }), (ids, picks) => {
    const s = withWeapons(ids);
    const chosen = [...new Set(picks.map((p) => s.weapons[p % s.weapons.length]?.managedWeaponId ?? 0))];
    if (chosen.length === 0) return true;
    const r = runOp('salePlayerWeapon', s, { managedWeaponIds: chosen });
    if (r._tag === 'Left') return false;
    const removed = s.weapons.filter((w) => !r.right.state.weapons.includes(w));
    const value = removed.reduce((a, w) => a + (m.weapon.get(w.weaponId)?.salePrice ?? 0), 0);
    return removed.length === chosen.length && r.right.state.gold - s.gold === value;
  }), { numRuns: 50 });
  t.pass();
});
