// A small command-line parser for the scripts: --name value, --flag, and nothing else.
export type Args = ReadonlyMap<string, string | true>;

export const parseArgs = (argv: ReadonlyArray<string>, flags: ReadonlyArray<string>): Args => {
  const out = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const name = a.slice(2);
    if (flags.includes(name)) { out.set(name, true); continue; }
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new Error(`--${name} needs a value`);
    out.set(name, v);
    i++;
  }
  return out;
};

export const str = (a: Args, name: string, fallback?: string): string => {
  const v = a.get(name);
  if (typeof v === 'string') return v;
  if (fallback !== undefined) return fallback;
  throw new Error(`--${name} is required`);
};

export const int = (a: Args, name: string, fallback?: number): number => {
  const v = a.get(name);
  if (v === undefined && fallback !== undefined) return fallback;
  const n = Number(v);
  if (typeof v !== 'string' || !Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer`);
  return n;
};

/** Runs a script's main, printing a usage error (exit 2) instead of a stack for bad arguments. */
export const cli = (usage: string, main: () => Promise<number>): void => {
  main().then((code) => { process.exitCode = code; }, (e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${usage}\n`);
    process.exitCode = 2;
  });
};
