// Characters: upgrade with exp items, limit break, evolution, battle view, shown
// marks, and the support parties of the friend feature.
import * as t from 'io-ts';
import { DisplayText, IdList, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { defineOp } from '../operation.js';
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
import { CharacterView, ItemStackView, SupportPartyView } from '../views/codecs.js';
import { pay } from '../shared/pay.js';

const VIEW_BASE = 0;
const VIEW_EVOLVED = 1;

export const ItemAmountRequest = obj({ itemId: PosInt, amount: PosInt }, 'ItemAmount');
/** An answer that shows the character it changed, as its entry in managedCharacters shows it. */
const CharacterResponse = (name: string) => t.type({ managedCharacter: CharacterView }, name);

/** One character's wire view (one in, one out). */
const characterView = (c: OwnedCharacter, ctx: ViewCtx): CharacterView => charactersView([c], ctx)[0] as CharacterView;

const putCharacter = (s: PlayerState, old: OwnedCharacter, next: OwnedCharacter): PlayerState => ({
  ...s,
  characters: replace(s.characters, old, next),
});

// ---- upgrade ----
const upgrade = defineOp({
  name: 'upgradePlayerCharacter',
  method: 'POST',
  path: '/player/character/upgrade',
  group: 'character',
  summary:
    "Raises a character's level with exp items; each item used costs coins (level × perLevel + base), exp past the cap is lost.",
  request: obj({ managedCharacterId: PosInt, items: t.array(ItemAmountRequest) }, 'UpgradePlayerCharacterRequest'),
  response: t.type(
    { managedCharacter: CharacterView, usedItems: t.array(ItemStackView), gold: t.number },
    'UpgradePlayerCharacterResponse',
  ),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'CHARACTER_UPGRADE_LIMIT', 'ITEM_IS_SHORT', 'GOLD_IS_SHORT'],
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
const limitBreak = defineOp({
  name: 'limitbreakPlayerCharacter',
  method: 'POST',
  path: '/player/character/limitBreak',
  group: 'character',
  summary:
    "Limit-breaks a character with its own limit-break item, or the universal one named by itemId, in its rarity's amount.",
  request: objWithOptional({ managedCharacterId: PosInt }, { itemId: PosInt }, 'LimitbreakPlayerCharacterRequest'),
  response: CharacterResponse('LimitbreakPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'LIMIT_BREAK_LIMIT', 'ITEM_IS_SHORT'],
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
const evolution = defineOp({
  name: 'evolutionPlayerCharacter',
  method: 'POST',
  path: '/player/character/evolution',
  group: 'character',
  summary:
    'Evolves a character at its level cap after its last limit break, paying the master-data items and coins; its cap rises and its view becomes evolved.',
  request: obj({ managedCharacterId: PosInt }, 'EvolutionPlayerCharacterRequest'),
  response: CharacterResponse('EvolutionPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT', ...COST_ERRORS],
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
const setView = defineOp({
  name: 'setViewPlayerCharacter',
  method: 'POST',
  path: '/player/character/set_view',
  group: 'character',
  summary: "Sets a character's battle view: 0 base form, 1 evolved form (only when evolved).",
  request: obj(
    { managedCharacterId: PosInt, view: IntRange(VIEW_BASE, VIEW_EVOLVED) },
    'SetViewPlayerCharacterRequest',
  ),
  response: CharacterResponse('SetViewPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
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
const resetAllView = defineOp({
  name: 'resetAllViewPlayerCharacter',
  method: 'POST',
  path: '/player/character/reset_all_view',
  group: 'character',
  summary: "Resets every character's battle view to its default: evolved if evolved, else base.",
  request: objWithOptional({}, {}, 'ResetAllViewPlayerCharacterRequest'),
  response: t.type({ changed: t.number }, 'ResetAllViewPlayerCharacterResponse'),
  errors: [],
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
const setShown = defineOp({
  name: 'setShownPlayerCharacter',
  method: 'POST',
  path: '/player/character/set_shown',
  group: 'character',
  summary: 'Marks the named characters as shown (shown becomes 1).',
  request: obj({ managedCharacterIds: IdList(500) }, 'SetShownPlayerCharacterRequest'),
  response: t.type({ managedCharacterIds: t.array(t.number) }, 'SetShownPlayerCharacterResponse'),
  errors: ['NOT_FOUND', 'INSUFFICIENT_PARAMETERS'],
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

// ---- support/set_all ----
// The codec's bounds are generous; the master-data limits are checked by the reducer.
// Names: DisplayText (no control or format characters, NFC, trimmed); the reducer checks 1 to support.nameMaxLength.
const SupportPartyRequest = obj(
  { name: DisplayText(0, 200), managedCharacterIds: t.array(PosInt) },
  'SupportPartyRequest',
);

const checkPartyName = (name: string, max: number, field: string) =>
  name.length < 1 || [...name].length > max
    ? fail('INVALID_PARAMETERS', { field, reason: `must be 1 to ${max} characters long` })
    : ok(name);

const supportSetAll = defineOp({
  name: 'setAllPlayerCharacterSupport',
  method: 'POST',
  path: '/player/character/support/set_all',
  group: 'character',
  summary:
    'Replaces all support parties: at most the master-data number of parties (297) of at most the master-data number of owned characters (296), none repeated in a party.',
  request: obj({ supportParties: t.array(SupportPartyRequest) }, 'SetAllPlayerCharacterSupportRequest'),
  response: t.type({ supportParties: t.array(SupportPartyView) }, 'SetAllPlayerCharacterSupportResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'SUPPORT_LIMIT', 'SUPPORT_CHAR_LIMIT'],
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
const supportSetName = defineOp({
  name: 'setNamePlayerCharacterSupport',
  method: 'POST',
  path: '/player/character/support/set_name',
  group: 'character',
  summary: 'Renames one support party (supportPartyNo counts from 1, in the order set_all gave).',
  request: obj({ supportPartyNo: PosInt, name: DisplayText(0, 200) }, 'SetNamePlayerCharacterSupportRequest'),
  response: t.type({ supportPartyNo: t.number, name: t.string }, 'SetNamePlayerCharacterSupportResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
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
