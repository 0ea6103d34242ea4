// The replay CLI (scripts/replay.ts) as an operator runs it: a child process, its
// exit status and what it printed (stdout and stderr together).
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

export const runReplay = (args: ReadonlyArray<string>): Promise<{ code: number | null; out: string }> =>
  new Promise((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...args], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.on('close', (code) => resolve({ code, out }));
  });
