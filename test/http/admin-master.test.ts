// The game data's versions through the operator API: a version published is validated
// as start-up validates (a bad file refused by file and field, nothing kept) and
// answered with what it changes; a scheduled version serves every request from its
// instant on (by the request's time), with no restart; a scheduled entry can be
// cancelled before its time; rolling back is scheduling the earlier version.
import { createHash } from 'node:crypto';
import test from 'ava';
import { ADMIN, grant, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { formatTime, HOUR } from '../../core/time.js';
import type { Master } from '../../core/master/index.js';
import { replayLog } from '../../adapters/service/replay.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const auth = { Authorization: `Bearer ${ADMIN}` };
const get = (h: Harness, path: string) => h.call('GET', path, undefined, auth);
const post = (h: Harness, path: string, body: unknown) => h.call('POST', path, body, auth);
const OFFSET = master().game.timezoneOffsetMinutes;
const at = (ms: number) => formatTime(ms, OFFSET);
/** Well within a session's idle time: the player's session lives through the test. */
const SOON = 10 * 60_000;

type Gacha = { gachaId: number; cost: { singleGem: number }; limits: { perDay: number | null } };
/** The fixtures' gachas with gacha 4's single draw at `price` gems (and, `often`, no daily limit). */
const gachasPriced = (price: number, often = false): Gacha[] =>
  (structuredClone(masterSourceOf(master())?.raw['gachas']) as Gacha[]).map((g) =>
    g.gachaId === 4
      ? { ...g, cost: { ...g.cost, singleGem: price }, limits: often ? { ...g.limits, perDay: null } : g.limits }
      : g,
  );
type Listing = {
  inForce: string;
  scheduled: Array<{ id: number }>;
  history: Array<{ id: number; cancelledAt: string | null }>;
  versions: Array<{ version: string; note: string }>;
};
const listing = async (h: Harness) => (await get(h, '/admin/master')).body['versions'] as Listing;

/** A player with gems, and what one single draw of gacha 4 costs it now. */
const drawCost = async (c: Awaited<ReturnType<typeof signupLogin>>) => {
  const gems = async () => ((await c.get('/api/player/get_all')).body['player'] as { gem: number }).gem;
  const before = await gems();
  const r = await c.post('/api/player/gacha/draw', { gachaId: 4, drawType: 1 });
  if (r.body['resultCode'] !== 0) throw new Error(`draw failed: ${JSON.stringify(r.body)}`);
  return before - (await gems());
};

test('a published price change is answered with what it changes, and serves nothing until scheduled', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const base = (await listing(h)).inForce;
  const r = await post(h, '/admin/master/versions', {
    files: { 'gachas.json': JSON.stringify(gachasPriced(70)) },
    note: 'gacha 4 dearer',
  });
  t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
  t.regex(r.body['version'] as string, /^[0-9a-f]{64}$/);
  t.not(r.body['version'], base);
  t.false(r.body['alreadyKept'] as boolean);
  t.deepEqual(r.body['diff'], [{ file: 'gachas.json', changes: ['gacha 4: cost.singleGem 50 → 70'] }]);
  const l = await listing(h);
  t.is(l.inForce, base, 'publishing alone changes nothing served');
  t.true(l.versions.some((v) => v.version === r.body['version'] && v.note === 'gacha 4 dearer'));
  const again = await post(h, '/admin/master/versions', {
    files: { 'gachas.json': JSON.stringify(gachasPriced(70)) },
    note: 'again',
  });
  t.like(again.body, { resultCode: 0, version: r.body['version'], alreadyKept: true });
});

test('a bad file is refused naming the file and the field, and nothing is kept', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const before = (await listing(h)).versions.length;
  const bad = gachasPriced(70).map((g) => (g.gachaId === 4 ? { ...g, cost: { ...g.cost, singleGem: 'seventy' } } : g));
  const r = await post(h, '/admin/master/versions', { files: { 'gachas.json': JSON.stringify(bad) }, note: '' });
  t.is(r.body['resultCode'], 102);
  t.regex(r.body['resultMessage'] as string, /gachas\.json/);
  t.regex(r.body['resultMessage'] as string, /singleGem/);
  const unknown = await post(h, '/admin/master/versions', { files: { 'nope.json': '[]' }, note: '' });
  t.is(unknown.body['resultCode'], 102);
  t.regex(unknown.body['resultMessage'] as string, /nope\.json/);
  t.is((await listing(h)).versions.length, before, 'nothing kept');
});

