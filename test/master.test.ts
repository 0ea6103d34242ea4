// Master data: the bundled fixtures are valid and large enough; a bad file stops
// the server with a message naming the file and the field; data of an older shape
// loads with later additions at their defaults; MASTER_DIR switches sets.
import test from 'ava';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FIXTURES, loadMaster, MasterDataError } from '../adapters/master/load.js';
import { LOGIN_BONUS_DEFAULT, ORIGINAL_DEFAULT } from '../core/master/defaults.js';
import { startChild } from './_support/child.js';

const root = fileURLToPath(new URL('../', import.meta.url));

const copyFixtures = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-master-'));
  cpSync(DEFAULT_FIXTURES, dir, { recursive: true });
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const edit = (dir: string, file: string, f: (x: unknown) => void) => {
  const path = join(dir, file);
  const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  f(data);
  writeFileSync(path, JSON.stringify(data));
};

test('the bundled master data is valid, original and large enough to exercise the rules', (t) => {
  const m = loadMaster();
  t.true(m.titles.length >= 30);
  for (const title of m.titles) {
    const chars = m.characters.filter((c) => c.titleId === title.titleId);
    t.true(chars.length >= 4, title.name);
    t.deepEqual([...new Set(chars.map((c) => c.rarity))].sort(), [3, 4, 5], title.name);
  }
  t.is(m.classes.length, 5);
  t.is(m.elements.length, 5);
  const kinds = new Set(m.gachas.map((g) => g.kind));
  t.true(kinds.has('firstTime') && kinds.has('standard') && kinds.has('pickup'));
  t.true(
    m.gachas.some((g) => g.reDraw),
    'a re-draw gacha',
  );
  t.true(
    m.gachas.some((g) => g.targets.length > 0 && g.cost.ticketItemId !== null),
    'a pickup gacha with targets and a ticket',
  );
  t.true(
    m.gachas.some((g) => g.period.end !== null && g.period.end < '2026'),
    'one out of period',
  );
  const welcome = m.welcome.map((w) => w.grant);
  t.true(
    welcome.some(
      (g) => g.kind === 'gem' && g.amount >= Math.min(...m.gachas.map((x) => x.cost.tenGem).filter((x) => x > 0)),
    ),
    'gems for a ten-draw',
  );
  t.true(welcome.some((g) => g.kind === 'gold'));
  t.true(welcome.some((g) => g.kind === 'item' && m.item.get(g.objectId)?.category === 'ticket'));
});

test('a bad field is reported with its file and path', (t) => {
  const dir = copyFixtures(t);
  edit(dir, 'gachas.json', (g) => {
    (g as Array<{ rates: Array<{ weight: number }> }>)[2]!.rates[0]!.weight = -1;
  });
  const e = t.throws(() => loadMaster(dir), { instanceOf: MasterDataError });
  t.regex(e?.message ?? '', /gachas\.json: 2\.rates\.0\.weight: must be a positive integer/);
});

test('broken references are reported with their file and path', (t) => {
  const dir = copyFixtures(t);
  edit(dir, 'gachas.json', (g) => {
    (g as Array<{ pool: number[] }>)[1]!.pool.push(424242);
  });
  edit(dir, 'characters.json', (c) => {
    (c as Array<{ titleId: number }>)[0]!.titleId = 999;
  });
  const e = t.throws(() => loadMaster(dir), { instanceOf: MasterDataError });
  t.regex(e?.message ?? '', /gachas\.json: 1\.pool\.\d+: unknown character 424242/);
  t.regex(e?.message ?? '', /characters\.json: 0\.titleId: unknown title 999/);
});

test('a missing or unparsable file is reported by name', (t) => {
  const dir = copyFixtures(t);
  rmSync(join(dir, 'titles.json'));
  writeFileSync(join(dir, 'welcome.json'), '{ not json');
  const e = t.throws(() => loadMaster(dir), { instanceOf: MasterDataError });
  t.regex(e?.message ?? '', /titles\.json: \(file\): file is missing/);
  t.regex(e?.message ?? '', /welcome\.json: \(file\)/);
});

