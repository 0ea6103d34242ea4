// The console names what players hold and presents grant, from the game data
// (GET /admin/master/names), with the id beside the name: the player screen's
// characters, weapons, items and gift box, the present form and its preview, and the
// live-game screen's sends. The present preview refuses an item the game data lacks
// with the send's own error, before anything can be sent.
import test from 'ava';
import { launchChromium } from '../../scripts/lib/browser.js';
import { ADMIN, grant, receiveAllHttp, signupLogin, startHarness } from '../_support/http.js';
import { master } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';

const auth = { Authorization: `Bearer ${ADMIN}` };

test('the player screen, the present form and the sends name characters, weapons and items; the preview refuses an unknown item as the send does', async (t) => {
  t.timeout(90_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  const m = master();
  const weapon = [...m.weapon.values()][0] as { weaponId: number; name: string };
  await grant(h, player.playerId, 'weapon', weapon.weaponId, 1);
  await grant(h, player.playerId, 'gem', 0, 10_000);
  await receiveAllHttp(player);
  t.true((await player.client.drawPlayerGacha({ gachaId: 2, drawType: 1 })).ok);
  await grant(h, player.playerId, 'item', 9001, 2);
  const stateOf = async () =>
    (await h.call('GET', `/admin/players/${player.playerId}`, undefined, auth)).body['state'] as PlayerState;
  const s = await stateOf();
  const character = s.characters[0] as { characterId: number };
  const item = s.items.find((i) => i.itemId !== 9001) as { itemId: number };
  const nameOf = (rows: ReadonlyMap<number, { name: string }>, id: number) => (rows.get(id) as { name: string }).name;

  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  await page.goto(`${h.url}/admin/`);
  await page.fill('#token', ADMIN);
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Players")');

  // The player screen: each table names its things, the id beside the name.
  await page.goto(`${h.url}/admin/#/player/${player.playerId}`);
  await page.waitForSelector(`h1:text("Aki (player ${player.playerId})")`);
  const cellsOf = (caption: string) =>
    page.locator('table', { has: page.locator(`caption:text-matches("^${caption}")`) }).locator('tbody td');
  const characters = await cellsOf('Characters').allTextContents();
  t.true(
    characters.includes(`${nameOf(m.character, character.characterId)} (${character.characterId})`),
    characters.join(' | '),
  );
  t.true((await cellsOf('Weapons').allTextContents()).includes(`${weapon.name} (${weapon.weaponId})`));
  t.true((await cellsOf('Items').allTextContents()).includes(`${nameOf(m.item, item.itemId)} (${item.itemId})`));
  t.true((await cellsOf('Presents waiting').allTextContents()).includes('Prism Shard (item 9001) × 2'));

  // The present form names the object as it is typed; an unknown item is refused at the preview.
  await page.goto(`${h.url}/admin/#/presents?playerIds=${player.playerId}`);
  await page.waitForSelector('h1:text("Presents")');
  await page.selectOption('#present-kind', 'item');
  await page.fill('#present-object', '999999');
  t.is(await page.textContent('#present-object-name'), 'no item 999999 in the game data');
  await page.fill('#present-amount', '3');
  await page.fill('#present-title', 'Named gift');
  await page.click('form button[type=submit]');
  await page.waitForSelector('#error:not([hidden])');
  const send = await h.call(
    'POST',
    '/admin/presents',
    {
      playerId: player.playerId,
      grant: { kind: 'item', objectId: 999999, amount: 3 },
      title: 'Named gift',
      message: '',
    },
    auth,
  );
  t.is(send.body['resultCode'], 107);
  t.is(
    await page.textContent('#error'),
    `${send.body['resultMessage'] as string} (HTTP 404, result code 107)`,
    "the preview's refusal is the send's",
  );
  t.is(await page.locator('#present-send:not([disabled])').count(), 0, 'nothing to send');
  t.deepEqual(await stateOf(), s, 'nothing changed');

  await page.fill('#present-object', '9001');
  t.is(await page.textContent('#present-object-name'), 'Prism Shard');
  await page.click('form button[type=submit]');
  await page.waitForSelector('#present-send:not([disabled])');
  t.true(await page.isHidden('#error'));
  t.is(await page.textContent('#present-what'), '“Named gift”: Prism Shard (item 9001) × 3, no deadline.');
  await page.click('#present-send');
  await page.waitForSelector('#present-result');

  // The live-game screen's sends name what each granted.
  await page.goto(`${h.url}/admin/#/liveops`);
  await page.waitForSelector('h2:text("Present sends")');
  const sends = await cellsOf('Sends').allTextContents();
  t.true(sends.includes('Prism Shard (item 9001) × 3'), sends.join(' | '));
  t.true(sends.includes(`${weapon.name} (weapon ${weapon.weaponId}) × 1`));
  t.deepEqual(pageErrors, [], 'no script error');
});
