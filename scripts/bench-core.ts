// In-process core throughput: single draws per second through the whole runner
// (decode, reducer, change lists), beside the bare table draw. npm run bench:core
import { loadMaster } from '../adapters/master/load.js';
import { createPlayer } from '../core/account.js';
import { rngFromSeed } from '../core/rng.js';
import { run } from '../core/operation.js';
import { operationByName } from '../core/operations/table.js';
import { drawMany } from '../core/gacha/rates.js';
import type { PlayerState } from '../core/state.js';
import { cliArgs, int } from './args.js';

const args = cliArgs({
  command: 'npm run bench:core --',
  summary:
    'In-process core throughput: single draws a second through the whole runner (decode, reducer, change lists), beside the bare table draw.',
  options: {
    draws: {
      type: 'string',
      value: 'N',
      default: process.env['N'] || '100000',
      kind: 'integer',
      min: 1,
      description: 'draws per measurement (N in the environment sets the default)',
    },
  },
});

const master = loadMaster();
const now = Date.UTC(2026, 10, 21, 3);
const created = createPlayer(
  master,
  { playerId: 1, uuid: 'bench', platform: 1, name: 'Bench', stepCode: 0, accessToken: 'bench-token-000000' },
  rngFromSeed('bench'),
  now,
);
if (created._tag === 'Left') throw new Error(created.left.code);
const draw = operationByName('drawPlayerGacha')!;
const gacha = master.gacha.get(2)!;

const measure = (label: string, n: number, f: (i: number) => void): number => {
  for (let i = 0; i < Math.min(2000, n); i++) f(i); // warm up
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  const rate = n / s;
  process.stdout.write(`${label.padEnd(44)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} /s\n`);
  return rate;
};

const N = int(args, 'draws');
const rng = rngFromSeed('table');
measure('table draw (drawMany, one pull)', N, () => {
  drawMany(master, gacha, rng, 1);
});
// A seasoned player: 300 ten-draws made (most characters owned, a full draw history).
let seasoned: PlayerState = { ...created.right, gem: 999_999 };
for (let i = 0; i < 300; i++) {
  const r = run(draw, seasoned, { gachaId: 2, drawType: 3 }, rngFromSeed(`s${i}`), now - 300_000 + i * 1000, {
    master,
    others: [],
  });
  if (r._tag === 'Left') throw new Error(r.left.code);
  seasoned = { ...r.right.state, gem: 999_999 };
}
process.stdout.write(
  `seasoned player: ${seasoned.characters.length} characters, ${seasoned.gachaHistory.length} draws in history\n`,
);
measure('single draw through the runner (seasoned)', N, (i) => {
  const r = run(draw, seasoned, { gachaId: 2, drawType: 1 }, rngFromSeed(`d${i}`), now, { master, others: [] });
  if (r._tag === 'Left') throw new Error(r.left.code);
});
let fresh: PlayerState = { ...created.right, gem: 999_999 };
measure('single draw through the runner (new player)', N, (i) => {
  const r = run(draw, fresh, { gachaId: 2, drawType: 1 }, rngFromSeed(`f${i}`), now, { master, others: [] });
  if (r._tag === 'Left') throw new Error(r.left.code);
  if (i === 0) fresh = { ...created.right, gem: 999_999 };
});
