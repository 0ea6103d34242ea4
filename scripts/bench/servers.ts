// Starts a server under test as a child process and reads its port from the
// "listening" line; reports start-up time and resident memory (from /proc).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Node's flags as npm start runs the compiled server (package.json's start script,
 * which the Dockerfile's CMD repeats): the bench runs the server with them.
 */
export const START_FLAGS: string[] = (() => {
  const start =
    (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ??
    '';
  const m = /^exec node ((?:--\S+ )*)dist\/adapters\/http\/main\.js$/.exec(start);
  if (!m)
    throw new Error(`package.json's start script is not "exec node [--flags] dist/adapters/http/main.js": ${start}`);
  return (m[1] ?? '').split(' ').filter((x) => x !== '');
})();

export interface Server {
  readonly url: string;
  readonly proc: ChildProcess;
  /** From spawn to the "listening" line (ms). */
  readonly startupMs: number;
  /** Resident memory now (MB). */
  rssMb(): number;
  stop(): Promise<void>;
}

export const startServer = (
  script: string,
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; cwd?: string } = {},
): Promise<Server> =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const proc = spawn(process.execPath, [...(opts.nodeArgs ?? ['--import', 'tsx']), script], {
      cwd: opts.cwd ?? ROOT,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'notice', RATE_LIMITS: 'off', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let started = false;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`${script} did not start: ${err}`));
    }, 60_000);
    proc.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    proc.stdout?.on('data', (d: Buffer) => {
      if (started) return;
      out += d.toString();
      const m = /"event":"listening","port":(\d+)/.exec(out);
      if (!m) return;
      started = true;
      clearTimeout(timer);
      const startupMs = performance.now() - t0;
      resolve({
        url: `http://127.0.0.1:${m[1]}`,
        proc,
        startupMs,
        rssMb: () => {
          const m2 = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${proc.pid}/status`, 'utf8'));
          return m2 ? Number(m2[1]) / 1024 : NaN;
        },
        stop: () =>
          new Promise<void>((done) => {
            if (proc.exitCode !== null) return done();
            proc.once('exit', () => done());
            proc.kill('SIGTERM');
          }),
      });
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      if (!started) reject(new Error(`${script} exited (${code}): ${err}`));
    });
  });