test('a scheduled version serves every request from its instant on; cancelled before its time it never does; rolling back restores the price', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await grant(h, c.playerId, 'gem', 0, 5000);
  await receiveAllHttp(c);
  const version = async (price: number) =>
    (
      await post(h, '/admin/master/versions', {
        files: { 'gachas.json': JSON.stringify(gachasPriced(price, true)) },
        note: '',
      })
    ).body['version'] as string;
  // A version where gacha 4 can be drawn any number of times a day, in force now.
  const base = await version(50);
  t.is((await post(h, '/admin/master/schedule', { version: base })).body['resultCode'], 0);
  const dear = await version(70);
  const s = await post(h, '/admin/master/schedule', { version: dear, at: at(NOW + SOON), note: 'at the hour' });
  t.is(s.body['resultCode'], 0, JSON.stringify(s.body));
  t.like(s.body, { version: dear, at: at(NOW + SOON), by: 'admin', cancelledAt: null });
  t.deepEqual(
    (await listing(h)).scheduled.map((e) => e.id),
    [s.body['id']],
  );
  h.clock.now = NOW + SOON - 1;
  t.is(await drawCost(c), 50, 'a request a millisecond before the instant: the price in force before');
  h.clock.now = NOW + SOON;
  t.is(await drawCost(c), 70, 'from the instant on: the new price, no restart');
  t.is((await listing(h)).inForce, dear);
  // A change scheduled and cancelled before its time never serves.
  const cheap = await version(10);
  const later = await post(h, '/admin/master/schedule', { version: cheap, at: at(NOW + 3 * SOON) });
  const cancelled = await post(h, `/admin/master/schedule/${later.body['id'] as number}/cancel`, {});
  t.is(cancelled.body['resultCode'], 0, JSON.stringify(cancelled.body));
  t.like((await post(h, `/admin/master/schedule/${later.body['id'] as number}/cancel`, {})).body, { resultCode: 107 });
  t.like(
    (await post(h, `/admin/master/schedule/${s.body['id'] as number}/cancel`, {})).body,
    { resultCode: 107 },
    'one in force is not cancelled: it is rolled back',
  );
  h.clock.now = NOW + 3 * SOON;
  t.is(await drawCost(c), 70);
  // Rolling back: the earlier version scheduled now.
  t.is((await post(h, '/admin/master/schedule', { version: base })).body['resultCode'], 0);
  t.is(await drawCost(c), 50);
  const l = await listing(h);
  t.is(l.inForce, base);
  t.is(l.history.length, 4);
  t.deepEqual(
    l.history.filter((e) => e.cancelledAt !== null).map((e) => e.id),
    [later.body['id'] as number],
  );
  // The replay runs each entry with the version it names, and rebuilds the player byte for byte.
  const log = await h.storage.readLog();
  const named = [...new Set(log.map((e) => e.masterHash))];
  t.true(named.length >= 3, 'the entries name the versions they ran with');
  const masters = new Map<string, Master>();
  for (const hx of named) masters.set(hx, (await h.service.book.version(hx)) as Master);
  const out = replayLog(log, (hx) => masters.get(hx) as Master);
  t.deepEqual(out.differences, []);
  t.is(JSON.stringify(out.states.get(c.playerId)), JSON.stringify(await h.storage.load(c.playerId)));
});

test('a schedule names a kept version and an instant not past', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const base = (await listing(h)).inForce;
  t.like((await post(h, '/admin/master/schedule', { version: 'f'.repeat(64) })).body, { resultCode: 107 });
  t.like((await post(h, '/admin/master/schedule', { version: 'nope' })).body, { resultCode: 102 });
  t.like((await post(h, '/admin/master/schedule', { version: base, at: at(NOW - HOUR) })).body, { resultCode: 102 });
  t.like((await post(h, '/admin/master/schedule', { version: base, at: 'tomorrow' })).body, { resultCode: 102 });
  t.deepEqual((await listing(h)).history, [], 'nothing scheduled');
});

