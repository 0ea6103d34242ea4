// npx tsx scripts/bench/memory.ts [--players=1000] [--stored=100000] [--rounds=3] [--env=K=V,K=V] [--node=--flag,--flag]
// Where the service's memory goes under the bench's read and write mixes: its
// resident set after the runs, and its live heap after a forced full collection,
// by V8 space. `--env` and `--node` try a setting (HEAP_GROWTH_PERCENT=40, say,
// or --max-semi-space-size=8) on a copy of the same store, so variants compare.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadMaster } from '../../adapters/master/load.js';
import { readMix, runLoad, writeMix } from './load.js';
import { BENCH_SALT, generateStore, logIn } from './players.js';
import { startServer } from './servers.js';
import { cliArgs, int } from '../args.js';

const args = cliArgs({
  command: 'npx tsx scripts/bench/memory.ts',
  summary: 'Where the service\'s memory goes under the bench\'s read and write mixes: its resident set after the runs and its live heap after a full collection, by V8 space; --env and --node try a setting on a copy of the same store.',
  options: {
    players: { type: 'string', value: 'N', default: '1000', description: 'players in use' },
    stored: { type: 'string', value: 'N', defaultText: 'as --players', description: 'players in the store, of whom --players are in use' },
    rounds: { type: 'string', value: 'N', default: '3', description: 'rounds of the read and write mixes' },
    env: { type: 'string', value: 'K=V,K=V', defaultText: 'none', description: 'settings to try (HEAP_GROWTH_PERCENT=40, say)' },
    node: { type: 'string', value: '--flag,--flag', defaultText: 'none', description: 'node flags to try (--max-semi-space-size=8, say)' },
  },
});
const PLAYERS = int(args, 'players');
/** Players in the store, of whom PLAYERS are in use (as the bench's scale run). */
const STORED = Math.max(PLAYERS, int(args, 'stored', PLAYERS));
const ROUNDS = int(args, 'rounds');
const list = (k: string) => String(args.values[k] ?? '').split(',').filter((x) => x !== '');
const env = Object.fromEntries(list('env').map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]));

const work = mkdtempSync(join(tmpdir(), 'hoshi-memory-'));
const report = join(work, 'report.json');
// Loaded into the server: on SIGUSR2 it collects twice (what is left is live) and writes its figures.
const probe = join(work, 'probe.mjs');
writeFileSync(probe, `import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
process.on('SIGUSR2', () => {
  const rss = process.memoryUsage().rss;
  globalThis.gc(); globalThis.gc();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, { used: s.space_used_size, physical: s.physical_space_size }]));
  writeFileSync(${JSON.stringify(report)}, JSON.stringify({ rss, live: process.memoryUsage().heapUsed, spaces }));
});
`);

const mb = (n: number) => (n / 1024 / 1024).toFixed(1);

const main = async () => {
  try {
    process.stderr.write(`generating ${STORED} players, ${PLAYERS} in use\n`);
    const stored = (await generateStore(loadMaster(), join(work, 'store'), STORED, Math.floor(STORED / PLAYERS), Date.now())).active;
    const svc = await startServer('adapters/http/main.ts', { DATA_DIR: join(work, 'store'), ADMIN_TOKEN: 'bench-admin-token', STORAGE: 'file', REQUEST_HASH_SALT: BENCH_SALT, ...env },
      { nodeArgs: [...list('node'), '--expose-gc', '--import', 'tsx', '--import', probe] });
    try {
      const idle = svc.rssMb();
      const players = await logIn(svc.url, stored);
      await runLoad(svc.url, readMix(players), { amount: players.length * 6 });
      await runLoad(svc.url, writeMix(players), { amount: players.length * 4 });
      for (let i = 0; i < ROUNDS; i++) {
        const r = await runLoad(svc.url, readMix(players), { duration: 5 });
        const w = await runLoad(svc.url, writeMix(players), { duration: 5 });
        process.stderr.write(`round ${i + 1}: read ${Math.round(r.rps)} req/s (p99 ${r.p99} ms), write ${Math.round(w.rps)} req/s (p99 ${w.p99} ms)\n`);
      }
      const after = svc.rssMb();
      svc.proc.kill('SIGUSR2');
      let got: { rss: number; live: number; spaces: Record<string, { used: number; physical: number }> } | undefined;
      for (let i = 0; i < 100 && got === undefined; i++) {
        await new Promise((r) => setTimeout(r, 100));
        try { got = JSON.parse(readFileSync(report, 'utf8')) as typeof got; } catch { /* not written yet */ }
      }
      if (!got) throw new Error('the server wrote no memory report');
      console.log(`resident: ${idle.toFixed(0)} MB idle, ${after.toFixed(0)} MB after the runs`);
      console.log(`live heap after a full collection: ${mb(got.live)} MB`);
      console.log('space                   used MB  committed MB');
      for (const [name, s] of Object.entries(got.spaces)) {
        if (s.physical > 0) console.log(`${name.padEnd(24)}${mb(s.used).padStart(7)}${mb(s.physical).padStart(14)}`);
      }
    } finally {
      await svc.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
};

void main();
