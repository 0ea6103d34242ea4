// The server under soak and what is read of it from outside: its environment for
// the chosen store, starting it (again) on the same data, its resident memory from
// /proc/<pid>/status (the node process itself: it is spawned without a wrapper),
// its heap and event-loop lag from GET /metrics, the store's size on disk (the
// data directory's files) or in PostgreSQL (the schema's tables), and the clean-up.
import { lstat, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BENCH_SALT } from '../bench/players.js';
import { startChild, type Child } from '../lib/server-process.js';
import { histogramBuckets, metricValue, scrapeMetrics } from './http.js';
import type { SoakOptions } from './options.js';
import type { Where } from './population.js';
import type { Sample } from './stats.js';

export const ADMIN_TOKEN = 'soak-admin-token-0123456789';
export const SALT = BENCH_SALT;

const MB = 1024 * 1024;

/** Size columns of the table, in order; the JSON has every part. */
export const DISK_COLUMNS = {
  file: ['checkpoint', 'journal', 'oplog', 'idempotency', 'data'],
  pg: ['players', 'sessions', 'idempotency', 'replay_log', 'schema'],
} as const;

/** Bytes under a path (files only; what vanishes while it is walked counts nothing: journals rotate). */
const bytesUnder = async (path: string): Promise<number> => {
  const st = await lstat(path).catch(() => null);
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let sum = 0;
  for (const e of await readdir(path).catch(() => [])) sum += await bytesUnder(join(path, e));
  return sum;
};

/** Which part of the data directory a top-level entry is. */
const partOf = (name: string): string =>
  name === 'checkpoint.json'
    ? 'checkpoint'
    : /^journal.*\.log$/.test(name)
      ? 'journal'
      : name.startsWith('oplog')
        ? 'oplog'
        : name === 'idempotency'
          ? 'idempotency'
          : name === 'players'
            ? 'snapshots'
            : /^keys\./.test(name)
              ? 'keys'
              : 'other';

const fileSizes = async (dir: string): Promise<Record<string, number>> => {
  const out: Record<string, number> = {
    checkpoint: 0,
    journal: 0,
    oplog: 0,
    idempotency: 0,
    snapshots: 0,
    keys: 0,
    other: 0,
    data: 0,
  };
  for (const name of await readdir(dir).catch(() => [])) {
    const b = await bytesUnder(join(dir, name));
    const part = partOf(name);
    out[part] = (out[part] ?? 0) + b / MB;
    out['data'] = (out['data'] ?? 0) + b / MB;
  }
  return out;
};

/** Which column a table's size goes to (claims with the records, the replay log's index with the log, the deltas with the players). */
const columnOf = (table: string): string =>
  table.startsWith('idempotency')
    ? 'idempotency'
    : table.startsWith('replay_log')
      ? 'replay_log'
      : table === 'players' || table === 'player_deltas'
        ? 'players'
        : table === 'sessions'
          ? table
          : 'other';

const pgSizes = async (client: pg.Client, schema: string): Promise<Record<string, number>> => {
  const r = await client.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')`,
    [schema],
  );
  const out: Record<string, number> = { players: 0, sessions: 0, idempotency: 0, replay_log: 0, other: 0, schema: 0 };
  for (const row of r.rows) {
    const mb = Number(row.bytes) / MB;
    const col = columnOf(row.name);
    out[col] = (out[col] ?? 0) + mb;
    out['schema'] = (out['schema'] ?? 0) + mb;
  }
  return out;
};

/** Server log events worth reporting: checkpoints, and every warning or error by its event name with its first line. */
export interface LogCounts {
  checkpoints: number;
  readonly events: Map<string, { count: number; example: string }>;
  /** The end of the running server's stderr (what a crash printed). */
  stderrTail: string;
}

const countLine =
  (counts: LogCounts) =>
  (line: string): void => {
    if (line.includes('"event":"checkpoint"')) counts.checkpoints++;
    const m = /"level":"(warn|error)".*?"event":"([^"]+)"/.exec(line);
    if (m) {
      const k = `${m[1]} ${m[2]}`;
      const e = counts.events.get(k);
      if (e) e.count++;
      else counts.events.set(k, { count: 1, example: line.slice(0, 400) });
    }
  };

export class Stack {
  private constructor(
    readonly where: Where,
    readonly env: Record<string, string>,
    private readonly opts: SoakOptions,
    private readonly pgClient: pg.Client | null,
    readonly logs: LogCounts,
    private readonly log: (line: string) => void,
  ) {}

  child: Child | null = null;
  /** Why the running server exited without being asked to (null while it runs or once asked). */
  died: string | null = null;
  /** Set while the soak itself stops the server: that exit is not a death. */
  private stopping = false;