type Priced = { gachaId: number; cost: { singleGem: number; tenGem: number } };
/** The fixtures' gachas with gacha 3 (the profiles' gacha) at a tenth of its price. */
const gacha3Cheap = (): Priced[] =>
  (structuredClone(masterSourceOf(master())?.raw['gachas']) as Priced[]).map((g) =>
    g.gachaId === 3 ? { ...g, cost: { ...g.cost, singleGem: 15, tenGem: 150 } } : g,
  );
type Row = { metric: string; profile: string | null; a: number; b: number; diff: number; marked: boolean };
const row = (rows: Row[], metric: string) => rows.find((r) => r.metric === metric && r.profile === null) as Row;

test('a preview runs the profiles over the stored players under both versions: the version in force against itself differs nowhere, a cheaper gacha spends fewer gems a draw, and the same request answers the same', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (let i = 0; i < 4; i++) await receiveAllHttp(await signupLogin(h));
  const base = (await listing(h)).inForce;
  const same = await post(h, '/admin/master/preview', { version: base, players: 4, days: 3, seeds: 2 });
  t.is(same.body['resultCode'], 0, JSON.stringify(same.body));
  t.like(same.body, { inForce: base, candidate: base, players: 4, days: 3, seeds: 2 });
  const sameRows = same.body['rows'] as Row[];
  t.true(sameRows.length > 40);
  t.true(
    sameRows.every((r) => r.diff === 0 && !r.marked),
    'the same numbers on the same draws differ nowhere',
  );
  t.is((same.body['testing'] as { marked: number }).marked, 0);

  const cheap = await post(h, '/admin/master/versions', {
    files: { 'gachas.json': JSON.stringify(gacha3Cheap()) },
    note: 'gacha 3 at a tenth',
  });
  const version = cheap.body['version'] as string;
  const ask = { version, players: 4, days: 3, seeds: 2, seed: 'p' };
  const r = await post(h, '/admin/master/preview', ask);
  t.is(r.body['resultCode'], 0, JSON.stringify(r.body));
  const rows = r.body['rows'] as Row[];
  const draws = row(rows, 'draws per player');
  const spent = row(rows, 'free gems spent per player');
  t.true(draws.b >= draws.a, 'at a tenth of the price nobody draws less');
  t.true(spent.b / Math.max(1, draws.b) < spent.a / Math.max(1, draws.a), 'fewer gems spent a draw');
  const again = await post(h, '/admin/master/preview', ask);
  t.deepEqual(again.body['rows'], rows, 'the same request, players and versions: the same report');
  t.is((await listing(h)).inForce, base, 'a preview changes nothing served');
});

test('a preview names a kept version and stays within its bounds; a refused one changes nothing', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const before = await listing(h);
  const unknown = await post(h, '/admin/master/preview', { version: 'a'.repeat(64) });
  t.like(unknown.body, { resultCode: 107 });
  t.is(unknown.status, 404);
  for (const bad of [
    { version: before.inForce, players: 0 },
    { version: before.inForce, days: 31 },
    { version: before.inForce, seeds: 1 },
    { version: 'v1' },
    {},
  ]) {
    const r = await post(h, '/admin/master/preview', bad);
    t.true([102, 103].includes(r.body['resultCode'] as number), JSON.stringify(bad));
  }
  t.deepEqual(await listing(h), before);
});

test('a publish is logged with its files by size and hash, not their whole text; its diff in full', async (t) => {
  const lines: Array<{ event: string; data: Record<string, unknown> }> = [];
  const h = await startHarness({ log: (_level, event, data = {}) => void lines.push({ event, data }) });
  t.teardown(() => h.close());
  const text = JSON.stringify(gachasPriced(70));
  await post(h, '/admin/master/versions', { files: { 'gachas.json': text }, note: 'dearer' });
  const [action] = lines.filter((l) => l.event === 'admin.action').map((l) => l.data);
  t.like(action, {
    action: 'adminPublishMaster',
    request: {
      note: 'dearer',
      files: { 'gachas.json': `(${text.length} characters, sha256 ${sha256(text).slice(0, 16)})` },
    },
    answer: { diff: [{ file: 'gachas.json', changes: ['gacha 4: cost.singleGem 50 → 70'] }] },
  });
  t.false(JSON.stringify(lines).includes(text.slice(0, 200)));
});
