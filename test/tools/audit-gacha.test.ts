// The gacha audit: what box/get publishes against what the draw draws.
import test from 'ava';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { auditGacha, line } from '../../scripts/gacha-audit.js';
import { freshPlayer, master } from '../_support/core.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the band is the two-sided 99.9% normal band of a binomial rate; a rate outside it is flagged', (t) => {
  const inside = line('★5', 0.03, 300, 10_000);
  t.true(inside.inside);
  t.is(inside.band.toFixed(6), (3.2905 * Math.sqrt(0.03 * 0.97 / 10_000)).toFixed(6));
  t.false(line('★5', 0.03, 400, 10_000).inside, '4% observed against 3% published over 10,000 draws');
  t.false(line('★5', 0.03, 200, 10_000).inside);
});

test('every gacha of the fixtures: every rarity, pickup and guaranteed-pull rate lies in its band over 20,000 draws', (t) => {
  const m = master();
  for (const id of m.gacha.keys()) {
    const lines = auditGacha(m, freshPlayer(), id, 20_000, 'test');
    t.true(lines.length >= 3, `gacha ${id} has its rarities audited`);
    for (const l of lines) t.true(l.inside, `gacha ${id} ${l.label}: ${l.observed} vs ${l.published} ± ${l.band}`);
  }
  const pickups = auditGacha(m, freshPlayer(), 3, 1000, 'test').filter((l) => l.label.startsWith('pickup'));
  t.deepEqual(pickups.map((l) => l.label), ['pickup 1011', 'pickup 1012', 'pickup 1022']);
  t.throws(() => auditGacha(m, freshPlayer(), 999, 10, 'x'), { message: /no gacha 999/ });
});

const cliRun = (args: string[]): Promise<{ code: number | null; out: string }> => new Promise((resolve) => {
  const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/audit-gacha.ts', ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  p.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  p.stderr.on('data', (d: Buffer) => { out += d.toString(); });
  p.on('close', (code) => resolve({ code, out }));
});

test('npm run audit:gacha prints the table and exits 0; bad arguments exit 2 with the usage', async (t) => {
  const ok = await cliRun(['--gacha', '3', '--draws', '5000', '--seed', 's']);
  t.is(ok.code, 0, ok.out);
  t.regex(ok.out, /pickup 1011 +1\.5000%/);
  t.regex(ok.out, /all rates inside their 99\.9% bands/);
  const bad = await cliRun(['--draws', '10']);
  t.is(bad.code, 2);
  t.regex(bad.out, /usage: npm run audit:gacha/);
});
