// The operator API calls the console makes, over HTTP: finding a player by id,
// presents to a list after a preview of whom they reach, a player's sessions (and
// ending them), draw history, the gachas' published and observed rates, health and
// the master data; every write logged with the operator's action; the console's
// files served only with ADMIN_TOKEN. Answers are checked against their declared
// codecs by the server (CHECK_ANSWERS), as the OpenAPI document publishes them.
import test from 'ava';
import { ADMIN, grant, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { formatTime, HOUR } from '../../core/time.js';
import { wilsonInterval } from '../../core/gacha/observed.js';
import type { Master } from '../../core/master/index.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { Metrics } from '../../adapters/http/metrics.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import type { PlayerState } from '../../core/state.js';

const auth = { Authorization: `Bearer ${ADMIN}` };
const OFFSET = master().game.timezoneOffsetMinutes;
const get = (h: Harness, path: string) => h.call('GET', path, undefined, auth);
const post = (h: Harness, path: string, body: unknown) => h.call('POST', path, body, auth);
const stateOf = async (h: Harness, id: number) => (await get(h, `/admin/players/${id}`)).body['state'] as PlayerState;
const gift = { grant: { kind: 'gold', objectId: 0, amount: 5 }, title: 'Gift', message: '' };
/** The fixtures with a present box just large enough for the welcome presents, so a box fills quickly. */
const BOX_MAX = Math.max(2, master().welcome.length);
const smallBox = (): Master => ({
  ...master(),
  game: { ...master().game, presents: { ...master().game.presents, boxMax: BOX_MAX } },
});

test('GET /admin/players finds a player by id too', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const byId = await get(h, `/admin/players?playerId=${a.playerId}`);
  t.deepEqual(
    (byId.body['players'] as Array<{ playerId: number; uuid: string }>).map((p) => [p.playerId, p.uuid]),
    [[a.playerId, a.uuid]],
  );
  t.deepEqual((await get(h, '/admin/players?playerId=999')).body['players'], []);
  const bad = await get(h, '/admin/players?playerId=abc');
  t.deepEqual(
    [bad.status, bad.body['resultCode'], bad.body['resultMessage']],
    [400, 102, 'Invalid parameter playerId: must be a positive integer.'],
  );
  const two = await get(h, `/admin/players?playerId=1&playerId=2`);
  t.deepEqual([two.status, two.body['resultCode']], [400, 102]);
});

test('a present to a list reaches the players found with room, as its preview said', async (t) => {
  const h = await startHarness({ master: smallBox() });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const full = await signupLogin(h);
  // Welcome presents may already be waiting: receive them, then fill one box.
  for (const c of [a, b, full]) await receiveAllHttp(c);
  for (let i = 0; i < BOX_MAX; i++) await grant(h, full.playerId, 'gold', 0, 1);
  const list = [a.playerId, b.playerId, full.playerId, 999];
  const preview = await get(h, `/admin/presents/reach?playerIds=${list.join(',')}`);
  t.is(preview.body['resultCode'], 0);
  t.like(preview.body, { players: 4, reaches: 2, boxFull: 1, notFound: 1 });
  t.like((await get(h, '/admin/presents/reach?all=true')).body, { players: 3, reaches: 2, boxFull: 1, notFound: 0 });

  const sent = await post(h, '/admin/presents', { ...gift, playerIds: list });
  t.deepEqual([sent.status, sent.body['sent']], [200, 2]);
  t.is((await stateOf(h, a.playerId)).presents.filter((p) => p.title === 'Gift').length, 1);
  t.is((await stateOf(h, b.playerId)).presents.filter((p) => p.title === 'Gift').length, 1);
  t.is((await stateOf(h, full.playerId)).presents.length, BOX_MAX, 'the full box was skipped');
  t.like((await get(h, `/admin/presents/reach?playerIds=${a.playerId}`)).body, { players: 1, reaches: 1 });
});

