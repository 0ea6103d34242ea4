// Getting weapons (docs/rules/progression.md, Weapons): make pays the recipe and adds the
// weapon at level 1; receive gives a character its own weapon at level 100, once; the
// storage they fill (full storage checked before paying) and limit/add, which raises it.
// Each refusal names what refused.
import test from 'ava';
import { fails, freshPlayer, master, ok, withWealth, itemsOf } from '../../_support/core.js';
import { storageLimit } from '../../../core/shared/player.js';
import type { OwnedWeapon, PlayerState } from '../../../core/state.js';
import { tryGrant } from '../../../core/shared/grant.js';
import type { Master } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const PLAIN_BLADE = 103; // ★3, recipe 1000 coins + 5 Iron Ore, max level 20, evolves to 104
const OWN_1011 = 11011; // Nehi Meos's own weapon, max 20, evolves to 21011
const wp = (s: PlayerState, i = 0): OwnedWeapon => s.weapons[i] as OwnedWeapon;

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const weapons = (n: number, weaponId = PLAIN_BLADE): OwnedWeapon[] =>
  Array.from({ length: n }, (_, i) => ({ managedWeaponId: 10_000 + i, weaponId, level: 1, exp: 0, createdAt: 0 }));
const holding = (n: number, w: Parameters<typeof withWealth>[1] = {}): PlayerState =>
  withWealth({ ...freshPlayer(), weapons: weapons(n) }, w);
/** Character 1011 at a level, its own weapon not yet received. */
const withLevelled = (level: number): PlayerState => {
  const r = tryGrant(m, freshPlayer(), { kind: 'character', objectId: 1011, amount: 1 }, 0);
  if (r._tag === 'Left') throw new Error(r.left.code);
  return {
    ...r.right.state,
    characters: r.right.state.characters.map((c) => ({ ...c, level, limitBreak: 4, evolved: true })),
  };
};
/** Master data an operator retuned: character 1011's own weapon gone. */
const withoutOwnWeapon = (characterId: number): Master => ({
  ...m,
  ownWeapon: new Map([...m.ownWeapon].filter(([k]) => k !== characterId)),
});

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
  t.like(r.response.managedWeapon, {
    managedWeaponId: wp(r.state).managedWeaponId,
    weaponId: PLAIN_BLADE,
    level: 1,
    exp: 0,
  });
  t.is(typeof r.response.managedWeapon.createdAt, 'string');
});

test('make errors: unknown 107, no recipe 102, storage full 301, short of coins 441 or items 442', (t) => {
  const s = withWealth(freshPlayer(), { gold: 5000, items: { 5001: 6 } });
  fails(t, 'NOT_FOUND', 'makePlayerWeapon', s, { weaponId: 999 });
  fails(t, 'INVALID_PARAMETERS', 'makePlayerWeapon', s, { weaponId: OWN_1011 });
  const full: PlayerState = {
    ...s,
    weapons: Array.from({ length: storageLimit(m, s, 'weapon') }, (_, i) => ({
      managedWeaponId: 10_000 + i,
      weaponId: PLAIN_BLADE,
      level: 1,
      exp: 0,
      createdAt: 0,
    })),
  };
  fails(t, 'WEAPON_LIMIT', 'makePlayerWeapon', full, { weaponId: PLAIN_BLADE });
  fails(t, 'GOLD_IS_SHORT', 'makePlayerWeapon', withWealth(s, { gold: 999 }), { weaponId: PLAIN_BLADE });
  fails(t, 'ITEM_IS_SHORT', 'makePlayerWeapon', withWealth(s, { items: { 5001: 4 } }), { weaponId: PLAIN_BLADE });
});

test('make: an unknown weapon is 107 naming it; one without a recipe is 102 on weaponId, naming it', (t) => {
  const s = withWealth(freshPlayer(), { gold: 5000, items: { 5001: 6 } });
  t.like(fails(t, 'NOT_FOUND', 'makePlayerWeapon', s, { weaponId: 999 }), { entity: 'weapon', id: 999 });
  const e = fails(t, 'INVALID_PARAMETERS', 'makePlayerWeapon', s, { weaponId: OWN_1011 });
  t.like(e, { field: 'weaponId' });
  t.regex(reasonOf(e), /weapon 11011 has no recipe/);
});

