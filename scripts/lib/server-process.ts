// Runs the real server as a child process (as an operator would), for crash tests and the reliability harness.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  readonly url: string;
  readonly proc: ChildProcess;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

/** Starts adapters/http/main.ts on a free port and resolves once it listens. */
export const startChild = (env: Record<string, string>): Promise<Child> =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'adapters/http/main.ts'], {
      cwd: root, env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'notice', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buf = '';
    let started = false;
    let err = '';
    const timer = setTimeout(() => { proc.kill('SIGKILL'); reject(new Error(`server did not start: ${err}`)); }, 30_000);
    proc.stderr?.on('data', (d: Buffer) => { err += d.toString(); });
    proc.stdout?.on('data', (d: Buffer) => {
      if (started) return; // later lines (request logs) are not needed
      buf += d.toString();
      const m = /"event":"listening","port":(\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        started = true;
        resolve({
          url: `http://127.0.0.1:${m[1]}`, proc,
          kill: (signal) => new Promise((done) => {
            if (proc.exitCode !== null) return done(proc.exitCode);
            proc.once('exit', (code) => done(code));
            proc.kill(signal);
          }),
        });
      }
    });
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited (${code}): ${err}`)); });
  });
