// The gacha audit: what box/get publishes against what the draw operation draws,
// each request seeded as the server seeds it; single draws and whole ten-draws.
import test from 'ava';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { masterFromFiles, masterSourceOf } from '../../adapters/master/load.js';
import { runNamed } from '../../core/operations/table.js';
import { rngFromSeed } from '../../core/rng.js';
import { auditGacha, line, meanLine, requestSeed } from '../../scripts/gacha-audit.js';
import { master } from '../_support/core.js';
import { grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('the band is the two-sided 99.9% normal band of a binomial rate; a rate outside it is flagged', (t) => {
  const inside = line('★5', 0.03, 300, 10_000);
  t.true(inside.inside);
  t.is(inside.band.toFixed(6), (3.2905 * Math.sqrt((0.03 * 0.97) / 10_000)).toFixed(6));
  t.false(line('★5', 0.03, 400, 10_000).inside, '4% observed against 3% published over 10,000 draws');
  t.false(line('★5', 0.03, 200, 10_000).inside);
});

test("a ten-draw rate is a mean over draws: its band comes from the per-draw counts' variance", (t) => {
  // 4 draws of 10 pulls with 0, 1, 2, 1 hits: mean 1 a draw, sample variance 2/3.
  const l = meanLine('★4 per pull', 0.1, 4, 6, 4, 10);
  t.is(l.observed, 0.1);
  t.is(l.band.toFixed(8), ((3.2905 * Math.sqrt(2 / 3 / 4)) / 10).toFixed(8));
  t.true(l.inside);
  t.false(meanLine('★4 per pull', 0.3, 4, 6, 4, 10).inside);
});

test('every gacha of the fixtures: single draws and whole ten-draws lie in their bands (a small run)', (t) => {
  const m = master();
  for (const id of m.gacha.keys()) {
    const a = auditGacha(m, id, { draws: 4000, tenDraws: 800, secret: 'test' });
    t.true(a.lines.filter((l) => l.section === 'single').length >= 3, `gacha ${id} has its rarities audited`);
    for (const l of a.lines)
      t.true(l.inside, `gacha ${id} ${l.section} ${l.label}: ${l.observed} vs ${l.published} ± ${l.band}`);
    const g = m.gacha.get(id)!;
    if (g.limits.perDay !== null && g.limits.perDay < 10) t.deepEqual(a.notes, ['ten-draws refused: GACHA_DRAW_LIMIT']);
    else
      t.true(
        a.lines.some((l) => l.section === 'ten-draw' && l.label === '★5 per pull'),
        `gacha ${id} ten-draws audited`,
      );
    if (g.guaranteeMinRarity !== null && a.notes.length === 0)
      t.true(a.lines.some((l) => l.label === 'guarantee fired'));
  }
  const pickups = auditGacha(m, 3, { draws: 500, tenDraws: 50, secret: 'test' }).lines.filter((l) =>
    l.label.startsWith('pickup'),
  );
  t.deepEqual(
    pickups.map((l) => l.label),
    [
      'pickup 1011',
      'pickup 1012',
      'pickup 1022',
      'pickup 1011 per pull',
      'pickup 1012 per pull',
      'pickup 1022 per pull',
    ],
  );
  t.throws(() => auditGacha(m, 999, { draws: 10, tenDraws: 0, secret: 'x' }), { message: /no gacha 999/ });
});

test('whole ten-draws follow tenDraw, not the single rates: a steep guarantee shows it in 1,000 draws', (t) => {
  // Gacha 2 with ★3 at 95%: the guarantee fires in 0.95^10 ≈ 60% of ten-draws.
  const raw = masterSourceOf(master())!.raw;
  const gachas = (raw['gachas'] as Array<{ gachaId: number; rates: Array<{ rarity: number; weight: number }> }>).map(
    (g) =>
      g.gachaId === 2
        ? {
            ...g,
            rates: [
              { rarity: 5, weight: 10 },
              { rarity: 4, weight: 40 },
              { rarity: 3, weight: 950 },
            ],
          }
        : g,
  );
  const m = masterFromFiles({ ...raw, gachas });
  const a = auditGacha(m, 2, { draws: 0, tenDraws: 1000, secret: 'steep' });
  const four = a.lines.find((l) => l.label === '★4 per pull')!;
  t.true(four.inside, `${four.observed} in tenDraw's ${four.published} ± ${four.band}`);
  t.true(Math.abs(four.observed - 0.04) > 5 * four.band, 'far from the single rate 4%');
  const fired = a.lines.find((l) => l.label === 'guarantee fired')!;
  t.true(Math.abs(fired.published - 0.95 ** 10) < 1e-12);
  t.true(fired.inside, `${fired.observed} vs ${fired.published} ± ${fired.band}`);
  t.true(a.lines.every((l) => l.inside));
});

test('the audit seeds each request as the server does: the same state and version draw what the server drew', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await grant(h, c.playerId, 'gem', 0, 3000);
  await receiveAllHttp(c);
  const before = (await h.storage.load(c.playerId))!;
  const drawn = await c.client.drawPlayerGacha({ gachaId: 3, drawType: 3 });
  if (!drawn.ok) return t.fail(drawn.resultMessage);
  const again = runNamed(
    'drawPlayerGacha',
    before,
    { gachaId: 3, drawType: 3 },
    rngFromSeed(requestSeed('test-seed-secret', c.playerId, before.version)),
    h.clock.now,
    { master: master(), others: [] },
  );
  if (again._tag === 'Left') return t.fail(again.left.code);
  t.deepEqual(
    again.right.response.gachaResults.map((x) => x.characterId),
    drawn.value.gachaResults.map((x) => x.characterId),
  );
});

const cliRun = (args: string[]): Promise<{ code: number | null; out: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/audit-gacha.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.on('close', (code) => resolve({ code, out }));
  });

test('npm run audit:gacha prints the single and ten-draw tables and exits 0; bad arguments exit 2 with the usage', async (t) => {
  const ok = await cliRun(['--gacha', '3', '--draws', '2000', '--ten-draws', '300', '--seed', 's']);
  t.is(ok.code, 0, ok.out);
  t.regex(ok.out, /pickup 1011 +1\.5000%/);
  t.regex(ok.out, /ten-draws, per pull, against box\/get tenDraw/);
  t.regex(ok.out, /★5 per pull +3\.1240%/);
  t.regex(ok.out, /guarantee fired +8\.8858%/);
  t.regex(ok.out, /all rates inside their 99\.9% bands/);
  const bad = await cliRun(['--draws', '10']);
  t.is(bad.code, 2);
  t.regex(bad.out, /usage: npm run audit:gacha/);
});
