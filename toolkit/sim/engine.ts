// The simulation: a population of players, day by day, each following a
// behaviour profile, every action through the same reducers the service runs
// (core/operation.ts `run`, the operations table). Deterministic: the population,
// every behaviour choice and every operation's rng come from the seed, and the
// players act in id order, so the same seed gives the same result byte for byte.
// What the players do is in behaviours.ts; what is counted, and the result, in ledger.ts.
import type { Master } from '../../core/master/index.js';
import { liveDay, sceneOf, signUp, type World } from './behaviours.js';
import type { SimConfig } from './config.js';
import { createLedger, type SimParams, type SimResult } from './ledger.js';

export { CURRENCIES, band } from './ledger.js';
export type { Band, Currency, DayRow, ProfileBands, ProfileResult, SimParams, SimResult, Stats } from './ledger.js';

/** Runs a simulation. `onDay` is told after each day (for a progress bar). */
export const simulate = (m: Master, config: SimConfig, params: SimParams, onDay?: (day: number) => void): SimResult => {
  const scene = sceneOf(m, config);
  const agents = signUp(m, config, params);
  const ledger = createLedger(m, config, params, agents);
  const world: World = { ...scene, m, config, seed: params.seed, agents, ledger };
  for (let day = 0; day < params.days; day++) {
    ledger.openDay();
    for (const a of agents) liveDay(world, a, day);
    ledger.closeDay(day + 1);
    onDay?.(day + 1);
  }
  return ledger.result();
};
