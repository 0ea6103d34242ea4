// What stops a request before its entry runs, set by the operator: a maintenance
// window (every player entry answers 10, the allowed players and the entries marked
// duringMaintenance aside) and a player's suspension (204 with its end). The
// operator's own entries pass both.
import { gameError, type GameError } from '../../core/errors.js';
import { accessOf, type AnyOperation } from '../../core/operation.js';
import type { PlayerState } from '../../core/state.js';
import { suspensionAt } from '../../core/state/liveops.js';
import type { LiveOps, Maintenance } from '../liveops/board.js';

/** The window closing this entry at `now`, if any. */
export const closedBy = (liveOps: LiveOps, op: AnyOperation, now: number): Maintenance | null =>
  accessOf(op) === 'operator' || op.duringMaintenance ? null : liveOps.maintenanceAt(now);

/** Whether a player plays through the window (the team checking the game). */
export const admits = (m: Maintenance, playerId: number | undefined): boolean =>
  playerId !== undefined && m.allowPlayerIds.includes(playerId);

export const maintenanceError = (m: Maintenance): GameError =>
  gameError('MAINTENANCE', { message: m.message, until: m.until });

/** 10 when a window closes this entry at `now` to this player (undefined: none found), else nothing. */
export const closedTo = (
  liveOps: LiveOps,
  op: AnyOperation,
  now: number,
  playerId: number | undefined,
): GameError | undefined => {
  const m = closedBy(liveOps, op, now);
  return m && !admits(m, playerId) ? maintenanceError(m) : undefined;
};

/** 204 when the player is suspended at `now` (the operator's entries aside, so the operator can lift it). */
export const suspendedError = (op: AnyOperation, state: PlayerState, now: number): GameError | undefined => {
  if (accessOf(op) === 'operator') return undefined;
  const s = suspensionAt(state, now);
  return s ? gameError('PLAYER_SUSPENDED', { until: s.until }) : undefined;
};
