// The simulation over stored players: the behaviour profiles run for some days from
// the real states of a sample of the game's players (read, never written), under two
// versions of the game data on the same random draws, compared as --compare compares
// (each seed a paired sample, the differences corrected for the number of metrics).
import { Worker } from 'node:worker_threads';
import type { Master } from '../../core/master/index.js';
import { masterSourceOf, type MasterFiles } from '../../adapters/master/load.js';
import { pickWeighted, rngFromSeed } from '../../core/rng.js';
import type { PlayerState } from '../../core/state.js';
import { liveDay, newAgent, sceneOf, type Agent, type World } from './behaviours.js';
import { compareRuns, seedsOf, type CompareResult } from './compare.js';
import type { SimConfig } from './config.js';
import { createLedger, type SimResult } from './ledger.js';

/** One run of the preview: a version (0: in force, 1: the candidate) on a seed. */
export interface LiveTask {
  readonly version: 0 | 1;
  readonly seed: string;
}

export interface LiveWork {
  readonly files: readonly [MasterFiles, MasterFiles];
  readonly config: SimConfig;
  readonly states: ReadonlyArray<PlayerState>;
  readonly days: number;
  readonly start: number;
  readonly tasks: ReadonlyArray<LiveTask>;
}

export interface LiveParams {
  readonly seed: string;
  readonly days: number;
  /** When the first simulated day starts (the preview's now). */
  readonly start: number;
}

/** The stored players as agents: each given a profile by the seed (by share), its state as stored. */
const agentsOf = (config: SimConfig, seed: string, states: ReadonlyArray<PlayerState>): Agent[] => {
  const weighted = config.profiles.map((p) => ({ p, weight: p.share })).filter((x) => x.weight > 0);
  const rng = rngFromSeed(`${seed}:population`);
  return states.map((state) => newAgent(state.playerId, pickWeighted(rng, weighted).p, state));
};

/** One run from the stored states: `days` days of every player's behaviour, from `start`. */
export const simulateFrom = (
  m: Master,
  config: SimConfig,
  p: LiveParams,
  states: ReadonlyArray<PlayerState>,
): SimResult => {
  const agents = agentsOf(config, p.seed, states);
  const ledger = createLedger(m, config, { seed: p.seed, players: agents.length, days: p.days }, agents);
  // The behaviours find a player by id (agents[id - 1]): the stored ids are sparse.
  const byId: Agent[] = [];
  for (const a of agents) byId[a.id - 1] = a;
  const world: World = { ...sceneOf(m, config), start: p.start, m, config, seed: p.seed, agents: byId, ledger };
  for (let day = 0; day < p.days; day++) {
    ledger.openDay();
    for (const a of agents) liveDay(world, a, day);
    ledger.closeDay(day + 1);
  }
  return ledger.result();
};

/** The version in force (A) and a candidate (B) on the same stored players and the same seeds, compared. */
export const previewLive = (
  a: { readonly name: string; readonly master: Master },
  b: { readonly name: string; readonly master: Master },
  config: SimConfig,
  states: ReadonlyArray<PlayerState>,
  p: { readonly seed: string; readonly seeds: number; readonly days: number; readonly start: number },
): CompareResult => {
  const seeds = seedsOf(p.seed, p.seeds);
  const runsA = seeds.map((seed) => simulateFrom(a.master, config, { seed, days: p.days, start: p.start }, states));
  const runsB = seeds.map((seed) => simulateFrom(b.master, config, { seed, days: p.days, start: p.start }, states));
  return compareRuns(
    { a: a.name, b: b.name, seed: p.seed, seeds: p.seeds, players: states.length, days: p.days },
    runsA,
    runsB,
  );
};

/**
 * The same preview with its runs split over `threads` worker threads (the machine's
 * cores): each run is the same function of its version and seed, so the result is
 * the one previewLive gives. One thread runs here, unless `offThread` (a server,
 * whose event loop must keep serving); versions not built from files always run here.
 */
export const previewLiveParallel = async (
  a: { readonly name: string; readonly master: Master },
  b: { readonly name: string; readonly master: Master },
  config: SimConfig,
  states: ReadonlyArray<PlayerState>,
  p: { readonly seed: string; readonly seeds: number; readonly days: number; readonly start: number },
  threads: number,
  offThread = false,
): Promise<CompareResult> => {
  const fa = masterSourceOf(a.master)?.raw;
  const fb = masterSourceOf(b.master)?.raw;
  if ((threads < 2 && !offThread) || !fa || !fb) return previewLive(a, b, config, states, p);
  const seeds = seedsOf(p.seed, p.seeds);
  const tasks: LiveTask[] = seeds.flatMap((seed) => [
    { version: 0, seed },
    { version: 1, seed },
  ]);
  const n = Math.max(1, threads);
  const shares = Array.from({ length: n }, (_, i) => tasks.filter((_, j) => j % n === i)).filter((x) => x.length > 0);
  // Under tsx (npm run sim, tests) the worker is TypeScript, loaded through tsx (live-worker-entry.mjs); built, plain JavaScript.
  const ts = import.meta.url.endsWith('.ts');
  const url = new URL(ts ? './live-worker-entry.mjs' : './live-worker.js', import.meta.url);
  const answers = await Promise.all(
    shares.map(
      (share) =>
        new Promise<SimResult[]>((resolve, reject) => {
          const work: LiveWork = {
            files: [fa, fb],
            config,
            states,
            days: p.days,
            start: p.start,
            tasks: share,
          };
          const w = new Worker(url, { workerData: work });
          w.once('message', (r: SimResult[]) => resolve(r));
          w.once('error', reject);
        }),
    ),
  );
  const byTask = new Map<LiveTask, SimResult>();
  shares.forEach((share, i) => share.forEach((task, j) => byTask.set(task, answers[i]?.[j] as SimResult)));
  const runsOf = (v: 0 | 1) => tasks.filter((t) => t.version === v).map((t) => byTask.get(t) as SimResult);
  return compareRuns(
    { a: a.name, b: b.name, seed: p.seed, seeds: p.seeds, players: states.length, days: p.days },
    runsOf(0),
    runsOf(1),
  );
};
