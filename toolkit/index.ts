// hoshi's toolkit for game designers: the game's own reducers without HTTP or
// storage, for properties (fast-check) and simulations. docs/simulation.md shows a
// property in under 30 lines.
//
//   World        players signed up and operations run by name, as the service runs them
//   gameTime     instants from game-local times, game days, periods
//   wealth       what a player is worth in coins, gems, items and weapons at sale value
//   loadConfig   behaviour profiles as data (toolkit/profiles.json)
//   operationsProperty  a model-based fast-check property over random operation sequences,
//                       its steps typed by operation name (Step<'drawPlayerGacha'>)
//   assertProperty      fc.assert that reports the failed check's message, not only the counterexample
//   fc                  fast-check itself, so a property file needs no copy of its own (one version, one set of types)
//   setupPlayer, buildRequest, Chooser, TEMPLATES  the model of play the harness uses
export { World, type WorldOptions, type NewPlayerOptions, type Holdings, type RunOptions } from './world.js';
export { gameTime, DAY, HOUR, MINUTE, type GameTime, type LocalPeriod } from './time.js';
export { wealth, itemValue, grantValue, type Wealth } from './value.js';
export { loadConfig, DEFAULT_CONFIG, Profile, SimConfig } from './profiles.js';
export * as fc from 'fast-check';
export {
  operationsProperty,
  assertProperty,
  SESSION_OPERATIONS,
  type Step,
  type Model,
  type Verdict,
  type PropertyOptions,
} from './harness.js';
export { setupPlayer, buildRequest, Chooser, TEMPLATES, NO_SETUP, managedIds, itemsOf, type Setup } from './model.js';
export { loadMaster } from '../adapters/master/load.js';
export {
  runNamed,
  operationNamed,
  OPERATIONS,
  type OperationName,
  type RequestOf,
  type ResponseOf,
} from '../core/operations/table.js';
