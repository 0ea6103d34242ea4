// Ability trees: unlock a character's tree with a named item, unlock its slots, put
// fruit items (spheres) into slots and level them with named items.
import * as t from 'io-ts';
import { PosInt, obj } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { AbilityTree } from '../master/progression.js';
import type { OwnedCharacter, PlayerState } from '../state.js';
import type { OwnedAbilityTree } from '../state/progression.js';
import { fail, ok, type Result } from '../shared/result.js';
import { COST_ERRORS, checkMaterials, feed, findCharacter, replace } from '../shared/growth.js';
import { AbilityTreeView, ItemStackView } from '../views/codecs.js';
import { ItemAmountRequest } from './character.js';
import { pay } from '../shared/pay.js';
import { grantOrPresent } from '../shared/grant.js';
import * as api from '../api/ability.js';

type Slot = OwnedAbilityTree['slots'][number];

const treeOf = (s: PlayerState, managedCharacterId: number): OwnedAbilityTree | undefined =>
  s.abilityTrees.find((x) => x.managedCharacterId === managedCharacterId);

const putTree = (s: PlayerState, old: OwnedAbilityTree | undefined, next: OwnedAbilityTree): PlayerState => ({
  ...s,
  abilityTrees: old ? replace(s.abilityTrees, old, next) : [...s.abilityTrees, next],
});

/** The character, its tree in master data and its unlocked tree. */
const releasedTree = (
  m: Master,
  s: PlayerState,
  managedCharacterId: number,
): Result<{ c: OwnedCharacter; def: AbilityTree; tree: OwnedAbilityTree }, 'NOT_FOUND' | 'STATE_CONFLICT'> => {
  const found = findCharacter(s, managedCharacterId);
  if (found._tag === 'Left') return found;
  const c = found.right;
  const def = m.abilityTree.get(c.characterId);
  if (!def) return fail('NOT_FOUND', { entity: 'ability tree of character', id: c.characterId });
  const tree = treeOf(s, managedCharacterId);
  if (!tree) return fail('STATE_CONFLICT', { reason: "the character's ability tree is not unlocked" });
  return ok({ c, def, tree });
};

/** An unlocked slot of an unlocked tree. */
const unlockedSlot = (
  m: Master,
  s: PlayerState,
  managedCharacterId: number,
  slotNo: number,
): Result<{ tree: OwnedAbilityTree; slot: Slot }, 'NOT_FOUND' | 'STATE_CONFLICT'> => {
  const r = releasedTree(m, s, managedCharacterId);
  if (r._tag === 'Left') return r;
  if (!r.right.def.slots.some((x) => x.slotNo === slotNo))
    return fail('NOT_FOUND', { entity: 'ability slot', id: slotNo });
  const slot = r.right.tree.slots.find((x) => x.slotNo === slotNo);
  if (!slot) return fail('STATE_CONFLICT', { reason: `slot ${slotNo} is not unlocked` });
  return ok({ tree: r.right.tree, slot });
};

const putSlot = (
  s: PlayerState,
  tree: OwnedAbilityTree,
  slot: Slot,
  next: Slot,
): { state: PlayerState; tree: OwnedAbilityTree } => {
  const t2 = { ...tree, slots: replace(tree.slots, slot, next) };
  return { state: putTree(s, tree, t2), tree: t2 };
};

// ---- release ----
const release = implementOp(api.release, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findCharacter(s, req.managedCharacterId);
    if (found._tag === 'Left') return found;
    const c = found.right;
    const def = m.abilityTree.get(c.characterId);
    if (!def) return fail('NOT_FOUND', { entity: 'ability tree of character', id: c.characterId });
    if (!m.item.has(req.itemId)) return fail('NOT_FOUND', { entity: 'item', id: req.itemId });
    const key = def.releaseItems.find((x) => x.itemId === req.itemId);
    if (!key)
      return fail('INVALID_PARAMETERS', {
        field: 'itemId',
        reason: `item ${req.itemId} does not unlock this ability tree`,
      });
    if (treeOf(s, c.managedCharacterId))
      return fail('STATE_CONFLICT', { reason: 'the ability tree is already unlocked' });
    const paid = pay(m, s, { items: [key] }, now);
    if (paid._tag === 'Left') return paid;
    const tree: OwnedAbilityTree = { managedCharacterId: c.managedCharacterId, slots: [] };
    return ok({ state: putTree(paid.right, undefined, tree), response: { abilityTree: tree } });
  },
});

