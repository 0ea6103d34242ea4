// One hot player, in this process (no HTTP): 32 callers making single draws on the same
// player through the service on a JSON-file store, this checkout's code and another's
// (`--before=DIR`, its TypeScript through tsx) interleaved run by run, so the two are
// measured side by side on a shared machine. What it shows is the commit path's share of
// the hot-player row: one commit per fsync, or commits pipelined behind the fsync.
//   npx tsx scripts/bench/hot-inproc.ts [--before=DIR] [--requests=2000] [--runs=3]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadMaster } from '../../adapters/master/load.js';
import { sessionKey } from '../../adapters/service/sessions.js';
import { GACHA_ID } from './players.js';
import { smallPlayer } from './pg-size.js';
import { ROOT } from './servers.js';

const { values } = parseArgs({
  options: { before: { type: 'string' }, requests: { type: 'string' }, runs: { type: 'string' } },
});
const REQUESTS = Number(values.requests ?? 2000);
const RUNS = Number(values.runs ?? 3);
const CALLERS = 32;

type Svc = typeof import('../../adapters/service/service.js');
type Files = typeof import('../../adapters/storage/file.js');
type Table = typeof import('../../core/operations/table.js');

const codeOf = async (root: string) => ({
  svc: (await import(join(root, 'adapters/service/service.ts'))) as Svc,
  files: (await import(join(root, 'adapters/storage/file.ts'))) as Files,
  table: (await import(join(root, 'core/operations/table.ts'))) as Table,
});

const m = loadMaster();
const now = Date.now();

/** Draws a second on one player, 32 at a time, until `REQUESTS` are answered. */
const hotRun = async (code: Awaited<ReturnType<typeof codeOf>>): Promise<number> => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-bench-hot-'));
  try {
    const storage = await code.files.FileStorage.open({ dir, checkpointBytes: 1 << 30 });
    const state = smallPlayer(m, 1, now);
    await storage.commit({
      players: [{ state, expectedVersion: null }],
      sessions: [
        {
          key: sessionKey('hot'),
          session: { playerId: 1, epoch: state.account.sessionEpoch, createdAt: now, lastSeenAt: now },
        },
      ],
    });
    let clock = now;
    const svc = new code.svc.GameService({
      storage,
      master: m,
      clock: () => clock,
      seedSecret: 'bench-hot',
      newToken: () => 'unused',
      sessionIdleMs: 86_400_000,
    });
    const draw = code.table.operationByName('drawPlayerGacha');
    if (!draw) throw new Error('no drawPlayerGacha');
    let left = REQUESTS;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CALLERS }, async () => {
        while (left-- > 0) {
          clock += 1;
          const a = await svc.run(draw, svc.context({ session: 'hot' }), { gachaId: GACHA_ID, drawType: 1 });
          if (a._tag === 'Left') throw new Error(`hot draw failed: ${a.left.code}`);
        }
      }),
    );
    const rps = REQUESTS / ((performance.now() - t0) / 1000);
    await storage.close();
    return rps;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const sides = [{ label: 'this checkout', code: await codeOf(ROOT) }];
if (values.before) sides.unshift({ label: `before (${values.before})`, code: await codeOf(resolve(values.before)) });
const rates = new Map<string, number[]>(sides.map((s) => [s.label, []]));
for (const s of sides) await hotRun(s.code); // warm-up
for (let r = 0; r < RUNS; r++)
  for (const s of sides) {
    const rps = await hotRun(s.code);
    rates.get(s.label)?.push(rps);
    process.stderr.write(`run ${r + 1} ${s.label}: ${Math.round(rps)} draws/s\n`);
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const out = [...rates].map(([label, xs]) => ({ label, median: Math.round(median(xs)), runs: xs.map(Math.round) }));
process.stdout.write(`${JSON.stringify(out)}\n`);
if (out.length === 2) process.stdout.write(`after ÷ before: ${(out[1]!.median / out[0]!.median).toFixed(2)}\n`);
