// npx tsx scripts/bench/pg-function.ts [--calls=3000] [--rounds=10]
// What the commit function itself costs PostgreSQL (issue 34): one connection calls
// commit_v4 and commit_v5, in turn, with the same delta write (a player's version moved
// on, a ~60-byte delta row, a replay-log entry), each call its own transaction with
// synchronous_commit off (no WAL flush waited for), and reads its backend's CPU from
// /proc. The rounds are interleaved and the median reported: on a shared machine a
// round's figure moves with what else runs, the ratio much less.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { createPlayer } from '../../core/account.js';
import { loadMaster } from '../../adapters/master/load.js';
import { rngFromSeed } from '../../core/rng.js';
import { cliArgs, num } from '../args.js';

const args = cliArgs({
  command: 'npx tsx scripts/bench/pg-function.ts',
  summary:
    "PostgreSQL backend CPU per call of commit_v4 and commit_v5 on the same delta write, interleaved rounds' medians.",
  options: {
    calls: { type: 'string', value: 'N', default: '3000', kind: 'integer', min: 1, description: 'calls a round' },
    rounds: { type: 'string', value: 'N', default: '10', kind: 'integer', min: 1, description: 'rounds of each' },
  },
});
const CALLS = num(args, 'calls');
const ROUNDS = num(args, 'rounds');
const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `hoshi_function_${Date.now()}`;

const m = loadMaster();
const made = createPlayer(
  m,
  { playerId: 1, uuid: '00000000-0000-4000-8000-000000000001', platform: 1, name: 'P', stepCode: 0, accessToken: 't' },
  rngFromSeed('p'),
  Date.now(),
);
if (made._tag === 'Left') throw new Error(`createPlayer failed with ${made.left.code}`);
const store = await PostgresStorage.open({ connectionString: url, schema });
await store.commit({ players: [{ state: made.right, expectedVersion: null }] });
await store.close();

const c = new pg.Client({ connectionString: url });
await c.connect();
try {
  const pid = (await c.query<{ p: number }>('SELECT pg_backend_pid() AS p')).rows[0]?.p as number;
  const cpu = (): number => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const x = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(x[11]) + Number(x[12])) / 100;
  };
  await c.query('SET synchronous_commit = off');
  const delta = JSON.stringify({ playerId: 1, base: 0, set: { gold: 5, version: 1 } });
  const entry = JSON.stringify({
    kind: 'op',
    at: 1,
    masterHash: 'm'.repeat(64),
    playerIds: [1],
    results: [{ playerId: 1, version: 1, stateHash: 'a'.repeat(64) }],
    op: 'drawPlayerGacha',
    playerId: 1,
    request: { gachaId: 2, drawType: 1 },
    seed: 's'.repeat(64),
    others: [],
  });
  let version = 0;
  const round = async (fn: string): Promise<number> => {
    const text = `SELECT ${schema}.${fn}(${Array.from({ length: 26 }, (_, i) => `$${i + 1}`).join(', ')}) AS seq`;
    const c0 = cpu();
    for (let k = 0; k < CALLS; k++, version++)
      await c.query({
        name: fn,
        text,
        values: [
          [1],
          [version],
          [version + 1],
          `[${delta}]`,
          [true],
          [],
          [],
          [],
          [],
          [],
          [],
          [],
          [],
          [],
          [],
          [],
          '[]',
          [],
          0,
          entry,
          [1],
          32,
          null,
          null,
          [],
          [],
        ],
      });
    return ((cpu() - c0) / CALLS) * 1e6;
  };
  const figures: Record<string, number[]> = { commit_v4: [], commit_v5: [] };
  for (let r = 0; r < ROUNDS; r++) for (const fn of Object.keys(figures)) figures[fn]?.push(await round(fn));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  for (const [fn, xs] of Object.entries(figures))
    process.stdout.write(
      `${fn}: median ${median(xs).toFixed(0)} µs backend CPU a call (rounds: ${xs.map((x) => x.toFixed(0)).join(' ')})\n`,
    );
  process.stdout.write(
    `commit_v5 ÷ commit_v4: ${(median(figures['commit_v5'] ?? []) / median(figures['commit_v4'] ?? [])).toFixed(2)}\n`,
  );
} finally {
  await c.end();
  await PostgresStorage.dropSchema(url, schema);
}
