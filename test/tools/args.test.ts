// The scripts' command lines (scripts/args.ts over node:util parseArgs): --help
// prints each option with its meaning and default and exits 0; an unknown option,
// a missing value or a missing required option exits 2 with the usage.
import test from 'ava';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { int, parse, usage, UsageError, type CommandSpec } from '../../scripts/args.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const SPEC: CommandSpec = {
  command: 'npm run thing --',
  summary: 'Does a thing.',
  options: {
    seed: { type: 'string', value: 'S', required: true, description: 'the seed' },
    draws: { type: 'string', value: 'N', default: '1000', description: 'how many' },
    json: { type: 'boolean', description: 'JSON out' },
  },
};

test('parse: --name value and --name=value, defaults, flags; errors are UsageErrors', (t) => {
  const p = parse(SPEC, ['--seed', 's', '--json']);
  t.deepEqual({ ...p.values }, { seed: 's', json: true, draws: '1000' });
  t.is(int(parse(SPEC, ['--seed=x', '--draws=12']), 'draws'), 12);
  t.throws(() => parse(SPEC, ['--seed', 's', '--bogus']), {
    instanceOf: UsageError,
    message: /Unknown option '--bogus'/,
  });
  t.throws(() => parse(SPEC, ['--seed']), { instanceOf: UsageError, message: /argument missing/ });
  t.throws(() => parse(SPEC, ['--draws', '3']), { instanceOf: UsageError, message: '--seed is required' });
  t.throws(() => parse(SPEC, ['--seed', 's', 'extra']), {
    instanceOf: UsageError,
    message: /Unexpected argument 'extra'/,
  });
  t.throws(() => int(parse(SPEC, ['--seed', 's', '--draws', 'many']), 'draws'), {
    instanceOf: UsageError,
    message: /--draws must be a non-negative integer/,
  });
  t.is(parse(SPEC, ['--help']).values['help'], true, '--help needs nothing else');
});

test('usage: the command line, the summary, each option with its meaning and default', (t) => {
  t.is(
    usage(SPEC),
    [
      'usage: npm run thing -- --seed S [--draws N] [--json]',
      '',
      'Does a thing.',
      '',
      'options:',
      '  --seed S   the seed (required)',
      '  --draws N  how many (default: 1000)',
      '  --json     JSON out',
      '  --help     print this help and exit',
    ].join('\n'),
  );
});

const cliRun = (script: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DATA_DIR: '', ROUNDS: '', SEED: '' },
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

test('npm run sim, audit:gacha, replay, reliability, master and master:switch: --help exits 0 with the options; an unknown option exits 2', async (t) => {
  const scripts: Array<[string, RegExp]> = [
    ['scripts/sim/index.ts', /--json +print the whole result as JSON/],
    ['scripts/audit-gacha.ts', /--seed S +.*\(default: audit\)/],
    ['scripts/replay.ts', /--data DIR +.*\(default: \.\/data\)/],
    ['scripts/reliability.ts', /--rounds N +crashes .*\(default: 20\)/],
    ['scripts/master.ts', /--at TIME +schedule the version published/],
    ['scripts/master-switch.ts', /--clients N +clients drawing at once \(default: 32\)/],
  ];
  for (const [script, option] of scripts) {
    const help = await cliRun(script, ['--help']);
    t.is(help.code, 0, `${script} --help: ${help.err}`);
    t.regex(help.out, /^usage: npm run /, script);
    t.regex(help.out, option, script);
    t.regex(help.out, /--help +print this help and exit/, script);
    const bad = await cliRun(script, ['--no-such-option']);
    t.is(bad.code, 2, script);
    t.regex(bad.err, /Unknown option '--no-such-option'/, script);
    t.regex(bad.err, /usage: npm run /, script);
  }
});
