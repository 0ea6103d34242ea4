// State fields the progression group adds to the player, with the value a player who
// predates them gets (decodeState fills them in, so no migration step is needed).
// Add a field as `name: codec` below and its default beside it.
import type { Defaults } from './defaults.js';

export const progressionProps = {};
export const progressionDefaults: Defaults<typeof progressionProps> = {};
