// Derived player values: level info, stamina now, storage limits, player exp.
import type { Master } from '../master/index.js';
import type { PlayerLevel } from '../master/base.js';
import type { ItemStack, PlayerState } from '../state.js';

export const levelRow = (m: Master, level: number): PlayerLevel =>
  m.playerLevels[Math.min(Math.max(level, 1), m.playerLevels.length) - 1] as PlayerLevel;

export const maxPlayerLevel = (m: Master): number => m.playerLevels.length;

export const staminaMax = (m: Master, s: PlayerState): number => levelRow(m, s.level).staminaMax;

/**
 * Stamina now: one point per regen interval since `at`, up to the maximum. Stamina
 * above the maximum (from a level-up refill) does not regenerate but is kept.
 */
export const staminaNow = (m: Master, s: PlayerState, now: number): number => {
  const max = staminaMax(m, s);
  // Stryker disable next-line EqualityOperator: equivalent (> for >=: at exactly the maximum the regeneration below gives min(max, max + gained) = max, gained being >= 0 as elapsed is clamped at 0 and regenSeconds is a PosInt)
  if (s.stamina.value >= max) return s.stamina.value;
  const gained = Math.floor(Math.max(0, now - s.stamina.at) / (m.game.stamina.regenSeconds * 1000));
  return Math.min(max, s.stamina.value + gained);
};

/** Settles regeneration into the stored value, keeping the partial interval. */
export const settleStamina = (m: Master, s: PlayerState, now: number): PlayerState => {
  const max = staminaMax(m, s);
  // Stryker disable next-line EqualityOperator: equivalent (> for >=: at exactly the maximum the path below gives value max, at now, and s itself when at is already now, as this branch does)
  if (s.stamina.value >= max) return s.stamina.at === now ? s : { ...s, stamina: { value: s.stamina.value, at: now } };
  const interval = m.game.stamina.regenSeconds * 1000;
  const elapsed = Math.max(0, now - s.stamina.at);
  const gained = Math.floor(elapsed / interval);
  const value = Math.min(max, s.stamina.value + gained);
  const at = value >= max ? now : s.stamina.at + gained * interval;
  // Stryker disable next-line LogicalOperator,ConditionalExpression: equivalent (below the maximum value changes exactly when at does: a full interval moves both, less moves neither; so || or either half alone decides the same)
  return value === s.stamina.value && at === s.stamina.at ? s : { ...s, stamina: { value, at } };
};

/**
 * Adds player exp (past the last level's total it is lost; exp already past it, from a
 * shortened level table, is kept). A level-up adds the new level's stamina maximum once,
 * however many levels the gain crosses (classic rule).
 */
export const addPlayerExp = (m: Master, s: PlayerState, exp: number, now: number): PlayerState => {
  if (exp <= 0) return s;
  const cap = maxPlayerLevel(m);
  const top = levelRow(m, cap).totalExp;
  const total = Math.max(s.exp, Math.min(s.exp + exp, top));
  let level = s.level;
  while (level < cap && levelRow(m, level + 1).totalExp <= total) level++;
  if (level === s.level) return { ...s, exp: total };
  const settled = settleStamina(m, s, now);
  return {
    ...settled,
    exp: total,
    level,
    stamina: { value: settled.stamina.value + levelRow(m, level).staminaMax, at: now },
  };
};

export type LimitKind = 'weapon' | 'facility' | 'roomObject';
const LIMIT_KEY = { weapon: 'weapons', facility: 'facilities', roomObject: 'roomObjects' } as const;

/** Current storage size for a kind: base + step per purchase, up to the cap. */
export const storageLimit = (m: Master, s: PlayerState, kind: LimitKind): number => {
  const l = m.game.limits[LIMIT_KEY[kind]];
  return Math.min(l.cap, l.base + s.limitAdds[kind] * l.step);
};
export const limitDef = (m: Master, kind: LimitKind) => m.game.limits[LIMIT_KEY[kind]];

/** Where an item is, or would be inserted, in a list sorted by item id (binary search). */
export const itemIndex = (items: ReadonlyArray<ItemStack>, itemId: number): number => {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((items[mid] as ItemStack).itemId < itemId) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

export const itemAmount = (items: ReadonlyArray<ItemStack>, itemId: number): number => {
  const it = items[itemIndex(items, itemId)];
  return it !== undefined && it.itemId === itemId ? it.amount : 0;
};

export const itemCount = (s: PlayerState, itemId: number): number => itemAmount(s.items, itemId);

/** Hands out `n` new managed ids. */
export const allocateIds = (s: PlayerState, n: number): { state: PlayerState; ids: number[] } => {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push(s.nextManagedId + i);
  return { state: { ...s, nextManagedId: s.nextManagedId + n }, ids };
};
