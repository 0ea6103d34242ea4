// Characters: upgrade with exp items, limit break, evolution, battle view, shown
// marks, and the support parties of the friend feature.
import * as t from 'io-ts';
import { DisplayText, IdList, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { OwnedCharacter, PlayerState } from '../state.js';
import type { SupportParty } from '../state/progression.js';
import { fail, ok } from '../shared/result.js';
import {
  COST_ERRORS,
  characterTotals,
  checkMaterials,
  feed,
  findCharacter,
  goldPerItem,
  levelCap,
  replace,
} from '../shared/growth.js';
import { charactersView, type ViewCtx } from '../view.js';
import { type CharacterView, ItemStackView, SupportPartyView } from '../views/codecs.js';
import { pay } from '../shared/pay.js';
import * as api from '../api/character.js';
import { VIEW_BASE, VIEW_EVOLVED } from '../api/character.js';
export { ItemAmountRequest } from '../api/character.js';

/** One character's wire view (one in, one out). */
const characterView = (c: OwnedCharacter, ctx: ViewCtx): CharacterView => charactersView([c], ctx)[0] as CharacterView;

const putCharacter = (s: PlayerState, old: OwnedCharacter, next: OwnedCharacter): PlayerState => ({
  ...s,
  characters: replace(s.characters, old, next),
});

// ---- upgrade ----
const upgrade = implementOp(api.upgrade, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findCharacter(s, req.managedCharacterId);
    if (found._tag === 'Left') return found;
    const c = found.right;
    const def = m.character.get(c.characterId);
    const materials = checkMaterials(m, s, req.items, (id) => m.item.get(id)?.category === 'exp', 'an exp item');
    if (materials._tag === 'Left') return materials;
    const cap = levelCap(m, c);
    if (c.level >= cap) return fail('CHARACTER_UPGRADE_LIMIT', { max: cap });
    const cfg = m.progression.character;
    const expOf = (itemId: number): number => {
      const it = m.item.get(itemId);
      const base = it?.exp ?? 0;
      return it?.elementId !== undefined && it.elementId === def?.elementId
        ? Math.floor((base * cfg.elementBonusPercent) / 100)
        : base;
    };
    const fed = feed(characterTotals(m), cap, c, materials.right, expOf, (level) =>
      goldPerItem(cfg.upgradeGold, level),
    );
    const paid = pay(m, s, { gold: fed.gold, items: fed.used }, now);
    if (paid._tag === 'Left') return paid;
    const next = { ...c, level: fed.level, exp: fed.exp };
    return ok({
      state: putCharacter(paid.right, c, next),
      response: { managedCharacter: characterView(next, { master: m, now }), usedItems: fed.used, gold: fed.gold },
    });
  },
});

// ---- limitBreak ----
const limitBreak = implementOp(api.limitBreak, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findCharacter(s, req.managedCharacterId);
    if (found._tag === 'Left') return found;
    const c = found.right;
    const def = m.character.get(c.characterId);
    const rarity = m.rarity.get(def?.rarity ?? 0);
    if (!def || !rarity) return fail('NOT_FOUND', { entity: 'character', id: c.characterId });
    const itemId = req.itemId ?? def.limitBreakItemId;
    const item = m.item.get(itemId);
    if (!item) return fail('NOT_FOUND', { entity: 'item', id: itemId });
    if (itemId !== def.limitBreakItemId && item.category !== 'universalLimitBreak') {
      return fail('INVALID_PARAMETERS', {
        field: 'itemId',
        reason: `item ${itemId} is neither this character's limit-break item nor a universal one`,
      });
    }
    if (c.limitBreak >= rarity.maxLimitBreak) return fail('LIMIT_BREAK_LIMIT', { max: rarity.maxLimitBreak });
    const paid = pay(m, s, { items: [{ itemId, amount: rarity.limitBreakItemAmount }] }, now);
    if (paid._tag === 'Left') return paid;
    const next = { ...c, limitBreak: c.limitBreak + 1 };
    return ok({
      state: putCharacter(paid.right, c, next),
      response: { managedCharacter: characterView(next, { master: m, now }) },
    });
  },
});

// ---- evolution ----
const evolution = implementOp(api.evolution, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const found = findCharacter(s, req.managedCharacterId);
    if (found._tag === 'Left') return found;
    const c = found.right;
    const rarity = m.rarity.get(m.character.get(c.characterId)?.rarity ?? 0);
    const evo = m.characterEvolution.get(c.characterId);
    if (!rarity || !evo) return fail('NOT_FOUND', { entity: 'character evolution', id: c.characterId });
    if (c.evolved) return fail('STATE_CONFLICT', { reason: 'the character is already evolved' });
    if (c.limitBreak < rarity.maxLimitBreak)
      return fail('STATE_CONFLICT', {
        reason: `evolution needs ${rarity.maxLimitBreak} limit breaks, the character has ${c.limitBreak}`,
      });
    const cap = levelCap(m, c);
    if (c.level < cap)
      return fail('STATE_CONFLICT', { reason: `evolution needs level ${cap}, the character is level ${c.level}` });
    const paid = pay(m, s, evo.cost, now);
    if (paid._tag === 'Left') return paid;
    const next = { ...c, evolved: true, view: VIEW_EVOLVED };
    return ok({
      state: putCharacter(paid.right, c, next),
      response: { managedCharacter: characterView(next, { master: m, now }) },
    });
  },
});

