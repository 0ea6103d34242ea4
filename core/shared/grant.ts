// Granting rewards. tryGrant applies a grant or fails on a capacity limit and
// changes nothing; grantOrPresent sends what does not fit to the present box.
import type { Grant } from '../master/common.js';
import type { Master } from '../master/index.js';
import type { OwnedCharacter, PlayerState, Present } from '../state.js';
import { E, fail, ok, type Result } from './result.js';
import { allocateIds, itemCount, storageLimit } from './player.js';
import { setItem } from './pay.js';
import { withFields } from '../state/copy.js';

type ItemGrantError = 'NOT_FOUND' | 'ITEM_LIMIT';
/** What a grant of each kind can fail with: an unknown object, or the store or currency it would overfill. */
interface GrantFailureOf {
  gold: 'CURRENCY_LIMIT';
  gem: 'CURRENCY_LIMIT';
  paidGem: 'CURRENCY_LIMIT';
  kirara: 'CURRENCY_LIMIT';
  item: ItemGrantError;
  // A duplicate character turns into its limit-break item.
  character: ItemGrantError | 'CHARACTER_LIMIT';
  weapon: 'NOT_FOUND' | 'WEAPON_LIMIT';
  townFacility: 'NOT_FOUND' | 'FACILITY_LIMIT';
  roomObject: 'NOT_FOUND' | 'ROOM_OBJECT_LIMIT';
}
/** What a grant can fail with (a grant of any kind: GrantError; of a known kind: fewer). */
export type GrantErrorOf<G extends Grant> = GrantFailureOf[G['kind']];
export type GrantError = GrantErrorOf<Grant>;

/** What a grant did, for responses. */
export interface GrantOutcome {
  readonly grant: Grant;
  /** Managed ids created (characters, weapons, facilities, room objects). */
  readonly managedIds: ReadonlyArray<number>;
  /** A character already owned turned into its limit-break item. */
  readonly duplicate: { readonly itemId: number; readonly amount: number } | null;
  /** Sent to the present box because it did not fit (grantOrPresent only). */
  readonly managedPresentId: number | null;
}

const outcome = (
  grant: Grant,
  managedIds: number[] = [],
  duplicate: GrantOutcome['duplicate'] = null,
): GrantOutcome => ({ grant, managedIds, duplicate, managedPresentId: null });

export const ownedCharacter = (s: PlayerState, characterId: number): OwnedCharacter | undefined =>
  s.characters.find((c) => c.characterId === characterId);

export const newCharacter = (managedCharacterId: number, characterId: number, now: number): OwnedCharacter => ({
  managedCharacterId,
  characterId,
  level: 1,
  exp: 0,
  limitBreak: 0,
  awakening: 0,
  evolved: false,
  view: 0,
  shown: 0,
  createdAt: now,
});

/** The item list with an amount added, or the limit it would pass. */
const itemsWith = (
  m: Master,
  s: PlayerState,
  itemId: number,
  amount: number,
): Result<PlayerState['items'], ItemGrantError> => {
  const item = m.item.get(itemId);
  if (!item) return fail('NOT_FOUND', { entity: 'item', id: itemId });
  const have = itemCount(s, itemId);
  if (have + amount > item.max) return fail('ITEM_LIMIT', { itemId, max: item.max });
  return ok(setItem(s.items, itemId, have + amount));
};

const addItem = (m: Master, s: PlayerState, itemId: number, amount: number): Result<PlayerState, ItemGrantError> =>
  E.map((items: PlayerState['items']) => withFields(s, { items }))(itemsWith(m, s, itemId, amount));

const CURRENCY = { gold: 'gold', gem: 'gem', paidGem: 'paidGem', kirara: 'kirara' } as const;

/** Applies a grant, or fails with the capacity it would pass; typed by the grant's kind (a coin grant can only overfill coins). */
export const tryGrant = <G extends Grant>(
  m: Master,
  s: PlayerState,
  g: G,
  now: number,
): Result<{ state: PlayerState; outcome: GrantOutcome }, GrantErrorOf<G>> =>
  // Each case fails only with its kind's errors (GrantFailureOf); the switch below cannot narrow the generic G.
  grantAny(m, s, g, now) as Result<{ state: PlayerState; outcome: GrantOutcome }, GrantErrorOf<G>>;

