// npm run master:switch -- [--clients N] [--before S] [--after S] (--help for the options)
// The game-data switch under load, measured: two server processes on the local
// PostgreSQL (a fresh schema, dropped after), N clients drawing on both while a
// version with a new price takes effect at a scheduled instant. Exit 0 when every
// answer before the instant charged the old price and every one after it the new
// one, with no failure; 1 otherwise.
import { loadMaster, masterSourceOf } from '../adapters/master/load.js';
import { PostgresStorage } from '../adapters/storage/postgres.js';
import { cli, int, str } from './args.js';
import { runSwitch, type SwitchOptions } from './lib/master-switch.js';
import { startChild } from './lib/server-process.js';

const SPEC = {
  command: 'npm run master:switch --',
  summary:
    'Two server processes on PostgreSQL, clients drawing on both while a new price takes effect at a scheduled instant: checks every answer charged the price in force at its request time, with no failure and no restart.',
  options: {
    clients: {
      type: 'string',
      value: 'N',
      default: '32',
      kind: 'integer',
      min: 1,
      description: 'clients drawing at once',
    },
    before: {
      type: 'string',
      value: 'S',
      default: '10',
      kind: 'integer',
      min: 1,
      description: 'seconds of drawing before the instant',
    },
    after: {
      type: 'string',
      value: 'S',
      default: '10',
      kind: 'integer',
      min: 1,
      description: 'seconds of drawing after it',
    },
    'database-url': {
      type: 'string',
      value: 'URL',
      default: 'postgres://postgres@127.0.0.1:5432/test',
      description: 'the PostgreSQL database (a fresh schema is made and dropped)',
    },
  },
} as const;

cli(SPEC, async (args) => {
  const url = str(args, 'database-url');
  const schema = `hoshi_switch_${process.pid}`;
  const adminToken = 'master-switch-admin-token';
  const env = {
    DATABASE_URL: url,
    PG_SCHEMA: schema,
    ADMIN_TOKEN: adminToken,
    RATE_LIMITS: 'off',
    PG_POOL_SIZE: '8',
    MASTER_POLL_SECONDS: '1',
  };
  const servers = await Promise.all([startChild(env), startChild(env)]);
  try {
    const m = loadMaster();
    const report = await runSwitch({
      servers,
      adminToken,
      clients: int(args, 'clients'),
      beforeSeconds: int(args, 'before'),
      afterSeconds: int(args, 'after'),
      offsetMinutes: m.game.timezoneOffsetMinutes,
      gachas: masterSourceOf(m)?.raw['gachas'] as SwitchOptions['gachas'],
    });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    const ok =
      report.failures === 0 &&
      report.before.wrongPrice === 0 &&
      report.after.wrongPrice === 0 &&
      report.before.draws > 0 &&
      report.after.draws > 0;
    process.stdout.write(ok ? 'every answer charged the price in force at its request time\n' : 'FAILED\n');
    return ok ? 0 : 1;
  } finally {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    await PostgresStorage.dropSchema(url, schema);
  }
});
