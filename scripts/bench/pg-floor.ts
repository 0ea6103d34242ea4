// The PostgreSQL side of the bench (issue 17): the floor, what this machine's
// PostgreSQL does for the least a write needs (one transaction updating one row of
// a player's state size, a prepared statement, each client on its own row), and
// CPU time per request of the Node process and of PostgreSQL, read from /proc, so
// a run names its bottleneck instead of guessing it.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks a second of /proc's utime and stime (USER_HZ: 100 on Linux). */
const HZ = 100;

/** A process's CPU, its ended children's, and its parent, from one read of its stat (undefined: it has ended). */
const statOf = (pid: number | string): { cpu: number; children: number; ppid: string } | undefined => {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces), from field 3 on.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(f[i - 3]);
    return { cpu: (n(14) + n(15)) / HZ, children: (n(16) + n(17)) / HZ, ppid: f[1] ?? '' };
  } catch {
    return undefined;
  }
};

const commOf = (pid: string): string => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
};

/**
 * CPU seconds spent so far by every PostgreSQL process: the live ones, plus what the
 * postmaster has reaped of its children that ended (their counts move to it).
 */
export const postgresCpuSeconds = (): number => {
  let total = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || commOf(pid) !== 'postgres') continue;
    const st = statOf(pid);
    if (!st) continue;
    total += st.cpu;
    // The postmaster (its parent is not postgres) holds the ended backends' time. Read from the
    // same stat: a backend that ends between two reads (a pool closing an idle connection) is no error.
    if (st.ppid && commOf(st.ppid) !== 'postgres') total += st.children;
  }
  return total;
};

/** CPU seconds a process has used so far (utime + stime). */
export const processCpuSeconds = (pid: number): number => statOf(pid)?.cpu ?? 0;

export interface CpuSample {
  readonly node: number;
  readonly postgres: number;
  readonly bench: number;
}

/** A CPU reading of the service processes, PostgreSQL and this (the load generator); `since` gives the seconds used in between. */
export const cpuNow = (servicePids: ReadonlyArray<number>): CpuSample => ({
  node: servicePids.reduce((a, p) => a + processCpuSeconds(p), 0),
  postgres: postgresCpuSeconds(),
  bench: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
});
export const cpuSince = (a: CpuSample, b: CpuSample): CpuSample => ({
  node: b.node - a.node,
  postgres: b.postgres - a.postgres,
  bench: b.bench - a.bench,
});

/** `url` with its connections named `app` (pg_stat_activity.application_name): backendsNow finds their backends. */
export const namedUrl = (url: string, app: string): string =>
  `${url}${url.includes('?') ? '&' : '?'}application_name=${encodeURIComponent(app)}`;

/** The backends serving the connections named `app`, each with the CPU seconds it has used so far. */
export const backendsNow = async (url: string, app: string): Promise<Map<number, number>> => {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [app]);
    return new Map(r.rows.map((x) => [x.pid, processCpuSeconds(x.pid)]));
  } finally {
    await c.end();
  }
};

/**
 * CPU seconds the backends named in `b` used since `a`: a backend that started in between
 * counts from its start; one that ended in between is lost (the pools keep theirs open).
 * What the bench's own connections cost PostgreSQL, where postgresCpuSeconds counts every
 * PostgreSQL process on the machine (other databases' work included, and the WAL writer,
 * checkpointer and autovacuum that serve every connection).
 */
export const backendsSince = (a: Map<number, number>, b: Map<number, number>): number => {
  let total = 0;
  for (const [pid, cpu] of b) total += cpu - (a.get(pid) ?? 0);
  return total;
};

export interface FloorFigures {
  readonly tps: number;
  readonly p50: number;
  readonly p99: number;
  /** PostgreSQL CPU a transaction: the floor's own backends. */
  readonly pgCpuUs: number;
  /** PostgreSQL CPU a transaction: every PostgreSQL process on the machine. */
  readonly pgAllCpuUs: number;
  readonly benchCpuUs: number;
}

/**
 * The floor: `clients` connections, each updating its own row of `state` (the bench
 * player's JSON) in a one-statement transaction, as a prepared statement, for `seconds`.
 * `column`: json (what hoshi stores) or jsonb (what it stored before issue 17).
 */
export const pgFloor = async (
  url: string,
  schema: string,
  state: string,
  opts: { clients: number; seconds: number; column: 'json' | 'jsonb'; compression?: 'pglz' | 'lz4' },
): Promise<FloorFigures> => {
  const table = `${schema}.floor_${opts.column}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.query(
    `CREATE TABLE ${table} (id int PRIMARY KEY, version bigint NOT NULL, state ${opts.column} ${opts.compression ? `COMPRESSION ${opts.compression}` : ''} NOT NULL)`,
  );
  await admin.query(`INSERT INTO ${table} SELECT g, 0, $1::${opts.column} FROM generate_series(1, $2) g`, [
    state,
    opts.clients,
  ]);
  const app = `hoshi-bench-floor-${process.pid}`;
  const clients = await Promise.all(
    Array.from({ length: opts.clients }, async () => {
      const c = new pg.Client({ connectionString: namedUrl(url, app) });
      await c.connect();
      return c;
    }),
  );
  const latencies: number[] = [];
  let done = 0;
  const update = {
    name: `floor-${opts.column}-${opts.compression ?? 'default'}`,
    text: `UPDATE ${table} SET version = version + 1, state = $2 WHERE id = $1`,
  };
  // Each client's state differs a little from write to write, as a player's does.
  const texts = [state, state.replace(/"version":\d+/, '"version":1')];
  const cpu0 = cpuNow([]);
  const backends0 = await backendsNow(url, app);
  const t0 = performance.now();
  const end = t0 + opts.seconds * 1000;
  await Promise.all(
    clients.map(async (c, i) => {
      while (performance.now() < end) {
        const s = performance.now();
        await c.query({ ...update, values: [i + 1, texts[done % 2]] });
        latencies.push(performance.now() - s);
        done++;
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = cpuSince(cpu0, cpuNow([]));
  const backends = backendsSince(backends0, await backendsNow(url, app));
  await Promise.all(clients.map((c) => c.end()));
  await admin.query(`DROP TABLE IF EXISTS ${table}`);
  await admin.end();
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return {
    tps: done / seconds,
    p50: at(0.5),
    p99: at(0.99),
    pgCpuUs: (backends / done) * 1e6,
    pgAllCpuUs: (cpu.postgres / done) * 1e6,
    benchCpuUs: (cpu.bench / done) * 1e6,
  };
};
