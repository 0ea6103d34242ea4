// The wire view of a player's state: field names as WIRE.md gives them, times as
// strings in the game's zone. `changes` lists what an operation changed, so every
// response that changes the player carries the updated parts.
import type { OwnedCharacter, OwnedRoomObject, OwnedWeapon, PlayerState, Present } from './state.js';
import { staminaMax, staminaNow, storageLimit } from './shared/player.js';
import { progressionCollections } from './views/progression.js';
import { facilityView, townCollections } from './views/town.js';
import { socialCollections } from './views/social.js';
import { loginBonusCollections } from './views/loginBonus.js';
import { memoListView, memoView } from './views/never-mutated.js';
import { levelCap } from './shared/growth.js';
import {
  collection,
  type Changes,
  type CollectionView,
  type CharacterView,
  type FullView,
  type PlayerView,
  type PresentView,
  type RoomObjectView,
  type WeaponView,
} from './views/codecs.js';

import { optTime, timeText, type ViewCtx } from './views/context.js';

export { optTime, timeText, type ViewCtx };

export const playerView = (s: PlayerState, ctx: ViewCtx): PlayerView => ({
  playerId: s.playerId,
  name: s.name,
  myCode: s.myCode,
  level: s.level,
  exp: s.exp,
  stamina: staminaNow(ctx.master, s, ctx.now),
  staminaMax: staminaMax(ctx.master, s),
  gold: s.gold,
  gem: s.gem,
  paidGem: s.paidGem,
  kirara: s.kirara,
  characterLimit: ctx.master.game.limits.characters,
  weaponLimit: storageLimit(ctx.master, s, 'weapon'),
  facilityLimit: storageLimit(ctx.master, s, 'facility'),
  roomObjectLimit: storageLimit(ctx.master, s, 'roomObject'),
  tutorialStep: s.tutorial.step,
  tutorialTips: s.tutorial.tips,
  createdAt: timeText(ctx, s.createdAt),
  lastLoginAt: timeText(ctx, s.lastLoginAt),
});

// Views are kept by the identity of what they show, under the identity contract
// (views/never-mutated.ts): states are never mutated and views never changed once built.
export { shared, isShared, common, isCommon, keepPlayerViews, memoView, memoListView } from './views/never-mutated.js';
/** Memoised by the present (a box is listed whole after every receive). */
export const presentView = memoView((p: Present, ctx: ViewCtx): PresentView => ({
  managedPresentId: p.managedPresentId,
  kind: p.kind,
  objectId: p.objectId,
  amount: p.amount,
  title: p.title,
  message: p.message,
  source: p.source,
  createdAt: timeText(ctx, p.createdAt),
  deadline: optTime(ctx, p.deadline),
}));

// Field by field, not a spread: one shape for every character view.
export const charactersView = memoListView(
  (c: OwnedCharacter, ctx: ViewCtx): CharacterView =>
    ({
      managedCharacterId: c.managedCharacterId,
      characterId: c.characterId,
      level: c.level,
      exp: c.exp,
      levelLimit: levelCap(ctx.master, c),
      limitBreak: c.limitBreak,
      awakening: c.awakening,
      evolved: c.evolved,
      view: c.view,
      shown: c.shown,
      createdAt: timeText(ctx, c.createdAt),
    }) satisfies Record<keyof OwnedCharacter | 'levelLimit', unknown>,
);
const weaponsView = memoListView((w: OwnedWeapon, ctx: ViewCtx): WeaponView => ({
  managedWeaponId: w.managedWeaponId,
  weaponId: w.weaponId,
  level: w.level,
  exp: w.exp,
  createdAt: timeText(ctx, w.createdAt),
}));
const roomObjectsView = memoListView((o: OwnedRoomObject, ctx: ViewCtx): RoomObjectView => ({
  managedRoomObjectId: o.managedRoomObjectId,
  roomObjectId: o.roomObjectId,
  createdAt: timeText(ctx, o.createdAt),
}));

export type { CollectionView } from './views/codecs.js';

/**
 * Every owned collection. A group that adds state adds its collections in
 * core/views/<group>.ts; the full view (get_all) and every response's changes follow.
 */
const BASE_COLLECTIONS: ReadonlyArray<CollectionView> = [
  collection({
    wire: 'managedCharacters',
    changed: (a, b) => a.characters !== b.characters,
    view: (s, ctx, before) => charactersView(s.characters, ctx, before?.characters),
  }),
  collection({
    wire: 'managedWeapons',
    changed: (a, b) => a.weapons !== b.weapons,
    view: (s, ctx, before) => weaponsView(s.weapons, ctx, before?.weapons),
  }),
  collection({
    wire: 'managedTownFacilities',
    changed: (a, b) => a.facilities !== b.facilities,
    view: (s, ctx) => s.facilities.map((f) => facilityView(f, ctx)),
  }),
  collection({
    wire: 'managedRoomObjects',
    changed: (a, b) => a.roomObjects !== b.roomObjects,
    view: (s, ctx, before) => roomObjectsView(s.roomObjects, ctx, before?.roomObjects),
  }),
  collection({
    wire: 'itemSummary',
    changed: (a, b) => a.items !== b.items,
    // Stored as the wire shows it: [{itemId, amount}] sorted by item id.
    view: (s) => s.items,
  }),
  collection({
    wire: 'presentCount',
    changed: (a, b) => a.presents !== b.presents,
    view: (s, ctx) => s.presents.filter((p) => p.deadline === null || p.deadline > ctx.now).length,
  }),
];

export const COLLECTIONS: ReadonlyArray<CollectionView> = [
  ...BASE_COLLECTIONS,
  ...progressionCollections,
  ...townCollections,
  ...socialCollections,
  ...loginBonusCollections,
];

/** Whether a field the player view shows changed (named reads, not a loop over keys: this runs on every change). */
const playerChanged = (a: PlayerState, b: PlayerState): boolean =>
  a.name !== b.name ||
  a.level !== b.level ||
  a.exp !== b.exp ||
  a.stamina !== b.stamina ||
  a.gold !== b.gold ||
  a.gem !== b.gem ||
  a.paidGem !== b.paidGem ||
  a.kirara !== b.kirara ||
  a.limitAdds !== b.limitAdds ||
  a.tutorial !== b.tutorial ||
  a.lastLoginAt !== b.lastLoginAt;

/**
 * The parts of the wire view that differ between two states (by reference: updates
 * never mutate). Keys the operation's own response already carries are skipped.
 */
export const changes = (before: PlayerState, after: PlayerState, ctx: ViewCtx, given: object = {}): Changes => {
  const out: Record<string, unknown> = {};
  if (before === after) return out;
  if (!('player' in given) && playerChanged(before, after)) out['player'] = playerView(after, ctx);
  // Most collections are unchanged: their identity test comes before the lookup in the answer.
  for (const c of COLLECTIONS)
    if (c.changed(before, after, ctx) && !(c.wire in given)) out[c.wire] = c.view(after, ctx, before);
  return out as Changes;
};

/** The whole state as the client sees it (get_all). */
export const fullView = (s: PlayerState, ctx: ViewCtx): FullView => {
  const out: Record<string, unknown> = { player: playerView(s, ctx) };
  for (const c of COLLECTIONS) out[c.wire] = c.view(s, ctx);
  // Complete by construction: COLLECTIONS covers every collection codec (test/core/views-codecs.test.ts).
  return out as FullView;
};
