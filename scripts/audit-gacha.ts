// npm run audit:gacha -- (--gacha ID | --all) [--draws N] [--seed S]
// Prints, for every rarity and pickup of the gacha(s), the rate box/get publishes,
// the rate observed over N draws through the core and whether it lies inside the
// 99.9% band (scripts/gacha-audit.ts). Exit status 1 if any lies outside.
import { loadMaster } from '../adapters/master/load.js';
import { createPlayer } from '../core/account.js';
import { rngFromSeed } from '../core/rng.js';
import { cli, int, parseArgs, str } from './args.js';
import { auditGacha, pct } from './gacha-audit.js';

const USAGE = 'usage: npm run audit:gacha -- (--gacha ID | --all) [--draws N (default 1000000)] [--seed S (default audit)]';

cli(USAGE, async () => {
  const args = parseArgs(process.argv.slice(2), ['all']);
  const n = int(args, 'draws', 1_000_000);
  if (n < 1) throw new Error('--draws must be at least 1');
  const seed = str(args, 'seed', 'audit');
  const m = loadMaster();
  const created = createPlayer(m, { playerId: 1, uuid: 'audit', platform: 1, name: 'Audit', stepCode: 0, tokenHash: '' }, rngFromSeed('audit'), Date.UTC(2026, 0, 1));
  if (created._tag === 'Left') throw new Error(created.left.code);
  const ids = args.get('all') === true ? [...m.gacha.keys()].sort((a, b) => a - b) : [int(args, 'gacha')];
  let bad = 0;
  const started = performance.now();
  for (const id of ids) {
    const t0 = performance.now();
    const lines = auditGacha(m, created.right, id, n, seed);
    const name = m.gacha.get(id)?.name ?? '';
    process.stdout.write(`gacha ${id} ${name}: ${n.toLocaleString('en-US')} draws (${Math.round(performance.now() - t0)} ms)\n`);
    process.stdout.write(`  ${'rate'.padEnd(24)} ${'published'.padStart(10)} ${'observed'.padStart(10)} ${'99.9% band'.padStart(11)}\n`);
    for (const l of lines) {
      if (!l.inside) bad++;
      process.stdout.write(`  ${l.label.padEnd(24)} ${pct(l.published).padStart(10)} ${pct(l.observed).padStart(10)} ${`±${pct(l.band)}`.padStart(11)}  ${l.inside ? 'ok' : 'OUTSIDE'}\n`);
    }
  }
  process.stdout.write(`${bad === 0 ? 'all rates inside their 99.9% bands' : `${bad} rate(s) outside their 99.9% band`} (${ids.length} gacha(s), ${Math.round(performance.now() - started)} ms)\n`);
  return bad === 0 ? 0 : 1;
});