const grantAny = (
  m: Master,
  s: PlayerState,
  g: Grant,
  now: number,
): Result<{ state: PlayerState; outcome: GrantOutcome }, GrantError> => {
  switch (g.kind) {
    case 'gold':
    case 'gem':
    case 'paidGem':
    case 'kirara': {
      const key = CURRENCY[g.kind];
      const max = m.game.currencyMax[key];
      if (s[key] + g.amount > max) return fail('CURRENCY_LIMIT', { currency: key, max });
      return ok({ state: withFields(s, { [key]: s[key] + g.amount }), outcome: outcome(g) });
    }
    case 'item':
      return E.map((state: PlayerState) => ({ state, outcome: outcome(g) }))(addItem(m, s, g.objectId, g.amount));
    case 'character': {
      const c = m.character.get(g.objectId);
      if (!c) return fail('NOT_FOUND', { entity: 'character', id: g.objectId });
      const owned = ownedCharacter(s, g.objectId);
      if (owned) {
        // A duplicate becomes the character's own limit-break item and raises awakening.
        const rarity = m.rarity.get(c.rarity);
        const amount = (rarity?.duplicateItemAmount ?? 1) * g.amount;
        const items = itemsWith(m, s, c.limitBreakItemId, amount);
        if (items._tag === 'Left') return items;
        const awakening = Math.min(rarity?.maxAwakening ?? 0, owned.awakening + g.amount);
        const characters =
          awakening === owned.awakening
            ? s.characters
            : s.characters.map((x) => (x === owned ? { ...x, awakening } : x));
        // One copy of the state for both changes (a draw grants a character at a time).
        return ok({
          state: withFields(s, { items: items.right, characters }),
          outcome: outcome(g, [], { itemId: c.limitBreakItemId, amount }),
        });
      }
      if (s.characters.length >= m.game.limits.characters)
        return fail('CHARACTER_LIMIT', { max: m.game.limits.characters });
      const id = s.nextManagedId;
      const first = withFields(s, {
        nextManagedId: id + 1,
        characters: [...s.characters, newCharacter(id, g.objectId, now)],
      });
      // Further copies in the same grant are duplicates.
      if (g.amount > 1) {
        const rest = tryGrant(m, first, { ...g, amount: g.amount - 1 }, now);
        return E.map((r: { state: PlayerState; outcome: GrantOutcome }) => ({
          state: r.state,
          outcome: outcome(g, [id], r.outcome.duplicate),
        }))(rest);
      }
      return ok({ state: first, outcome: outcome(g, [id]) });
    }
    case 'weapon': {
      if (!m.weapon.has(g.objectId)) return fail('NOT_FOUND', { entity: 'weapon', id: g.objectId });
      const max = storageLimit(m, s, 'weapon');
      if (s.weapons.length + g.amount > max) return fail('WEAPON_LIMIT', { max });
      const { state, ids } = allocateIds(s, g.amount);
      const weapons = [
        ...state.weapons,
        ...ids.map((id) => ({ managedWeaponId: id, weaponId: g.objectId, level: 1, exp: 0, createdAt: now })),
      ];
      return ok({ state: { ...state, weapons }, outcome: outcome(g, ids) });
    }
    case 'townFacility': {
      if (!m.facility.has(g.objectId)) return fail('NOT_FOUND', { entity: 'town facility', id: g.objectId });
      const max = storageLimit(m, s, 'facility');
      if (s.facilities.length + g.amount > max) return fail('FACILITY_LIMIT', { max });
      const { state, ids } = allocateIds(s, g.amount);
      const facilities = [
        ...state.facilities,
        ...ids.map((id) => ({
          managedTownFacilityId: id,
          facilityId: g.objectId,
          level: 1,
          covered: true,
          createdAt: now,
          levelUp: null,
          accruedAt: now,
          stock: 0,
          carry: 0,
        })),
      ];
      return ok({ state: { ...state, facilities }, outcome: outcome(g, ids) });
    }
    case 'roomObject': {
      if (!m.roomObject.has(g.objectId)) return fail('NOT_FOUND', { entity: 'room object', id: g.objectId });
      const max = storageLimit(m, s, 'roomObject');
      if (s.roomObjects.length + g.amount > max) return fail('ROOM_OBJECT_LIMIT', { max });
      const { state, ids } = allocateIds(s, g.amount);
      const roomObjects = [
        ...state.roomObjects,
        ...ids.map((id) => ({ managedRoomObjectId: id, roomObjectId: g.objectId, createdAt: now })),
      ];
      return ok({ state: { ...state, roomObjects }, outcome: outcome(g, ids) });
    }
  }
};

export interface PresentMeta {
  readonly title: string;
  readonly message: string;
  readonly source: string;
  readonly deadline: number | null;
  /** The operator's send it belongs to (for its recall). */
  readonly sendId?: number;
}

/** Sources whose presents are merged: what did not fit in storage (automatic, never with a deadline). */
const MERGED_SOURCES = new Set(['overflow', 'reward']);

