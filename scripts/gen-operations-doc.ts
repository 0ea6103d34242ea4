// Writes docs/operations.md from the operations table (npm run docs). A test
// checks the committed file is what this script writes, so the docs never drift.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operationsMarkdown } from '../adapters/http/operations-doc.js';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npm run docs --',
  summary:
    'Writes docs/operations.md from the operations table (a test checks the committed file is what this writes).',
  options: {},
});

const out = fileURLToPath(new URL('../docs/operations.md', import.meta.url));
writeFileSync(out, operationsMarkdown());
process.stdout.write(`wrote ${out}\n`);
