// Hooks run by the runner after every successful operation that changed a player,
// in this order (the achievement engine is one). Each is pure: (before, after) → after.
import type { Master } from './master/index.js';
import type { PlayerState } from './state.js';

export type AfterHook = (before: PlayerState, after: PlayerState, now: number, master: Master) => PlayerState;

export const AFTER_HOOKS: ReadonlyArray<AfterHook> = [];
