// The simulation: the same seed gives byte-identical JSON, the books balance,
// and the CLI writes its summary, JSON and charts.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPlayer } from '../../core/account.js';
import { rngFromSeed } from '../../core/rng.js';
import { loadConfig } from '../../toolkit/sim/config.js';
import { CURRENCIES, simulate } from '../../toolkit/sim/engine.js';
import { currencyChart, drawsChart } from '../../scripts/sim/svg.js';
import { summary } from '../../scripts/sim/report.js';
import { master } from '../_support/core.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const config = loadConfig();
const small = { seed: 's1', players: 24, days: 6 };

test('the same seed gives byte-identical JSON; another seed another result', (t) => {
  const a = JSON.stringify(simulate(master(), config, small));
  const b = JSON.stringify(simulate(master(), config, small));
  t.is(a, b);
  t.not(JSON.stringify(simulate(master(), config, { ...small, seed: 's2' })), a);
});

test('the books balance: what every currency holds at the end is the start plus its sources minus its sinks', (t) => {
  const r = simulate(master(), config, small);
  const start = createPlayer(
    master(),
    { playerId: 1, uuid: 'x', platform: 1, name: 'x', stepCode: 0, tokenHash: '' },
    rngFromSeed('x'),
    0,
  );
  if (start._tag === 'Left') return t.fail();
  const sum = (o: Record<string, number>) => Object.values(o).reduce((x, y) => x + y, 0);
  for (const c of CURRENCIES) {
    const f = r.currency[c];
    t.is(f.heldAtEnd, small.players * start.right[c] + sum(f.sources) - sum(f.sinks), c);
    t.true(f.heldAtEnd >= 0);
  }
  t.is(r.playerDays, small.players * small.days);
  t.is(
    Object.values(r.draws.byRarity).reduce((x, y) => x + y, 0),
    r.draws.total,
  );
  t.is(
    r.fiveStarsOwned.histogram.reduce((x, y) => x + y, 0),
    small.players,
  );
  t.is(
    r.profiles.reduce((x, p) => x + p.players, 0),
    small.players,
  );
  t.is(r.daily.length, small.days);
  t.is(r.drawsToPickup.byDraw + r.drawsToPickup.byPoints + r.drawsToPickup.notYet, r.drawsToPickup.players);
  t.true(r.draws.total > 0 && r.stamina.used > 0 && r.stamina.questsCleared > 0);
  for (const name of [
    'drawPlayerGacha',
    'getPlayerPresent',
    'completePlayerQuestLog',
    'itemUpPlayerTownFacility',
    'ordersPlayerTraining',
    'proposePlayerFriend',
  ]) {
    t.true((r.operations[name]?.ok ?? 0) > 0, `${name} ran`);
  }
  // Profiles behave as configured: the whale buys gems and draws most; the saver keeps its gems.
  const by = new Map(r.profiles.map((p) => [p.name, p]));
  if (by.get('whale')!.players > 0) t.true(by.get('whale')!.drawsPerPlayer > by.get('casual')!.drawsPerPlayer);
  t.is(by.get('saver')!.gemsOnDrawsPerPlayer, 0, 'six days are too few to save up');
  t.regex(summary(r), /Draws to the pickup 1011/);
});

test('charts are plain, well-formed SVG', (t) => {
  const r = simulate(master(), config, small);
  for (const svg of [drawsChart(r), currencyChart(r)]) {
    t.regex(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    t.true(svg.trimEnd().endsWith('</svg>'));
    t.false(svg.includes('NaN') || svg.includes('undefined'));
    t.is((svg.match(/<svg/g) ?? []).length, 1);
  }
});

const cliRun = (args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/sim/index.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    p.on('close', (code) => resolve({ code, out, err }));
  });

test('npm run sim: JSON on stdout, progress on stderr, charts in --out; a bad config is refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-sim-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const r = await cliRun(['--seed', 's1', '--players', '24', '--days', '6', '--json', '--out', dir]);
  t.is(r.code, 0, r.err);
  t.is(r.out, `${JSON.stringify(simulate(master(), config, small), null, 2)}\n`, 'the CLI prints the library result');
  t.regex(r.err, /player-days\/s/);
  t.regex(readFileSync(join(dir, 'draws.svg'), 'utf8'), /Draw outcomes/);
  t.regex(readFileSync(join(dir, 'currency.svg'), 'utf8'), /Gem flow/);
  const text = await cliRun(['--seed', 's1', '--players', '3', '--days', '1']);
  t.regex(text.out, /Currency flows/);
  writeFileSync(
    join(dir, 'bad.json'),
    JSON.stringify({ ...config, profiles: [{ ...config.profiles[0], playChance: 2 }] }),
  );
  const bad = await cliRun(['--seed', 's', '--players', '1', '--days', '1', '--config', join(dir, 'bad.json')]);
  t.is(bad.code, 2);
  t.regex(bad.err, /playChance/);
  const none = await cliRun(['--seed', 's', '--players', '0', '--days', '1']);
  t.is(none.code, 2, 'no players is refused');
  t.regex(none.err, /--players must be an integer of at least 1, got "0"/);
});

test('a profile drawing the re-draw gacha is refused: its further draws are free re-rolls, so drawing while affordable would never end', (t) => {
  const bad = { ...config, profiles: config.profiles.map((p, i) => (i === 0 ? { ...p, gachaId: 1 } : p)) };
  t.throws(() => simulate(master(), bad, small), { message: /gacha 1 is a re-draw gacha/ });
});
