// npm start and the container run the compiled server with the same node flags
// (the young generation's size, which V8 takes only on the command line), and the
// README says what they are.
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = 'dist/adapters/http/main.js';

test('the Dockerfile\'s CMD runs node with npm start\'s flags, and the README names them', (t) => {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start'] ?? '';
  const words = start.split(' ');
  t.deepEqual(words.slice(0, 2), ['exec', 'node']);
  t.is(words.at(-1), MAIN);
  const flags = words.slice(2, -1);
  t.true(flags.length > 0 && flags.every((f) => f.startsWith('--')), start);

  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(join(root, 'Dockerfile'), 'utf8'));
  t.truthy(cmd, 'the Dockerfile has a CMD in the exec form');
  t.deepEqual(JSON.parse(cmd?.[1] ?? '[]') as string[], ['node', ...flags, MAIN]);

  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  for (const f of flags) t.true(readme.includes(`\`${f}\``), `README.md does not name ${f}`);
});
