// Whether the http section's ratio targets can be met on this machine at all (issue 34):
// the CPU a request may spend for its mix to reach the target rate, beside the work it
// cannot do without, each part measured here.
//   npx tsx scripts/bench/budget.ts [--players N] [--runs N] [--database-url URL]
//
// The Koa echo is bound by its one thread: its rate is 1 / its CPU per request (both
// measured, side by side). A mix at `ratio` of the padded echo's rate may so spend
// 1 / (ratio × rate) of CPU a request. What every request of the mix must spend at
// least: the padded echo's own (the same HTTP, headers and answer bytes), and the
// mix's own parts that no design of this service leaves out, timed in this process
// on the bench's players: the reducer with its change lists (`run`), the answer's
// JSON (answerJson), and for a durable write the replay log's state hash
// (stateHash) and the journal record (encodeRecord). Everything else a request does
// (session, decoding, locks, the batch and its fsync, the log's files, metrics, the
// collector) is left out, so the floor is below what any build can reach.
// With --database-url, the PostgreSQL targets' CPU a write too: Node's least is the
// same parts with one round trip of a journal record's size in place of the journal
// (node-postgres, the loopback socket: pg-floor.ts's client side), PostgreSQL's is its
// floor's own transaction on a row of that size. And the write mix's ratio to the bench's
// floor (a whole state a row): what one thread may spend a write at half that floor, and
// what the machine's cores may, against Node's least with PostgreSQL's and the load
// generator's beside it.
import { availableParallelism } from 'node:os';
import { loadMaster } from '../../adapters/master/load.js';
import { answerJson } from '../../adapters/http/json.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { stateHash } from '../../adapters/storage/canonical.js';
import { encodeRecord, journaled } from '../../adapters/storage/journal-records.js';
import { entryOf } from '../../adapters/storage/replay-log.js';
import { run } from '../../core/operation.js';
import { operationByName } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import type { PlayerState } from '../../core/state.js';
import { cliArgs, num, str } from '../args.js';
import { echoMix, runLoad } from './load.js';
import { cpuNow, cpuSince, pgFloor } from './pg-floor.js';
import { activePlayer, CANDY, GACHA_ID, type BenchPlayer } from './players.js';
import { startServer } from './servers.js';

const args = cliArgs({
  command: 'npx tsx scripts/bench/budget.ts',
  summary:
    "Prints, for the http section's ratio targets, the CPU a request may spend and the least it must spend here.",
  options: {
    players: { type: 'string', value: 'N', default: '200', kind: 'number', min: 1, description: 'bench players timed' },
    runs: {
      type: 'string',
      value: 'N',
      default: '5',
      kind: 'number',
      min: 1,
      description: 'runs of each part (median)',
    },
    'database-url': {
      type: 'string',
      value: 'URL',
      description:
        'also the PostgreSQL targets: a round trip and a one-row update on this database (a schema dropped after)',
    },
  },
});
const PLAYERS = num(args, 'players');
const RUNS = num(args, 'runs');
const PAD = 9000;
const m = loadMaster();
const now = Date.now();
const median = (xs: ReadonlyArray<number>): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

// ---- the echo: rate and CPU a request, bare and padded, with the load generator's ----
const echo = await startServer('scripts/bench/baseline.ts', {});
const dummy: BenchPlayer[] = [{ playerId: 1, facilityId: 1, characterIds: [1], presentIds: [1], sessionId: 'x' }];
const echoRuns = (pad: number) => ({ pad, rps: [] as number[], server: [] as number[], load: [] as number[] });
const bare = echoRuns(0);
const padded = echoRuns(PAD);
await runLoad(echo.url, echoMix(dummy, PAD), { duration: 2 });
for (let r = 0; r < RUNS; r++)
  for (const e of [bare, padded]) {
    const c0 = cpuNow([echo.proc.pid ?? 0]);
    const f = await runLoad(echo.url, echoMix(dummy, e.pad), { duration: 3 });
    const c = cpuSince(c0, cpuNow([echo.proc.pid ?? 0]));
    e.rps.push(f.rps);
    e.server.push((c.node / f.requests) * 1e6);
    e.load.push((c.bench / f.requests) * 1e6);
  }
await echo.stop();

// ---- the parts every request of a mix must do, in this process ----
const players = Array.from({ length: PLAYERS }, (_, i) => activePlayer(m, i + 1, now, 60));
const op = (name: string) => {
  const o = operationByName(name);
  if (!o) throw new Error(`no operation ${name}`);
  return o;
};
const READS = [
  ['getAllPlayer', {}],
  ['getAllPlayerPresent', {}],
  ['getAllPlayerGacha', {}],
  ['getPlayerGachaBox', { gachaId: GACHA_ID }],
  ['getAllPlayerBattleParty', {}],
  ['getAllPlayerTown', {}],
] as const;
const writeOf = (k: number, p: (typeof players)[number], pass: number): readonly [string, unknown] =>
  k === 0
    ? ['drawPlayerGacha', { gachaId: GACHA_ID, drawType: 1 }]
    : k === 1
      ? ['getPlayerPresent', { managedPresentId: p.player.presentIds[pass] }]
      : k === 2
        ? ['itemUpPlayerTownFacility', { managedTownFacilityId: p.player.facilityId, itemNo: 0, amount: 1 }]
        : [
            'upgradePlayerCharacter',
            { managedCharacterId: p.player.characterIds[pass], items: [{ itemId: CANDY, amount: 1 }] },
          ];
