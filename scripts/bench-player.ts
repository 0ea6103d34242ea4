// npm run bench:player [-- --draws 20000] (--help for the options)
// One player, many ten-draws (issue 18: a request's cost must not grow with the
// player's history). The real app (Koa, the service, the JSON-file store with its
// journal and checkpoints) in this process, on a fresh data directory; the
// requests one after another over loopback HTTP. Gems are topped up through the
// operator API between draws (not timed). Reports the p50 of the first and the last
// thousand draws (target: last ≤ 1.5× first), the state's size (canonical JSON)
// and its longest lists at the end. A benchmark, not a test: it prints figures.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { createApp } from '../adapters/http/app.js';
import { silentLogger } from '../adapters/http/log.js';
import { loadMaster } from '../adapters/master/load.js';
import { GameService } from '../adapters/service/service.js';
import { FileStorage } from '../adapters/storage/file.js';
import { canonicalJson } from '../adapters/storage/canonical.js';
import type { PlayerState } from '../core/state.js';
import { cli, int, flag } from './args.js';

const SPEC = {
  command: 'npm run bench:player --',
  summary:
    "Many ten-draws on one player through the real app and file store; reports the first and last thousand draws' p50 (target: last ≤ 1.5× first) and the state's size.",
  options: {
    draws: { type: 'string', value: 'N', default: '20000', kind: 'integer', min: 2, description: 'ten-draws to make' },
    window: {
      type: 'string',
      value: 'N',
      default: '1000',
      kind: 'integer',
      min: 1,
      description: 'draws in the first and last windows compared',
    },
    gacha: {
      type: 'string',
      value: 'ID',
      default: '2',
      kind: 'integer',
      description: 'the gacha drawn (one without a daily or total limit)',
    },
    json: { type: 'boolean', description: 'print the figures as JSON' },
  },
} as const;

const p50 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

cli(SPEC, async (args) => {
  const draws = int(args, 'draws');
  const window = Math.min(int(args, 'window'), Math.floor(draws / 2));
  const gachaId = int(args, 'gacha');
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-bench-player-'));
  const master = loadMaster();
  const storage = await FileStorage.open({ dir, idempotencyTtlMs: 86_400_000, clock: () => Date.now() });
  const service = new GameService({
    storage,
    master,
    clock: () => Date.now(),
    seedSecret: 'bench-player-seed',
    newToken: () => randomUUID(),
    sessionIdleMs: 86_400_000,
  });
  const admin = 'bench-player-admin-token';
  const app = createApp(
    service,
    {
      adminToken: admin,
      requestHashSalt: 'bench',
      requestHashRequired: false,
      bodyLimitBytes: 262_144,
      always200: false,
      serverVersion: 1,
    },
    silentLogger,
  );
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return (await res.json()) as Record<string, unknown>;
  };
  try {
    const uuid = randomUUID();
    const su = await call('POST', '/api/player/signup', { uuid, platform: 1, name: 'Bench' });
    const li = await call('POST', '/api/player/login', { uuid, accessToken: su['accessToken'] });
    const playerId = su['playerId'] as number;
    const session = { 'X-STAR-SESSION-ID': li['sessionId'] as string };
    const gemMax = master.game.currencyMax.gem;
    const topUp = async () => {
      const have = ((await storage.load(playerId)) as PlayerState).gem;
      const r = await call(
        'POST',
        '/admin/presents',
        { playerId, grant: { kind: 'gem', objectId: 0, amount: gemMax - have }, title: 'Bench gems', message: '' },
        { Authorization: `Bearer ${admin}` },
      );
      if (r['resultCode'] !== 0) throw new Error(`top-up refused: ${JSON.stringify(r)}`);
      const box = ((await storage.load(playerId)) as PlayerState).presents
        .filter((p) => p.kind === 'gem' && p.title === 'Bench gems')
        .map((p) => p.managedPresentId);
      const got = await call(
        'GET',
        `/api/player/present/get?managedPresentId=${box.join(',')}&stepCode=0`,
        undefined,
        session,
      );
      if (got['resultCode'] !== 0) throw new Error(`receiving the gems failed: ${JSON.stringify(got)}`);
    };
    const ms: number[] = [];
    const codes = new Map<number, number>();
    const started = performance.now();
    for (let i = 0; i < draws; i++) {
      if (((await storage.load(playerId)) as PlayerState).gem < 1500) await topUp();
      const t0 = performance.now();
      const r = await call('POST', '/api/player/gacha/draw', { gachaId, drawType: 3 }, session);
      ms.push(performance.now() - t0);
      const code = r['resultCode'] as number;
      codes.set(code, (codes.get(code) ?? 0) + 1);
      if (code !== 0 && (codes.get(code) ?? 0) === 1)
        process.stderr.write(`draw ${i + 1}: ${code} ${String(r['resultMessage'])}\n`);
      if ((i + 1) % 1000 === 0)
        process.stderr.write(
          `[bench:player] ${i + 1} draws, last thousand p50 ${p50(ms.slice(-1000)).toFixed(2)} ms\n`,
        );
    }
    const total = (performance.now() - started) / 1000;
    const state = (await storage.load(playerId)) as PlayerState;
    const lists = Object.entries(state as unknown as Record<string, unknown>)
      .filter(([, v]) => Array.isArray(v))
      .map(([k, v]) => [k, (v as unknown[]).length] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6);
    const first = p50(ms.slice(0, window));
    const last = p50(ms.slice(-window));
    const figures = {
      draws,
      window,
      seconds: Math.round(total),
      firstP50Ms: Number(first.toFixed(2)),
      lastP50Ms: Number(last.toFixed(2)),
      ratio: Number((last / first).toFixed(2)),
      stateBytes: Buffer.byteLength(canonicalJson(state)),
      lists: Object.fromEntries(lists),
      resultCodes: Object.fromEntries(codes),
    };
    if (flag(args, 'json')) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
    else {
      process.stdout.write(
        [
          `${draws} ten-draws on one player in ${figures.seconds} s (result codes ${JSON.stringify(figures.resultCodes)})`,
          `p50 of the first ${window}: ${figures.firstP50Ms} ms; of the last ${window}: ${figures.lastP50Ms} ms; ratio ${figures.ratio} (target ≤ 1.5)`,
          `state: ${figures.stateBytes} bytes; longest lists: ${lists.map(([k, n]) => `${k} ${n}`).join(', ')}`,
        ].join('\n') + '\n',
      );
    }
    return figures.ratio <= 1.5 ? 0 : 1;
  } finally {
    server.closeAllConnections();
    server.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
