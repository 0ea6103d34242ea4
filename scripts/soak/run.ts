// The soak from end to end: seed the store, start the server, log the players in
// and read where they start, run the load (a row a minute), SIGKILL the server,
// start it again on the same data and check (restart.ts), and judge.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadMaster } from '../../adapters/master/load.js';
import { createClient } from '../../client/index.js';
import { logIn } from '../bench/players.js';
import { baselineOf, readStored, type Baseline } from './check.js';
import { admin as adminOf, agentFetch, connection } from './http.js';
import { Ledger } from './ledger.js';
import { runLoad, type Chained } from './load.js';
import type { SoakOptions } from './options.js';
import { seed } from './population.js';
import { head, markdown, summary, tableRow, verdictOf, type Report } from './report.js';
import { signupClient } from './signup.js';
import { crashAndCheck } from './restart.js';
import { ADMIN_TOKEN, SALT, Stack } from './stack.js';

export interface SoakResult {
  readonly report: Report;
  readonly exitCode: number;
}

/** The checkout's commit, and whether its tree differs from it. */
const describeRoot = (root: string): string => {
  const git = (...args: string[]) => spawnSync('git', ['-C', root, ...args], { encoding: 'utf8' });
  const rev = git('rev-parse', '--short', 'HEAD').stdout.trim();
  if (!rev) return root;
  const dirty = git('status', '--porcelain', '--untracked-files=no').stdout.trim() !== '';
  return `${root} at ${rev}${dirty ? ' with uncommitted changes' : ''}`;
};

const record = (o: object): Record<string, number> =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, Number(v)]));