// ---- set_view ----
const setView = implementOp(api.setView, {
  reduce: (s, req, _rng, now, { master }) => {
    const found = findCharacter(s, req.managedCharacterId);
    if (found._tag === 'Left') return found;
    const c = found.right;
    if (req.view === VIEW_EVOLVED && !c.evolved)
      return fail('STATE_CONFLICT', { reason: 'only an evolved character has the evolved view' });
    if (c.view === req.view) return ok({ state: s, response: { managedCharacter: characterView(c, { master, now }) } });
    const next = { ...c, view: req.view };
    return ok({
      state: putCharacter(s, c, next),
      response: { managedCharacter: characterView(next, { master, now }) },
    });
  },
});

// ---- reset_all_view ----
const resetAllView = implementOp(api.resetAllView, {
  reduce: (s) => {
    let changed = 0;
    const characters = s.characters.map((c) => {
      const view = c.evolved ? VIEW_EVOLVED : VIEW_BASE;
      if (c.view === view) return c;
      changed++;
      return { ...c, view };
    });
    return ok({ state: changed === 0 ? s : { ...s, characters }, response: { changed } });
  },
});

// ---- set_shown ----
const setShown = implementOp(api.setShown, {
  reduce: (s, req) => {
    const ids = [...new Set(req.managedCharacterIds)];
    if (ids.length === 0) return fail('INSUFFICIENT_PARAMETERS', { field: 'managedCharacterIds' });
    for (const id of ids)
      if (!s.characters.some((c) => c.managedCharacterId === id)) return fail('NOT_FOUND', { entity: 'character', id });
    const wanted = new Set(ids);
    let changed = false;
    const characters = s.characters.map((c) => {
      if (!wanted.has(c.managedCharacterId) || c.shown === 1) return c;
      changed = true;
      return { ...c, shown: 1 };
    });
    return ok({ state: changed ? { ...s, characters } : s, response: { managedCharacterIds: ids } });
  },
});

const checkPartyName = (name: string, max: number, field: string) =>
  name.length < 1 || [...name].length > max
    ? fail('INVALID_PARAMETERS', { field, reason: `must be 1 to ${max} characters long` })
    : ok(name);

const supportSetAll = implementOp(api.supportSetAll, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const cfg = m.progression.support;
    if (req.supportParties.length > cfg.parties) return fail('SUPPORT_LIMIT', { max: cfg.parties });
    const parties: SupportParty[] = [];
    for (const [i, p] of req.supportParties.entries()) {
      const named = checkPartyName(p.name, cfg.nameMaxLength, `supportParties.${i}.name`);
      if (named._tag === 'Left') return named;
      if (p.managedCharacterIds.length > cfg.size) return fail('SUPPORT_CHAR_LIMIT', { max: cfg.size });
      if (new Set(p.managedCharacterIds).size !== p.managedCharacterIds.length) {
        return fail('INVALID_PARAMETERS', {
          field: `supportParties.${i}.managedCharacterIds`,
          reason: 'a character appears twice in the party',
        });
      }
      for (const id of p.managedCharacterIds)
        if (!s.characters.some((c) => c.managedCharacterId === id))
          return fail('NOT_FOUND', { entity: 'character', id });
      parties.push({ name: p.name, managedCharacterIds: [...p.managedCharacterIds] });
    }
    const next = { ...s, supportParties: parties };
    return ok({ state: next, response: { supportParties: parties.map((p, i) => ({ supportPartyNo: i + 1, ...p })) } });
  },
});

// ---- support/set_name ----
const supportSetName = implementOp(api.supportSetName, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const named = checkPartyName(req.name, m.progression.support.nameMaxLength, 'name');
    if (named._tag === 'Left') return named;
    const party = s.supportParties[req.supportPartyNo - 1];
    if (!party) return fail('NOT_FOUND', { entity: 'support party', id: req.supportPartyNo });
    const next =
      party.name === req.name
        ? s
        : { ...s, supportParties: replace(s.supportParties, party, { ...party, name: req.name }) };
    return ok({ state: next, response: { supportPartyNo: req.supportPartyNo, name: req.name } });
  },
});

export const characterOps = [
  evolution,
  limitBreak,
  resetAllView,
  supportSetAll,
  supportSetName,
  setShown,
  setView,
  upgrade,
] as const;
