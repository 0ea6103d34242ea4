// npx tsx scripts/bench/pg-function.ts [--calls=3000] [--rounds=10] [--batch=4,16] [--sync=off]
// What the commit function itself costs PostgreSQL (issue 34): one connection calls
// commit_v4 and commit_v5 alone, and commit_v5 several to a statement as group commit
// sends them (postgres-commit.ts batchText), with the same delta write (a player's version
// moved on, a ~60-byte delta row, a replay-log entry) on 32 players in turn, each statement
// its own transaction, and reads its backend's CPU from /proc. With synchronous_commit off
// no WAL flush is waited for (the function's work alone); --sync=on counts the commit's
// flush too. The rounds are interleaved and the median reported: on a shared machine a
// round's figure moves with what else runs, the ratio much less.
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { batchText } from '../../adapters/storage/postgres-commit.js';
import { createPlayer } from '../../core/account.js';
import { loadMaster } from '../../adapters/master/load.js';
import { rngFromSeed } from '../../core/rng.js';
import { cliArgs, num } from '../args.js';

const args = cliArgs({
  command: 'npx tsx scripts/bench/pg-function.ts',
  summary:
    "PostgreSQL backend CPU per commit: commit_v4 and commit_v5 alone, and commit_v5 several to a call, on the same delta write; interleaved rounds' medians.",
  options: {
    calls: { type: 'string', value: 'N', default: '3000', kind: 'integer', min: 1, description: 'commits a round' },
    rounds: { type: 'string', value: 'N', default: '10', kind: 'integer', min: 1, description: 'rounds of each' },
    batch: { type: 'string', value: 'K,K', default: '4,16', description: 'commits a call in the group-commit rows' },
    sync: { type: 'string', value: 'on|off', default: 'off', description: 'synchronous_commit of the connection' },
  },
});
const CALLS = num(args, 'calls');
const ROUNDS = num(args, 'rounds');
const SYNC = args.values['sync'] === 'on' ? 'on' : 'off';
const BATCHES = String(args.values['batch'])
  .split(',')
  .map(Number)
  .filter((k) => Number.isSafeInteger(k) && k > 1);
const PLAYERS = 32;
const url = process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const schema = `hoshi_function_${Date.now()}`;

const m = loadMaster();
const store = await PostgresStorage.open({ connectionString: url, schema });
for (let id = 1; id <= PLAYERS; id++) {
  const uuid = `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
  const made = createPlayer(
    m,
    { playerId: id, uuid, platform: 1, name: 'P', stepCode: 0, accessToken: `t${id}` },
    rngFromSeed(`p${id}`),
    Date.now(),
  );
  if (made._tag === 'Left') throw new Error(`createPlayer failed with ${made.left.code}`);
  await store.commit({ players: [{ state: made.right, expectedVersion: null }] });
}
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
  await c.query(`SET synchronous_commit = ${SYNC}`);
  const versions = new Array<number>(PLAYERS + 1).fill(0);
  let next = 1;
  /** The next player's write, as commit_v4 and v5 take it: its version moved on by one. */
  const write = (): unknown[] => {
    const id = next;
    next = (next % PLAYERS) + 1;
    const version = versions[id] ?? 0;
    versions[id] = version + 1;
    const delta = JSON.stringify({ playerId: id, base: 0, set: { gold: 5, version: version + 1 } });
    const entry = JSON.stringify({
      kind: 'op',
      at: 1,
      masterHash: 'm'.repeat(64),
      playerIds: [id],
      results: [{ playerId: id, version: version + 1, stateHash: 'a'.repeat(64) }],
      op: 'drawPlayerGacha',
      playerId: id,
      request: { gachaId: 2, drawType: 1 },
      seed: 's'.repeat(64),
      others: [],
    });
    const none: unknown[] = [];
    return [
      [id],
      [version],
      [version + 1],
      `[${delta}]`,
      [true],
      none,
      none,
      none,
      none,
      none,
      none,
      none,
      none,
    ].concat([none, none, none, '[]', none, 0, entry, [id], 32, null, null, none, none]);
  };
  const alone = (fn: string) =>
    `SELECT ${schema}.${fn}(${Array.from({ length: 26 }, (_, i) => `$${i + 1}`).join(', ')}) AS seq`;
  const variants: Array<{ name: string; k: number; text: string }> = [
    { name: 'commit_v4', k: 1, text: alone('commit_v4') },
    { name: 'commit_v5', k: 1, text: alone('commit_v5') },
    ...BATCHES.map((k) => ({ name: `commit_v5 ×${k} a call`, k, text: batchText(schema, k) })),
  ];
  const round = async (v: (typeof variants)[number]): Promise<number> => {
    const statements = Math.ceil(CALLS / v.k);
    const c0 = cpu();
    for (let q = 0; q < statements; q++)
      await c.query({ name: v.name, text: v.text, values: Array.from({ length: v.k }, write).flat() });
    return ((cpu() - c0) / (statements * v.k)) * 1e6;
  };
  const figures = new Map(variants.map((v) => [v, [] as number[]]));
  for (let r = 0; r < ROUNDS; r++) for (const v of variants) figures.get(v)?.push(await round(v));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
  const one = median(figures.get(variants[1] as (typeof variants)[number]) ?? []);
  process.stdout.write(`synchronous_commit ${SYNC}; PostgreSQL backend CPU a commit, median of ${ROUNDS} rounds:\n`);
  for (const [v, xs] of figures)
    process.stdout.write(
      `${v.name}: ${median(xs).toFixed(0)} µs (${(median(xs) / one).toFixed(2)} of commit_v5 alone; rounds: ${xs.map((x) => x.toFixed(0)).join(' ')})\n`,
    );
} finally {
  await c.end();
  await PostgresStorage.dropSchema(url, schema);
}
