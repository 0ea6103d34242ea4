// npx tsx scripts/bench/memory.ts [--players=1000] [--stored=100000] [--rounds=3] [--duration=5] [--variants='A;B'] [--tsx] [--snapshots=DIR]
// Where the service's memory goes under the bench's read and write mixes: its
// resident set after the runs, and its live heap after a forced full collection,
// by V8 space. Each variant (settings and node flags: `HEAP_GROWTH_PERCENT=40`,
// `--max-semi-space-size=8` after npm start's own, `dist=DIR` for another compiled
// copy, or several, comma-separated) runs its own server on
// its own copy of one store; all are up at once and the mixes take them in turn,
// round by round, so their rates compare within one run (ratios to the first).
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import { readMix, runLoad, writeMix, type Figures } from './load.js';
import { BENCH_SALT, generateStore, logIn, type BenchPlayer, type StoredPlayer } from './players.js';
import { START_FLAGS, startServer, type Server } from './servers.js';
import { cliArgs, flag, int } from '../args.js';

const args = cliArgs({
  command: 'npx tsx scripts/bench/memory.ts',
  summary:
    "Where the service's memory goes under the bench's read and write mixes: its resident set after the runs and its live heap after a full collection, by V8 space; variants (settings, node flags) side by side on copies of one store, their rates interleaved round by round.",
  options: {
    players: { type: 'string', value: 'N', default: '1000', kind: 'integer', min: 1, description: 'players in use' },
    stored: {
      type: 'string',
      value: 'N',
      defaultText: 'as --players',
      kind: 'integer',
      min: 1,
      description: 'players in the store, of whom --players are in use',
    },
    rounds: {
      type: 'string',
      value: 'N',
      default: '3',
      kind: 'integer',
      min: 1,
      description: 'rounds of the read and write mixes',
    },
    duration: {
      type: 'string',
      value: 'SECONDS',
      default: '5',
      kind: 'integer',
      min: 1,
      description: "length of each mix's run",
    },
    variants: {
      type: 'string',
      value: 'A;B',
      defaultText: 'the defaults alone',
      description:
        'variants separated by ";", each a comma-separated list of settings (K=V), node flags (--flag, after npm start\'s) and dist=DIR (another compiled copy); an empty one is the defaults',
    },
    tsx: {
      type: 'boolean',
      description:
        'run the TypeScript through tsx (npm run dev) rather than the compiled dist/ (npm start; build it first)',
    },
    snapshots: {
      type: 'string',
      value: 'DIR',
      defaultText: 'none',
      description: "write each variant's heap snapshot after the runs into DIR",
    },
    store: {
      type: 'string',
      value: 'DIR',
      defaultText: 'a temporary one',
      description:
        'generate the store in DIR and keep it, or reuse the one a run with the same --players and --stored left there',
    },
  },
});
const PLAYERS = int(args, 'players');
/** Players in the store, of whom PLAYERS are in use (as the bench's scale run). */
const STORED = Math.max(PLAYERS, int(args, 'stored', PLAYERS));
const ROUNDS = int(args, 'rounds');
const DURATION = int(args, 'duration');
const SNAPSHOTS = typeof args.values['snapshots'] === 'string' ? args.values['snapshots'] : undefined;

interface Variant {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly node: string[];
  readonly dist: string;
}
/** `dist=DIR` runs another compiled copy (an earlier commit's, copied beside dist/), for a before and after in one run. */
const variantOf = (text: string): Variant => {
  const items = text
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  const node = items.filter((x) => x.startsWith('--'));
  const pairs = items
    .filter((x) => !x.startsWith('--'))
    .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const);
  const env = Object.fromEntries(pairs.filter(([k]) => k !== 'dist'));
  const dist = pairs.find(([k]) => k === 'dist')?.[1] ?? 'dist';
  return { name: items.length === 0 ? 'defaults' : items.join(' '), env, node, dist };
};
const VARIANTS = String(args.values['variants'] ?? '')
  .split(';')
  .map(variantOf);

