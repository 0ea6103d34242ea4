// The whole surface: every operation in the spec has a table entry, every table
// entry is routed and documented, and every implemented one is named by a test.
import test from 'ava';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATIONS } from '../core/operations/table.js';

const root = fileURLToPath(new URL('../', import.meta.url));
interface SpecOp {
  name: string;
  method: 'GET' | 'POST';
  path: string;
}

/** The spec's operations (name, method, path), kept in the repository as data so a clone stands alone. */
const specOps = (): SpecOp[] =>
  (JSON.parse(readFileSync(join(root, 'test', 'spec-operations.json'), 'utf8')) as { operations: SpecOp[] }).operations;

test('every spec operation has a table entry with its exact method and path', (t) => {
  const spec = specOps();
  t.is(spec.length, 82, 'the spec lists 82 operations');
  for (const s of spec) {
    const op = OPERATIONS.find((o) => o.name === s.name);
    t.truthy(op, `no table entry for ${s.name}`);
    t.is(op?.method, s.method, `${s.name} method`);
    t.is(op?.path, s.path, `${s.name} path`);
  }
  const names = OPERATIONS.map((o) => o.name);
  t.is(new Set(names).size, names.length, 'names are unique');
  const routes = OPERATIONS.map((o) => `${o.method} ${o.path}`);
  t.is(new Set(routes).size, routes.length, 'routes are unique');
});

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

test('every table entry is exercised by a test (named by operation name or path)', (t) => {
  const tests = walk(join(root, 'test'))
    .filter((f) => !f.endsWith('surface.test.ts'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
  const untested = OPERATIONS.filter((o) => !tests.includes(`'${o.name}'`) && !tests.includes(o.path));
  t.deepEqual(
    untested.map((o) => o.name),
    [],
  );
});

test('docs/operations.md is what the table generates (run npm run docs after changing the table)', async (t) => {
  const { operationsMarkdown } = await import('../adapters/http/operations-doc.js');
  t.is(readFileSync(join(root, 'docs', 'operations.md'), 'utf8'), operationsMarkdown());
});
