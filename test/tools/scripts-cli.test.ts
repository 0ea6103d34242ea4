// Every npm script's command line, spawned as npm runs it (issue 33): --help prints
// the usage and exits 0 (the server too, without starting); a bad argument, a bad
// number or a missing value exits 2 with a message naming the option and the usage,
// never a stack trace; `--rounds 0` is refused; a plain `npm run sim` (as the README
// writes it) runs.
import test from 'ava';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

/** Runs a file as its npm script does (tsx, or node for .mjs); killed after `ms` so a script ignoring --help cannot hang the test. */
const runScript = (file: string, args: ReadonlyArray<string>, ms = 60_000): Promise<Ran> =>
  new Promise((resolve) => {
    const node = file.endsWith('.mjs') ? [file] : ['--import', 'tsx', file];
    const p = spawn(process.execPath, [...node, ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      // The environment's defaults (ROUNDS, N, ...) are the scripts' own, not the caller's.
      env: { ...process.env, ROUNDS: '', SEED: '', N: '', DATA_DIR: '' },
    });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const timer = setTimeout(() => p.kill('SIGKILL'), ms);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });

/** At most AT_ONCE children at a time across this file's tests: dozens of tsx start-ups together starve each other. */
const AT_ONCE = Math.max(1, Math.min(4, availableParallelism() - 1));
let running = 0;
const waiting: Array<() => void> = [];
const limited = async <T>(f: () => Promise<T>): Promise<T> => {
  if (running >= AT_ONCE) await new Promise<void>((go) => waiting.push(go));
  running++;
  try {
    return await f();
  } finally {
    running--;
    waiting.shift()?.();
  }
};
const spawnLimited = (file: string, args: ReadonlyArray<string>): Promise<Ran> => limited(() => runScript(file, args));

/** Each npm script that runs a file of the repository (tsx FILE, node FILE), by name. */
const scripts = (): Array<[string, string]> => {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { scripts: Record<string, string> };
  return Object.entries(pkg.scripts).flatMap(([name, command]): Array<[string, string]> => {
    const m = /^(?:exec )?(?:tsx|node) ((?:scripts|examples|adapters|dist)\/\S+)$/.exec(command);
    if (!m) return [];
    // npm start runs the compiled copy of adapters/http/main.ts (npm run dev the source): the same code.
    return [[name, (m[1] as string).replace(/^dist\/(.*)\.js$/, '$1.ts')]];
  });
};

/** Options some scripts' --help must show, with their meaning and default. */
const OPTION_SHOWN: Readonly<Record<string, RegExp>> = {
  sim: /--json +print the whole result as JSON/,
  'audit:gacha': /--seed S +.*\(default: audit\)/,
  replay: /--data DIR +.*\(default: \.\/data\)/,
  reliability: /--rounds N +crashes .*\(default: 20\)/,
  master: /--at TIME +schedule the version published/,
  'master:switch': /--clients N +clients drawing at once \(default: 32\)/,
  start: /every setting is an environment variable/,
};

const STACK = /^\s+at .+\(?.*:\d+:\d+\)?$/m;

const LIST = scripts();

test('the npm scripts checked include every one the issue names', (t) => {
  t.true(LIST.length >= 20, `${LIST.length} scripts found`);
  for (const name of ['start', 'dev', 'example', 'bench', 'bench:core', 'reliability', 'console:screenshots', 'sim'])
    t.true(
      LIST.some(([n]) => n === name),
      `${name} is checked`,
    );
});

for (const [name, file] of LIST)
  test(`npm run ${name}: --help prints the usage (exit 0); an unknown option exits 2 with the usage, no stack trace`, async (t) => {
    const help = await spawnLimited(file, ['--help']);
    t.is(help.code, 0, `--help: ${help.err}`);
    t.regex(help.out, /^usage: /m, '--help prints the usage');
    t.regex(help.out, OPTION_SHOWN[name] ?? /options:/, '--help lists the options');
    t.regex(help.out, /--help +print this (help )?and exit/);
    const bad = await spawnLimited(file, ['--no-such-option']);
    t.is(bad.code, 2, `--no-such-option: ${bad.out}${bad.err}`);
    t.regex(bad.err, /'?--no-such-option'?/);
    t.regex(bad.err, /usage: /);
    t.notRegex(bad.err, STACK, 'no stack trace');
  });

test('a bad number, a number too small or a missing value exits 2 naming the option, with the usage and no stack trace', async (t) => {
  const cases: Array<[string, string[], RegExp]> = [
    ['scripts/bench/index.ts', ['--runs', 'x'], /--runs must be an integer of at least 3, got "x"/],
    ['scripts/bench/index.ts', ['--duration=-5'], /--duration must be a number of at least 1, got "-5"/],
    ['scripts/bench-core.ts', ['--draws', 'lots'], /--draws must be an integer of at least 1, got "lots"/],
    ['scripts/reliability.ts', ['--rounds', 'x'], /--rounds must be an integer of at least 1, got "x"/],
    ['scripts/reliability.ts', ['--rounds', '0'], /--rounds must be an integer of at least 1, got "0"/],
    ['scripts/reliability.ts', ['--rounds'], /^--rounds needs a value$/m],
    ['scripts/console-screenshots.ts', ['--players', '2.5'], /--players must be an integer of at least 1/],
    ['scripts/sim/index.ts', ['--days', 'x'], /--days must be an integer of at least 1, got "x"/],
    ['scripts/sim/index.ts', ['--players'], /^--players needs a value$/m],
  ];
  const results = await Promise.all(cases.map(([file, args]) => spawnLimited(file, args)));
  cases.forEach(([file, args, message], i) => {
    const r = results[i] as Ran;
    const what = `${file} ${args.join(' ')}`;
    t.is(r.code, 2, `${what}: ${r.out}${r.err}`);
    t.regex(r.err, message, what);
    t.regex(r.err, /usage: /, what);
    t.notRegex(r.err, STACK, `${what}: no stack trace`);
    t.is(r.out, '', `${what}: nothing started`);
  });
});

test('npm run sim with no arguments, as the README writes it, simulates the default population', async (t) => {
  const r = await spawnLimited('scripts/sim/index.ts', []);
  t.is(r.code, 0, r.err);
  t.regex(r.out, /seed sim, 200 players × 30 days/);
});
