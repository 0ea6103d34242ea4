// Whether a write on the JSON-file store costs what it changes (issue 34): single draws
// through the service (in this process, no HTTP) on a player holding ~25 kB (the write
// mix's) and on one holding ~768 kB (the bounds test's: pg-size.ts seasonedPlayer), the
// CPU per draw of each (process.cpuUsage over the draws: an fsync's wait is not CPU),
// the runs interleaved, and the ratio of the large player's to the small one's
// (target ≤ 1.5). Also runnable alone: npx tsx scripts/bench/file-size.ts [draws] [runs]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Master } from '../../core/master/index.js';
import { canonicalJson } from '../../adapters/storage/canonical.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { GameService } from '../../adapters/service/service.js';
import { sessionKey } from '../../adapters/service/sessions.js';
import { operationByName } from '../../core/operations/table.js';
import { GACHA_ID } from './players.js';
import { seasonedPlayer, smallPlayer, SEASONED_TEN_DRAWS } from './pg-size.js';

export interface FileSizeFigures {
  /** Each player's state, canonical JSON (kB): small, large. */
  readonly kB: readonly [number, number];
  /** CPU per draw (µs), each run: small, large. */
  readonly runs: ReadonlyArray<readonly [number, number]>;
  /** Medians of the runs (µs): small, large. */
  readonly cpu: readonly [number, number];
  /** The large player's over the small one's. */
  readonly ratio: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

export const fileSizeCpu = async (
  m: Master,
  now: number,
  draws: number,
  runs: number,
  tenDraws = SEASONED_TEN_DRAWS,
  /** Where to write CPU profiles of each player's draws after the runs (docs/performance.md's breakdown). */
  profile?: string,
): Promise<FileSizeFigures> => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-bench-size-'));
  try {
    const storage = await FileStorage.open({ dir, checkpointBytes: 1 << 30 });
    const players = [smallPlayer(m, 1, now), seasonedPlayer(m, 2, now, tenDraws)] as const;
    const sessions = players.map((p) => `bench-size-session-${p.playerId}`);
    await storage.commit({
      players: players.map((state) => ({ state, expectedVersion: null })),
      sessions: players.map((p, i) => ({
        key: sessionKey(sessions[i] as string),
        session: { playerId: p.playerId, epoch: p.account.sessionEpoch, createdAt: now, lastSeenAt: now },
      })),
    });
    let clock = now;
    const svc = new GameService({
      storage,
      master: m,
      clock: () => clock,
      seedSecret: 'bench-size',
      newToken: () => 'unused',
      sessionIdleMs: 86_400_000,
    });
    const draw = operationByName('drawPlayerGacha');
    if (!draw) throw new Error('no operation drawPlayerGacha');
    const drawOn = async (i: number, n: number) => {
      for (let k = 0; k < n; k++) {
        clock += 1;
        const a = await svc.run(draw, svc.context({ session: sessions[i] }), { gachaId: GACHA_ID, drawType: 1 });
        if (a._tag === 'Left') throw new Error(`bench size: a draw failed with ${a.left.code}`);
      }
    };
    const cpuOf = async (i: number): Promise<number> => {
      const c0 = process.cpuUsage();
      await drawOn(i, draws);
      const c = process.cpuUsage(c0);
      return (c.user + c.system) / draws;
    };
    // Warm-up: each player's lists hashed once, the code compiled.
    await drawOn(0, 50);
    await drawOn(1, 50);
    const out: Array<readonly [number, number]> = [];
    for (let r = 0; r < runs; r++) out.push([await cpuOf(0), await cpuOf(1)]);
    // Profiles of each player's draws (small, then large): PROFILE.0.cpuprofile, PROFILE.1.cpuprofile.
    for (const i of profile === undefined ? [] : [0, 1]) {
      const session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 100 });
      await session.post('Profiler.start');
      await drawOn(i, draws);
      const { profile: p } = await session.post('Profiler.stop');
      writeFileSync(`${profile}.${i}.cpuprofile`, JSON.stringify(p));
      session.disconnect();
    }
    await storage.close();
    const cpu = [median(out.map((x) => x[0])), median(out.map((x) => x[1]))] as const;
    const kB = players.map((p) => Math.round(canonicalJson(p).length / 1000)) as unknown as readonly [number, number];
    return { kB, runs: out, cpu, ratio: cpu[1] / cpu[0] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadMaster } = await import('../../adapters/master/load.js');
  const [draws, runs, profile] = [Number(process.argv[2] ?? 400), Number(process.argv[3] ?? 3), process.argv[4]];
  const f = await fileSizeCpu(loadMaster(), Date.now(), draws, runs, SEASONED_TEN_DRAWS, profile);
  process.stdout.write(`${JSON.stringify(f)}\n`);
}