/**
 * The most of a thing one present holds when merged: what the player can take of it
 * at once with an empty store: a currency's or an item's maximum; for a character
 * (a duplicate drawn while its limit-break items are full), as many copies as that
 * item's maximum takes. Weapons, facilities and room objects are not merged.
 */
const mergeMax = (m: Master, g: Grant): number | undefined => {
  switch (g.kind) {
    case 'gold':
    case 'gem':
    case 'paidGem':
    case 'kirara':
      return m.game.currencyMax[g.kind];
    case 'item':
      return m.item.get(g.objectId)?.max;
    case 'character': {
      const c = m.character.get(g.objectId);
      const item = c ? m.item.get(c.limitBreakItemId) : undefined;
      const per = c ? (m.rarity.get(c.rarity)?.duplicateItemAmount ?? 1) : 1;
      return item ? Math.max(1, Math.floor(item.max / per)) : undefined;
    }
    default:
      return undefined;
  }
};

/**
 * Puts a grant into the present box. With master data (what did not fit in storage:
 * sources overflow and reward, no deadline), an item or currency is added to a
 * present of the same thing, title and message while that stays within what the
 * player can hold of it, so the box grows with the things overflowing, not with
 * the number of times (issue 18: 20,000 ten-draws made 113,915 presents).
 */
export const sendPresent = (
  s: PlayerState,
  g: Grant,
  meta: PresentMeta,
  now: number,
  m?: Master,
): { state: PlayerState; present: Present } => {
  const max = m && meta.deadline === null && MERGED_SOURCES.has(meta.source) ? mergeMax(m, g) : undefined;
  if (max !== undefined) {
    // The newest such present first: older ones are full.
    for (let i = s.presents.length - 1; i >= 0; i--) {
      const p = s.presents[i] as Present;
      if (
        p.kind !== g.kind ||
        p.objectId !== g.objectId ||
        p.source !== meta.source ||
        p.deadline !== null ||
        p.title !== meta.title ||
        p.message !== meta.message
      )
        continue;
      if (p.amount + g.amount > max) break;
      const merged: Present = { ...p, amount: p.amount + g.amount };
      const presents = s.presents.slice();
      presents[i] = merged;
      return { state: withFields(s, { presents }), present: merged };
    }
  }
  const { state, ids } = allocateIds(s, 1);
  const present: Present = {
    managedPresentId: ids[0] as number,
    kind: g.kind,
    objectId: g.objectId,
    amount: g.amount,
    title: meta.title,
    message: meta.message,
    createdAt: now,
    deadline: meta.deadline,
    source: meta.source,
    ...(meta.sendId !== undefined ? { sendId: meta.sendId } : {}),
  };
  // Presents past their deadline (never listed nor received again) make room: the box is bounded (presents.boxMax).
  const kept = state.presents.some((p) => p.deadline !== null && p.deadline <= now)
    ? state.presents.filter((p) => p.deadline === null || p.deadline > now)
    : state.presents;
  return { state: { ...state, presents: [...kept, present] }, present };
};

export const OVERFLOW: PresentMeta = {
  title: 'Storage full',
  message: 'This did not fit in your storage and was kept for you here.',
  source: 'overflow',
  deadline: null,
};

/**
 * Grants, or when a capacity is full sends the grant to the present box: an
 * over-maximum grant is never lost. Unknown master ids are still errors (107, the only one).
 */
export const grantOrPresent = (
  m: Master,
  s: PlayerState,
  g: Grant,
  now: number,
  meta: PresentMeta = OVERFLOW,
): Result<{ state: PlayerState; outcome: GrantOutcome }, 'NOT_FOUND'> => {
  const r = tryGrant(m, s, g, now);
  if (r._tag === 'Right') return r;
  if (r.left.code === 'NOT_FOUND') return E.left(r.left);
  const sent = sendPresent(s, g, meta, now, m);
  return ok({ state: sent.state, outcome: { ...outcome(g), managedPresentId: sent.present.managedPresentId } });
};

/** Grants several things in order, each with overflow to the present box. */
export const grantAll = (
  m: Master,
  s: PlayerState,
  gs: ReadonlyArray<Grant>,
  now: number,
  meta: PresentMeta = OVERFLOW,
): Result<{ state: PlayerState; outcomes: GrantOutcome[] }, 'NOT_FOUND'> => {
  let state = s;
  const outcomes: GrantOutcome[] = [];
  for (const g of gs) {
    const r = grantOrPresent(m, state, g, now, meta);
    if (r._tag === 'Left') return r;
    state = r.right.state;
    outcomes.push(r.right.outcome);
  }
  return ok({ state, outcomes });
};
