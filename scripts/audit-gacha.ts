// npm run audit:gacha -- (--gacha ID | --all) [--draws N] [--ten-draws N] [--seed S] [--master DIR] (--help for the options)
// Draws through the draw operation as the server runs it (a fresh seed per request,
// derived as the server derives it) and prints, for every rarity and pickup of the
// gacha(s), the rate box/get publishes, the rate observed and whether it lies inside
// the 99.9% band: single draws against the per-pull rates, whole ten-draws against
// tenDraw's effective rates and guarantee probability, and the guarantee's own table
// (scripts/gacha-audit.ts). Exit status 1 if any lies outside.
import { resolve } from 'node:path';
import { loadMaster } from '../adapters/master/load.js';
import { formatTime } from '../core/time.js';
import { cli, flag, int, str, UsageError } from './args.js';
import { auditGacha, pct, type Section } from './gacha-audit.js';

const SPEC = {
  command: 'npm run audit:gacha --',
  summary:
    "Draws a gacha through the draw operation, each request with a seed derived as the server derives it, and prints for each rarity and pickup the rate box/get publishes, the rate observed and whether it lies inside its 99.9% band: single draws, whole ten-draws (effective rates and the guarantee) and the guarantee's own table (exit 1 if any is outside). Give --gacha or --all.",
  options: {
    gacha: { type: 'string', value: 'ID', kind: 'integer', description: 'the gacha to audit' },
    all: { type: 'boolean', description: 'audit every gacha of the master data' },
    draws: {
      type: 'string',
      value: 'N',
      default: '200000',
      kind: 'integer',
      min: 1,
      description: "single draws per gacha (and pulls of the guarantee's table)",
    },
    'ten-draws': {
      type: 'string',
      value: 'N',
      default: '100000',
      kind: 'integer',
      min: 1,
      description: 'ten-draws per gacha',
    },
    seed: {
      type: 'string',
      value: 'S',
      default: 'audit',
      description:
        "the seed secret requests' seeds derive from, as the server's SEED_SECRET (the same secret gives the same table)",
    },
    master: {
      type: 'string',
      value: 'DIR',
      defaultText: 'the bundled fixtures/',
      description: 'another master-data directory',
    },
  },
} as const;

const TITLE: Record<Section, string> = {
  single: 'single draws, against box/get rarityRates and pickups',
  'ten-draw': 'ten-draws, per pull, against box/get tenDraw',
  guarantee: "the guarantee's table (the redrawn pull), against box/get guarantee",
};

cli(SPEC, async (args) => {
  const draws = int(args, 'draws');
  const tenDraws = int(args, 'ten-draws');
  if (draws + tenDraws < 1) throw new UsageError('--draws or --ten-draws must be at least 1');
  if (flag(args, 'all') === (args.values['gacha'] !== undefined))
    throw new UsageError('give either --gacha ID or --all');
  const secret = str(args, 'seed', 'audit');
  const dir = args.values['master'];
  const m = loadMaster(typeof dir === 'string' ? resolve(dir) : undefined);
  const ids = flag(args, 'all') ? [...m.gacha.keys()].sort((a, b) => a - b) : [int(args, 'gacha')];
  let bad = 0;
  const started = performance.now();
  for (const id of ids) {
    const t0 = performance.now();
    const a = auditGacha(m, id, { draws, tenDraws, secret });
    process.stdout.write(
      `gacha ${id} ${a.name}: ${draws.toLocaleString('en-US')} single draws, ${tenDraws.toLocaleString('en-US')} ten-draws at ${formatTime(a.at, m.game.timezoneOffsetMinutes)} (${Math.round(performance.now() - t0)} ms)\n`,
    );
    for (const note of a.notes) process.stdout.write(`  (${note})\n`);
    for (const section of ['single', 'ten-draw', 'guarantee'] as const) {
      const lines = a.lines.filter((l) => l.section === section);
      if (lines.length === 0) continue;
      process.stdout.write(`  ${TITLE[section]}\n`);
      process.stdout.write(
        `    ${'rate'.padEnd(24)} ${'published'.padStart(10)} ${'observed'.padStart(10)} ${'99.9% band'.padStart(11)}\n`,
      );
      for (const l of lines) {
        if (!l.inside) bad++;
        process.stdout.write(
          `    ${l.label.padEnd(24)} ${pct(l.published).padStart(10)} ${pct(l.observed).padStart(10)} ${`±${pct(l.band)}`.padStart(11)}  ${l.inside ? 'ok' : 'OUTSIDE'}\n`,
        );
      }
    }
  }
  process.stdout.write(
    `${bad === 0 ? 'all rates inside their 99.9% bands' : `${bad} rate(s) outside their 99.9% band`} (${ids.length} gacha(s), ${Math.round(performance.now() - started)} ms)\n`,
  );
  return bad === 0 ? 0 : 1;
});
