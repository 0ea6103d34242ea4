// Runs the real server as a child process (as an operator would), for crash tests, the reliability harness and the soak.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';

const ownRoot = fileURLToPath(new URL('../../', import.meta.url));

export interface Child {
  readonly url: string;
  readonly proc: ChildProcess;
  kill(signal: NodeJS.Signals): Promise<number | null>;
}

export interface ChildOptions {
  /** Another checkout to run (its own adapters/http/main.ts; it needs node_modules, a link to these will do). */
  readonly root?: string;
  /** Each line the server writes on stdout once it listens (its JSON logs). */
  readonly onLine?: (line: string) => void;
  /** How long it may take to listen (a start replays the journal). */
  readonly startTimeoutMs?: number;
}

/** Keeps the last part of stderr only: a long-running server must not grow the parent's memory. */
const STDERR_KEPT = 16_384;

/** Starts adapters/http/main.ts on a free port and resolves once it listens. */
export const startChild = (env: Record<string, string>, opts: ChildOptions = {}): Promise<Child> =>
  new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', 'tsx', 'adapters/http/main.ts'], {
      cwd: opts.root === undefined ? ownRoot : resolvePath(opts.root),
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'notice', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buf = '';
    let started = false;
    let err = '';
    const timeoutMs = opts.startTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`server did not start in ${timeoutMs} ms: ${err}`));
    }, timeoutMs);
    proc.stderr?.on('data', (d: Buffer) => {
      err = (err + d.toString()).slice(-STDERR_KEPT);
    });
    proc.stdout?.on('data', (d: Buffer) => {
      if (started && !opts.onLine) return; // later lines (request logs) are not needed
      buf += d.toString();
      if (started) {
        const lines = buf.split('\n');
        buf = lines.pop() ?? '';
        for (const line of lines) opts.onLine?.(line);
        return;
      }
      const m = /"event":"listening","port":(\d+)/.exec(buf);
      if (m) {
        clearTimeout(timer);
        started = true;
        // What came after the listening line is handed on with the next chunk.
        buf = buf.slice(buf.indexOf('\n', m.index) + 1);
        resolve({
          url: `http://127.0.0.1:${m[1]}`,
          proc,
          kill: (signal) =>
            new Promise((done) => {
              if (proc.exitCode !== null || proc.signalCode !== null) return done(proc.exitCode);
              proc.once('exit', (code) => done(code));
              proc.kill(signal);
            }),
        });
      }
    });
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}): ${err}`));
    });
  });
