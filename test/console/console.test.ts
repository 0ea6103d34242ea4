// The operator's console in a real headless Chromium (Debian's chromium, driven by
// playwright-core), with the keyboard only: log in with the token, find a player by
// friend code, send them a present after its preview, see it in their gift box,
// end their session, read a gacha's rates, health and master data; a refused token
// and a refused present shown in words.
// One browser, one page, one walk through: a few seconds.
import test from 'ava';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../scripts/lib/browser.js';
import { ADMIN, grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { formatTime, DAY } from '../../core/time.js';

/** Presses Tab until the focus is on `selector`: proof it is reachable by keyboard. */
const tabTo = async (page: Page, selector: string, max = 60): Promise<void> => {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} was not reached with ${max} presses of Tab`);
};
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent ?? '');
const alertText = (page: Page) => page.locator('#error').textContent();

test("an operator finds a player, sends a present, sees it in the gift box, ends a session and reads a gacha's rates, by keyboard", async (t) => {
  t.timeout(90_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  await grant(h, player.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(player);
  t.true((await player.client.drawPlayerGacha({ gachaId: 2, drawType: 3 })).ok);
  const myCode = (
    (await h.call('GET', `/admin/players/${player.playerId}`, undefined, { Authorization: `Bearer ${ADMIN}` })).body[
      'state'
    ] as { myCode: string }
  ).myCode;

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/admin/`);

  // The sign-in's name has the focus; the token's form is reached by keyboard; a wrong token is refused in words.
  await page.waitForSelector('#op-name:focus');
  await tabTo(page, '#token');
  await page.keyboard.type('not-the-token');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#error:not([hidden])');
  t.is(
    await alertText(page),
    'The token was refused: The admin API needs Authorization: Bearer <a session token, a personal token or ADMIN_TOKEN>. (HTTP 401, result code 203)',
  );
  await page.locator('#token').fill('');
  await page.keyboard.type(ADMIN);
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Players")');
  t.is(await focusedText(page), 'Players', "the new screen's heading has the focus");
  t.is(
    await page.evaluate(() => sessionStorage.length + localStorage.length),
    0,
    'the token is kept in the page only, in no storage',
  );

  // Find the player by friend code (the search's first key).
  await tabTo(page, '#find-value');
  await page.keyboard.type(myCode);
  await page.keyboard.press('Enter');
  await tabTo(page, `a[href="#/player/${player.playerId}"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`h1:text("Aki (player ${player.playerId})")`);

  // A present to this player, refused first for its deadline (in words), then previewed and sent.
  await tabTo(page, `a[href="#/presents?playerIds=${player.playerId}"]`);
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Presents")');
  t.is(await page.inputValue('#present-ids'), String(player.playerId));
  await tabTo(page, '#present-title');
  await page.keyboard.type('Console gift');
  await tabTo(page, '#present-deadline');
  await page.keyboard.type('next week');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#present-reach');
  t.is(await page.textContent('#present-reach'), 'This present reaches 1 player of 1 player named.');
  await tabTo(page, '#present-send');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#error:not([hidden])');
  t.regex(
    (await alertText(page)) ?? '',
    /^Invalid parameter deadline: must be a time as 2026-12-31T23:59:59 .* \(HTTP 400, result code 102\)$/,
  );
  const deadline = formatTime(NOW + 7 * DAY, master().game.timezoneOffsetMinutes);
  await page.locator('#present-deadline').fill('');
  await tabTo(page, '#present-deadline');
  await page.keyboard.type(deadline);
  await page.keyboard.press('Enter');
  await page.waitForSelector('#present-send:not([disabled])');
  await tabTo(page, '#present-send');
  t.is(await focusedText(page), 'Send to 1 player');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#present-result');
  t.is(await page.textContent('#present-result'), 'Sent “Console gift” to 1 player.');
  t.true(await page.isHidden('#error'), 'the earlier error is gone');

  // The gift box, on the player's screen and in the player's own answer.
  await tabTo(page, `a[href="#/player/${player.playerId}"]`);
  await page.keyboard.press('Enter');
  const row = page.locator('tr', { hasText: 'Console gift' });
  await row.waitFor();
  const cells = await row.locator('td').allTextContents();
  t.regex(cells[0] ?? '', /^\d+$/, 'its managed id');
  t.deepEqual(cells.slice(1), [
    'Console gift',
    '100 gold',
    'operator',
    formatTime(NOW, master().game.timezoneOffsetMinutes),
    deadline,
  ]);
  const box = await player.client.getAllPlayerPresent();
  if (!box.ok) return t.fail(box.resultMessage);
  t.deepEqual(
    box.value.presents.filter((p) => p.title === 'Console gift').map((p) => p.deadline),
    [deadline],
  );

  // The player's session, ended from the same screen: the player's next request is 203.
  await tabTo(page, '#end-all-sessions');
  await page.keyboard.press('Enter');
  await page.waitForSelector('text=Ended 1 session (all).');
  t.is((await player.get('/api/player/get_all')).status, 401);

  // A gacha's rates: published beside observed, from the navigation.
  await tabTo(page, 'nav a[href="#/gachas"]');
  await page.keyboard.press('Enter');
  await tabTo(page, 'a[href="#/gacha/2"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Standard Gacha (gacha 2)")');
  const rates = (await h.call('GET', '/admin/gachas/2', undefined, { Authorization: `Bearer ${ADMIN}` })).body as {
    published: {
      rarityRates: Array<{ rarity: number; probability: number }>;
      tenDraw: { rarityRates: Array<{ rarity: number; probability: number }> };
    };
    observed: { tenDraw: { rarities: Array<{ rarity: number; pulls: number; low: number; high: number }> } };
  };
  const single = page.locator('table', { has: page.locator('caption', { hasText: 'Rarities per single pull' }) });
  const rows = await single
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)));
  t.deepEqual(
    rows,
    rates.published.rarityRates.map((r) => [`★${r.rarity}`, `${(r.probability * 100).toFixed(2)}%`]),
  );
  const ten = page.locator('table', { has: page.locator('caption', { hasText: 'Rarities per pull of a ten-draw' }) });
  const pulls = await ten.locator('tbody tr td:nth-child(4)').allTextContents();
  t.deepEqual(
    pulls,
    rates.observed.tenDraw.rarities.map((r) => String(r.pulls)),
    "the ten-draw's pulls by rarity, observed",
  );
  // Each observed rate with its 95% interval, and whether the published rate is inside it, in words.
  const pct = (p: number) => `${Number((p * 100).toFixed(p < 0.01 ? 2 : 1))}%`;
  const intervals = await ten
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(4, 6).map((td) => td.textContent)));
  t.deepEqual(
    intervals,
    rates.observed.tenDraw.rarities.map((r) => {
      const p = rates.published.tenDraw.rarityRates.find((x) => x.rarity === r.rarity)!.probability;
      return [`${pct(r.low)}–${pct(r.high)}`, p >= r.low && p <= r.high ? 'consistent' : 'outside the interval'];
    }),
  );
  const words = await page.locator('ul.readings li').allTextContents();
  t.true(
    words.some((w) =>
      /^★5: observed [\d.]+% \(95% interval [\d.]+%–[\d.]+%\) over 10 pulls; (consistent with the published [\d.]+%|outside the interval: the published [\d.]+% is (below|above) it)\.$/.test(
        w,
      ),
    ),
    words.join('\n'),
  );
  t.false(((await page.textContent('body')) ?? '').includes('NaN'), 'no NaN in the tables or charts');

  // Health and master data answer too.
  await tabTo(page, 'nav a[href="#/health"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#readiness');
  t.regex((await page.textContent('#readiness')) ?? '', /^Ready: /);
  await tabTo(page, 'nav a[href="#/master"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#master-hash');
  t.regex((await page.textContent('#master-hash')) ?? '', /^[0-9a-f]{64}$/);

  // Game data: preview the version in force against itself (the same draws: nothing differs).
  await tabTo(page, 'nav a[href="#/gamedata"]');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#master-in-force');
  const inForce = (await page.textContent('#master-in-force')) ?? '';
  await tabTo(page, '#preview-version');
  await page.keyboard.type(inForce);
  for (const [field, value] of [
    ['#preview-players', '1'],
    ['#preview-days', '1'],
    ['#preview-seeds', '2'],
  ] as const) {
    await tabTo(page, field);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(value);
  }
  await page.keyboard.press('Enter');
  await page.waitForSelector('#preview-report');
  t.regex(
    (await page.textContent('#preview-report')) ?? '',
    /1 stored players × 1 days .* 0 of \d+ differences marked/,
  );
  t.deepEqual(pageErrors, [], 'no script error on any screen');
});
