// A headless Chromium for the console's browser tests and screenshots: Debian's
// `chromium` package (.ci/run installs it) driven by playwright-core (no browser
// download). A missing browser is an error that says how to install it, never a skip.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/lib/chromium/chromium'];

/** CHROMIUM_PATH, or the first Chromium installed where Debian puts it. */
export const chromiumPath = (): string => {
  const given = process.env['CHROMIUM_PATH'];
  const found = given ?? CANDIDATES.find((p) => existsSync(p));
  if (!found || !existsSync(found)) {
    throw new Error(
      `no Chromium at ${given ?? CANDIDATES.join(', ')}: install it (apt-get install -y chromium; .ci/run does) or set CHROMIUM_PATH`,
    );
  }
  return found;
};

/** Launches it headless; as root (CI containers) Chromium needs --no-sandbox. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
  });
