// A module resolve hook for the mutation runner: `import test from 'ava'` in a test
// file loads the runner's stand-in (ava-shim.mjs) instead.
const shim = new URL('./ava-shim.mjs', import.meta.url).href;

export const resolve = async (specifier, context, next) =>
  specifier === 'ava' ? { url: shim, shortCircuit: true } : next(specifier, context);
