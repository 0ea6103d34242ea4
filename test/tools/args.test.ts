// The scripts' command lines (scripts/args.ts over node:util parseArgs): --help
// prints each option with its meaning and default and exits 0; an unknown option,
// a missing value, a bad number or a missing required option exits 2 with the
// usage. Each script spawned: scripts-cli.test.ts.
import test from 'ava';
import { int, num, parse, usage, UsageError, type CommandSpec } from '../../scripts/args.js';

const SPEC: CommandSpec = {
  command: 'npm run thing --',
  summary: 'Does a thing.',
  options: {
    seed: { type: 'string', value: 'S', required: true, description: 'the seed' },
    draws: { type: 'string', value: 'N', default: '1000', kind: 'integer', min: 1, description: 'how many' },
    rate: { type: 'string', value: 'R', kind: 'number', description: 'how fast' },
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
  t.throws(() => parse(SPEC, ['--seed']), { instanceOf: UsageError, message: '--seed needs a value' });
  t.throws(() => parse(SPEC, ['--draws', '3']), { instanceOf: UsageError, message: '--seed is required' });
  t.throws(() => parse(SPEC, ['--seed', 's', 'extra']), {
    instanceOf: UsageError,
    message: /Unexpected argument 'extra'/,
  });
  t.throws(() => parse(SPEC, ['--seed', 's', '--draws', 'many']), {
    instanceOf: UsageError,
    message: '--draws must be an integer of at least 1, got "many"',
  });
  t.throws(() => parse(SPEC, ['--seed', 's', '--draws', '0']), {
    instanceOf: UsageError,
    message: '--draws must be an integer of at least 1, got "0"',
  });
  t.throws(() => parse(SPEC, ['--seed', 's', '--rate', '1e']), {
    instanceOf: UsageError,
    message: '--rate must be a number of at least 0, got "1e"',
  });
  t.is(num(parse(SPEC, ['--seed', 's', '--rate', '2.5']), 'rate'), 2.5);
  // An option with no default asked for its value: the message names it (not "got null").
  t.throws(() => int(parse(SPEC, ['--seed', 's']), 'rate'), {
    instanceOf: UsageError,
    message: '--rate needs a value',
  });
  t.throws(() => int({ values: { n: '-1' }, positionals: [] }, 'n'), {
    instanceOf: UsageError,
    message: '--n must be an integer of at least 0, got "-1"',
  });
  t.is(parse(SPEC, ['--help']).values['help'], true, '--help needs nothing else');
});

test('usage: the command line, the summary, each option with its meaning and default', (t) => {
  t.is(
    usage(SPEC),
    [
      'usage: npm run thing -- --seed S [--draws N] [--rate R] [--json]',
      '',
      'Does a thing.',
      '',
      'options:',
      '  --seed S   the seed (required)',
      '  --draws N  how many (default: 1000)',
      '  --rate R   how fast',
      '  --json     JSON out',
      '  --help     print this help and exit',
    ].join('\n'),
  );
});