test('master data of an older shape loads: what later versions added and it lacks gets its documented default', (t) => {
  // As written before issue 21: no original.json, missions.json, questChapters.json,
  // advScenes.json or stamina items; the tutorial's maxStep; quests without advOnly;
  // and before issue 32: no loginBonus.json.
  const dir = copyFixtures(t);
  for (const f of [
    'original.json',
    'missions.json',
    'questChapters.json',
    'advScenes.json',
    'items/original.json',
    'loginBonus.json',
  ])
    rmSync(join(dir, f));
  edit(dir, 'game.json', (g) => {
    const tut = (g as { tutorial: Record<string, unknown> }).tutorial;
    tut['maxStep'] = 7;
    delete tut['lastStep'];
  });
  edit(dir, 'quests.json', (qs) => {
    for (const q of qs as Array<Record<string, unknown>>) delete q['advOnly'];
  });
  const m = loadMaster(dir);
  t.is(m.game.tutorial.lastStep, 7, 'derived from maxStep');
  t.true(m.quests.every((q) => q.advOnly === false));
  t.deepEqual([m.missions, m.questChapters, m.advScenes], [[], [], []]);
  t.deepEqual(m.original, ORIGINAL_DEFAULT);
  t.false(m.items.some((i) => i.category === 'stamina'));
  t.deepEqual(m.loginBonus, LOGIN_BONUS_DEFAULT, 'no calendar: log-ins give and track nothing');
});

test('data of a later shape that is there but wrong is still refused, naming the file and field', (t) => {
  const dir = copyFixtures(t);
  edit(dir, 'original.json', (o) => {
    (o as { stamina: { gemPrice: unknown } }).stamina.gemPrice = 'cheap';
  });
  edit(dir, 'quests.json', (qs) => {
    (qs as Array<Record<string, unknown>>)[0]!['advOnly'] = 'yes';
  });
  edit(dir, 'game.json', (g) => {
    delete (g as { tutorial: Record<string, unknown> }).tutorial['lastStep'];
  });
  edit(dir, 'loginBonus.json', (c) => {
    delete (c as Record<string, unknown>)['total'];
  });
  const e = t.throws(() => loadMaster(dir), { instanceOf: MasterDataError });
  t.regex(e?.message ?? '', /original\.json: stamina\.gemPrice/);
  t.regex(e?.message ?? '', /quests\.json: 0\.advOnly/);
  t.regex(e?.message ?? '', /game\.json: tutorial\.lastStep/, 'neither lastStep nor maxStep');
  t.regex(e?.message ?? '', /loginBonus\.json: total/, 'a file that is there is whole: no track is filled in');
});

test('the server refuses to start on bad master data, naming the file and field', (t) => {
  const dir = copyFixtures(t);
  edit(dir, 'game.json', (g) => {
    (g as { stamina: { regenSeconds: unknown } }).stamina.regenSeconds = 'soon';
  });
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'adapters/http/main.ts'], {
    cwd: root,
    env: { ...process.env, MASTER_DIR: dir, STORAGE: 'memory', PORT: '0', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  t.is(r.status, 2);
  t.regex(r.stderr, /game\.json: stamina\.regenSeconds/);
});

test('MASTER_DIR points the server at another master-data directory', async (t) => {
  const dir = copyFixtures(t);
  edit(dir, 'welcome.json', (w) => {
    (w as Array<{ grant: { kind: string; amount: number } }>).find((x) => x.grant.kind === 'gem')!.grant.amount = 4321;
  });
  const server = await startChild({ MASTER_DIR: dir, STORAGE: 'memory' });
  t.teardown(() => server.kill('SIGKILL'));
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    (await (
      await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, unknown>;
  const uuid = '33333333-4444-4555-8666-777777777777';
  const su = await post('/api/player/signup', { uuid, platform: 2 });
  const li = await post('/api/player/login', { uuid, accessToken: su['accessToken'] });
  const list = (await (
    await fetch(`${server.url}/api/player/present/get_all`, {
      headers: { 'X-STAR-SESSION-ID': li['sessionId'] as string },
    })
  ).json()) as { presents: Array<{ kind: string; amount: number; source: string }> };
  // The welcome gems (the log-in put the day's log-in bonus beside them).
  t.is(list.presents.find((p) => p.kind === 'gem' && p.source === 'welcome')?.amount, 4321);
});
