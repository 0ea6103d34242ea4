// The console in the Chromium the npm package @sparticuz/chromium brings (built for
// Amazon Linux; this proves it runs and draws here), whatever the machine has
// installed: the browser `npm test` falls back to on a fresh machine.
import test from 'ava';
import { launchChromium } from '../../scripts/lib/browser.js';
import { ADMIN, signupLogin, startHarness } from '../_support/http.js';

test('the packaged Chromium signs in to the console and opens a player', async (t) => {
  t.timeout(90_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  const browser = await launchChromium({ packaged: true });
  t.teardown(() => browser.close());
  t.regex(browser.version(), /^\d+\./);
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/admin/`);
  await page.fill('#token', ADMIN);
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Players")');
  await page.goto(`${h.url}/admin/#/player/${player.playerId}`);
  await page.waitForSelector(`h1:text("Aki (player ${player.playerId})")`);
  // It draws text: the heading's picture changes when its letters are hidden (with no font both are blank).
  const heading = page.locator('h1');
  const drawn = await heading.screenshot();
  await heading.evaluate((e) => (e.style.color = 'transparent'));
  t.notDeepEqual(drawn, await heading.screenshot(), 'the heading is drawn');
  t.deepEqual(pageErrors, [], 'no script error');
});
