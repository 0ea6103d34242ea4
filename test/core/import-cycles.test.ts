// No module imports itself back through others, type-only imports included: a cycle
// makes the order modules load in matter (a value read before its module ran is
// undefined), and a type cycle is the same tangle waiting for its first value. Every
// TypeScript file of the product, its scripts and its tests is read; each relative
// import or re-export is an edge; a strongly connected part of more than one module
// (or a module importing itself) is a cycle, named with its modules.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const DIRS = ['core', 'adapters', 'client', 'toolkit', 'scripts', 'examples', 'test'];

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (f === 'node_modules') return [];
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });

/** `import … from './x.js'`, `import type …`, `export … from`, `import './x.js'` and `import('./x.js')`. */
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[\w*${}\s,]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

const importGraph = (files: ReadonlyArray<string>): Map<string, Set<string>> => {
  const graph = new Map<string, Set<string>>();
  for (const f of files) {
    const deps = new Set<string>();
    for (const m of readFileSync(f, 'utf8').matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2]) as string;
      const target = resolve(dirname(f), spec.replace(/\.js$/, '.ts'));
      if (existsSync(target)) deps.add(target);
    }
    graph.set(f, deps);
  }
  return graph;
};

/** Tarjan's strongly connected components, those that are cycles. */
const cyclesOf = (graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] => {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop() as string;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1 || graph.get(v)?.has(v)) out.push(part.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
};

test("no import cycle among the product's, the scripts' and the tests' modules (type-only imports included)", (t) => {
  const files = DIRS.filter((d) => existsSync(join(root, d))).flatMap((d) => walk(join(root, d)));
  t.true(files.length > 300, `${files.length} files read`);
  const graph = importGraph(files);
  t.true([...graph.values()].reduce((n, d) => n + d.size, 0) > 1000, 'the imports were found');
  t.deepEqual(
    cyclesOf(graph).map((c) => c.map((f) => relative(root, f)).join(' → ')),
    [],
  );
});

test('the cycle finder finds a cycle of two, of three through a type-only import, and a module importing itself; a chain is none', (t) => {
  const g = (edges: Record<string, string[]>) => new Map(Object.entries(edges).map(([k, v]) => [k, new Set(v)]));
  t.deepEqual(cyclesOf(g({ a: ['b'], b: ['a'], c: ['a'] })), [['a', 'b']]);
  t.deepEqual(cyclesOf(g({ a: ['b'], b: ['c'], c: ['a'], d: [] })), [['a', 'b', 'c']]);
  t.deepEqual(cyclesOf(g({ a: ['a'] })), [['a']]);
  t.deepEqual(cyclesOf(g({ a: ['b'], b: ['c'], c: [] })), []);
  // The import forms the pattern reads, each an edge.
  const forms = [
    "import { x } from './m.js';",
    "import type { X } from './m.js';",
    "export { x } from './m.js';",
    "export * from './m.js';",
    "import './m.js';",
    "const m = await import('./m.js');",
    "import {\n  a,\n  type B,\n} from '../m.js';",
  ];
  for (const src of forms) t.is([...src.matchAll(IMPORT)].length, 1, src);
});
