// Every action of the console is an operator API call the OpenAPI document
// describes: the calls are read from the console's scripts (each `api(method, path)`)
// and looked up in the document, and every operator API operation is used by a screen.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIR } from '../../adapters/http/console-static.js';
import { buildOpenApi } from '../../adapters/http/openapi.js';
import { ADMIN_OPERATIONS } from '../../adapters/http/admin-operations.js';

/** The console's calls: method and path, each `${…}` path segment a parameter, the query dropped. */
const calls = (): Array<{ method: string; path: string }> => {
  const out: Array<{ method: string; path: string }> = [];
  for (const file of readdirSync(CONSOLE_DIR).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(join(CONSOLE_DIR, file), 'utf8');
    for (const m of text.matchAll(/\bapi\('(GET|POST|DELETE)', ['`]([^'`]*)['`]/g)) {
      const path = (m[2] as string).split('?')[0] as string;
      out.push({ method: m[1] as string, path: path.replace(/\$\{[^}]*\}/g, '{}') });
    }
  }
  return out;
};

test('each call the console makes is an operation of the OpenAPI document, and each operator operation has a screen', (t) => {
  const doc = buildOpenApi(1, '+09:00').document as { paths: Record<string, Record<string, { operationId: string }>> };
  const documented = Object.entries(doc.paths)
    .filter(([p]) => p.startsWith('/admin'))
    .flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, o]) => ({
        method: method.toUpperCase(),
        shape: path.replace(/\{[^}]*\}/g, '{}'),
        id: o.operationId,
      })),
    );
  const made = calls();
  t.true(made.length >= ADMIN_OPERATIONS.length, 'the scripts were read');
  const used = new Set<string>();
  for (const c of made) {
    const hit = documented.find((d) => d.method === c.method && d.shape === c.path);
    t.truthy(hit, `${c.method} ${c.path} is documented`);
    if (hit) used.add(hit.id);
  }
  t.deepEqual([...used].sort(), ADMIN_OPERATIONS.map((o) => o.name).sort());
});
