// npm run console:screenshots: the console's screens as PNGs for docs/console.md.
// Starts the app in this process (memory storage, metrics on), makes a small game
// (players who sign up, receive gems, draw and log in twice), then opens each screen
// in headless Chromium (scripts/lib/browser.ts) and saves it under docs/console/.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../adapters/http/app.js';
import { silentLogger } from '../adapters/http/log.js';
import { Metrics } from '../adapters/http/metrics.js';
import { loadMaster, masterSourceOf } from '../adapters/master/load.js';
import { GameService } from '../adapters/service/service.js';
import { MemoryStorage } from '../adapters/storage/memory.js';
import { createClient } from '../client/index.js';
import { formatTime } from '../core/time.js';
import { launchChromium } from './lib/browser.js';
import { cliArgs, int, str } from './args.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const args = cliArgs({
  command: 'npm run console:screenshots --',
  summary: "Takes a screenshot of each screen of the operator's console (docs/console.md), in headless Chromium.",
  options: {
    out: {
      type: 'string',
      value: 'DIR',
      default: 'docs/console',
      description: 'where the PNGs go (relative to the repository)',
    },
    players: {
      type: 'string',
      value: 'N',
      default: '24',
      kind: 'integer',
      min: 1,
      description: 'players in the made-up game',
    },
  },
});
const out = resolve(root, str(args, 'out'));
const players = int(args, 'players');

const TOKEN = 'console-screenshots-token';
const NAMES = ['Aki', 'Haru', 'Mio', 'Ren', 'Sora', 'Yui', 'Kai', 'Nao'];

const master = loadMaster();
const metrics = new Metrics({ processMetrics: false });
const storage = metrics.observeStorage(new MemoryStorage());
const service = new GameService({
  storage,
  master,
  clock: () => Date.now(),
  seedSecret: 'console-screenshots',
  newToken: () => crypto.randomUUID(),
  sessionIdleMs: 86_400_000,
});
const app = createApp(
  service,
  {
    adminToken: TOKEN,
    requestHashSalt: 'console-screenshots',
    requestHashRequired: false,
    bodyLimitBytes: 262_144,
    always200: false,
    serverVersion: 1,
  },
  silentLogger,
  { metrics },
);
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

// The made-up game: sign-ups, gems from the operator, draws of the standard and a pickup gacha, a second log-in each.
let first: { playerId: number; myCode: string } | undefined;
for (let i = 0; i < players; i++) {
  const client = createClient({ baseUrl: url, salt: 'console-screenshots' });
  const uuid = crypto.randomUUID();
  const su = await client.signupPlayer({ uuid, platform: 1, name: NAMES[i % NAMES.length] as string });
  if (!su.ok) throw new Error(`sign-up: ${su.resultMessage}`);
  const li = await client.loginPlayer({ uuid, accessToken: su.value.accessToken });
  if (!li.ok) throw new Error(`log-in: ${li.resultMessage}`);
  await service.operator.sendPresents(
    su.value.playerId,
    { kind: 'gem', objectId: 0, amount: 20_000 },
    { title: 'Launch gems', message: '', deadline: null },
  );
  const box = await client.getAllPlayerPresent();
  if (!box.ok) throw new Error(box.resultMessage);
  await client.getPlayerPresent({ managedPresentId: box.value.presents.map((p) => p.managedPresentId) });
  for (const drawType of [3, 3, 1, 1, 3] as const) await client.drawPlayerGacha({ gachaId: 2, drawType });
  for (const drawType of [3, 1] as const) await client.drawPlayerGacha({ gachaId: 3, drawType });
  await client.loginPlayer({ uuid, accessToken: su.value.accessToken });
  const state = await service.operator.readPlayer(su.value.playerId);
  first ??= { playerId: su.value.playerId, myCode: state?.myCode ?? '' };
}
if (!first) throw new Error('no player made');
/** A draw ticket (the presents screen's example): named on the form and in the preview. */
const ticket = master.items.find((i) => i.category === 'ticket')?.itemId ?? 1;
await service.operator.sendPresents(
  first.playerId,
  { kind: 'item', objectId: master.items[0]?.itemId ?? 1, amount: 3 },
  {
    title: 'Maintenance apology',
    message: 'Sorry for the downtime.',
    deadline: Date.now() + 7 * 86_400_000,
  },
);

// The game data: a pickup price change published and scheduled for tomorrow; another change to upload on the screen.
type Gacha = { gachaId: number; cost: { singleGem: number; tenGem: number } };
const gachasWith = (id: number, cost: Partial<Gacha['cost']>) =>
  (masterSourceOf(master)?.raw['gachas'] as Gacha[]).map((g) =>
    g.gachaId === id ? { ...g, cost: { ...g.cost, ...cost } } : g,
  );
const admin = async (path: string, body: unknown) => {
  const r = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, unknown>;
};
const pickup = await admin('/admin/master/versions', {
  files: { 'gachas.json': JSON.stringify(gachasWith(3, { singleGem: 200, tenGem: 2000 })) },
  note: 'Pickup price from Monday',
});
await admin('/admin/master/schedule', {
  version: pickup['version'],
  at: formatTime(Date.now() + 86_400_000, master.game.timezoneOffsetMinutes),
  note: 'Pickup price from Monday',
});
const upload = join(mkdtempSync(join(tmpdir(), 'hoshi-shots-')), 'gachas.json');
writeFileSync(upload, JSON.stringify(gachasWith(2, { tenGem: 1350 })));

