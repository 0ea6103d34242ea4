// The README's examples run as written (issue 33): its fenced blocks are read from
// README.md and each is run against a real server (adapters/http/main.ts, memory
// storage, as `npm start` runs it) or named below with the reason it is not. The
// TypeScript blocks are also type-checked with the repository's compiler options.
// The one change made to a block: `localhost:8080` becomes the test server's
// address, so the test runs beside anything already on that port.
import test from 'ava';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { startChild, type Child } from '../_support/child.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Block {
  readonly lang: string;
  readonly code: string;
}

const blocks = (): Block[] =>
  [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] as string,
    code: m[2] as string,
  }));

/** Blocks not run here, by their first line, and what runs them (or why nothing can). */
const NOT_RUN: Readonly<Record<string, string>> = {
  'npm install && npm start':
    'installs packages and runs the whole suite: test/ops/build-steps.test.ts runs a fresh clone’s npm ci && npm start',
  'DATABASE_URL=postgres://hoshi@db.internal:5432/hoshi PORT=8081 npm start':
    'needs the database host it names: test/reliability/postgres-processes.test.ts runs server processes on one database',
  'docker build -t hoshi .': 'needs Docker: test/ops/build-steps.test.ts runs the Dockerfile’s steps without it',
};

/** A block's first command, its comment left out. */
const firstLine = (b: Block) => (b.code.split('\n')[0] ?? '').replace(/\s+#.*$/, '').trim();
const SALT = 'readme-examples-salt';

interface Ran {
  readonly code: number | null;
  readonly out: string;
  readonly err: string;
}

const run = (cmd: string, args: ReadonlyArray<string>, cwd: string): Promise<Ran> =>
  new Promise((resolve) => {
    const p = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REQUEST_HASH_SALT: SALT },
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

/**
 * A directory for the examples: their relative imports (`./client/index.js`) reach the
 * repository through links, and a package.json makes .ts files modules (top-level await).
 */
const exampleDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-readme-'));
  for (const entry of ['adapters', 'client', 'core', 'fixtures', 'node_modules'])
    symlinkSync(join(root, entry), join(dir, entry));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  return dir;
};

/** Type errors of the files, with the repository's compiler options. */
const typeErrors = (files: ReadonlyArray<string>): string[] => {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (!config) return ['tsconfig.json could not be read'];
  const program = ts.createProgram([...files], { ...config.options, noEmit: true });
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file === undefined || files.includes(d.file.fileName))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
};

let server: Child | undefined;
let dir = '';
test.before(async () => {
  server = await startChild({ STORAGE: 'memory', REQUEST_HASH_SALT: SALT });
  dir = exampleDir();
});
test.after.always(async () => {
  await server?.kill('SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const onServer = (code: string): string => {
  if (!server) throw new Error('no server');
  return code.replaceAll('http://localhost:8080', server.url).replaceAll('localhost:8080', server.url);
};

test('every fenced block of the README is run below or named with the reason it is not', (t) => {
  const all = blocks();
  t.true(all.length >= 6, `${all.length} blocks`);
  for (const b of all) {
    const runHere = b.lang === 'ts' || firstLine(b).startsWith('uuid=');
    t.true(runHere || firstLine(b) in NOT_RUN, `a new block, run it here or say why not: ${firstLine(b)}`);
  }
  for (const line of Object.keys(NOT_RUN))
    t.true(
      all.some((b) => firstLine(b) === line),
      `no block starts with ${line} any more`,
    );
});

test("the README's TypeScript examples (the typed client, the core as a library) type-check and run to the end", async (t) => {
  const examples = blocks().filter((b) => b.lang === 'ts');
  t.is(examples.length, 2);
  const files = examples.map((b, i) => {
    const file = join(dir, `example-${i}.ts`);
    writeFileSync(file, onServer(b.code));
    return file;
  });
  t.deepEqual(typeErrors(files), [], 'the examples type-check as written');
  for (const file of files) {
    const r = await run(process.execPath, ['--import', 'tsx', file], dir);
    t.is(r.code, 0, `${file}: ${r.err}`);
    // Each prints the characters of a ten-draw and the gems left.
    t.regex(r.out, /^\[(\s*\d+,?){10}\s*\] \d+$/m, `${file} drew ten: ${r.out}`);
  }
});

test("the README's curl session signs up, logs in and reads the player", async (t) => {
  const session = blocks().find((b) => firstLine(b).startsWith('uuid='));
  if (!session) return t.fail('no curl block');
  const r = await run('sh', ['-e', '-c', onServer(session.code)], dir);
  t.is(r.code, 0, r.err);
  const answer = JSON.parse(r.out) as { resultCode: number; player?: { name?: string } };
  t.is(answer.resultCode, 0, r.out);
  t.is(answer.player?.name, 'Aki');
});
