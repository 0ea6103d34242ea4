// The operator's console: static files (plain HTML, CSS and ES modules, no build
// step) served at /admin/ and /admin/console/<file> when ADMIN_TOKEN is set. They
// carry no secret, so they are served without the token; the page asks for it and
// sends it to the operator API itself. The folder sits beside this module: under
// tsx that is adapters/http/console/, in the compiled server dist/adapters/http/console/
// (scripts/build.mjs copies it there).
import type Koa from 'koa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONSOLE_DIR = fileURLToPath(new URL('./console/', import.meta.url));
/** Where the console is: the page, and its files under it. */
export const CONSOLE_PATHS = { page: '/admin/', files: '/admin/console/' } as const;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
};
// Only its own files: no inline script, no other origin (the token lives in this page's sessionStorage).
const HEADERS: Record<string, string> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

interface File {
  readonly body: Buffer;
  readonly type: string;
}

/** The console's files by name, read once: a fixed set, so no request path reaches the file system. */
const readFiles = (dir: string): Map<string, File> => {
  if (!existsSync(join(dir, 'index.html')))
    throw new Error(`the console's index.html is missing from ${dir} (npm run build copies the folder into dist/)`);
  const files = new Map<string, File>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, { body: readFileSync(join(dir, name)), type });
  }
  return files;
};

/** The console's paths (GET and HEAD), for 405 with Allow. */
export const consolePaths = (dir: string = CONSOLE_DIR): string[] => [
  '/admin',
  CONSOLE_PATHS.page,
  ...[...readFiles(dir).keys()].map((n) => `${CONSOLE_PATHS.files}${n}`),
];

export const consoleStatic = (dir: string = CONSOLE_DIR): Koa.Middleware => {
  const files = readFiles(dir);
  const index = files.get('index.html') as File;
  return async (ctx, next) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/admin') {
      ctx.redirect(CONSOLE_PATHS.page);
      return;
    }
    const file =
      ctx.path === CONSOLE_PATHS.page
        ? index
        : ctx.path.startsWith(CONSOLE_PATHS.files)
          ? files.get(ctx.path.slice(CONSOLE_PATHS.files.length))
          : undefined;
    if (!file) return next();
    ctx.set(HEADERS);
    ctx.type = file.type;
    ctx.body = file.body;
  };
};
