// The scripts' command lines, parsed by node:util's parseArgs from one table of
// options: each option's meaning and default make the usage that --help prints;
// an unknown option, a missing value or a bad number is an error (exit 2, with
// the usage, no stack trace). `--name value` and `--name=value` both work. A
// number option declares its kind, so a bad value is refused while parsing:
// before a top-level script has started anything.
import { parseArgs } from 'node:util';

export interface OptionSpec {
  /** A flag, or an option that takes a value. */
  readonly type: 'boolean' | 'string';
  /** What it does, for --help. */
  readonly description: string;
  /** The default, applied when the option is absent and shown by --help. */
  readonly default?: string;
  /** A default that is not a plain value (the bundled fixtures): shown by --help only, the script applies it. */
  readonly defaultText?: string;
  /** The value's name in the usage line (`--seed S`). */
  readonly value?: string;
  readonly required?: boolean;
  /** A number: `integer` or any finite `number`; checked by parse (the default too), so a bad value is a usage error. */
  readonly kind?: 'integer' | 'number';
  /** With `kind`: the least value taken (default 0). */
  readonly min?: number;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface CommandSpec {
  /** How it is run: `npm run sim --`. */
  readonly command: string;
  /** One or two sentences: what the script does. */
  readonly summary: string;
  readonly options: OptionTable;
  /** Positional arguments, named for the usage line (`<module.ts>`); none are accepted when absent. */
  readonly positionals?: string;
}

/** A bad command line: the message, then the usage, on stderr; exit status 2. */
export class UsageError extends Error {}

export interface Parsed {
  readonly values: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: ReadonlyArray<string>;
}

const HELP: OptionSpec = { type: 'boolean', description: 'print this help and exit' };

/** The usage text --help prints: the command line, what it does, each option with its meaning and default. */
export const usage = (spec: CommandSpec): string => {
  const options = { ...spec.options, help: HELP };
  const line = Object.entries(spec.options).map(([name, o]) => {
    const part = o.type === 'boolean' ? `--${name}` : `--${name} ${o.value ?? 'VALUE'}`;
    return o.required ? part : `[${part}]`;
  });
  const rows = Object.entries(options).map(([name, o]) => {
    const left = o.type === 'boolean' ? `--${name}` : `--${name} ${o.value ?? 'VALUE'}`;
    const shown = o.default ?? o.defaultText;
    const dflt = shown !== undefined ? ` (default: ${shown})` : o.required ? ' (required)' : '';
    return [left, `${o.description}${dflt}`] as const;
  });
  const width = Math.max(...rows.map(([l]) => l.length));
  return [
    `usage: ${spec.command} ${[...(spec.positionals ? [spec.positionals] : []), ...line].join(' ')}`.trimEnd(),
    '',
    spec.summary,
    '',
    'options:',
    ...rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`),
  ].join('\n');
};

/**
 * Parses `argv` against the table: throws UsageError for an unknown option, a
 * flag given a value, an option without one, a missing required option or a
 * positional argument the script does not take. `--help` is answered by `cli`.
 */
export const parse = (spec: CommandSpec, argv: ReadonlyArray<string>): Parsed => {
  let r: ReturnType<typeof parseArgs>;
  try {
    r = parseArgs({
      args: [...argv],
      options: Object.fromEntries(
        [...Object.entries(spec.options), ['help', HELP] as const].map(([name, o]) => [name, { type: o.type }]),
      ),
      strict: true,
      allowPositionals: spec.positionals !== undefined,
    });
  } catch (e) {
    // node:util's messages name the option ("Unknown option '--x'"); the prefix and hint are its own.
    const msg = (e instanceof Error ? e.message : String(e))
      .replace(/\. To specify a positional argument.*$/s, '.')
      .replace(/^Option '(--[\w-]+) <value>' argument missing$/, '$1 needs a value');
    throw new UsageError(msg);
  }
  const values = r.values as Record<string, string | boolean | undefined>;
  if (values['help'] === true) return { values, positionals: r.positionals };
  for (const [name, o] of Object.entries(spec.options)) {
    if (o.required && values[name] === undefined) throw new UsageError(`--${name} is required`);
    if (values[name] === undefined && o.default !== undefined && o.type === 'string') values[name] = o.default;
    const v = values[name];
    if (o.kind !== undefined && typeof v === 'string') checkNumber(name, v, o.kind, o.min ?? 0);
  }
  return { values, positionals: r.positionals };
};

/** A number option's value, or a UsageError naming the option, what it takes and what it got. */
const checkNumber = (name: string, v: string | undefined, kind: 'integer' | 'number', min: number): number => {
  if (v === undefined) throw new UsageError(`--${name} needs a value`);
  const n = Number(v);
  const ok = v.trim() !== '' && (kind === 'integer' ? Number.isSafeInteger(n) : Number.isFinite(n)) && n >= min;
  const what = `${kind === 'integer' ? 'an integer' : 'a number'}${Number.isFinite(min) ? ` of at least ${min}` : ''}`;
  if (!ok) throw new UsageError(`--${name} must be ${what}, got ${JSON.stringify(v)}`);
  return n;
};

/** An option's value as a string (its default when absent; `fallback` when it has none). */
export const str = (p: Parsed, name: string, fallback?: string): string => {
  const v = p.values[name];
  if (typeof v === 'string') return v;
  if (fallback !== undefined) return fallback;
  throw new UsageError(`--${name} is required`);
};

/** An option's value as an integer of at least `min` (default 0); `fallback` when absent. */
export const int = (p: Parsed, name: string, fallback?: number, min = 0): number => {
  const v = p.values[name];
  if (v === undefined && fallback !== undefined) return fallback;
  return checkNumber(name, typeof v === 'string' ? v : undefined, 'integer', min);
};

/** An option's value as a finite number (at least `min` when given); `fallback` when absent. */
export const num = (p: Parsed, name: string, fallback?: number, min = -Infinity): number => {
  const v = p.values[name];
  if (v === undefined && fallback !== undefined) return fallback;
  return checkNumber(name, typeof v === 'string' ? v : undefined, 'number', min);
};

export const flag = (p: Parsed, name: string): boolean => p.values[name] === true;

/**
 * Parses the command line (exit 2 with the usage when it is wrong; the usage on
 * stdout and exit 0 for --help), then runs `main` with it. A UsageError thrown by
 * main (a bad value) is a usage error too; any other error exits 2 with its message.
 */
export const cli = (
  spec: CommandSpec,
  main: (args: Parsed) => Promise<number> | number,
  /** The exit status of an error other than a usage error (its message printed alone): 2 unless a script says. */
  options: { readonly errorExit?: number } = {},
): void => {
  const fail = (e: unknown) => {
    process.stderr.write(
      `${e instanceof Error ? e.message : String(e)}\n${e instanceof UsageError ? `\n${usage(spec)}\n` : ''}`,
    );
    process.exitCode = e instanceof UsageError ? 2 : (options.errorExit ?? 2);
  };
  let args: Parsed;
  try {
    args = parse(spec, process.argv.slice(2));
  } catch (e) {
    fail(e);
    return;
  }
  if (args.values['help'] === true) {
    process.stdout.write(`${usage(spec)}\n`);
    return;
  }
  Promise.resolve()
    .then(() => main(args))
    .then((code) => {
      process.exitCode = code;
    }, fail);
};

/**
 * For a script that runs at the top level (no main to hand to `cli`): parses and
 * answers --help or a bad command line by exiting; returns the arguments.
 */
export const cliArgs = (spec: CommandSpec): Parsed => {
  try {
    const args = parse(spec, process.argv.slice(2));
    if (args.values['help'] === true) {
      process.stdout.write(`${usage(spec)}\n`);
      process.exit(0);
    }
    return args;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n\n${usage(spec)}\n`);
    process.exit(2);
  }
};