  static async prepare(opts: SoakOptions, log: (line: string) => void): Promise<Stack> {
    const common = {
      RATE_LIMITS: 'off',
      ADMIN_TOKEN,
      REQUEST_HASH_SALT: SALT,
      LOG_LEVEL: 'notice',
      METRICS: 'on',
      METRICS_TOKEN: '',
      CHECK_ANSWERS: 'false',
    };
    const logs: LogCounts = { checkpoints: 0, events: new Map(), stderrTail: '' };
    if (opts.store === 'file') {
      const dir = await mkdtemp(join(tmpdir(), 'hoshi-soak-'));
      // An inherited DATABASE_URL would send the server to PostgreSQL: empty means unset.
      const env = {
        ...common,
        STORAGE: 'file',
        DATABASE_URL: '',
        DATA_DIR: dir,
        CHECKPOINT_INTERVAL_SECONDS: String(opts.checkpointSeconds),
      };
      return new Stack({ store: 'file', dir }, env, opts, null, logs, log);
    }
    const schema = `hoshi_soak_${Date.now()}`;
    const client = new pg.Client({ connectionString: opts.databaseUrl });
    await client.connect();
    const env = { ...common, DATABASE_URL: opts.databaseUrl, PG_SCHEMA: schema };
    return new Stack({ store: 'pg', url: opts.databaseUrl, schema }, env, opts, client, logs, log);
  }

  /** Starts the server on the store's data; resolves with how long it took to listen (ms). */
  async start(): Promise<number> {
    const t = performance.now();
    this.child = await startChild(this.env, {
      root: this.opts.root,
      onLine: countLine(this.logs),
      startTimeoutMs: 180_000,
    });
    this.logs.stderrTail = '';
    this.died = null;
    this.child.proc.stderr?.on('data', (d: Buffer) => {
      this.logs.stderrTail = (this.logs.stderrTail + d.toString()).slice(-2000);
    });
    // A server that dies under the load shows as errors; this says why at once.
    this.child.proc.once('exit', (code, signal) => {
      if (this.stopping) return;
      this.died = `the server exited by itself (${signal ?? code}): ${this.stderrEnd()}`;
      this.log(this.died);
    });
    return performance.now() - t;
  }

  /** The last lines the server wrote on stderr. */
  stderrEnd(): string {
    return this.logs.stderrTail.trim().split('\n').slice(-3).join(' / ').slice(0, 400);
  }

  /** Stops the server with a signal (SIGKILL: a crash); resolves with its exit code. */
  async stop(signal: NodeJS.Signals): Promise<number | null> {
    this.stopping = true;
    try {
      return (await this.child?.kill(signal)) ?? null;
    } finally {
      this.stopping = false;
    }
  }

  get url(): string {
    if (!this.child) throw new Error('the server is not running');
    return this.child.url;
  }

  /**
   * RSS, heap used and the event-loop lag since the last scrape (prom-client resets its histogram on each).
   * A scrape that fails (a server too busy to answer in 10 s) still gives the RSS, with `failure` saying why.
   */
  async sample(t: number): Promise<{ sample: Sample; failure: string | null }> {
    const [rss, text] = await Promise.all([
      this.readRss(),
      scrapeMetrics(this.url).then(
        (x) => x,
        (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
      ),
    ]);
    if (text instanceof Error)
      return {
        sample: { t, rssMb: rss, heapMb: null, lagP99Ms: null, lagMaxMs: null, lagBuckets: null },
        failure: text.message,
      };
    const ms = (name: string) => {
      const v = metricValue(text, name);
      return v === undefined ? null : v * 1000;
    };
    const heap = metricValue(text, 'nodejs_heap_size_used_bytes');
    return {
      sample: {
        t,
        rssMb: rss,
        heapMb: heap === undefined ? null : heap / MB,
        lagP99Ms: ms('nodejs_eventloop_lag_p99_seconds'),
        lagMaxMs: ms('nodejs_eventloop_lag_max_seconds'),
        lagBuckets: histogramBuckets(text, 'hoshi_event_loop_delay_seconds') ?? null,
      },
      failure: null,
    };
  }

  private async readRss(): Promise<number | null> {
    const pid = this.child?.proc.pid;
    if (pid === undefined) return null;
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
      return m ? Number(m[1]) / 1024 : null;
    } catch {
      return null;
    }
  }

  /** The store's size now (MB), by part. */
  sizes(): Promise<Record<string, number>> {
    return this.where.store === 'file'
      ? fileSizes(this.where.dir)
      : pgSizes(this.pgClient as pg.Client, this.where.schema);
  }

  get columns(): ReadonlyArray<string> {
    return DISK_COLUMNS[this.where.store];
  }

  /** Stops whatever runs and removes the data (unless kept). */
  async cleanup(): Promise<void> {
    this.stopping = true;
    await this.child?.kill('SIGKILL');
    if (this.where.store === 'file') {
      if (!this.opts.keep) await rm(this.where.dir, { recursive: true, force: true });
    } else {
      const c = this.pgClient as pg.Client;
      try {
        if (!this.opts.keep) await c.query(`DROP SCHEMA IF EXISTS "${this.where.schema}" CASCADE`);
      } finally {
        await c.end();
      }
    }
  }
}