// ---- release_slot ----
const releaseSlot = implementOp(api.releaseSlot, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const r = releasedTree(m, s, req.managedCharacterId);
    if (r._tag === 'Left') return r;
    const { def, tree } = r.right;
    const slotDef = def.slots.find((x) => x.slotNo === req.slotNo);
    if (!slotDef) return fail('NOT_FOUND', { entity: 'ability slot', id: req.slotNo });
    if (tree.slots.some((x) => x.slotNo === req.slotNo))
      return fail('STATE_CONFLICT', { reason: `slot ${req.slotNo} is already unlocked` });
    const paid = pay(m, s, slotDef.cost, now);
    if (paid._tag === 'Left') return paid;
    const next = {
      ...tree,
      slots: [...tree.slots, { slotNo: req.slotNo, sphere: null }].sort((a, b) => a.slotNo - b.slotNo),
    };
    return ok({ state: putTree(paid.right, tree, next), response: { abilityTree: next } });
  },
});

// ---- equip ----
const equip = implementOp(api.equip, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const r = unlockedSlot(m, s, req.managedCharacterId, req.slotNo);
    if (r._tag === 'Left') return r;
    const { tree, slot } = r.right;
    if (!m.item.has(req.itemId)) return fail('NOT_FOUND', { entity: 'item', id: req.itemId });
    if (!m.sphere.has(req.itemId))
      return fail('INVALID_PARAMETERS', { field: 'itemId', reason: `item ${req.itemId} is not a fruit item` });
    if (slot.sphere?.itemId === req.itemId)
      return fail('STATE_CONFLICT', { reason: `slot ${req.slotNo} already holds item ${req.itemId}` });
    const paid = pay(m, s, { items: [{ itemId: req.itemId, amount: 1 }] }, now);
    if (paid._tag === 'Left') return paid;
    let state = paid.right;
    if (slot.sphere) {
      // The replaced fruit goes back as an item (its level is not kept); over its maximum, to the present box.
      const back = grantOrPresent(m, state, { kind: 'item', objectId: slot.sphere.itemId, amount: 1 }, now);
      if (back._tag === 'Left') return back;
      state = back.right.state;
    }
    const put = putSlot(state, tree, slot, { slotNo: slot.slotNo, sphere: { itemId: req.itemId, level: 1, exp: 0 } });
    return ok({ state: put.state, response: { abilityTree: put.tree } });
  },
});

// ---- upgrade_sphere ----
const upgradeSphere = implementOp(api.upgradeSphere, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const r = unlockedSlot(m, s, req.managedCharacterId, req.slotNo);
    if (r._tag === 'Left') return r;
    const { tree, slot } = r.right;
    const sphere = slot.sphere;
    if (!sphere) return fail('STATE_CONFLICT', { reason: `slot ${req.slotNo} holds no fruit item` });
    const def = m.sphere.get(sphere.itemId);
    if (!def) return fail('NOT_FOUND', { entity: 'sphere', id: sphere.itemId });
    const expOf = (id: number) => def.materials.find((x) => x.itemId === id)?.exp ?? 0;
    const materials = checkMaterials(
      m,
      s,
      req.items,
      (id) => expOf(id) > 0,
      `a material of fruit item ${sphere.itemId}`,
    );
    if (materials._tag === 'Left') return materials;
    const maxLevel = def.totalExp.length;
    if (sphere.level >= maxLevel)
      return fail('STATE_CONFLICT', { reason: `the fruit item is already at its maximum level ${maxLevel}` });
    const fed = feed(def.totalExp, maxLevel, sphere, materials.right, expOf, () => def.goldPerItem);
    const paid = pay(m, s, { gold: fed.gold, items: fed.used }, now);
    if (paid._tag === 'Left') return paid;
    const put = putSlot(paid.right, tree, slot, {
      slotNo: slot.slotNo,
      sphere: { ...sphere, level: fed.level, exp: fed.exp },
    });
    return ok({ state: put.state, response: { abilityTree: put.tree, usedItems: fed.used, gold: fed.gold } });
  },
});

export const abilityOps = [equip, release, releaseSlot, upgradeSphere] as const;