export const runSoak = async (
  opts: SoakOptions,
  out: (text: string) => void,
  log: (text: string) => void,
): Promise<SoakResult> => {
  const master = loadMaster();
  const now = Date.now();
  const stack = await Stack.prepare(opts, log);
  const agents: http.Agent[] = Array.from({ length: opts.clients }, connection);
  const signupAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  // Ctrl-C or a kill of the soak: no server or temporary data is left behind.
  const onSignal = () => {
    void stack.cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    log(
      `seeding ${opts.filler} filler and ${opts.players} active players (${opts.store === 'file' ? `DATA_DIR ${stack.where.store === 'file' ? stack.where.dir : ''}` : `schema ${stack.where.store === 'pg' ? stack.where.schema : ''}`})`,
    );
    const pop = await seed(master, opts.root, stack.where, opts, now);
    const startupMs = await stack.start();
    log(`server listening at ${stack.url} after ${Math.round(startupMs)} ms (pid ${stack.child?.proc.pid})`);
    const admin = adminOf(stack.url, ADMIN_TOKEN);
    const logged = await logIn(stack.url, pop.actives, 8);
    const players: Array<Chained & { base: Baseline }> = [];
    for (const [i, bp] of logged.entries()) {
      const got = await readStored(admin, bp.playerId);
      if (typeof got === 'string') throw new Error(got);
      // Stored oldest first; the ledger keeps the box newest first, as the answers list it.
      const ledger = new Ledger(bp.playerId, i, got.s.presents.map((p) => p.managedPresentId).reverse(), opts.resend);
      const client = createClient({
        baseUrl: stack.url,
        salt: SALT,
        fetch: agentFetch(agents[i % agents.length] as http.Agent),
        retries: opts.retries,
        timeoutMs: opts.timeoutMs,
        sessionId: bp.sessionId,
      });
      players.push({ client, ledger, chain: Promise.resolve(), base: baselineOf(got.s) });
    }
    const seconds = opts.minutes * 60;
    const weights = opts.mix.reduce((a, [, w]) => a + w, 0);
    const drawsEach = (opts.rate * seconds * (opts.mix.find(([k]) => k === 'draw')?.[1] ?? 0)) / weights / opts.players;
    if (drawsEach > 0.9 * pop.drawBudget)
      log(
        `note: about ${Math.round(drawsEach)} draws a player are due and each can pay for ${pop.drawBudget}: expect 445 refusals near the end`,
      );

    const first = players[0]?.ledger.playerId ?? 0;
    const setup = [
      `server: ${describeRoot(opts.root)}; node ${process.version} running adapters/http/main.ts through tsx; RATE_LIMITS=off`,
      opts.store === 'file'
        ? `store: JSON files in a fresh DATA_DIR, CHECKPOINT_INTERVAL_SECONDS=${opts.checkpointSeconds}`
        : `store: PostgreSQL ${opts.databaseUrl}, schema ${stack.where.store === 'pg' ? stack.where.schema : ''}${opts.keep ? ' (kept)' : ' (dropped at the end)'}`,
      `population: ${opts.filler} filler players (1–${opts.filler}), ${opts.players} active (${first}–${first + opts.players - 1}) with ${opts.presents} presents, ${pop.drawBudget} draws' tickets and gems and a ${opts.history} draw history each`,
      `load: open loop, ${opts.rate} requests/s for ${opts.minutes} min over ${opts.clients} keep-alive connections; mix ${opts.mix.map(([k, w]) => `${k} ${w}`).join(', ')}; ${opts.signupsPerSecond} sign-ups/s; client retries ${opts.retries}, timeout ${opts.timeoutMs} ms`,
      `started ${new Date().toISOString()}; the server listened ${Math.round(startupMs)} ms after its start`,
      "columns: sent counts requests by when they were due; answered, errors, refusals and latency (from when each was due) by when its answer came; no answer: requests dropped while --max-in-flight were open or open at the end (among the errors, and slower than any answer in the percentiles: ∞ when a percentile falls among them); RSS (/proc/<pid>/status) and heap the minute's highest sample; lag p99 the p99 of the minute's scraped nodejs_eventloop_lag_p99_seconds, lag max the highest scraped max; sizes at the minute's end",
    ];
    const columns = stack.columns;
    out(
      `${head({ title: `Soak: ${opts.store} store, ${opts.rate}/s for ${opts.minutes} min`, setup, columns }).join('\n')}\n`,
    );

    const load = await runLoad({
      opts,
      players,
      fillers: pop.fillers,
      admin,
      signupClient: signupClient(stack.url, SALT, agentFetch(signupAgent), opts.timeoutMs, opts.retries),
      sample: (t) => stack.sample(t),
      sizes: () => stack.sizes(),
      onRow: (row) => out(`${tableRow(row, columns)}\n`),
      log,
    });
    for (const a of [...agents, signupAgent]) a.destroy();

    const check = await crashAndCheck(stack, players, load.signups, log);

    const totals = load.tally.totals;
    const errors = totals.errors;
    const verdict = verdictOf(
      load.tally,
      load.seconds,
      errors,
      check.passed,
      check.passed ? 'all present, every resent key answered as kept' : `${check.problems.length} problems`,
    );
    setup.push(
      `operator campaign (a coin present to every active player, keeping their boxes filled): ${load.campaigns.sent} sent, ${load.campaigns.full} reached every player`,
    );
    const report: Report = {
      title: `Soak: ${opts.store} store, ${opts.rate}/s for ${opts.minutes} min`,
      setup,
      columns,
      rows: load.rows,
      totals,
      refusals: Object.fromEntries(load.tally.refusalKinds),
      errors: Object.fromEntries(load.tally.errorKinds),
      byOperation: record(Object.fromEntries(load.tally.byOperation)),
      serverLog: { checkpoints: stack.logs.checkpoints, events: Object.fromEntries(stack.logs.events) },
      check,
      verdict,
      passed: errors === 0 && check.passed,
    };
    out(`\n${summary(report)}\n`);
    if (opts.out) {
      writeFileSync(
        opts.out,
        opts.out.endsWith('.json') ? `${JSON.stringify(report, null, 2)}\n` : `${markdown(report)}\n`,
      );
      log(`wrote ${opts.out}`);
    }
    return { report, exitCode: report.passed ? 0 : 1 };
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
    for (const a of [...agents, signupAgent]) a.destroy();
    await stack.cleanup();
  }
};
