// Weapons: make by recipe, receive a character's own weapon at level 100, upgrade
// with exp items and coins, evolve at the maximum level, sell, and buy storage.
import * as t from 'io-ts';
import { IdList, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { OwnedWeapon, PlayerState } from '../state.js';
import { fail, ok } from '../shared/result.js';
import { limitDef, storageLimit } from '../shared/player.js';
import { weaponInBattleParty } from '../shared/parties.js';
import {
  COST_ERRORS,
  checkMaterials,
  feed,
  findCharacter,
  findWeapon,
  findWeaponWithDef,
  goldPerItem,
  replace,
  weaponTotals,
} from '../shared/growth.js';
import { timeText, type ViewCtx } from '../view.js';
import { ItemStackView, type WeaponView } from '../views/codecs.js';
import { ItemAmountRequest } from './character.js';
import { pay } from '../shared/pay.js';
import { tryGrant } from '../shared/grant.js';
import * as api from '../api/weapon.js';

const putWeapon = (s: PlayerState, old: OwnedWeapon, next: OwnedWeapon): PlayerState => ({
  ...s,
  weapons: replace(s.weapons, old, next),
});
/** One weapon's wire view: the same as its entry in managedWeapons. */
const weaponView = (w: OwnedWeapon, ctx: ViewCtx): WeaponView => ({
  managedWeaponId: w.managedWeaponId,
  weaponId: w.weaponId,
  level: w.level,
  exp: w.exp,
  createdAt: timeText(ctx, w.createdAt),
});
/** The weapon a grant just added (grants append). */
const added = (s: PlayerState): OwnedWeapon => s.weapons[s.weapons.length - 1] as OwnedWeapon;

// ---- make ----
const make = implementOp(api.make, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const def = m.weapon.get(req.weaponId);
    if (!def) return fail('NOT_FOUND', { entity: 'weapon', id: req.weaponId });
    if (!def.recipe)
      return fail('INVALID_PARAMETERS', { field: 'weaponId', reason: `weapon ${req.weaponId} has no recipe` });
    const max = storageLimit(m, s, 'weapon');
    if (s.weapons.length >= max) return fail('WEAPON_LIMIT', { max });
    const paid = pay(m, s, def.recipe, now);
    if (paid._tag === 'Left') return paid;
    const granted = tryGrant(m, paid.right, { kind: 'weapon' as const, objectId: def.weaponId, amount: 1 }, now);
    if (granted._tag === 'Left') return granted;
    const state = granted.right.state;
    return ok({ state, response: { managedWeapon: weaponView(added(state), { master: m, now }) } });
  },
});

// ---- receive ----
const receive = implementOp(api.receive, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findCharacter(s, req.managedCharacterId);
    if (found._tag === 'Left') return found;
    const c = found.right;
    const weaponId = m.ownWeapon.get(c.characterId);
    if (weaponId === undefined) return fail('NOT_FOUND', { entity: 'own weapon of character', id: c.characterId });
    if (s.ownWeaponsReceived.includes(c.characterId))
      return fail('STATE_CONFLICT', { reason: "this character's own weapon was already received" });
    const need = m.progression.weapon.receiveLevel;
    if (c.level < need)
      return fail('STATE_CONFLICT', { reason: `the character must be level ${need}, it is level ${c.level}` });
    const granted = tryGrant(m, s, { kind: 'weapon' as const, objectId: weaponId, amount: 1 }, now);
    if (granted._tag === 'Left') return granted;
    const st = granted.right.state;
    const state = { ...st, ownWeaponsReceived: [...st.ownWeaponsReceived, c.characterId] };
    return ok({ state, response: { managedWeapon: weaponView(added(state), { master: m, now }) } });
  },
});

