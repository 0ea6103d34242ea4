// The crash harness: a write-heavy workload against a real server process that is
// SIGKILLed at random moments and restarted, checking after every restart that
// every acknowledged write is there and nothing is half-done.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import seedrandom from 'seedrandom';
import { startChild, type Child } from './server-process.js';

export interface CrashReport {
  readonly rounds: number;
  readonly requests: number;
  readonly acknowledged: number;
  readonly failed: number;
  readonly fiveXX: number;
  readonly restarts: number;
  readonly problems: string[];
}

const ADMIN = 'crash-harness-admin';

const post = async (url: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
  const r = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};

/** Runs `rounds` kill-and-restart cycles; the workload is tips (one version each) and gacha draws. */
export const crashLoop = async (
  rounds: number,
  seed = 'crash',
  onRound?: (i: number, r: CrashReport) => void,
  extraEnv: Record<string, string> = {},
): Promise<CrashReport> => {
  const rng = seedrandom.alea(seed);
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-crash-'));
  // With DATABASE_URL in extraEnv the same harness runs against PostgreSQL.
  const env = { DATA_DIR: dir, ADMIN_TOKEN: ADMIN, RATE_LIMITS: 'off', ...extraEnv };
  let server: Child = await startChild(env);
  const players: Array<{ id: number; session: string; acked: Set<number>; tried: Set<number>; next: number }> = [];
  const report = { rounds, requests: 0, acknowledged: 0, failed: 0, fiveXX: 0, restarts: 0, problems: [] as string[] };
  try {
    for (let i = 0; i < 8; i++) {
      const uuid = `c0000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const su = await post(server.url, '/api/player/signup', { uuid, platform: 1 });
      const li = await post(server.url, '/api/player/login', { uuid, accessToken: su.body['accessToken'] });
      players.push({
        id: su.body['playerId'] as number,
        session: li.body['sessionId'] as string,
        acked: new Set(),
        tried: new Set(),
        next: 1,
      });
      await post(
        server.url,
        '/admin/presents',
        {
          playerId: su.body['playerId'],
          grant: { kind: 'gem', objectId: 0, amount: 900_000 },
          title: 'x',
          message: '',
        },
        { Authorization: `Bearer ${ADMIN}` },
      );
    }
    for (let round = 0; round < rounds; round++) {
      let stop = false;
      // The kill comes after a drawn number of acknowledged writes, not after a time: a slow
      // machine gets as many writes in before each kill as a fast one (and others in flight).
      const killAfter = 20 + Math.floor(rng() * 30);
      let ackedThisRound = 0;
      let failedThisRound = 0;
      let reached: () => void = () => {};
      const enough = new Promise<void>((r) => {
        reached = r;
      });
      const writers = players.map(async (p) => {
        while (!stop) {
          const tipId = p.next++;
          p.tried.add(tipId);
          report.requests++;
          try {
            const r = await post(
              server.url,
              '/api/player/tutorial/tip/add',
              { tipId },
              { 'X-STAR-SESSION-ID': p.session },
            );
            if (r.status >= 500) report.fiveXX++;
            if (r.body['resultCode'] === 0) {
              p.acked.add(tipId);
              report.acknowledged++;
              if (++ackedThisRound === killAfter) reached();
            } else {
              report.failed++;
              if (++failedThisRound === 200) reached(); // a server refusing every write still gets its kill
            }
          } catch {
            return; // the server died mid-request: not acknowledged
          }
        }
      });
      await enough;
      await server.kill('SIGKILL');
      stop = true;
      await Promise.all(writers);
      server = await startChild(env);
      report.restarts++;
      for (const p of players) {
        const r = await fetch(`${server.url}/admin/players/${p.id}`, { headers: { Authorization: `Bearer ${ADMIN}` } });
        const state = ((await r.json()) as { state?: { tutorial: { tips: number[] }; version: number } }).state;
        if (!state) {
          report.problems.push(`round ${round}: player ${p.id} missing`);
          continue;
        }
        const tips = new Set(state.tutorial.tips);
        const lost = [...p.acked].filter((x) => !tips.has(x));
        if (lost.length > 0)
          report.problems.push(`round ${round}: player ${p.id} lost acknowledged tips ${lost.slice(0, 5).join(',')}`);
        const unsent = [...tips].filter((x) => !p.tried.has(x));
        if (unsent.length > 0) report.problems.push(`round ${round}: player ${p.id} has tips never sent`);
        // One version per applied write plus the log-in: a half-applied write would break this.
        if (state.version !== tips.size + 2)
          report.problems.push(`round ${round}: player ${p.id} version ${state.version} for ${tips.size} tips`);
        if (tips.size - p.acked.size > round + 1)
          report.problems.push(`round ${round}: player ${p.id} has more unacknowledged writes than crashes`);
      }
      onRound?.(round, { ...report });
    }
    const code = await server.kill('SIGTERM');
    if (code !== 0) report.problems.push(`SIGTERM exit code ${code}`);
    return report;
  } finally {
    await server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
};
