// Levels and exp shared by characters, weapons and spheres: level caps, exp past a
// cap lost, coins per item used, and the checks on a list of material items.
import type { Master } from '../master/index.js';
import type { UpgradeGold, Weapon } from '../master/progression.js';
import type { OwnedCharacter, OwnedWeapon, PlayerState } from '../state.js';
import { fail, ok, type Result } from './result.js';
import { itemCount } from './player.js';
import { mergeItems, type PayError } from './pay.js';

export interface ItemAmount {
  readonly itemId: number;
  readonly amount: number;
}

/** What paying a master-data cost (a recipe, an evolution, a slot, a training) can fail with: each of its parts may be short. */
export const COST_ERRORS = [
  'GOLD_IS_SHORT',
  'UNLIMITED_GEM_IS_SHORT',
  'GEM_IS_SHORT',
  'KIRARA_IS_SHORT',
  'STAMINA_IS_SHORT',
  'ITEM_IS_SHORT',
] as const satisfies ReadonlyArray<PayError>;

/** The highest level whose total exp is reached (totals[0] is level 1). */
export const levelFor = (totals: ReadonlyArray<number>, exp: number): number => {
  let level = 1;
  while (level < totals.length && (totals[level] ?? Infinity) <= exp) level++;
  return level;
};

/**
 * Adds exp up to the cap level: exp past the cap is lost. Exp already past the cap (a
 * retune lowered it) is kept: a gain never takes exp or levels away.
 */
export const gainExp = (
  totals: ReadonlyArray<number>,
  cap: number,
  exp: number,
  gain: number,
): { level: number; exp: number } => {
  const top = totals[Math.min(cap, totals.length) - 1] ?? 0;
  const next = Math.max(exp, Math.min(exp + gain, top));
  return { level: levelFor(totals, next), exp: next };
};

/** Coins for one item used at `level` (the level before the item). */
export const goldPerItem = (g: UpgradeGold, level: number): number => level * g.perLevel + g.base;

export const characterTotals = (m: Master): number[] => m.characterLevels.map((l) => l.totalExp);

/** A character's level cap: base + limit breaks × step (+ evolution bonus), from its rarity. */
export const levelCap = (m: Master, c: OwnedCharacter): number => {
  const r = m.rarity.get(m.character.get(c.characterId)?.rarity ?? 0);
  if (!r) return c.level;
  return r.baseLevelCap + c.limitBreak * r.limitBreakStep + (c.evolved ? r.evolutionBonus : 0);
};

/** Gives a character exp, capped at its level cap (training, quests). */
export const addCharacterExp = (m: Master, c: OwnedCharacter, gain: number): OwnedCharacter => {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent (a gain of 0 or less leaves the exp as it is in gainExp, which never lowers it, and the same character comes back below; the `true` mutant, every gain refused, is killed)
  if (gain <= 0) return c;
  const r = gainExp(characterTotals(m), levelCap(m, c), c.exp, gain);
  // Stryker disable next-line ConditionalExpression: equivalent (r.level === c.level as true: r.level is levelFor(r.exp), so when r.exp === c.exp it is the level c.exp gives, which is c.level in every state the core writes)
  return r.level === c.level && r.exp === c.exp ? c : { ...c, level: r.level, exp: r.exp };
};

export const weaponTotals = (m: Master, w: OwnedWeapon): ReadonlyArray<number> => {
  const def = m.weapon.get(w.weaponId);
  return (def && m.weaponExpTable.get(def.expTableId)?.totalExp) ?? [0];
};

export const findCharacter = (s: PlayerState, managedCharacterId: number): Result<OwnedCharacter, 'NOT_FOUND'> => {
  const c = s.characters.find((x) => x.managedCharacterId === managedCharacterId);
  return c ? ok(c) : fail('NOT_FOUND', { entity: 'character', id: managedCharacterId });
};

export const findWeapon = (s: PlayerState, managedWeaponId: number): Result<OwnedWeapon, 'NOT_FOUND'> => {
  const w = s.weapons.find((x) => x.managedWeaponId === managedWeaponId);
  return w ? ok(w) : fail('NOT_FOUND', { entity: 'weapon', id: managedWeaponId });
};

/** An owned weapon with its master entry (107 when either is unknown). */
export const findWeaponWithDef = (
  m: Master,
  s: PlayerState,
  managedWeaponId: number,
): Result<{ w: OwnedWeapon; def: Weapon }, 'NOT_FOUND'> => {
  const found = findWeapon(s, managedWeaponId);
  if (found._tag === 'Left') return found;
  const def = m.weapon.get(found.right.weaponId);
  return def ? ok({ w: found.right, def }) : fail('NOT_FOUND', { entity: 'weapon', id: found.right.weaponId });
};

/**
 * Checks the items a request names to be used as materials: at least one, each
 * known (107), accepted for this use (102), within its master maximum (102) and
 * held (442). Returns them merged by item id in first-seen order.
 */
export const checkMaterials = (
  m: Master,
  s: PlayerState,
  items: ReadonlyArray<ItemAmount>,
  accepts: (itemId: number) => boolean,
  what: string,
): Result<ItemAmount[], 'INVALID_PARAMETERS' | 'NOT_FOUND' | 'ITEM_IS_SHORT'> => {
  if (items.length === 0) return fail('INVALID_PARAMETERS', { field: 'items', reason: 'must name at least one item' });
  const merged = mergeItems(items);
  for (const it of merged) {
    const def = m.item.get(it.itemId);
    if (!def) return fail('NOT_FOUND', { entity: 'item', id: it.itemId });
    if (!accepts(it.itemId))
      return fail('INVALID_PARAMETERS', { field: 'items', reason: `item ${it.itemId} is not ${what}` });
    if (it.amount > def.max)
      return fail('INVALID_PARAMETERS', {
        field: 'items',
        reason: `amount of item ${it.itemId} is over its maximum ${def.max}`,
      });
    const have = itemCount(s, it.itemId);
    if (it.amount > have) return fail('ITEM_IS_SHORT', { itemId: it.itemId, need: it.amount, have });
  }
  return ok(merged);
};

/** Replaces one element of a list (by reference), keeping the others' references. */
export const replace = <T>(xs: ReadonlyArray<T>, old: T, next: T): T[] => xs.map((x) => (x === old ? next : x));

export interface Fed {
  readonly level: number;
  readonly exp: number;
  /** The items actually used (those after the cap was reached stay in the item box). */
  readonly used: ItemAmount[];
  readonly gold: number;
}

/**
 * Uses material items one at a time, in order, while below the cap: each gives its
 * exp (past the cap lost) and costs `goldFor(level before it)` coins.
 */
export const feed = (
  totals: ReadonlyArray<number>,
  cap: number,
  start: { level: number; exp: number },
  materials: ReadonlyArray<ItemAmount>,
  expOf: (itemId: number) => number,
  goldFor: (level: number) => number,
): Fed => {
  let { level, exp } = start;
  let gold = 0;
  const used: ItemAmount[] = [];
  for (const it of materials) {
    let n = 0;
    while (n < it.amount && level < cap) {
      gold += goldFor(level);
      ({ level, exp } = gainExp(totals, cap, exp, expOf(it.itemId)));
      n++;
    }
    if (n > 0) used.push({ itemId: it.itemId, amount: n });
  }
  return { level, exp, used, gold };
};