const work = mkdtempSync(join(tmpdir(), 'hoshi-memory-'));
// Loaded into the server: on SIGUSR2 it collects twice (what is left is live), writes its figures and, if asked, a heap snapshot.
const probe = join(work, 'probe.mjs');
writeFileSync(
  probe,
  `import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
process.on('SIGUSR2', () => {
  const rss = process.memoryUsage().rss;
  const heapCommitted = v8.getHeapStatistics().total_physical_size;
  const { arrayBuffers, external } = process.memoryUsage();
  globalThis.gc(); globalThis.gc();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { used: s.space_used_size, physical: s.physical_space_size }]));
  if (process.env.MEMORY_SNAPSHOT) v8.writeHeapSnapshot(process.env.MEMORY_SNAPSHOT);
  writeFileSync(process.env.MEMORY_REPORT, JSON.stringify({ rss, heapCommitted, arrayBuffers, external, live: process.memoryUsage().heapUsed, spaces }));
});
`,
);

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);
const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};
/** Peak resident set of a process (VmHWM), MB. */
const peakMb = (pid: number | undefined): number => {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

interface Report {
  rss: number;
  heapCommitted: number;
  arrayBuffers: number;
  external: number;
  live: number;
  spaces: Record<string, { used: number; physical: number }>;
}
/** Resident kB of the process's file mappings (node and its libraries) and of the rest, from /proc/<pid>/smaps. */
const residentByKind = (pid: number | undefined): { files: number; anonymous: number } => {
  let files = 0;
  let anonymous = 0;
  let file = false;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      file = (head[1] ?? '').startsWith('/');
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      if (file) files += Number(rss[1]);
      else anonymous += Number(rss[1]);
    }
  }
  return { files: files / 1024, anonymous: anonymous / 1024 };
};
interface Running {
  readonly variant: Variant;
  readonly svc: Server;
  readonly report: string;
  readonly players: BenchPlayer[];
  readonly idle: number;
  readonly reads: Figures[];
  readonly writes: Figures[];
  after: number;
  peak: number;
  kinds: { files: number; anonymous: number };
  got?: Report;
}

const liveReport = async (r: Running): Promise<Report> => {
  r.svc.proc.kill('SIGUSR2');
  for (let i = 0; i < 600; i++) {
    await new Promise((done) => setTimeout(done, 100));
    try {
      return JSON.parse(readFileSync(r.report, 'utf8')) as Report;
    } catch {
      /* not written yet */
    }
  }
  throw new Error(`${r.variant.name}: the server wrote no memory report`);
};

