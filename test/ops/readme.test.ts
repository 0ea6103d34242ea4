// The repository stands alone: the README's links point at files inside it (that
// exist) or at its own headings; nothing outside (another checkout, a web page).
import test from 'ava';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchor = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

test('README links only inside the repository, to files that exist and headings it has', (t) => {
  const text = readFileSync(join(root, 'README.md'), 'utf8');
  const headings = new Set([...text.matchAll(/^#+ (.+)$/gm)].map((m) => anchor(m[1] as string)));
  const links = [...text.replace(/```[\s\S]*?```/g, '').matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string);
  t.true(links.length > 5);
  for (const link of links) {
    t.false(/^[a-z]+:/i.test(link), `${link}: a link outside the repository`);
    const [path, hash] = link.split('#') as [string, string | undefined];
    if (path === '') {
      t.true(headings.has(hash ?? ''), `${link}: no such heading`);
      continue;
    }
    const target = resolve(dirname(join(root, 'README.md')), path);
    t.false(relative(root, target).startsWith('..'), `${link}: outside the repository`);
    t.true(existsSync(target), `${link}: no such file`);
  }
});

/** The variables the tests read (test/ and the harness they share with the scripts, scripts/lib/), with any default. */
const testVariables = (): Map<string, string | undefined> => {
  const found = new Map<string, string | undefined>();
  const walk = (dir: string): void => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory()) walk(path);
      else if (e.name.endsWith('.ts'))
        for (const m of readFileSync(join(root, path), 'utf8').matchAll(
          /process\.env\['([A-Z0-9_]+)'\](?:\s*\?\?\s*'([^']*)')?/g,
        ))
          found.set(m[1] as string, m[2] ?? found.get(m[1] as string));
    }
  };
  walk('test');
  walk('scripts/lib');
  return found;
};

test("every environment variable the tests read is documented, with its default, in the README's test section and docs/testing.md", (t) => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const start = readme.indexOf('## Quick start');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const testing = readFileSync(join(root, 'docs', 'testing.md'), 'utf8');
  const vars = testVariables();
  t.true(vars.has('TEST_DATABASE_URL'), 'the PostgreSQL tests read TEST_DATABASE_URL');
  for (const [name, dflt] of vars)
    for (const [doc, text] of [
      ['README.md (Quick start)', section],
      ['docs/testing.md', testing],
    ] as const) {
      t.true(text.includes(`\`${name}\``), `${doc} names ${name}`);
      if (dflt !== undefined) t.true(text.includes(`\`${dflt}\``), `${doc} gives ${name}'s default ${dflt}`);
    }
});