test('the preview and the list refuse what they cannot read, and change nothing', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const before = await stateOf(h, a.playerId);
  for (const [query, status, code] of [
    ['', 400, 103],
    [`playerIds=${a.playerId}&all=true`, 400, 102],
    ['playerIds=1,x', 400, 102],
    ['playerIds=0', 400, 102],
    ['all=yes', 400, 102],
    ['playerIds=,', 400, 102],
    ['all=true&all=true', 400, 102],
  ] as const) {
    const r = await get(h, `/admin/presents/reach?${query}`);
    t.deepEqual([r.status, r.body['resultCode']], [status, code], query);
  }
  for (const body of [
    { ...gift, playerIds: [] },
    { ...gift, playerIds: [a.playerId], all: true },
    { ...gift, playerIds: [a.playerId], playerId: a.playerId },
    { ...gift, playerIds: Array.from({ length: 1001 }, (_, i) => i + 1) },
    { ...gift, playerIds: [0] },
  ]) {
    const r = await post(h, '/admin/presents', body);
    t.deepEqual([r.status, r.body['resultCode']], [400, 102], JSON.stringify(body).slice(0, 80));
  }
  t.deepEqual(await stateOf(h, a.playerId), before);
});

test("a player's sessions are listed, and ended one by one or all at once", async (t) => {
  const h = await startHarness({ sessionIdleMs: HOUR });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const again = await a.client.loginPlayer({
    uuid: a.uuid,
    accessToken: a.accessToken,
    platform: 1,
    appVersion: '1.0.0',
  });
  if (!again.ok) return t.fail(again.resultMessage);
  const second = again.value.sessionId;
  const listed = await get(h, `/admin/players/${a.playerId}/sessions`);
  const sessions = listed.body['sessions'] as Array<{
    key: string;
    status: string;
    createdAt: string;
    lastSeenAt: string;
  }>;
  t.deepEqual(
    sessions.map((s) => [s.status, s.createdAt]),
    [
      ['live', formatTime(NOW, OFFSET)],
      ['live', formatTime(NOW, OFFSET)],
    ],
  );
  const call = (session: string) => h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': session });

  // Which key is the first session's: end each in turn and see which stops answering.
  const ended = await post(h, `/admin/players/${a.playerId}/sessions/end`, { keys: [sessions[0]!.key] });
  t.deepEqual([ended.status, ended.body['ended']], [200, 1]);
  const [first, other] = [await call(a.sessionId), await call(second)];
  t.deepEqual([first.status, other.status].sort(), [200, 401], 'one of the two sessions ended, the other answers');
  t.is(((await get(h, `/admin/players/${a.playerId}/sessions`)).body['sessions'] as unknown[]).length, 1);

  const all = await post(h, `/admin/players/${a.playerId}/sessions/end`, { all: true });
  t.deepEqual([all.status, all.body['ended']], [200, 1]);
  t.is((await call(second)).status, 401);
  t.is((await call(a.sessionId)).status, 401);
  t.deepEqual((await get(h, `/admin/players/${a.playerId}/sessions`)).body['sessions'], []);
});

test('a session unused past the idle time is listed expired', async (t) => {
  const h = await startHarness({ sessionIdleMs: HOUR });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  h.clock.now += 2 * HOUR;
  const s = (await get(h, `/admin/players/${a.playerId}/sessions`)).body['sessions'] as Array<{ status: string }>;
  t.deepEqual(
    s.map((x) => x.status),
    ['expired'],
  );
});

