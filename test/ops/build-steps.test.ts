// The repository as an operator meets it, in clean copies made of the files git
// knows (tracked, and new ones not ignored: what a clone of this tree would hold),
// with no node_modules or dist/:
// - a fresh clone: npm ci, then npm start, which builds dist/ itself and runs the
//   server with node; /readyz answers 200, and SIGTERM sent to npm reaches the
//   server, which logs its shutdown and exits.
// - the Dockerfile's steps, read from the Dockerfile: each stage's COPY and RUN in a
//   directory of its own (npm ci, npm run build; npm ci --omit=dev), then its CMD
//   with its ENV, its HEALTHCHECK command, and SIGTERM. Docker itself is not needed.
// Slow (three installs and two builds, about two minutes): the two tests run at once,
// their commands spawned without blocking, and ava starts this file first (ava.config.js).
import test from 'ava';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const QUIET_NPM = {
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  npm_config_loglevel: 'error',
};

/** The files a clone of the working tree would hold. */
const cloneFiles = (): string[] => {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  return out.split('\0').filter((f) => f !== '' && existsSync(join(root, f)) && statSync(join(root, f)).isFile());
};

const copyFiles = (files: ReadonlyArray<string>, to: string): void => {
  for (const f of files) {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    cpSync(join(root, f), join(to, f));
  }
};

/** Runs a command to its end; rejects with its output when it fails. Not spawnSync: the other test runs meanwhile. */
const run = (cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<void> =>
  new Promise((resolve, reject) => {
    const proc = spawn(cmd, args, { cwd, env: { ...process.env, ...QUIET_NPM, ...env } });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    proc.once('error', reject);
    proc.once('close', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} in ${cwd} exited ${code}:\n${out}`));
    });
  });

interface Started {
  readonly proc: ChildProcess;
  readonly port: number;
  output(): string;
  exited: Promise<number | null>;
}

const killGroup = (s: Started): void => {
  try {
    process.kill(-(s.proc.pid as number), 'SIGKILL');
  } catch {
    /* already gone */
  }
};

/** Spawns a server command and resolves once its "listening" line names the port. */
const startServer = (cmd: string, args: string[], cwd: string, env: Record<string, string>): Promise<Started> =>
  new Promise((resolve, reject) => {
    // Its own process group: a failed test's teardown ends npm and the server it runs together.
    const proc = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...QUIET_NPM, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    // 'close', not 'exit': the process's last lines may still be in its pipes when it exits.
    const exited = new Promise<number | null>((done) => proc.once('close', (code) => done(code)));
    const timer = setTimeout(() => {
      try {
        process.kill(-(proc.pid as number), 'SIGKILL');
      } catch {
        /* gone */
      }
      reject(new Error(`${cmd} ${args.join(' ')} did not start:\n${out}`));
    }, 240_000);
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /"event":"listening","port":(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, port: Number(m[1]), output: () => out, exited });
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited ${code} before listening:\n${out}`));
    });
  });

const SECRETS = {
  REQUEST_HASH_SALT: 'build-steps-salt-0123456789',
  SEED_SECRET: 'build-steps-seed-0123456789',
  ADMIN_TOKEN: 'build-steps-admin-0123456789',
};

test('a fresh clone: npm ci && npm start builds, serves /readyz 200, and SIGTERM to npm stops the server', async (t) => {
  t.timeout(420_000);
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-clone-'));
  const data = mkdtempSync(join(tmpdir(), 'hoshi-clone-data-'));
  t.teardown(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(data, { recursive: true, force: true });
  });
  copyFiles(cloneFiles(), dir);
  t.false(existsSync(join(dir, 'node_modules')) || existsSync(join(dir, 'dist')), 'a clean copy');
  await run('npm', ['ci'], dir);
  const s = await startServer('npm', ['start'], dir, {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: data,
    LOG_LEVEL: 'notice',
  });
  t.teardown(() => killGroup(s));
  t.true(existsSync(join(dir, 'dist', 'adapters', 'http', 'main.js')), 'npm start built dist/');
  t.true(
    existsSync(join(dir, 'dist', 'adapters', 'http', 'console', 'index.html')),
    'with the console beside the server',
  );
  const ready = await fetch(`http://127.0.0.1:${s.port}/readyz`);
  t.is(ready.status, 200, await ready.text());
  // npm runs the server itself (exec: no shell between them), so the signal npm forwards reaches it.
  s.proc.kill('SIGTERM');
  t.is(await s.exited, 0);
  t.regex(s.output(), /"event":"stopping","signal":"SIGTERM"/);
  t.regex(s.output(), /"event":"stopped"/);
});

interface Instruction {
  readonly op: string;
  readonly args: string;
}

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const dockerfile = (): Instruction[] =>
  readFileSync(join(root, 'Dockerfile'), 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const m = /^(\S+)\s+(.*)$/.exec(l);
      return { op: (m?.[1] ?? l).toUpperCase(), args: m?.[2] ?? '' };
    });

