// State fields the progression group adds to the player, with the value a player who
// predates them gets (decodeState fills them in, so no migration step is needed).
// Add a field as `name: codec` below and its default beside it.
import * as t from 'io-ts';
import type { Defaults } from './defaults.js';

export const SupportParty = t.type({ name: t.string, managedCharacterIds: t.array(t.number) });
export type SupportParty = t.TypeOf<typeof SupportParty>;

/** A fruit item (sphere) in an ability slot, with its level and exp. */
export const EquippedSphere = t.type({ itemId: t.number, level: t.number, exp: t.number });
export type EquippedSphere = t.TypeOf<typeof EquippedSphere>;

/** An unlocked ability tree: its unlocked slots, each holding a sphere or nothing. */
export const OwnedAbilityTree = t.type({
  managedCharacterId: t.number,
  slots: t.array(t.type({ slotNo: t.number, sphere: t.union([EquippedSphere, t.null]) })),
});
export type OwnedAbilityTree = t.TypeOf<typeof OwnedAbilityTree>;

/** An on-going training in a slot (a slot with no entry is idle). */
export const TrainingRun = t.type({
  slotId: t.number,
  trainingId: t.number,
  managedCharacterIds: t.array(t.number),
  startedAt: t.number,
  completesAt: t.number,
});
export type TrainingRun = t.TypeOf<typeof TrainingRun>;

/** Trades made of a recipe: in all, and on the game day `dayIndex`. */
export const TradeCount = t.type({ recipeId: t.number, total: t.number, dayIndex: t.number, today: t.number });
export type TradeCount = t.TypeOf<typeof TradeCount>;

export const progressionProps = {
  /** Support parties for the friend feature (count and size limits are master data). */
  supportParties: t.array(SupportParty),
  abilityTrees: t.array(OwnedAbilityTree),
  trainings: t.array(TrainingRun),
  tradeCounts: t.array(TradeCount),
  /** Characters (characterId) whose own weapon was received: once per character. */
  ownWeaponsReceived: t.array(t.number),
};
export const progressionDefaults: Defaults<typeof progressionProps> = {
  supportParties: [],
  abilityTrees: [],
  trainings: [],
  tradeCounts: [],
  ownWeaponsReceived: [],
};