test("ending sessions refuses unknown players, keys not the player's and bad requests, ending none", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const bKey = ((await get(h, `/admin/players/${b.playerId}/sessions`)).body['sessions'] as Array<{ key: string }>)[0]!
    .key;
  const aKey = ((await get(h, `/admin/players/${a.playerId}/sessions`)).body['sessions'] as Array<{ key: string }>)[0]!
    .key;
  const end = (id: number | string, body: unknown) => post(h, `/admin/players/${id}/sessions/end`, body);
  const cases: Array<[number | string, unknown, number, number]> = [
    [a.playerId, { keys: [aKey, bKey] }, 404, 107],
    [999, { all: true }, 404, 202],
    ['x', { all: true }, 400, 102],
    [a.playerId, {}, 400, 102],
    [a.playerId, { keys: [aKey], all: true }, 400, 102],
    [a.playerId, { keys: [] }, 400, 102],
    [a.playerId, { keys: 'k' }, 400, 102],
  ];
  for (const [id, body, status, code] of cases) {
    const r = await end(id, body);
    t.deepEqual([r.status, r.body['resultCode']], [status, code], JSON.stringify(body));
  }
  t.is((await end(999, { all: true })).body['resultMessage'], 'No such player: 999.');
  t.is(
    (await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': a.sessionId })).status,
    200,
    "a's session still answers",
  );
  t.is(
    (await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': b.sessionId })).status,
    200,
    "b's too",
  );
  t.deepEqual(
    [(await get(h, '/admin/players/999/sessions')).status, (await get(h, '/admin/players/0/sessions')).status],
    [404, 400],
  );
});

test("every write is logged with the operator's action, refused ones too; reads are not", async (t) => {
  const lines: Array<{ event: string; data: Record<string, unknown> }> = [];
  const h = await startHarness({
    log: (_level, event, data = {}) => {
      lines.push({ event, data });
    },
  });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  await post(h, '/admin/presents', { ...gift, playerId: a.playerId });
  await post(h, '/admin/presents', { ...gift, playerId: 999 });
  await post(h, `/admin/players/${a.playerId}/sessions/end`, { all: true });
  await get(h, `/admin/players/${a.playerId}`);
  await get(h, '/admin/gachas');
  const actions = lines.filter((l) => l.event === 'admin.action').map((l) => l.data);
  t.deepEqual(
    actions.map((d) => [d['action'], d['resultCode']]),
    [
      ['adminDeliverPresents', 0],
      ['adminDeliverPresents', 202],
      ['adminEndSessions', 0],
    ],
  );
  t.like(actions[0], { request: { ...gift, playerId: a.playerId }, answer: { sent: 1 }, ip: '127.0.0.1' });
  t.like(actions[2], { params: { playerId: String(a.playerId) }, request: { all: true }, answer: { ended: 1 } });
  t.true(actions.every((d) => typeof d['requestId'] === 'string'));
});

test("a player's draw history is what the player's own history answers, by gacha and date", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  await grant(h, a.playerId, 'gem', 0, 10000);
  await receiveAllHttp(a);
  t.true((await a.client.drawPlayerGacha({ gachaId: 2, drawType: 3 })).ok);
  h.clock.now += HOUR;
  t.true((await a.client.drawPlayerGacha({ gachaId: 3, drawType: 1 })).ok);
  for (const query of [
    '',
    'gachaId=2',
    `from=${formatTime(NOW + HOUR, OFFSET)}`,
    `to=${formatTime(NOW + HOUR, OFFSET)}&pageSize=1`,
  ]) {
    const mine = await a.get(`/api/player/gacha/history?${query}`);
    const theirs = await get(h, `/admin/players/${a.playerId}/draws?${query}`);
    t.is(theirs.status, 200, query);
    t.deepEqual(theirs.body['draws'], mine.body['draws'], query);
    t.is(theirs.body['total'], mine.body['total'], query);
  }
  t.is(((await get(h, `/admin/players/${a.playerId}/draws`)).body['draws'] as unknown[]).length, 2);
  const bad = await get(h, `/admin/players/${a.playerId}/draws?from=yesterday`);
  t.deepEqual([bad.status, bad.body['resultCode']], [400, 102]);
  t.deepEqual(
    [
      (await get(h, '/admin/players/999/draws')).status,
      (await get(h, `/admin/players/${a.playerId}/draws?page=1&page=2`)).status,
    ],
    [404, 400],
  );
});

