// Writes docs/operations.md from the operations table, and docs/operators.md's role
// table from the admin table (npm run docs). Tests check the committed files are what
// this script writes, so the docs never drift.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operationsMarkdown } from '../adapters/http/operations-doc.js';
import { roleTable } from '../adapters/http/admin-roles-doc.js';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npm run docs --',
  summary:
    "Writes docs/operations.md from the operations table and docs/operators.md's role table from the admin table (tests check the committed files are what this writes).",
  options: {},
});

const out = fileURLToPath(new URL('../docs/operations.md', import.meta.url));
writeFileSync(out, operationsMarkdown());
process.stdout.write(`wrote ${out}\n`);

// The role table sits between its two markers in docs/operators.md; the prose around it is written by hand.
const ops = fileURLToPath(new URL('../docs/operators.md', import.meta.url));
const BEGIN = '<!-- role table: npm run docs -->';
const END = '<!-- end of the role table -->';
const doc = readFileSync(ops, 'utf8');
const [before, rest] = doc.split(BEGIN);
const after = rest?.split(END)[1];
if (before === undefined || after === undefined) throw new Error(`${ops} lacks the role table's markers`);
writeFileSync(ops, `${before}${BEGIN}\n${roleTable()}\n${END}${after}`);
process.stdout.write(`wrote ${ops}\n`);
