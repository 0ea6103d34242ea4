// Battle parties: exactly 15, each a name and 5 slots of a character and a weapon.
// set_all replaces all 15 after checking every slot; set_name renames one. The list
// is `managedBattleParties` on the wire, as the original service named it.
import type * as t from 'io-ts';
import { DisplayText, IntRange, PosInt, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { PlayerState } from '../state.js';
import { PARTY_COUNT, PARTY_SLOTS, type BattleParty } from '../state/social.js';
import { fail, ok, type Result } from '../shared/result.js';
import { BattlePartyView } from '../views/codecs.js';
import { battlePartiesView } from '../views/social.js';
import * as api from '../api/battleParty.js';
import { Parties, type PartyIn, type SlotIn } from '../api/battleParty.js';

const checkName = (m: Master, field: string, name: string): Result<string, 'INVALID_PARAMETERS'> =>
  [...name].length > m.social.battleParty.nameMaxLength
    ? fail('INVALID_PARAMETERS', { field, reason: `must be at most ${m.social.battleParty.nameMaxLength} characters` })
    : ok(name);

/** Checks one party: slot count, owned characters and weapons, no repeats, fitting weapons. */
const checkParty = (
  m: Master,
  s: PlayerState,
  p: PartyIn,
  at: string,
): Result<BattleParty['slots'], 'INVALID_PARAMETERS' | 'NOT_FOUND'> => {
  if (p.slots.length !== PARTY_SLOTS)
    return fail('INVALID_PARAMETERS', { field: `${at}.slots`, reason: `must hold exactly ${PARTY_SLOTS} slots` });
  const chars = new Set<number>();
  const weapons = new Set<number>();
  const slots: BattleParty['slots'] = [];
  for (let i = 0; i < p.slots.length; i++) {
    const slot = p.slots[i] as t.TypeOf<typeof SlotIn>;
    const field = `${at}.slots.${i}`;
    const cid = slot.managedCharacterId ?? null;
    const wid = slot.managedWeaponId ?? null;
    if (cid === null && wid !== null)
      return fail('INVALID_PARAMETERS', {
        field: `${field}.managedWeaponId`,
        reason: 'a weapon needs a character in its slot',
      });
    if (cid !== null) {
      const c = s.characters.find((x) => x.managedCharacterId === cid);
      if (!c) return fail('NOT_FOUND', { entity: 'character', id: cid });
      if (chars.has(cid))
        return fail('INVALID_PARAMETERS', {
          field: `${field}.managedCharacterId`,
          reason: 'the character is already in this party',
        });
      chars.add(cid);
      if (wid !== null) {
        const w = s.weapons.find((x) => x.managedWeaponId === wid);
        if (!w) return fail('NOT_FOUND', { entity: 'weapon', id: wid });
        if (weapons.has(wid))
          return fail('INVALID_PARAMETERS', {
            field: `${field}.managedWeaponId`,
            reason: 'the weapon is already in this party',
          });
        weapons.add(wid);
        const wd = m.weapon.get(w.weaponId);
        const cd = m.character.get(c.characterId);
        if (!wd || !cd || wd.classId !== cd.classId)
          return fail('INVALID_PARAMETERS', {
            field: `${field}.managedWeaponId`,
            reason: "the weapon's class does not fit the character's",
          });
        if (wd.characterId !== null && wd.characterId !== c.characterId)
          return fail('INVALID_PARAMETERS', {
            field: `${field}.managedWeaponId`,
            reason: 'the weapon belongs to another character',
          });
      }
    }
    slots.push({ managedCharacterId: cid, managedWeaponId: wid });
  }
  return ok(slots);
};

const getAll = implementOp(api.getAll, {
  reduce: (s) => ok({ state: s, response: { managedBattleParties: battlePartiesView(s) } }),
});

const setAll = implementOp(api.setAll, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    if (req.managedBattleParties !== undefined && req.battleParties !== undefined) {
      return fail('INVALID_PARAMETERS', {
        field: 'battleParties',
        reason: 'is the older name of managedBattleParties: send only one of them',
      });
    }
    // Errors name the field the client sent.
    const list = req.managedBattleParties !== undefined ? 'managedBattleParties' : 'battleParties';
    const given = req.managedBattleParties ?? req.battleParties;
    if (given === undefined) return fail('INSUFFICIENT_PARAMETERS', { field: 'managedBattleParties' });
    if (given.length !== PARTY_COUNT)
      return fail('INVALID_PARAMETERS', { field: list, reason: `must list exactly ${PARTY_COUNT} parties` });
    // Parties may name their id (any order) or be given in order 1 … 15.
    const ids = given.map((p, i) => p.managedBattlePartyId ?? i + 1);
    if (new Set(ids).size !== PARTY_COUNT)
      return fail('INVALID_PARAMETERS', { field: list, reason: `must name each party 1 to ${PARTY_COUNT} once` });
    const next: BattleParty[] = [];
    for (let i = 0; i < given.length; i++) {
      const p = given[i] as PartyIn;
      const id = ids[i] as number;
      const old = s.battleParties.find((x) => x.managedBattlePartyId === id);
      // Stryker disable next-line StringLiteral: equivalent (a state always holds parties 1 to 15, so the old name is always found; the field name's literal on this line is checked by test/core/battleParty-rules.test.ts)
      const name = p.name === undefined ? ok(old?.name ?? `Party ${id}`) : checkName(m, `${list}.${i}.name`, p.name);
      if (name._tag === 'Left') return name;
      const slots = checkParty(m, s, p, `${list}.${i}`);
      if (slots._tag === 'Left') return slots;
      next.push({ managedBattlePartyId: id, name: name.right, slots: slots.right });
    }
    next.sort((a, b) => a.managedBattlePartyId - b.managedBattlePartyId);
    const state = { ...s, battleParties: next };
    return ok({ state, response: { managedBattleParties: battlePartiesView(state) } });
  },
});

const setName = implementOp(api.setName, {
  reduce: (s, req, _rng, _now, { master: m }) => {
    const name = checkName(m, 'name', req.name);
    if (name._tag === 'Left') return name;
    const battleParties = s.battleParties.map((p) =>
      p.managedBattlePartyId === req.managedBattlePartyId ? { ...p, name: name.right } : p,
    );
    return ok({
      state: { ...s, battleParties },
      response: { managedBattlePartyId: req.managedBattlePartyId, name: name.right },
    });
  },
});

export const battlePartyOps = [getAll, setAll, setName] as const;
