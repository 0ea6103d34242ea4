// Module resolve hooks for the mutation runner:
//  - `import test from 'ava'` in a test file loads the runner's stand-in (ava-shim.mjs);
//  - a module imported from one whose URL carries `?gen=N` carries it too, if it is the
//    project's own (not a package's): the runner re-imports the test files with a new N
//    to load every module of the project anew, with a static mutant switched on (or off
//    again), in the same process. Packages are loaded once.
import { pathToFileURL } from 'node:url';

const shim = new URL('./ava-shim.mjs', import.meta.url).href;
const root = pathToFileURL(`${process.cwd()}/`).href;
const GEN = /[?&]gen=(\d+)/;

export const resolve = async (specifier, context, next) => {
  if (specifier === 'ava') return { url: shim, shortCircuit: true };
  const resolved = await next(specifier, context);
  const gen = context.parentURL === undefined ? undefined : GEN.exec(context.parentURL)?.[1];
  const url = resolved.url;
  if (gen === undefined || !url.startsWith(root) || url.includes('/node_modules/') || GEN.test(url)) return resolved;
  return { ...resolved, url: `${url}${url.includes('?') ? '&' : '?'}gen=${gen}` };
};