/** CPU µs of `f` over `n` items, each part timed in its own loop so that its caches are its own. */
const timed = (n: number, f: () => void): number => {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
};
interface Parts {
  core: number[];
  json: number[];
  hash: number[];
  journal: number[];
}
const reads: Pick<Parts, 'core' | 'json'> = { core: [], json: [] };
const writes: Parts = { core: [], json: [], hash: [], journal: [] };
/** The journal records of the last run's writes (their median size is the PostgreSQL floor's row). */
let records: string[] = [];
for (let r = 0; r < RUNS + 1; r++) {
  // A fresh copy of each player a run (JSON round trip): nothing hashed or viewed before.
  const states: PlayerState[] = players.map((p) => JSON.parse(JSON.stringify(p.state)) as PlayerState);
  const readAnswers: unknown[] = [];
  const rc = timed(PLAYERS * READS.length, () => {
    for (let i = 0; i < PLAYERS; i++)
      for (const [name, req] of READS) {
        const a = run(op(name), states[i] as PlayerState, req, rngFromSeed('r'), now, { master: m, others: [] });
        if (a._tag === 'Left') throw new Error(`${name}: ${a.left.code}`);
        readAnswers.push(a.right.response);
      }
  });
  const rj = timed(readAnswers.length, () => {
    for (const a of readAnswers) answerJson(a as Record<string, unknown>);
  });
  // The write mix, player after player as the load walks them, four passes.
  const steps: Array<{ name: string; req: unknown; before: PlayerState; after: PlayerState; answer: unknown }> = [];
  const wc = timed(PLAYERS * 4, () => {
    for (let k = 0; k < 4; k++)
      for (let i = 0; i < PLAYERS; i++) {
        const [name, req] = writeOf(k, players[i] as (typeof players)[number], r);
        const before = states[i] as PlayerState;
        const a = run(op(name), before, req, rngFromSeed(`w${r}-${i}-${k}`), now + k, { master: m, others: [] });
        if (a._tag === 'Left') throw new Error(`${name}: ${a.left.code}`);
        states[i] = a.right.state;
        steps.push({ name, req, before, after: a.right.state, answer: a.right.response });
      }
  });
  // The states loaded before the writes were hashed at their commits: so here, before timing.
  for (const s of steps.slice(0, PLAYERS)) stateHash(s.before);
  const wh = timed(steps.length, () => {
    for (const s of steps) stateHash(s.after, s.before);
  });
  records = [];
  const wl = timed(steps.length, () => {
    for (const [n, s] of steps.entries()) {
      const entry = entryOf(
        {
          kind: 'op',
          at: now,
          masterHash: 'm',
          op: s.name,
          playerId: s.after.playerId,
          request: s.req,
          seed: 's',
          others: [],
        },
        [s.after],
        [s.before],
      );
      records.push(
        encodeRecord({ seq: n, sessions: [], idempotency: [], log: [entry] }, [journaled(s.after, s.before)]),
      );
    }
  });
  const wj = timed(steps.length, () => {
    for (const s of steps) answerJson(s.answer as Record<string, unknown>);
  });
  // The first run warms the compiler: not counted.
  if (r === 0) continue;
  reads.core.push(rc);
  reads.json.push(rj);
  writes.core.push(wc);
  writes.hash.push(wh);
  // The journal's loop hashes each state again (entryOf's): taken out at the first hash's cost, which is
  // more than a second's (its lists' digests are kept), so the journal's figure errs low, as a floor may.
  writes.journal.push(Math.max(0, wl - wh));
  writes.json.push(wj);
}

