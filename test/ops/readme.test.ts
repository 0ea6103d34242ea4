// The repository stands alone: the README's links point at files inside it (that
// exist) or at its own headings; nothing outside (another checkout, a web page).
import test from 'ava';
import { existsSync, readFileSync } from 'node:fs';
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
