// The core as a library: examples/library.ts runs (npm run example) and shows
// the same draw twice from the same inputs.
import test from 'ava';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('npm run example loads master data, creates a player and runs operations with no HTTP and no storage', async (t) => {
  const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
    const p = spawn(process.execPath, ['--import', 'tsx', 'examples/library.ts'], {
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
  t.is(r.code, 0, r.out);
  t.regex(r.out, /ten-draw: (\d+\(★\d\) ){9}\d+\(★\d\)/);
  t.regex(r.out, /the same draw again is byte-identical: true; the input state is untouched: true/);
  t.regex(r.out, /a bad request answers INVALID_PARAMETERS/);
  t.regex(r.out, /the facility is level 2/);
});