test("the gachas list periods and prices; a gacha's published rates are box/get's, its observed ones the draws' characters, each share with its 95% Wilson interval", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const m = master();
  const list = (await get(h, '/admin/gachas')).body['gachas'] as Array<{
    gachaId: number;
    start: string;
    end: string | null;
    cost: unknown;
    openNow: boolean;
  }>;
  t.deepEqual(
    list.map((g) => [g.gachaId, g.start, g.end, g.cost]),
    m.gachas.map((g) => [g.gachaId, g.period.start, g.period.end, g.cost]),
  );
  const ended = m.gachas.find((g) => g.period.end !== null && Date.parse(`${g.period.end}Z`) - OFFSET * 60_000 <= NOW);
  if (ended) t.false(list.find((g) => g.gachaId === ended.gachaId)?.openNow, 'a gacha past its period is not open');

  const a = await signupLogin(h);
  await grant(h, a.playerId, 'gem', 0, 20000);
  await receiveAllHttp(a);
  const drawn: number[][] = [];
  for (const drawType of [3, 3, 1, 1] as const) {
    const r = await a.client.drawPlayerGacha({ gachaId: 2, drawType });
    if (!r.ok) return t.fail(r.resultMessage);
    drawn.push(r.value.gachaResults.map((x) => x.characterId));
  }
  const box = await a.client.getPlayerGachaBox({ gachaId: 2 });
  if (!box.ok) return t.fail(box.resultMessage);
  const g = await get(h, '/admin/gachas/2');
  t.is(g.status, 200);
  const published = g.body['published'] as Record<string, unknown>;
  t.deepEqual(published, {
    rarityRates: box.value.rarityRates,
    characters: box.value.characters,
    guarantee: box.value.guarantee,
    tenDraw: box.value.tenDraw,
  });
  type Share = { pulls: number; share: number; low: number; high: number };
  const observed = g.body['observed'] as {
    players: number;
    single: { draws: number; pulls: number; rarities: Array<{ rarity: number } & Share> };
    tenDraw: {
      draws: number;
      pulls: number;
      rarities: Array<{ rarity: number } & Share>;
      characters: Array<{ characterId: number } & Share>;
    };
  };
  t.is(observed.players, 1);
  t.deepEqual(
    [observed.tenDraw.draws, observed.tenDraw.pulls, observed.single.draws, observed.single.pulls],
    [2, drawn[0]!.length + drawn[1]!.length, 2, 2],
  );
  const tenCounts = new Map<number, number>();
  for (const id of [...drawn[0]!, ...drawn[1]!]) tenCounts.set(id, (tenCounts.get(id) ?? 0) + 1);
  const byId = (a: [number, number], b: [number, number]) => a[0] - b[0];
  t.deepEqual(
    observed.tenDraw.characters.map((c): [number, number] => [c.characterId, c.pulls]).sort(byId),
    [...tenCounts].sort(byId),
  );
  const singleRarities = [...drawn[2]!, ...drawn[3]!].map((id) => m.character.get(id)?.rarity);
  for (const r of observed.single.rarities)
    t.is(r.pulls, singleRarities.filter((x) => x === r.rarity).length, `rarity ${r.rarity}`);
  t.is(
    observed.single.rarities.reduce((s, r) => s + r.share, 0),
    1,
  );
  // Each share's 95% Wilson interval: over the 2 single pulls, 0, 1 or 2 of a rarity
  // give the textbook [0, 65.76%], [9.45%, 90.55%], [34.24%, 100%].
  const ofTwo = [
    ['0.0000', '0.6576'],
    ['0.0945', '0.9055'],
    ['0.3424', '1.0000'],
  ];
  for (const r of observed.single.rarities)
    t.deepEqual([r.low.toFixed(4), r.high.toFixed(4)], ofTwo[r.pulls], `rarity ${r.rarity}: ${r.pulls} of 2`);
  for (const x of [...observed.tenDraw.rarities, ...observed.tenDraw.characters]) {
    const w = wilsonInterval(x.pulls, observed.tenDraw.pulls);
    t.deepEqual([x.low, x.high], [w.low, w.high]);
    t.true(x.low <= x.share && x.share <= x.high && x.high - x.low > 0.1, 'wide over 20 pulls');
  }

  const unknown = await get(h, '/admin/gachas/999');
  t.deepEqual(
    [unknown.status, unknown.body['resultCode'], unknown.body['resultMessage']],
    [404, 107, 'No gacha with id 999.'],
  );
  t.deepEqual(
    [(await get(h, '/admin/gachas/x')).status, (await get(h, '/admin/gachas/x')).body['resultCode']],
    [400, 102],
  );
});

