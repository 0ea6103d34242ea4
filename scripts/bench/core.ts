// In-process measurements: single draws through the runner (decode, reducer,
// after-hooks, change lists), simulated player-days, and durable commits of the
// file store with grouped fsync against one fsync per commit.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStorage } from '../../adapters/storage/file.js';
import type { Master } from '../../core/master/index.js';
import { run } from '../../core/operation.js';
import { operationByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import type { PlayerState } from '../../core/state.js';
import { DAY } from '../../core/time.js';
import { activePlayer, CANDY, GACHA_ID } from './players.js';

const op = (name: string) => {
  const o = operationByName(name);
  if (!o) throw new Error(`no operation ${name}`);
  return o;
};

/** Runs f for about `seconds` (after a warm-up) and returns calls per second. */
const rate = (seconds: number, f: (i: number) => void): number => {
  for (let i = 0; i < 500; i++) f(i);
  let n = 0;
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  while (performance.now() < end) for (let k = 0; k < 100; k++) f(n++);
  return n / ((performance.now() - t0) / 1000);
};

/** Single draws per second for a seasoned player (the state every draw starts from). */
export const drawsPerSecond = (m: Master, now: number, seconds: number): number => {
  const { state } = activePlayer(m, 1, now);
  const draw = op('drawPlayerGacha');
  // One random stream, as a simulation draws: seeding a generator is not part of a draw.
  const rng = rngFromSeed('draws');
  return rate(seconds, () => {
    const r = run(draw, state, { gachaId: GACHA_ID, drawType: 1 }, rng, now, { master: m, others: [] });
    if (r._tag === 'Left') throw new Error(r.left.code);
  });
};

/**
 * Player-days per second: one player living day after day, each day the
 * reads a session starts with, presents received, five single draws, a
 * collection from the coin mint, three character upgrades.
 */
export const playerDaysPerSecond = (m: Master, now: number, seconds: number): number => {
  const start = activePlayer(m, 1, now, 0);
  let s: PlayerState = start.state;
  const ids = start.player.characterIds;
  let day = 0;
  const ops = {
    getAll: op('getAllPlayer'),
    presents: op('getAllPlayerPresent'),
    receive: op('getPlayerPresent'),
    gachas: op('getAllPlayerGacha'),
    draw: op('drawPlayerGacha'),
    collect: op('itemUpPlayerTownFacility'),
    upgrade: op('upgradePlayerCharacter'),
    party: op('getAllPlayerBattleParty'),
    town: op('getAllPlayerTown'),
  };
  const step = (o: ReturnType<typeof op>, req: unknown, seed: string, at: number) => {
    const r = run(o, s, req, rngFromSeed(seed), at, { master: m, others: [] });
    if (r._tag === 'Left') throw new Error(`${o.name}: ${r.left.code}`);
    s = r.right.state;
  };
  return rate(seconds, () => {
    // A long life reaches every cap (candies, levels): start over every 30 days.
    if (day % 30 === 0) s = start.state;
    const at = now + (day % 30) * DAY;
    s = { ...s, gem: m.game.currencyMax.gem };
    step(ops.getAll, {}, 'a', at);
    step(ops.presents, {}, 'b', at);
    if (s.presents.length > 0)
      step(ops.receive, { managedPresentId: s.presents.map((p) => p.managedPresentId).join(',') }, 'c', at);
    step(ops.gachas, {}, 'd', at);
    for (let k = 0; k < 5; k++) step(ops.draw, { gachaId: GACHA_ID, drawType: 1 }, `e${day}-${k}`, at + k);
    step(ops.collect, { managedTownFacilityId: start.player.facilityId, itemNo: 0, amount: 6000 }, 'f', at);
    for (let k = 0; k < 3; k++)
      step(
        ops.upgrade,
        { managedCharacterId: ids[(day + k) % ids.length], items: [{ itemId: CANDY, amount: 1 }] },
        'g',
        at,
      );
    step(ops.party, {}, 'h', at);
    step(ops.town, {}, 'i', at);
    day++;
  });
};

/** Player-days per second of the population simulator (scripts/sim, issue 6): its own mix of behaviour profiles. */
export const simPlayerDaysPerSecond = async (m: Master): Promise<number> => {
  const [{ simulate }, { loadConfig }] = await Promise.all([
    import('../../toolkit/sim/engine.js'),
    import('../../toolkit/sim/config.js'),
  ]);
  const config = loadConfig();
  simulate(m, config, { seed: 'bench-warm', players: 5, days: 5 });
  const t0 = performance.now();
  const r = simulate(m, config, { seed: 'bench', players: 40, days: 30 });
  return r.playerDays / ((performance.now() - t0) / 1000);
};

export interface CommitFigures {
  readonly rps: number;
  readonly p50: number;
  readonly p99: number;
}

const percentile = (xs: number[], p: number): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/**
 * Durable commits per second: `writers` concurrent writers, each committing its own
 * player (a seasoned state, one version up) again and again for `seconds`.
 */
export const commitsPerSecond = async (
  m: Master,
  now: number,
  groupCommit: boolean,
  seconds: number,
  writers = 32,
): Promise<CommitFigures> => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-bench-commits-'));
  try {
    const store = await FileStorage.open({ dir, groupCommit, checkpointBytes: 1 << 30 });
    const base = activePlayer(m, 1, now).state;
    const latencies: number[] = [];
    const start = performance.now();
    const end = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        let s: PlayerState = {
          ...base,
          playerId: w + 1,
          myCode: `W${String(w).padStart(9, '0')}`,
          account: { ...base.account, uuid: `writer-${w}` },
        };
        let expected: number | null = null;
        while (performance.now() < end) {
          const t0 = performance.now();
          const r = await store.commit({ players: [{ state: s, expectedVersion: expected }] });
          latencies.push(performance.now() - t0);
          if (!r.ok) throw new Error(`commit refused: ${r.detail}`);
          expected = s.version;
          s = { ...s, version: s.version + 1, gold: s.gold + 1 };
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    await store.close();
    return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
