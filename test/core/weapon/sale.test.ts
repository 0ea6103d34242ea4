// Selling weapons (docs/rules/progression.md, Weapons): the sale prices paid and the weapons
// removed; exactly saleMax and one more; coins reaching the coin maximum exactly and one
// past; a weapon in a battle party kept; sales conserve value.
import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, ok, runOp, withWealth } from '../../_support/core.js';
import { tryGrant } from '../../../core/shared/grant.js';
import type { Grant } from '../../../core/master/common.js';
import type { OwnedWeapon, PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const m = master();
const PLAIN_BLADE = 103; // ★3, recipe 1000 coins + 5 Iron Ore, max level 20, evolves to 104

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
const GOLD_MAX = m.game.currencyMax.gold;
const SALE_MAX = m.progression.weapon.saleMax; // 50

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const weapons = (n: number, weaponId = PLAIN_BLADE): OwnedWeapon[] =>
  Array.from({ length: n }, (_, i) => ({ managedWeaponId: 10_000 + i, weaponId, level: 1, exp: 0, createdAt: 0 }));
const holding = (n: number, w: Parameters<typeof withWealth>[1] = {}): PlayerState =>
  withWealth({ ...freshPlayer(), weapons: weapons(n) }, w);
const ids = (s: PlayerState) => s.weapons.map((w) => w.managedWeaponId);

test('sale removes the weapons and pays their sale prices', (t) => {
  const s = withWeapons([PLAIN_BLADE, 105, 104]);
  const r = ok(t, 'salePlayerWeapon', s, { managedWeaponIds: [wp(s, 0).managedWeaponId, wp(s, 1).managedWeaponId] });
  t.is(r.state.gold - s.gold, 300 + 500);
  t.deepEqual(
    r.state.weapons.map((w) => w.weaponId),
    [104],
  );
});

test('sale errors: in a battle party 317, unknown 107, named twice 102, none 103, coins over the maximum 311', (t) => {
  const s = withWeapons([PLAIN_BLADE, 104]);
  const [a, b] = s.weapons.map((w) => w.managedWeaponId);
  const inParty: PlayerState = {
    ...s,
    battleParties: s.battleParties.map((p, i) =>
      i === 3 ? { ...p, slots: p.slots.map((x, j) => (j === 2 ? { ...x, managedWeaponId: b ?? 0 } : x)) } : p,
    ),
  };
  fails(t, 'STATE_CONFLICT', 'salePlayerWeapon', inParty, { managedWeaponIds: [a, b] });
  ok(t, 'salePlayerWeapon', inParty, { managedWeaponIds: [a] });
  fails(t, 'NOT_FOUND', 'salePlayerWeapon', s, { managedWeaponIds: [a, 999_999] });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [a, a] });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [] });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerWeapon', withWealth(s, { gold: m.game.currencyMax.gold - 100 }), {
    managedWeaponIds: [a],
  });
});

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
  t.like(fails(t, 'INSUFFICIENT_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [] }), {
    field: 'managedWeaponIds',
  });
  const twice = fails(t, 'INVALID_PARAMETERS', 'salePlayerWeapon', s, { managedWeaponIds: [a, a] });
  t.like(twice, { field: 'managedWeaponIds' });
  t.regex(reasonOf(twice), /twice/);
  const inParty: PlayerState = {
    ...s,
    battleParties: s.battleParties.map((p, i) =>
      i === 0 ? { ...p, slots: p.slots.map((x, j) => (j === 0 ? { ...x, managedWeaponId: b } : x)) } : p,
    ),
  };
  t.regex(
    reasonOf(fails(t, 'STATE_CONFLICT', 'salePlayerWeapon', inParty, { managedWeaponIds: [a, b] })),
    new RegExp(`weapon ${b} is in a battle party`),
  );
});

test('sale: coins reaching the coin maximum exactly are paid; one coin past it is 311 on gold naming the maximum', (t) => {
  const s = holding(1);
  const r = ok(t, 'salePlayerWeapon', withWealth(s, { gold: GOLD_MAX - 300 }), { managedWeaponIds: ids(s) });
  t.is(r.state.gold, GOLD_MAX);
  const e = fails(t, 'CURRENCY_LIMIT', 'salePlayerWeapon', withWealth(s, { gold: GOLD_MAX - 299 }), {
    managedWeaponIds: ids(s),
  });
  t.like(e, { currency: 'gold', max: GOLD_MAX });
});

test('property: weapon sales conserve value (coins gained equal the sale prices of the weapons removed)', (t) => {
  const pool = [103, 104, 105, 203, 304, 505];
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom(...pool), { minLength: 1, maxLength: 8 }),
      fc.array(fc.nat(7), { maxLength: 8 }),
      (ids, picks) => {
        const s = withWeapons(ids);
        const chosen = [...new Set(picks.map((p) => s.weapons[p % s.weapons.length]?.managedWeaponId ?? 0))];
        if (chosen.length === 0) return true;
        const r = runOp('salePlayerWeapon', s, { managedWeaponIds: chosen });
        if (r._tag === 'Left') return false;
        const removed = s.weapons.filter((w) => !r.right.state.weapons.includes(w));
        const value = removed.reduce((a, w) => a + (m.weapon.get(w.weaponId)?.salePrice ?? 0), 0);
        return removed.length === chosen.length && r.right.state.gold - s.gold === value;
      },
    ),
    { numRuns: 50 },
  );
  t.pass();
});
