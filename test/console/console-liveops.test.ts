// The console's live-game screens in a real headless Chromium: close the game for a
// window and see a player refused, write a notice and see it as players do, withdraw
// it, recall a send, and suspend and lift a player from the player screen.
import test from 'ava';
import { launchChromium } from '../../scripts/lib/browser.js';
import { ADMIN, signupLogin, startHarness } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { formatTime, HOUR } from '../../core/time.js';

const at = (ms: number) => formatTime(ms, master().game.timezoneOffsetMinutes);

test('an operator closes the game, writes and withdraws a notice, recalls a send, and suspends and lifts a player', async (t) => {
  t.timeout(90_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/admin/`);
  await page.fill('#token', ADMIN);
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Players")');

  // Maintenance for half an hour, then ended.
  await page.goto(`${h.url}/admin/#/liveops`);
  await page.waitForSelector('#mt-now');
  t.regex((await page.textContent('#mt-now')) ?? '', /The game is open/);
  await page.fill('#mt-until', at(NOW + HOUR / 2));
  await page.fill('#mt-message', 'Back soon.');
  await page.click('form[aria-label="Set a maintenance window"] button[type=submit]');
  await page.waitForSelector('#mt-now:text("Closed now")');
  t.like((await player.get('/api/player/get_all')).body, { resultCode: 10, resultMessage: 'Back soon.' });
  await page.click('#mt-end');
  await page.waitForSelector('#mt-now:text("The game is open")');
  t.is((await player.get('/api/player/get_all')).body['resultCode'], 0);

  // A notice, previewed as a player sees it, then withdrawn.
  await page.selectOption('#nt-kind', 'banner');
  await page.fill('#nt-title', 'New banner');
  await page.fill('#nt-body', 'Summer pickups from Friday.');
  t.regex((await page.textContent('#nt-preview')) ?? '', /\[banner\] New banner/);
  await page.click('form[aria-label="Write a notice"] button[type=submit]');
  await page.waitForSelector('button[aria-label="Withdraw notice 1"]');
  const notices = async () => (await h.call('GET', '/api/notice/get_all')).body['notices'] as unknown[];
  t.like((await notices())[0], { kind: 'banner', title: 'New banner', body: 'Summer pickups from Friday.' });
  await page.click('button[aria-label="Withdraw notice 1"]');
  await page.waitForSelector('td:text("withdrawn")');
  t.deepEqual(await notices(), []);

  // A send recalled.
  await h.call(
    'POST',
    '/admin/presents',
    { playerId: player.playerId, grant: { kind: 'gem', objectId: 0, amount: 9999 }, title: 'By mistake', message: '' },
    { Authorization: `Bearer ${ADMIN}` },
  );
  await page.goto(`${h.url}/admin/#/liveops?t=1`);
  await page.click('button[aria-label="Recall send 1"]');
  await page.waitForSelector('td:text("1 taken back")');
  const box = (await player.get('/api/player/present/get_all')).body['presents'] as Array<{ title: string }>;
  t.false(box.some((p) => p.title === 'By mistake'));

  // Suspend, then lift, from the player screen.
  await page.goto(`${h.url}/admin/#/player/${player.playerId}`);
  await page.waitForSelector('#suspended-now');
  await page.fill('#suspend-reason', 'testing the console');
  await page.click('form[aria-label="Suspend this player"] button[type=submit]');
  await page.waitForSelector('#suspended-now:text("Suspended now")');
  t.like((await player.get('/api/player/get_all')).body, { resultCode: 204, suspendedUntil: null });
  await page.click('#lift-suspension');
  await page.waitForSelector('#suspended-now:text("Not suspended")');
  t.regex((await page.textContent('section[aria-labelledby="suspension-h"]')) ?? '', /testing the console/);
  t.deepEqual(pageErrors, [], 'no script error');
});