mkdirSync(out, { recursive: true });
const browser = await launchChromium();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const shot = async (name: string) => {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true });
  process.stdout.write(`${name}.png\n`);
};
try {
  await page.goto(`${url}/admin/`);
  await page.waitForSelector('#op-name:focus');
  await shot('login');
  await page.fill('#token', TOKEN);
  await page.focus('#token');
  await page.keyboard.press('Enter');
  await page.waitForSelector('h1:text("Players")');
  await page.goto(`${url}/admin/#/players?myCode=${first.myCode}`);
  await page.waitForSelector('table');
  await shot('players');
  await page.goto(`${url}/admin/#/player/${first.playerId}`);
  await page.waitForSelector('#draws-h');
  await page.waitForSelector('text=Draws, newest first');
  await shot('player');
  await page.goto(`${url}/admin/#/presents?playerIds=${first.playerId}`);
  await page.waitForSelector('#present-title');
  // An item, named from the game data as its id is typed.
  await page.selectOption('#present-kind', 'item');
  await page.fill('#present-object', String(ticket));
  await page.fill('#present-amount', '5');
  await page.fill('#present-title', 'Weekend bonus');
  await page.fill('#present-message', 'Thank you for playing!');
  await page.fill('#present-deadline', formatTime(Date.now() + 3 * 86_400_000, master.game.timezoneOffsetMinutes));
  await page.click('button[type=submit]');
  await page.waitForSelector('#present-send:not([disabled])');
  await shot('presents');
  await page.goto(`${url}/admin/#/gachas`);
  await page.waitForSelector('a[href="#/gacha/2"]');
  await shot('gachas');
  await page.goto(`${url}/admin/#/gacha/3`);
  await page.waitForSelector('#single-h');
  await shot('gacha');
  await page.goto(`${url}/admin/#/health`);
  await page.waitForSelector('#readiness');
  await shot('health');
  await page.goto(`${url}/admin/#/master`);
  await page.waitForSelector('#master-hash');
  await shot('master');
  await page.goto(`${url}/admin/#/gamedata`);
  await page.waitForSelector('#master-in-force');
  await page.setInputFiles('#master-files', upload);
  await page.fill('#master-note', 'Standard ten-draw discount');
  await page.click('form[aria-label="Publish a version"] button[type=submit]');
  await page.waitForSelector('#master-diff');
  await shot('gamedata');
  // The scheduled pickup price previewed on the stored players.
  await page.fill('#preview-version', String(pickup['version']));
  await page.fill('#preview-players', '50');
  await page.fill('#preview-seeds', '5');
  await page.click('form[aria-label="Preview a version"] button[type=submit]');
  await page.waitForSelector('#preview-report', { timeout: 120_000 });
  await page.locator('#preview-result').scrollIntoViewIfNeeded();
  await shot('gamedata-preview');
  // The live game: a maintenance window to come, a notice, a send (recalled).
  await admin('/admin/maintenance', {
    from: formatTime(Date.now() + 2 * 86_400_000, master.game.timezoneOffsetMinutes),
    until: formatTime(Date.now() + 2 * 86_400_000 + 7_200_000, master.game.timezoneOffsetMinutes),
    message: 'Upgrading the servers. Back in two hours.',
    allowPlayerIds: [first.playerId],
  });
  await admin('/admin/notices', {
    kind: 'banner',
    title: 'Summer pickups',
    body: 'From Friday: three new characters.',
  });
  const oops = await admin('/admin/presents', {
    all: true,
    grant: { kind: 'gem', objectId: 0, amount: 50_000 },
    title: 'Compensation',
    message: 'Sent by mistake.',
  });
  await admin('/admin/presents/recall', { sendId: oops['sendId'] });
  await page.goto(`${url}/admin/#/liveops`);
  await page.waitForSelector('#mt-now');
  await page.fill('#nt-title', 'Maintenance on Tuesday');
  await page.fill('#nt-body', 'From 02:00 to 04:00.');
  await shot('liveops');
  // Operators and the audit trail (ADMIN_TOKEN's writes above are in it).
  await admin('/admin/operators', { name: 'aki.support', role: 'support', password: 'a long enough password' });
  await admin('/admin/operators', { name: 'ren.design', role: 'designer', password: 'a long enough password' });
  await page.goto(`${url}/admin/#/operators`);
  await page.waitForSelector('#token-name');
  await shot('operators');
  await page.goto(`${url}/admin/#/audit`);
  await page.waitForSelector('#audit-action');
  await shot('audit');
  // An operator API error, in words: an unknown player.
  await page.goto(`${url}/admin/#/player/99999`);
  await page.waitForSelector('#error:not([hidden])');
  await shot('error');
} finally {
  await browser.close();
  server.closeAllConnections();
  server.close();
}