const main = async () => {
  const running: Running[] = [];
  try {
    const store = typeof args.values['store'] === 'string' ? args.values['store'] : join(work, 'store');
    // The players in use, kept beside a store that is kept: a later run reuses both.
    const list = join(store, `bench-players-${STORED}-${PLAYERS}.json`);
    let stored: StoredPlayer[];
    if (existsSync(list)) {
      stored = JSON.parse(readFileSync(list, 'utf8')) as StoredPlayer[];
      process.stderr.write(`reusing ${store}: ${STORED} players, ${PLAYERS} in use\n`);
    } else {
      process.stderr.write(`generating ${STORED} players, ${PLAYERS} in use\n`);
      stored = (await generateStore(loadMaster(), store, STORED, Math.floor(STORED / PLAYERS), Date.now())).active;
      writeFileSync(list, JSON.stringify(stored));
    }
    for (const [i, variant] of VARIANTS.entries()) {
      const dir = join(work, `store-${i}`);
      cpSync(store, dir, { recursive: true });
      const report = join(work, `report-${i}.json`);
      const env = {
        DATA_DIR: dir,
        ADMIN_TOKEN: 'bench-admin-token',
        STORAGE: 'file',
        REQUEST_HASH_SALT: BENCH_SALT,
        MEMORY_REPORT: report,
        ...(SNAPSHOTS ? { MEMORY_SNAPSHOT: join(SNAPSHOTS, `variant-${i}.heapsnapshot`) } : {}),
        ...variant.env,
      };
      const probeArgs = ['--expose-gc', '--import', probe];
      const svc = flag(args, 'tsx')
        ? await startServer('adapters/http/main.ts', env, {
            nodeArgs: [...variant.node, ...probeArgs, '--import', 'tsx'],
          })
        : await startServer(join(variant.dist, 'adapters/http/main.js'), env, {
            nodeArgs: [...START_FLAGS, ...variant.node, ...probeArgs],
          });
      const idle = svc.rssMb();
      const players = await logIn(svc.url, stored);
      // A pass over every player: each is read from its snapshot on first use.
      await runLoad(svc.url, readMix(players), { amount: players.length * 6 });
      await runLoad(svc.url, writeMix(players), { amount: players.length * 4 });
      running.push({
        variant,
        svc,
        report,
        players,
        idle,
        reads: [],
        writes: [],
        after: NaN,
        peak: NaN,
        kinds: { files: NaN, anonymous: NaN },
      });
      process.stderr.write(`${variant.name}: up, ${idle.toFixed(0)} MB idle\n`);
    }
    for (let round = 0; round < ROUNDS; round++) {
      // Each round starts with another variant, so none always runs first or last.
      for (let k = 0; k < running.length; k++) {
        const r = running[(round + k) % running.length] as Running;
        const read = await runLoad(r.svc.url, readMix(r.players), { duration: DURATION });
        const write = await runLoad(r.svc.url, writeMix(r.players), { duration: DURATION });
        r.reads.push(read);
        r.writes.push(write);
        // What the bench reports: the resident set right after the variant's own runs.
        r.after = r.svc.rssMb();
        if (round === ROUNDS - 1) {
          // Its last run: where the resident set is, then its live heap (the probe's collection changes what is resident).
          r.peak = peakMb(r.svc.proc.pid);
          r.kinds = residentByKind(r.svc.proc.pid);
          r.got = await liveReport(r);
        }
        process.stderr.write(
          `round ${round + 1}, ${r.variant.name}: read ${Math.round(read.rps)} req/s (p99 ${read.p99} ms), write ${Math.round(write.rps)} req/s (p99 ${write.p99} ms), ${r.after.toFixed(0)} MB${read.failed + write.failed > 0 ? `, ${read.failed + write.failed} FAILED` : ''}\n`,
        );
      }
    }
    const base = running[0] as Running;
    const baseRead = median(base.reads.map((f) => f.rps));
    const baseWrite = median(base.writes.map((f) => f.rps));
    const rows: string[][] = [
      [
        'variant',
        'idle MB',
        'after MB',
        'peak MB',
        'live MB',
        'read req/s',
        'ratio',
        'p99',
        'write req/s',
        'ratio',
        'p99',
      ],
    ];
    const spaces: string[] = [];
    const kinds: string[] = [];
    for (const r of running) {
      const got = r.got as Report;
      const read = median(r.reads.map((f) => f.rps));
      const write = median(r.writes.map((f) => f.rps));
      rows.push([
        r.variant.name,
        r.idle.toFixed(0),
        r.after.toFixed(0),
        r.peak.toFixed(0),
        mb(got.live),
        read.toFixed(0),
        (read / baseRead).toFixed(2),
        String(median(r.reads.map((f) => f.p99))),
        write.toFixed(0),
        (write / baseWrite).toFixed(2),
        String(median(r.writes.map((f) => f.p99))),
      ]);
      kinds.push(
        `${r.variant.name}: ${r.kinds.files.toFixed(0)} files (node, libraries), ${mb(got.heapCommitted)} V8 heap, ${(r.kinds.anonymous - got.heapCommitted / 1024 / 1024).toFixed(0)} the rest (malloc: buffers ${mb(got.arrayBuffers)}, external ${mb(got.external)}; stacks, V8's zones)`,
      );
      spaces.push(
        `${r.variant.name}: ${Object.entries(got.spaces)
          .filter(([, s]) => s.physical > 0)
          .map(([n, s]) => `${n.replace(/_space$/, '')} ${mb(s.used)}/${mb(s.physical)}`)
          .join(', ')}`,
      );
    }
    const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
    console.log(
      `${STORED} stored, ${PLAYERS} in use, ${ROUNDS} rounds of ${DURATION} s; ${flag(args, 'tsx') ? 'through tsx' : 'compiled (dist/)'}; rates are medians, ratios to the first variant`,
    );
    for (const row of rows)
      console.log(
        `| ${row.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(' | ')} |`,
      );
    console.log('\nresident MB after the last run, by kind:');
    for (const k of kinds) console.log(k);
    console.log('\nlive heap by V8 space after a full collection (used/committed MB):');
    for (const s of spaces) console.log(s);
  } finally {
    for (const r of running) await r.svc.stop();
    rmSync(work, { recursive: true, force: true });
  }
};

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
