// npm run sim -- --compare-live: a version previewed on the stored players' real states
// (a JSON-file data directory read as files), against the version in force, on the
// same seeds: the same version marks nothing; a doubled price moves draws.
import test from 'ava';
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FileStorage } from '../../adapters/storage/file.js';
import { GameService } from '../../adapters/service/service.js';
import { operationByName } from '../../core/operations/table.js';
import { master } from '../_support/core.js';
import { createPlayer } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import type { PlayerState } from '../../core/state.js';
import { previewLive, previewLiveParallel } from '../../toolkit/sim/live.js';
import { loadConfig } from '../../toolkit/sim/config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const cli = (args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/sim/index.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => resolve({ code, out, err }));
  });

type Report = {
  params: { players: number; seeds: number };
  testing: { tested: number; marked: number };
  rows: Array<{ metric: string; marked: boolean; diff: number }>;
};

test('--compare-live previews a version on the stored players: the same version marks nothing, a price four times higher lowers the draws', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'hoshi-sim-live-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const data = join(tmp, 'data');
  const storage = await FileStorage.open({ dir: data });
  const service = new GameService({
    storage,
    master: master(),
    clock: () => Date.now(),
    seedSecret: 's',
    newToken: () => crypto.randomUUID(),
    sessionIdleMs: 3_600_000,
  });
  for (let i = 0; i < 12; i++) {
    const r = await service.run(operationByName('signupPlayer')!, service.context(), {
      uuid: crypto.randomUUID(),
      platform: 1,
    });
    t.is(r._tag, 'Right');
  }
  await storage.close();
  const dear = join(tmp, 'dear');
  cpSync(join(root, 'fixtures'), dear, { recursive: true });
  type Gacha = { cost: { singleGem: number; tenGem: number; firstTenGem: number | null } };
  const gachas = JSON.parse(readFileSync(join(dear, 'gachas.json'), 'utf8')) as Gacha[];
  const dearer = gachas.map((g) => ({
    ...g,
    cost: {
      ...g.cost,
      singleGem: g.cost.singleGem * 4,
      tenGem: g.cost.tenGem * 4,
      firstTenGem: g.cost.firstTenGem === null ? null : g.cost.firstTenGem * 4,
    },
  }));
  writeFileSync(join(dear, 'gachas.json'), JSON.stringify(dearer));
  const opts = ['--data', data, '--players', '12', '--days', '3', '--seeds', '4', '--json'];
  const same = await cli(['--compare-live', join(root, 'fixtures'), ...opts]);
  t.is(same.code, 0, same.err);
  const s = JSON.parse(same.out) as Report;
  t.is(s.params.players, 12, 'every stored player in the sample');
  t.true(s.testing.tested > 0);
  t.is(s.testing.marked, 0, 'the same version twice: nothing marked');
  t.regex(same.err, /previewed 12 stored players × 3 days × 2 versions × 4 seeds/);
  const priced = await cli(['--compare-live', dear, ...opts]);
  t.is(priced.code, 0, priced.err);
  const p = JSON.parse(priced.out) as Report;
  const draws = p.rows.filter((r) => /draw/i.test(r.metric));
  t.true(
    draws.some((r) => r.diff < 0),
    JSON.stringify(draws.slice(0, 4)),
  );
});

test('the preview split over worker threads gives exactly what one thread gives', async (t) => {
  const m = master();
  const config = loadConfig();
  const states: PlayerState[] = [];
  for (let id = 1; id <= 6; id++) {
    const p = createPlayer(
      m,
      { playerId: id, uuid: `u${id}`, platform: 1, name: `P${id}`, stepCode: 0, tokenHash: '' },
      rngFromSeed(`s${id}`),
      Date.parse(config.start),
    );
    if (p._tag === 'Left') return t.fail(p.left.code);
    states.push(p.right);
  }
  const p = { seed: 'threads', seeds: 3, days: 2, start: Date.parse(config.start) };
  const one = previewLive({ name: 'A', master: m }, { name: 'B', master: m }, config, states, p);
  const two = await previewLiveParallel({ name: 'A', master: m }, { name: 'B', master: m }, config, states, p, 2);
  t.deepEqual(JSON.parse(JSON.stringify(two)), JSON.parse(JSON.stringify(one)));
});
