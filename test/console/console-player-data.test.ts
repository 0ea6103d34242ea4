// A player's data through the console in a real headless Chromium (docs/privacy.md): on the
// player's screen, Export downloads the versioned document (the stored state as the API
// answers it); the Import form sends it back as a new player bound to a uuid (its id and
// token shown) and, confirmed, over the same player; a malformed document is refused in
// words naming the field, and nothing changes.
import test from 'ava';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { launchChromium } from '../../scripts/lib/browser.js';
import { ADMIN, grant, newUuid, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';

const admin = { Authorization: `Bearer ${ADMIN}` };

/** Presses Tab until the focus is on `selector`: proof it is reachable by keyboard. */
const tabTo = async (page: Page, selector: string, max = 80): Promise<void> => {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} was not reached with ${max} presses of Tab`);
};

test("an operator exports a player's data and imports it as a new player, then over the same player; a malformed one is refused", async (t) => {
  t.timeout(90_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  await grant(h, player.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(player);
  t.true((await player.client.drawPlayerGacha({ gachaId: 2, drawType: 3 })).ok);
  const stored = async (id: number) =>
    (await h.call('GET', `/admin/players/${id}`, undefined, admin)).body['state'] as Record<string, unknown>;

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage({ acceptDownloads: true });
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/admin/#/player/${player.playerId}`);
  // The sign-in form comes first; the token's form is reached by keyboard.
  await page.waitForSelector('#op-name:focus');
  await tabTo(page, '#token');
  await page.keyboard.type(ADMIN);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`h1:text("Aki (player ${player.playerId})")`);

  // Export: a download of the document.
  await tabTo(page, '#export-player');
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  t.is(download.suggestedFilename(), `player-${player.playerId}.json`);
  const doc = JSON.parse(readFileSync(await download.path(), 'utf8')) as Record<string, unknown>;
  t.deepEqual(Object.keys(doc).sort(), ['exportedAt', 'format', 'masterVersion', 'playerId', 'state', 'version']);
  t.like(doc, { format: 'hoshi-player', version: 1, playerId: player.playerId });
  t.deepEqual(doc['state'], await stored(player.playerId));
  await page.waitForSelector(`text=Exported player ${player.playerId} (document version 1)`);

  // Import as a new player, bound to a uuid given.
  const file = (value: unknown, name = `player-${player.playerId}.json`) => ({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(value)),
  });
  await page.setInputFiles('#import-file', file(doc));
  const uuid = newUuid();
  await tabTo(page, '#import-uuid');
  await page.keyboard.type(uuid);
  await tabTo(page, '#import-player');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#import-token');
  const said = (await page.textContent('[role="status"].ok')) ?? '';
  const m = /^Imported player-\d+\.json as player (\d+), bound to (.+)\.$/.exec(said);
  t.truthy(m, said);
  t.is(m?.[2], uuid);
  const token = (await page.textContent('#import-token')) ?? '';
  const login = await h.call('POST', '/api/player/login', { uuid, accessToken: token, platform: 1 });
  t.is(login.body['playerId'], Number(m?.[1]), 'the new player logs in with the uuid and the token shown');
  t.deepEqual((await stored(Number(m?.[1])))['characters'], (doc['state'] as Record<string, unknown>)['characters']);

  // A malformed document: refused in words, nothing changes.
  const ids = JSON.stringify(await h.storage.playerIds());
  await page.setInputFiles(
    '#import-file',
    file({ ...doc, state: { ...(doc['state'] as object), gold: 'lots' } }, 'broken.json'),
  );
  await page.locator('#import-uuid').fill('');
  await tabTo(page, '#import-player');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#error:not([hidden])');
  t.is(
    await page.textContent('#error'),
    'Invalid parameter document.state.gold: must be number. (HTTP 400, result code 102)',
  );
  t.is(JSON.stringify(await h.storage.playerIds()), ids);

  // Over the same player, confirmed: its gems back to the document's.
  await grant(h, player.playerId, 'gem', 0, 777);
  await receiveAllHttp(player);
  t.not((await stored(player.playerId))['gem'], (doc['state'] as Record<string, unknown>)['gem']);
  await page.setInputFiles('#import-file', file(doc));
  await tabTo(page, '#import-overwrite');
  await page.keyboard.press('Space');
  await tabTo(page, '#import-player');
  await page.keyboard.press('Enter');
  await page.waitForSelector(`text=Player ${player.playerId} overwritten with player-${player.playerId}.json`);
  t.true(await page.isHidden('#error'));
  t.is((await stored(player.playerId))['gem'], (doc['state'] as Record<string, unknown>)['gem']);
  t.deepEqual(pageErrors, []);
});