// ---- upgrade ----
const upgrade = implementOp(api.upgrade, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findWeaponWithDef(m, s, req.managedWeaponId);
    if (found._tag === 'Left') return found;
    const { w, def } = found.right;
    const materials = checkMaterials(m, s, req.items, (id) => m.weaponExpItem.has(id), 'a weapon exp item');
    if (materials._tag === 'Left') return materials;
    if (w.level >= def.maxLevel) return fail('WEAPON_UPGRADE_LIMIT', { max: def.maxLevel });
    const cfg = m.progression.weapon;
    const fed = feed(
      weaponTotals(m, w),
      def.maxLevel,
      w,
      materials.right,
      (id) => m.weaponExpItem.get(id) ?? 0,
      (level) => goldPerItem(cfg.upgradeGold, level),
    );
    const paid = pay(m, s, { gold: fed.gold, items: fed.used }, now);
    if (paid._tag === 'Left') return paid;
    const next = { ...w, level: fed.level, exp: fed.exp };
    return ok({
      state: putWeapon(paid.right, w, next),
      response: { managedWeapon: weaponView(next, { master: m, now }), usedItems: fed.used, gold: fed.gold },
    });
  },
});

// ---- evolution ----
const evolution = implementOp(api.evolution, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findWeaponWithDef(m, s, req.managedWeaponId);
    if (found._tag === 'Left') return found;
    const { w, def } = found.right;
    if (!def.evolution) return fail('STATE_CONFLICT', { reason: `weapon ${def.weaponId} has no evolution` });
    if (w.level < def.maxLevel)
      return fail('STATE_CONFLICT', {
        reason: `evolution needs level ${def.maxLevel}, the weapon is level ${w.level}`,
      });
    const paid = pay(m, s, def.evolution.cost, now);
    if (paid._tag === 'Left') return paid;
    const next = { ...w, weaponId: def.evolution.weaponId };
    return ok({
      state: putWeapon(paid.right, w, next),
      response: { managedWeapon: weaponView(next, { master: m, now }) },
    });
  },
});

// ---- sale ----
const sale = implementOp(api.sale, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const ids = req.managedWeaponIds;
    if (ids.length === 0) return fail('INSUFFICIENT_PARAMETERS', { field: 'managedWeaponIds' });
    const max = m.progression.weapon.saleMax;
    if (ids.length > max)
      return fail('INVALID_PARAMETERS', { field: 'managedWeaponIds', reason: `at most ${max} weapons at once` });
    if (new Set(ids).size !== ids.length)
      return fail('INVALID_PARAMETERS', { field: 'managedWeaponIds', reason: 'a weapon is named twice' });
    let gold = 0;
    for (const id of ids) {
      const found = findWeapon(s, id);
      if (found._tag === 'Left') return found;
      if (weaponInBattleParty(s, id)) return fail('STATE_CONFLICT', { reason: `weapon ${id} is in a battle party` });
      gold += m.weapon.get(found.right.weaponId)?.salePrice ?? 0;
    }
    const cap = m.game.currencyMax.gold;
    if (s.gold + gold > cap) return fail('CURRENCY_LIMIT', { currency: 'gold', max: cap });
    const sold = new Set(ids);
    const state = { ...s, gold: s.gold + gold, weapons: s.weapons.filter((w) => !sold.has(w.managedWeaponId)) };
    return ok({ state, response: { managedWeaponIds: ids, gold } });
  },
});

// ---- limit/add ----
const limitAdd = implementOp(api.limitAdd, {
  reduce: (s, _req, _rng, now, { master: m }) => {
    const l = limitDef(m, 'weapon');
    if (storageLimit(m, s, 'weapon') >= l.cap) return fail('WEAPON_EXT_LIMIT', { max: l.cap });
    const paid = pay(m, s, { gem: l.gemPrice }, now);
    if (paid._tag === 'Left') return paid;
    const state = { ...paid.right, limitAdds: { ...paid.right.limitAdds, weapon: paid.right.limitAdds.weapon + 1 } };
    return ok({ state, response: { weaponLimit: storageLimit(m, state, 'weapon') } });
  },
});

export const weaponOps = [limitAdd, evolution, make, receive, sale, upgrade] as const;
