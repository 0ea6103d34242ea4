// The console with operators by name, in a real headless Chromium: a viewer signs in
// by name and password, sees who it is, and is not offered what its role cannot do
// (sending presents, suspending, the audit); its Log out ends the session on the
// server; an administrator reads the audit trail with a filter and makes a token.
import test from 'ava';
import { launchChromium } from '../../scripts/lib/browser.js';
import { signupLogin, startHarness } from '../_support/http.js';
import { adminAuth, makeOperator, PASSWORD } from '../_support/operators.js';

test('a viewer is offered only reads and signs out on the server; an administrator reads the audit and makes a token', async (t) => {
  t.timeout(90_000);
  const h = await startHarness();
  t.teardown(() => h.close());
  const player = await signupLogin(h);
  await makeOperator(h, 'kai', 'viewer');
  await makeOperator(h, 'boss', 'admin');
  const browser = await launchChromium();
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  const signIn = async (name: string) => {
    await page.goto(`${h.url}/admin/`);
    await page.waitForSelector('#op-name:focus');
    t.true(await page.locator('#nav').isHidden(), 'no navigation before log-in');
    await page.fill('#op-name', name);
    await page.fill('#op-password', PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForSelector('h1:text("Players")');
  };

  await page.goto(`${h.url}/admin/`);
  await page.fill('#op-name', 'kai');
  await page.fill('#op-password', 'not the password at all');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#error:not([hidden])');
  t.regex((await page.textContent('#error')) ?? '', /The name or password was refused/);

  await signIn('kai');
  t.is(await page.textContent('#whoami'), 'kai (viewer)');
  t.true(await page.locator('nav a[href="#/presents"]').isHidden(), 'no presents for a viewer');
  t.true(await page.locator('nav a[href="#/audit"]').isHidden());
  await page.goto(`${h.url}/admin/#/player/${player.playerId}`);
  await page.waitForSelector('#suspended-now');
  t.true(await page.locator('form[aria-label="Suspend this player"]').isHidden(), 'no suspension for a viewer');
  await page.click('#logout');
  await page.waitForSelector('#op-name');
  const out = (await h.call('GET', '/admin/audit?action=adminSignOut', undefined, adminAuth)).body['entries'];
  t.like(
    (out as unknown[])[0],
    { operator: 'kai', via: 'session', resultCode: 0 },
    'Log out ended the session on the server',
  );

  await signIn('boss');
  await h.call('POST', `/admin/players/${player.playerId}/suspend`, { reason: 'audit me' }, adminAuth);
  await page.goto(`${h.url}/admin/#/audit`);
  await page.waitForSelector('#audit-action');
  await page.fill('#audit-action', 'adminSuspend');
  await page.click('form[aria-label="Filter the audit trail"] button[type=submit]');
  await page.waitForSelector('caption:text("Operator writes, newest first: 1")');
  t.regex((await page.textContent('table')) ?? '', /admin \(bootstrap\).*adminSuspend.*audit me/s);
  await page.goto(`${h.url}/admin/#/operators`);
  await page.waitForSelector('#token-name');
  await page.fill('#token-name', 'nightly report');
  await page.click('form[aria-label="Make a personal token"] button[type=submit]');
  await page.waitForSelector('#token-value');
  const made = (await page.textContent('#token-value')) ?? '';
  t.like((await h.call('GET', '/admin/me', undefined, { Authorization: `Bearer ${made}` })).body, {
    name: 'boss',
    via: 'token',
  });
  t.deepEqual(pageErrors, [], 'no script error');
});
