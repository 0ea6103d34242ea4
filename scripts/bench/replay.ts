// npm run bench:replay [-- --entries 15000 --others 40] (--help for the options)
// Issue 20: replaying one heavy player must read only what touched that player.
// Makes a JSON-file data directory through the real service and store (no HTTP):
// one heavy player with about `entries` log entries (ten-draws, the operator's gem
// top-ups and their receipts, friend requests to and from the others) among
// `others` players who draw too. Then runs `npm run replay -- --player` on it as a
// child process, as an operator would, for the heavy player and for a light one (the
// first to befriend it: its replay needs the heavy player's entries up to then), and
// reports the wall time, CPU and peak resident set (the child prints the last two).
// A benchmark, not a test: it prints figures.
// `--data DIR` keeps the directory (made once, reused when it holds a journal).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadMaster, writeMasterSnapshot } from '../../adapters/master/load.js';
import { GameService } from '../../adapters/service/service.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { operationByName } from '../../core/operations/table.js';
import type { PlayerState } from '../../core/state.js';
import { cli, int, str } from '../args.js';

const SPEC = {
  command: 'npm run bench:replay --',
  summary:
    'Makes a data directory with one heavy player (about N log entries) among other players, then times `npm run replay -- --player` on it (wall time and peak resident set).',
  options: {
    entries: {
      type: 'string',
      value: 'N',
      default: '15000',
      kind: 'integer',
      min: 1,
      description: 'log entries of the heavy player',
    },
    others: {
      type: 'string',
      value: 'N',
      default: '40',
      kind: 'integer',
      description: 'other players (each draws, and some befriend the heavy one)',
    },
    data: {
      type: 'string',
      value: 'DIR',
      description: 'keep the data directory here (reused when it already holds data); default a temporary one, removed',
    },
  },
} as const;

const root = fileURLToPath(new URL('../../', import.meta.url));
const GACHA = 2;

const op = (name: string) => {
  const o = operationByName(name);
  if (!o) throw new Error(`no operation ${name}`);
  return o;
};

interface Made {
  readonly heavy: number;
  readonly light: number;
  readonly logEntries: number;
}

/** Makes the data: returns the heavy player's id, a light one's and the log's length. */
const makeData = async (dir: string, entries: number, others: number): Promise<Made> => {
  const master = loadMaster();
  writeMasterSnapshot(dir, master);
  const storage = await FileStorage.open({ dir });
  // A clock of its own: a second an operation, so the data is the same on every run.
  let now = Date.UTC(2026, 10, 1);
  let tokens = 0;
  const service = new GameService({
    storage,
    master,
    clock: () => now,
    seedSecret: 'bench-replay-seed',
    sessionIdleMs: 30 * 86_400_000,
    newToken: () => `00000000-0000-4000-8000-${String(++tokens).padStart(12, '0')}`,
  });
  const must = async (name: string, input: unknown, session?: string): Promise<Record<string, unknown>> => {
    now += 1000;
    const r = await service.run(op(name), service.context(session === undefined ? {} : { session }), input);
    if (r._tag === 'Left') throw new Error(`${name}: ${r.left.code}`);
    return r.right;
  };
  const join_ = async (name: string): Promise<{ id: number; session: string }> => {
    const uuid = `0b0b0b0b-0000-4000-8000-${String(++tokens).padStart(12, '0')}`;
    const su = await must('signupPlayer', { uuid, platform: 1, name });
    const li = await must('loginPlayer', { uuid, accessToken: su['accessToken'] });
    return { id: su['playerId'] as number, session: li['sessionId'] as string };
  };
  const crowd: Array<{ id: number; session: string }> = [];
  for (let i = 0; i < others; i++) crowd.push(await join_(`Other ${i + 1}`));
  const heavy = await join_('Heavy');
  const gemMax = master.game.currencyMax.gem;
  const topUp = async (p: { id: number; session: string }) => {
    const have = ((await storage.load(p.id)) as PlayerState).gem;
    now += 1000;
    const sent = await service.operator.sendPresents(
      p.id,
      { kind: 'gem', objectId: 0, amount: gemMax - have },
      { title: 'Bench gems', message: '', deadline: null },
      service.context(),
    );
    if (sent._tag === 'Left') throw new Error(`top-up: ${sent.left.code}`);
    const box = ((await storage.load(p.id)) as PlayerState).presents
      .filter((x) => x.title === 'Bench gems')
      .map((x) => x.managedPresentId);
    await must('getPlayerPresent', { managedPresentId: box }, p.session);
  };
  const draw = async (p: { id: number; session: string }) => {
    if (((await storage.load(p.id)) as PlayerState).gem < 1500) await topUp(p);
    await must('drawPlayerGacha', { gachaId: GACHA, drawType: 3 }, p.session);
  };
  const heavyEntries = async () => (await storage.readLog({ players: [heavy.id] })).length;
  let step = 0;
  let friends = 0;
  for (let n = await heavyEntries(); n < entries; n = step % 500 === 0 ? await heavyEntries() : n + 1) {
    step++;
    await draw(heavy);
    // The others: one draws every few steps; every 100 steps one becomes a friend (two entries of both).
    if (step % 4 === 0 && crowd.length > 0) await draw(crowd[step % crowd.length]!);
    if (step % 100 === 0 && friends < crowd.length && friends < 30) {
      const o = crowd[friends++]!;
      await must('proposePlayerFriend', { playerId: heavy.id }, o.session);
      await must('acceptPlayerFriend', { playerId: o.id }, heavy.session);
    }
    if (step % 1000 === 0) process.stderr.write(`[bench:replay] ${step} steps\n`);
  }
  const logEntries = (await storage.readLog()).length;
  await storage.close();
  return { heavy: heavy.id, light: crowd[0]?.id ?? heavy.id, logEntries };
};

/** Runs the replay CLI on the directory: its exit status, output, and wall time. */
const replay = (dir: string, player: number): Promise<{ code: number | null; out: string; seconds: number }> =>
  new Promise((done) => {
    const started = performance.now();
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/replay.ts', '--player', String(player), '--data', dir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.on('close', (code) => done({ code, out, seconds: (performance.now() - started) / 1000 }));
  });

cli(SPEC, async (args) => {
  const entries = int(args, 'entries');
  const others = int(args, 'others');
  const kept = str(args, 'data', '');
  const dir = kept === '' ? mkdtempSync(join(tmpdir(), 'hoshi-bench-replay-')) : resolve(kept);
  const about = join(dir, 'bench-replay.json');
  try {
    let made: Made;
    if (existsSync(about)) {
      made = JSON.parse(readFileSync(about, 'utf8')) as typeof made;
      process.stderr.write(`[bench:replay] reusing ${dir}\n`);
    } else {
      mkdirSync(dir, { recursive: true });
      const started = performance.now();
      made = await makeData(dir, entries, others);
      writeFileSync(about, `${JSON.stringify(made)}\n`);
      process.stderr.write(
        `[bench:replay] made ${made.logEntries} log entries in ${Math.round((performance.now() - started) / 1000)} s\n`,
      );
    }
    let code = 0;
    for (const [what, id] of [
      ['heavy', made.heavy],
      ['light', made.light],
    ] as const) {
      const r = await replay(dir, id);
      process.stdout.write(r.out);
      process.stdout.write(
        `${what} player ${id} (of ${made.logEntries} log entries in all): ${r.seconds.toFixed(1)} s wall, exit ${r.code}\n`,
      );
      code = Math.max(code, r.code ?? 1);
    }
    return code;
  } finally {
    if (kept === '') rmSync(dir, { recursive: true, force: true });
  }
});