// ---- the table ----
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');
const echoRate = median(padded.rps);
const echoCpu = median(padded.server);
const rows: Array<[string, number, number, Record<string, number>]> = [
  ['read mix ≥ 0.70 of the padded echo', 0.7, echoRate, { core: median(reads.core), json: median(reads.json) }],
  [
    'write mix ≥ 0.50 of the padded echo',
    0.5,
    echoRate,
    {
      core: median(writes.core),
      json: median(writes.json),
      hash: median(writes.hash),
      journal: median(writes.journal),
    },
  ],
];
const out: string[] = [
  `echo (${RUNS} runs of 3 s, median): bare ${fmt(median(bare.rps))} req/s at ${fmt(median(bare.server))} µs a request; padded to ${PAD} bytes ${fmt(echoRate)} req/s at ${fmt(echoCpu)} µs (1 / CPU: ${fmt(1e6 / echoCpu)} req/s); the load generator ${fmt(median(padded.load))} µs a request`,
  '',
  '| target | may spend (µs a request) | must spend at least (µs) | of which: echo / run / JSON / hash / journal | can be met here |',
  '|---|---:|---:|---|---|',
];
for (const [name, ratio, rate, parts] of rows) {
  const budget = 1e6 / (ratio * rate);
  const own = Object.values(parts).reduce((a, b) => a + b, 0);
  const floor = echoCpu + own;
  const split = [echoCpu, parts['core'], parts['json'], parts['hash'], parts['journal']]
    .map((x) => (x === undefined ? '–' : fmt(x)))
    .join(' / ');
  out.push(`| ${name} | ${fmt(budget)} | ${fmt(floor)} | ${split} | ${floor <= budget ? 'yes' : 'no'} |`);
}
const hot = 1e6 / 3000;
const writeFloor = echoCpu + median(writes.core) + median(writes.json) + median(writes.hash) + median(writes.journal);
out.push(
  `| hot player ≥ 3,000 req/s | ${fmt(hot)} | ${fmt(writeFloor)} | as the write mix | ${writeFloor <= hot ? 'yes' : 'no'} |`,
);

// ---- PostgreSQL: a round trip and a one-row update of a journal record's size ----
const url = str(args, 'database-url', '');
if (url) {
  const row = [...records].sort((a, b) => a.length - b.length)[Math.floor(records.length / 2)] ?? '{}';
  // The write mix's ratio target is against the bench's own floor: a bench player's whole state a row.
  const stateJson = JSON.stringify(players[0]?.state ?? {});
  const schema = `hoshi_budget_${Date.now()}`;
  /** RUNS floors of one row's text, 32 clients, json with lz4 (the bench's). */
  const floorRuns = async (text: string) => {
    const runs = [];
    for (let r = 0; r < RUNS; r++)
      runs.push(await pgFloor(url, schema, text, { clients: 32, seconds: 3, column: 'json', compression: 'lz4' }));
    return runs;
  };
  try {
    const floors = await floorRuns(JSON.stringify({ row }));
    const stateRows = await floorRuns(stateJson);
    const nodeRoundTrip = median(floors.map((f) => f.benchCpuUs));
    const pgOwn = median(floors.map((f) => f.pgCpuUs));
    const nodeFloor = echoCpu + median(writes.core) + median(writes.json) + median(writes.hash) + nodeRoundTrip;
    const floorTps = median(stateRows.map((f) => f.tps));
    // One process at half the floor: its one thread may spend this a write.
    const ratioBudget = 1e6 / (0.5 * floorTps);
    // And the machine, all its cores, at that rate: the least of Node, PostgreSQL and the load generator a write.
    const machineBudget = (availableParallelism() * 1e6) / (0.5 * floorTps);
    const machineFloor = nodeFloor + pgOwn + median(padded.load);
    out.push(
      `| PostgreSQL: Node's CPU a write ≤ 350 µs | 350 | ${fmt(nodeFloor)} | echo / run / JSON / hash / a round trip of ${fmt(row.length)} bytes: ${[echoCpu, median(writes.core), median(writes.json), median(writes.hash), nodeRoundTrip].map(fmt).join(' / ')} | ${nodeFloor <= 350 ? 'yes' : 'no'} |`,
      `| PostgreSQL: its CPU a write ≤ 300 µs | 300 | ${fmt(pgOwn)} | one prepared UPDATE of that row, 32 clients (${fmt(median(floors.map((f) => f.tps)))} tx/s) | ${pgOwn <= 300 ? 'yes' : 'no'} |`,
      `| PostgreSQL: write mix ≥ 0.50 of its floor, one process | ${fmt(ratioBudget)} | ${fmt(nodeFloor)} | Node's least, as above; the floor ${fmt(floorTps)} tx/s (a ${fmt(stateJson.length)}-byte state a row, json, lz4, 32 clients), so everything else a write does may take ${fmt(ratioBudget - nodeFloor)} µs | ${nodeFloor <= ratioBudget ? 'yes' : 'no'} |`,
      `| the same, the machine's ${availableParallelism()} cores | ${fmt(machineBudget)} | ${fmt(machineFloor)} | Node / PostgreSQL / the load generator: ${[nodeFloor, pgOwn, median(padded.load)].map(fmt).join(' / ')} | ${machineFloor <= machineBudget ? 'yes' : 'no'} |`,
    );
  } finally {
    // pgFloor drops its tables; the schema it made them in goes here (it was left behind).
    await PostgresStorage.dropSchema(url, schema);
  }
}
process.stdout.write(`${out.join('\n')}\n`);