test('health says what /readyz and /metrics say; master data names its hash and load time', async (t) => {
  const metrics = new Metrics({ processMetrics: false });
  const storage = metrics.observeStorage(new MemoryStorage());
  const h = await startHarness({ storage, ops: { metrics } });
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  await a.get('/api/player/get_all');
  await a.client.drawPlayerGacha({ gachaId: 999, drawType: 1 });
  await fetch(`${h.url}/admin/console/app.js`);
  const health = await get(h, '/admin/health');
  t.deepEqual(health.body['ready'], { status: 'ready', checks: { storage: 'ok', master: 'ok', draining: false } });
  const figures = health.body['metrics'] as {
    requests: Array<{ operation: string; total: number; errors: number }>;
    commits: { ok: number; conflict: number; error: number };
    commitLatency: { count: number; buckets: Array<{ count: number }> };
    playersInMemory: number;
    journalBytes: number | null;
  };
  const byOp = new Map(figures.requests.map((r) => [r.operation, r]));
  t.like(byOp.get('getAllPlayer'), { total: 1, errors: 0 });
  t.like(byOp.get('drawPlayerGacha'), { total: 1, errors: 1 });
  t.like(byOp.get('console'), { total: 1, errors: 0 }, "the console's files are counted as the console");
  t.true(figures.commits.ok >= 2, 'sign-up and log-in committed');
  t.is(figures.commitLatency.count, figures.commits.ok + figures.commits.conflict + figures.commits.error);
  t.is(
    figures.commitLatency.buckets.reduce((s, b) => s + b.count, 0),
    figures.commitLatency.count,
  );
  t.is(figures.playersInMemory, 1);
  t.is(figures.journalBytes, null, 'the memory store keeps no journal');

  const src = masterSourceOf(master());
  t.like((await get(h, '/admin/master')).body, {
    hash: src?.hash,
    loadedAt: formatTime(src?.loadedAt ?? 0, OFFSET),
    timezoneOffsetMinutes: OFFSET,
    counts: { gachas: master().gachas.length, characters: master().character.size, items: master().item.size },
  });
  const plain = await startHarness();
  t.teardown(() => plain.close());
  t.is((await get(plain, '/admin/health')).body['metrics'], null, 'METRICS=off: no figures');
  for (const path of ['/admin/health', '/admin/master', '/admin/gachas', '/admin/presents/reach?all=true']) {
    t.is((await h.call('GET', path)).status, 401, path);
  }
});

test('the console is served at /admin/ only with ADMIN_TOKEN, its files without the token', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const page = await fetch(`${h.url}/admin/`);
  t.is(page.status, 200);
  t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
  t.regex(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  t.regex(await page.text(), /<script type="module" src="\/admin\/console\/app\.js"><\/script>/);
  const script = await fetch(`${h.url}/admin/console/app.js`);
  t.deepEqual([script.status, script.headers.get('content-type')], [200, 'text/javascript; charset=utf-8']);
  const bare = await fetch(`${h.url}/admin`, { redirect: 'manual' });
  t.deepEqual([bare.status, bare.headers.get('location')], [302, '/admin/']);
  t.is((await fetch(`${h.url}/admin/console/../admin.ts`)).status === 200, false);
  const post = await h.call('POST', '/admin/', {}, auth);
  t.deepEqual([post.status, post.headers['allow']], [405, 'GET, HEAD']);

  const off = await startHarness({ cfg: { adminToken: undefined } });
  t.teardown(() => off.close());
  for (const path of ['/admin/', '/admin/console/app.js', '/admin'])
    t.is((await fetch(`${off.url}${path}`, { redirect: 'manual' })).status, 404, path);
});
