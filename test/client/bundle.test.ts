// The typed client bundles for a browser (issue 33): through the operations'
// descriptions (core/api/) it reaches the codecs, never a reducer, the runner or
// node:crypto. Before, through the operations table it took the whole core: with
// platform 'browser' the build failed on node:crypto, and with node: left external it
// was 257 kB minified. esbuild is the bundler a web tool would use.
import test from 'ava';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('client/index.ts bundles for a browser: no node: import, no reducer, well under the whole core', async (t) => {
  const r = await build({
    absWorkingDir: root,
    entryPoints: ['client/index.ts'],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  t.deepEqual(r.errors, []);
  const [output] = Object.values(r.metafile.outputs);
  if (!output) return t.fail('no output');
  t.deepEqual(
    output.imports.filter((i) => i.external).map((i) => i.path),
    [],
    'nothing left for the page to provide (node:crypto was)',
  );
  const bundled = Object.entries(output.inputs)
    .filter(([, v]) => v.bytesInOutput > 0)
    .map(([k]) => k);
  const inputs = Object.keys(r.metafile.inputs);
  t.true(
    bundled.some((k) => k.startsWith('core/api/')),
    'the descriptions are in',
  );
  t.deepEqual(
    inputs.filter((k) => k.startsWith('core/operations/') || k === 'core/operation.ts' || k === 'core/secret.ts'),
    [],
    'no reducer, no runner, no secret: not even imported',
  );
  t.false(inputs.some((k) => k.startsWith('node:')));
  const size = r.outputFiles[0]?.contents.length ?? Infinity;
  t.log(`minified: ${size} bytes (the whole core: 257 kB)`);
  t.true(size < 130_000, `${size} bytes`);
});
