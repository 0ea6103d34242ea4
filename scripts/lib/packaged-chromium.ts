// The headless Chromium the npm package @sparticuz/chromium ships inside its tarball
// (brotli-compressed, with the NSS libraries and a font it needs, no install script):
// unpacked once into the machine's temporary directory, then reused. Only its files are
// used, not its JavaScript (that writes to fixed paths under /tmp and races when several
// test processes unpack at once); here one process unpacks under a lock into a directory
// renamed into place, and the test files share that one copy.
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, createBrotliDecompress } from 'node:zlib';

const PACKAGE = '@sparticuz/chromium';

/** The package's bin/ (the compressed browser), or undefined when it is not installed. */
export const packagedChromiumBin = (): string | undefined => {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve(PACKAGE));
  } catch {
    return undefined;
  }
  // The entry is <package>/build/index.js; its exports hide package.json and bin/.
  const bin = join(dirname(dirname(entry)), 'bin');
  return existsSync(join(bin, 'chromium.br')) ? bin : undefined;
};

/** Writes a ustar archive's files and directories under `dir` (the archives hold nothing else). */
const untar = async (tar: Buffer, dir: string): Promise<void> => {
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const text = (from: number, length: number): string =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const name = [text(345, 155), text(0, 100)].filter((s) => s !== '').join('/');
    const size = parseInt(text(124, 12).trim() || '0', 8);
    const type = text(156, 1) || '0';
    const path = normalize(join(dir, name));
    if (!path.startsWith(dir + sep)) throw new Error(`${PACKAGE}: an archive entry outside its directory: ${name}`);
    const data = tar.subarray(at + 512, at + 512 + size);
    if (type === '5') await mkdir(path, { recursive: true });
    else if (type === '0') {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, data, { mode: parseInt(text(100, 8).trim() || '644', 8) & 0o777 });
    } else if (type !== 'x' && type !== 'g') throw new Error(`${PACKAGE}: an archive entry of type ${type}: ${name}`);
    at += 512 + Math.ceil(size / 512) * 512;
  }
};

/** Its fonts only: fontconfig would otherwise find none on a machine without fonts, and draw no text. */
const fontsConf = (dir: string): string =>
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
  `  <dir>${join(dir, 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`;

export type UnpackedChromium = {
  readonly executable: string;
  /** What the browser's process needs: its libraries and its fonts. */
  readonly env: Readonly<Record<string, string>>;
};

const unpacked = (dir: string): UnpackedChromium => ({
  executable: join(dir, 'chromium'),
  env: { LD_LIBRARY_PATH: join(dir, 'lib'), FONTCONFIG_PATH: dir },
});

/** Unpacks the browser in `bin` into `dir` (through `dir`.partial, renamed: `dir` is whole or absent). */
const unpackInto = async (bin: string, dir: string): Promise<void> => {
  const partial = `${dir}.partial`;
  await rm(partial, { recursive: true, force: true });
  await mkdir(partial, { recursive: true });
  const inflate = async (file: string): Promise<Buffer> => brotliDecompressSync(await readFile(join(bin, file)));
  // al2023.tar.br holds lib/ (NSS, expat), swiftshader.tar.br the software GL, fonts.tar.br a font.
  for (const archive of ['al2023.tar.br', 'swiftshader.tar.br', 'fonts.tar.br']) {
    await untar(await inflate(archive), partial);
  }
  await writeFile(join(partial, 'fonts.conf'), fontsConf(dir));
  // The browser itself is 200 MB unpacked: streamed, not held in memory.
  await pipeline(
    createReadStream(join(bin, 'chromium.br')),
    createBrotliDecompress(),
    createWriteStream(join(partial, 'chromium'), { mode: 0o755 }),
  );
  await rename(partial, dir);
};

/** A lock older than this was left by a process that died while unpacking (a whole unpack takes seconds). */
const STALE_MS = 120_000;

/**
 * Unpacks the browser in `bin` into <tmpdir>/hoshi-chromium-<version> unless it is there
 * already. The test files start together: one process unpacks (holding a lock directory,
 * made atomically), the others wait for its result.
 */
export const unpackChromium = async (bin: string): Promise<UnpackedChromium> => {
  const { version } = JSON.parse(await readFile(join(dirname(bin), 'package.json'), 'utf8')) as { version: string };
  const dir = join(tmpdir(), `hoshi-chromium-${version}`);
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(join(dir, 'chromium'))) return unpacked(dir);
    try {
      await mkdir(lock);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const since = await stat(lock).then(
        (s) => s.mtimeMs,
        () => Date.now(),
      );
      if (Date.now() - since > STALE_MS) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    try {
      if (!existsSync(join(dir, 'chromium'))) await unpackInto(bin, dir);
    } finally {
      await rm(lock, { recursive: true, force: true });
    }
  }
};