test("the Dockerfile's steps, in clean directories: npm ci, build, production install, CMD answers /readyz; HEALTHCHECK passes", async (t) => {
  t.timeout(420_000);
  const work = mkdtempSync(join(tmpdir(), 'hoshi-docker-'));
  t.teardown(() => rmSync(work, { recursive: true, force: true }));
  // The build context: a clean copy, less what .dockerignore leaves out.
  const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const context = join(work, 'context');
  copyFiles(
    cloneFiles().filter(
      (f) => !ignored.some((p) => f === p || f.startsWith(`${p}/`) || (p.startsWith('*.') && f.endsWith(p.slice(1)))),
    ),
    context,
  );

  const stages = new Map<string, string>();
  let stage = '';
  let env: Record<string, string> = {};
  let cmd: string[] = [];
  let health: string[] = [];
  let user = '';
  const skipped: string[] = [];
  const stageDir = () => stages.get(stage) as string;
  /** /app inside a stage is the stage's directory; the Dockerfile uses no other working directory. */
  const inStage = (name: string, p: string) => join(stages.get(name) as string, p.replace(/^\/app\/?/, ''));
  for (const ins of dockerfile()) {
    switch (ins.op) {
      case 'FROM': {
        const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
        t.regex(m?.[1] ?? '', /^node:20\b/, 'the image is Node 20');
        stage = m?.[2] ?? 'final';
        stages.set(stage, join(work, stage));
        mkdirSync(stageDir(), { recursive: true });
        env = {};
        break;
      }
      case 'WORKDIR':
        t.is(ins.args, '/app');
        break;
      case 'COPY': {
        const parts = ins.args.split(/\s+/);
        const from = parts[0]?.startsWith('--from=') ? (parts.shift() as string).slice(7) : undefined;
        const dest = parts.pop() as string;
        for (const src of parts) {
          const source = from ? inStage(from, src) : join(context, src);
          const target =
            dest === './' || dest === '.'
              ? join(
                  stageDir(),
                  src
                    .replace(/^\/app\//, '')
                    .split('/')
                    .pop() as string,
                )
              : join(stageDir(), dest);
          t.true(existsSync(source), `COPY ${src}: it exists`);
          cpSync(source, target, { recursive: true });
        }
        break;
      }
      case 'RUN':
        // Commands on the image's own file system (the data volume and its owner) are the image's, not steps to repeat here.
        if (/(^|\s)\/(?!app\b)/.test(ins.args)) {
          skipped.push(ins.args);
          break;
        }
        await run('sh', ['-c', ins.args], stageDir(), env);
        break;
      case 'ENV':
        for (const m of ins.args.matchAll(/(\w+)=(\S+)/g)) env[m[1] as string] = m[2] as string;
        break;
      case 'CMD':
        cmd = JSON.parse(ins.args) as string[];
        break;
      case 'HEALTHCHECK':
        health = JSON.parse(ins.args.replace(/^.*?\bCMD\s+/, '')) as string[];
        break;
      case 'USER':
        user = ins.args;
        break;
      default:
        break;
    }
  }
  t.is(stage, 'final');
  t.not(user, '', 'runs as a user of its own');
  t.not(user, 'root');
  t.deepEqual(skipped, ['mkdir -p /data && chown node:node /data'], "only the volume's ownership is left to the image");
  const final = stageDir();
  t.false(existsSync(join(final, 'node_modules', 'typescript')), 'production dependencies only');
  t.false(existsSync(join(final, 'node_modules', 'tsx')));
  t.true(existsSync(join(final, 'node_modules', 'koa')));
  t.is(env['NODE_ENV'], 'production');

  // The image's CMD, its ENV, a data directory for /data, the secrets production insists on.
  const data = join(work, 'data');
  mkdirSync(data);
  t.is(cmd[0], 'node', 'node itself is the process that receives signals');
  const s = await startServer(cmd[0] as string, cmd.slice(1), final, {
    ...env,
    ...SECRETS,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: data,
    LOG_LEVEL: 'notice',
  });
  t.teardown(() => killGroup(s));
  const ready = await fetch(`http://127.0.0.1:${s.port}/readyz`);
  t.is(ready.status, 200, await ready.text());
  // The console's static files are in the image (copied into dist/ by the build).
  const page = await fetch(`http://127.0.0.1:${s.port}/admin/console/app.js`);
  t.is(page.status, 200, 'the console is served from dist/');
  const check = spawnSync(health[0] as string, health.slice(1), {
    cwd: final,
    env: { ...process.env, PORT: String(s.port) },
    encoding: 'utf8',
    timeout: 10_000,
  });
  t.is(check.status, 0, `HEALTHCHECK: ${check.stderr}`);
  s.proc.kill('SIGTERM');
  t.is(await s.exited, 0);
  t.regex(s.output(), /"event":"stopped"/);
});
