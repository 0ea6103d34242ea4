// A headless Chromium for the console's browser tests and screenshots, driven by
// playwright-core (which downloads no browser): CHROMIUM_PATH, else the machine's
// chromium, else the one the npm package @sparticuz/chromium brings (a devDependency,
// so `npm ci` alone is enough on a fresh machine). A missing browser is an error that
// says what to do, never a skip.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { packagedChromiumBin, unpackChromium } from './packaged-chromium.js';

/** Where Debian (and most distributions) put their chromium. */
export const SYSTEM_CHROMIUMS = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

export type ChromiumChoice =
  | { readonly from: 'CHROMIUM_PATH' | 'system'; readonly path: string }
  | { readonly from: 'packaged'; readonly bin: string };

/**
 * The order: CHROMIUM_PATH (an error if nothing is there: it was asked for), the first
 * system chromium, the packaged one (`packagedBin`, undefined when not installed).
 */
export const chooseChromium = (
  given: string | undefined,
  exists: (path: string) => boolean,
  packagedBin: string | undefined,
): ChromiumChoice => {
  if (given !== undefined && given !== '') {
    if (!exists(given)) throw new Error(`CHROMIUM_PATH=${given}: no such file`);
    return { from: 'CHROMIUM_PATH', path: given };
  }
  const system = SYSTEM_CHROMIUMS.find(exists);
  if (system !== undefined) return { from: 'system', path: system };
  if (packagedBin !== undefined) return { from: 'packaged', bin: packagedBin };
  throw new Error(
    `no Chromium: not at ${SYSTEM_CHROMIUMS.join(', ')} and @sparticuz/chromium is not installed (run npm ci), or set CHROMIUM_PATH`,
  );
};

const ARGS = ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'];

/**
 * Launches it headless; as root (CI containers) Chromium needs --no-sandbox.
 * `packaged: true` skips the first two (the test that the packaged one works here).
 */
export const launchChromium = async (options: { readonly packaged?: boolean } = {}): Promise<Browser> => {
  const choice = options.packaged
    ? chooseChromium(undefined, () => false, packagedChromiumBin())
    : chooseChromium(process.env['CHROMIUM_PATH'], existsSync, packagedChromiumBin());
  if (choice.from !== 'packaged') return chromium.launch({ executablePath: choice.path, headless: true, args: ARGS });
  const { executable, env } = await unpackChromium(choice.bin);
  return chromium.launch({ executablePath: executable, headless: true, args: ARGS, env: { ...process.env, ...env } });
};