test('make: full storage is 301 even when the coins are short too (checked before paying); one slot free makes the last weapon', (t) => {
  const max = storageLimit(m, freshPlayer(), 'weapon');
  t.like(
    fails(t, 'WEAPON_LIMIT', 'makePlayerWeapon', holding(max, { gold: 0, items: { 5001: 6 } }), {
      weaponId: PLAIN_BLADE,
    }),
    { max },
  );
  const r = ok(t, 'makePlayerWeapon', holding(max - 1, { gold: 1000, items: { 5001: 5 } }), { weaponId: PLAIN_BLADE });
  t.is(r.state.weapons.length, max);
  t.is(r.state.gold, 0);
});

// ---- receive ----

test("receive gives the character's own weapon at level 100, once", (t) => {
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
  fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', withLevelled(99), {
    managedCharacterId: withLevelled(99).characters[0]?.managedCharacterId,
  });
  fails(t, 'NOT_FOUND', 'receivePlayerWeapon', withLevelled(100), { managedCharacterId: 999_999 });
  const s = withLevelled(100);
  const full: PlayerState = {
    ...s,
    weapons: Array.from({ length: storageLimit(m, s, 'weapon') }, (_, i) => ({
      managedWeaponId: 10_000 + i,
      weaponId: PLAIN_BLADE,
      level: 1,
      exp: 0,
      createdAt: 0,
    })),
  };
  fails(t, 'WEAPON_LIMIT', 'receivePlayerWeapon', full, { managedCharacterId: s.characters[0]?.managedCharacterId });
});

test('receive: a character master data gives no own weapon is 107 naming the character', (t) => {
  const s = withLevelled(100);
  const e = fails(
    t,
    'NOT_FOUND',
    'receivePlayerWeapon',
    s,
    { managedCharacterId: s.characters[0]?.managedCharacterId },
    { m: withoutOwnWeapon(1011) },
  );
  t.like(e, { entity: 'own weapon of character', id: 1011 });
});

test('receive refusals say why: already received, and the level needed (100) and had (99)', (t) => {
  const s = withLevelled(100);
  const id = s.characters[0]?.managedCharacterId;
  const got = ok(t, 'receivePlayerWeapon', s, { managedCharacterId: id }).state;
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', got, { managedCharacterId: id })),
    /already received/,
  );
  const low = withLevelled(99);
  t.regex(
    reasonOf(
      fails(t, 'STATE_CONFLICT', 'receivePlayerWeapon', low, {
        managedCharacterId: low.characters[0]?.managedCharacterId,
      }),
    ),
    /must be level 100, it is level 99/,
  );
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

test('weapon limit/add raises the limit by one step for its gem price, up to the cap; at the cap it is 299', (t) => {
  const l = m.game.limits.weapons;
  const toCap = Math.ceil((l.cap - l.base) / l.step);
  const fresh = withWealth(freshPlayer(), { gem: l.gemPrice, paidGem: 0 });
  const r = ok(t, 'addPlayerWeaponLimit', fresh, {});
  t.is(r.response.weaponLimit, l.base + l.step);
  t.is(r.state.gem, 0);
  // One purchase short of the cap: the last one reaches it exactly (or stops at it).
  const last = ok(t, 'addPlayerWeaponLimit', { ...fresh, limitAdds: { ...fresh.limitAdds, weapon: toCap - 1 } }, {});
  t.is(last.response.weaponLimit, l.cap);
  const e = fails(t, 'WEAPON_EXT_LIMIT', 'addPlayerWeaponLimit', last.state, {});
  t.like(e, { max: l.cap });
  // Purchases recorded past the cap (a cap lowered by a retune) still show the cap.
  const over: PlayerState = { ...fresh, limitAdds: { ...fresh.limitAdds, weapon: toCap + 3 } };
  t.is(ok(t, 'getAllPlayer', over, {}).response.player.weaponLimit, l.cap);
});
