// What operators and their tooling meet: the probes (/healthz, /readyz), the
// metrics after a session, 405 with Allow, X-Request-Id, the client's address
// behind trusted proxies, and the request log line.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metrics } from '../../adapters/http/metrics.js';
import type { Level } from '../../adapters/http/log.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import type { Storage } from '../../adapters/storage/storage.js';
import { newUuid, signupLogin, startHarness } from '../_support/http.js';

const text = async (url: string, init: RequestInit = {}) => {
  const r = await fetch(url, init);
  return { status: r.status, headers: r.headers, body: await r.text() };
};

/** A sample's value in the Prometheus text: `name{labels} value`, the labels as written (sorted as prom-client writes them). */
const sample = (metrics: string, name: string, labels = ''): number => {
  const line = metrics.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
};

test('GET /healthz and /readyz answer outside /api, the envelope and the rate limits', async (t) => {
  const lifecycle = { draining: false };
  const h = await startHarness({
    ops: { lifecycle },
    cfg: {
      rateLimits: {
        session: { rate: 1, burst: 1 },
        address: { rate: 0.01, burst: 1 },
        account: { rate: 0.01, burst: 1 },
      },
    },
  });
  t.teardown(() => h.close());
  for (let i = 0; i < 5; i++) {
    const alive = await text(`${h.url}/healthz`);
    t.is(alive.status, 200);
    t.deepEqual(JSON.parse(alive.body), { status: 'ok' });
  }
  t.is((await fetch(`${h.url}/healthz`, { method: 'HEAD' })).status, 200);
  const ready = await text(`${h.url}/readyz`);
  t.is(ready.status, 200);
  t.deepEqual(JSON.parse(ready.body), { status: 'ready', checks: { storage: 'ok', master: 'ok', draining: false } });
  t.is(ready.headers.get('cache-control'), 'no-store');
  // From the stop signal on, not ready (requests still served).
  lifecycle.draining = true;
  const draining = await text(`${h.url}/readyz`);
  t.is(draining.status, 503);
  t.like(JSON.parse(draining.body), { status: 'not ready', checks: { draining: true } });
  t.is((await text(`${h.url}/healthz`)).status, 200, 'still alive');
});

test('/readyz: a storage that cannot take writes is not ready, and says why', async (t) => {
  let reason: string | null = null;
  const storage: Storage = Object.assign(new MemoryStorage(), { check: async () => reason });
  const h = await startHarness({ storage });
  t.teardown(() => h.close());
  t.is((await text(`${h.url}/readyz`)).status, 200);
  reason = 'cannot write in /data: ENOSPC';
  const r = await text(`${h.url}/readyz`);
  t.is(r.status, 503);
  t.deepEqual(JSON.parse(r.body).checks, { storage: 'cannot write in /data: ENOSPC', master: 'ok', draining: false });
});

test('the JSON-file store is ready while its directory takes a file, and not once closed', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-ready-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const store = await FileStorage.open({ dir });
  t.is(await store.check(), null);
  await store.close();
  t.is(await store.check(), 'the storage is closed');
  const gone = await FileStorage.open({ dir: join(dir, 'sub') });
  rmSync(join(dir, 'sub'), { recursive: true, force: true });
  t.regex((await gone.check()) ?? '', /cannot write in .*ENOENT/);
});

test('GET /metrics after a session: requests by operation and result code, latency, commits, fsync batches, cache, players, journal, refusals', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-metrics-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const metrics = new Metrics();
  const file = await FileStorage.open({ dir });
  const h = await startHarness({
    storage: metrics.observeStorage(file),
    ops: { metrics },
    cfg: {
      rateLimits: {
        session: { rate: 100, burst: 100 },
        address: { rate: 100, burst: 100 },
        account: { rate: 0.01, burst: 3 },
      },
    },
  });
  t.teardown(async () => {
    await h.close();
    await file.close();
  });
  const before = (await text(`${h.url}/metrics`)).body;
  t.is(sample(before, 'hoshi_storage_commits_total', 'result="ok"'), 0);
  t.is(sample(before, 'hoshi_rate_limited_total', 'bucket="account"'), 0);

  const c = await signupLogin(h);
  t.is((await c.get('/api/player/get_all')).status, 200);
  t.is((await c.post('/api/player/tutorial/tip/add', { tipId: 1 })).status, 200);
  t.is((await c.get('/api/player/get_all')).status, 200);
  // A fourth account request from the address: over the account bucket (burst 3).
  t.is((await h.call('POST', '/api/player/signup', { uuid: newUuid(), platform: 1 })).status, 200);
  t.is((await h.call('POST', '/api/player/signup', { uuid: newUuid(), platform: 1 })).status, 429);

  const r = await text(`${h.url}/metrics`);
  t.is(r.status, 200);
  t.regex(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const m = r.body;
  t.is(sample(m, 'hoshi_requests_total', 'operation="signupPlayer",result_code="0",status="200"'), 2);
  t.is(sample(m, 'hoshi_requests_total', 'operation="signupPlayer",result_code="111",status="429"'), 1);
  t.is(sample(m, 'hoshi_requests_total', 'operation="loginPlayer",result_code="0",status="200"'), 1);
  t.is(sample(m, 'hoshi_requests_total', 'operation="getAllPlayer",result_code="0",status="200"'), 2);
  t.is(
    sample(m, 'hoshi_requests_total', 'operation="metrics",result_code="none",status="200"'),
    1,
    'the scrape before',
  );
  t.is(sample(m, 'hoshi_request_duration_seconds_count', 'operation="getAllPlayer"'), 2);
  t.true(sample(m, 'hoshi_request_duration_seconds_sum', 'operation="getAllPlayer"') > 0);
  t.is(sample(m, 'hoshi_rate_limited_total', 'bucket="account"'), 1);
  // sign-up ×2, log-in, the tip: four durable commits, each its own fsync batch here (one request at a time).
  t.true(sample(m, 'hoshi_storage_commits_total', 'result="ok"') >= 4);
  t.is(
    sample(m, 'hoshi_storage_commit_duration_seconds_count'),
    sample(m, 'hoshi_storage_commits_total', 'result="ok"'),
  );
  t.true(sample(m, 'hoshi_storage_fsync_batch_commits_count') >= 4);
  t.is(
    sample(m, 'hoshi_storage_fsync_batch_commits_bucket', 'le="1"'),
    sample(m, 'hoshi_storage_fsync_batch_commits_count'),
  );
  t.true(sample(m, 'hoshi_storage_cache_total', 'result="hit"') >= 3, 'the player found in memory');
  t.is(sample(m, 'hoshi_players_in_memory'), 2);
  t.true(sample(m, 'hoshi_journal_bytes') > 1000, 'the journal since the last checkpoint');
  t.true(sample(m, 'hoshi_replay_log_bytes') > 1000, 'the kept replay log: oplog.jsonl and its index');
  t.true(sample(m, 'hoshi_replay_log_entries') >= 4, 'an entry a commit that changed a player');
  t.true(
    sample(m, 'hoshi_idempotency_answers_in_memory') >= 1,
    'the tip was sent with a key: its answer is held until a checkpoint writes it',
  );
  t.is(sample(m, 'hoshi_idempotency_stored_bytes'), 0, 'no checkpoint has swept a shard yet');
  t.true(sample(m, 'process_resident_memory_bytes') > 0, "and the process's own");
  t.true(Number.isNaN(sample(m, 'hoshi_pg_pool_connections', 'state="total"')), 'no pool on the file store');
});

test('METRICS_TOKEN guards /metrics; without metrics there is no /metrics', async (t) => {
  const metrics = new Metrics({ processMetrics: false });
  const h = await startHarness({ ops: { metrics }, cfg: { metricsToken: 'metrics-token-0123456789' } });
  const off = await startHarness();
  t.teardown(() => Promise.all([h.close(), off.close()]));
  const no = await text(`${h.url}/metrics`);
  t.is(no.status, 401);
  t.is(no.headers.get('www-authenticate'), 'Bearer realm="metrics"');
  t.is((await text(`${h.url}/metrics`, { headers: { Authorization: 'Bearer wrong' } })).status, 401);
  const yes = await text(`${h.url}/metrics`, { headers: { Authorization: 'Bearer metrics-token-0123456789' } });
  t.is(yes.status, 200);
  t.regex(yes.body, /^# HELP hoshi_requests_total /m);
  t.is((await text(`${off.url}/metrics`)).status, 404);
});

test('a known path with the wrong method is 405 with Allow; an unknown path is 404', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const get = await h.call('GET', '/api/player/signup');
  t.is(get.status, 405);
  t.is(get.headers['allow'], 'POST');
  t.is(get.body['resultCode'], 102);
  t.regex(get.body['resultMessage'] as string, /GET is not allowed at \/api\/player\/signup; it takes POST/);
  const post = await h.call('POST', '/api/player/get_all', {});
  t.is(post.status, 405);
  t.is(post.headers['allow'], 'GET, HEAD');
  t.is((await h.call('POST', '/healthz', {})).status, 405);
  t.is((await h.call('DELETE' as 'GET', '/admin/players/1')).headers['allow'], 'GET, HEAD');
  t.is((await h.call('PUT' as 'GET', '/admin/presents')).status, 405);
  const options = await fetch(`${h.url}/api/player/gacha/draw`, { method: 'OPTIONS' });
  t.is(options.status, 204);
  t.is(options.headers.get('allow'), 'POST, OPTIONS');
  const unknown = await h.call('GET', '/api/player/nothing_here');
  t.is(unknown.status, 404);
  t.is(unknown.headers['allow'], undefined);
});

test("X-Request-Id: a caller's id is kept (logged and echoed); a bad one is replaced", async (t) => {
  const lines: Array<{ level: Level; event: string; data: Record<string, unknown> }> = [];
  const h = await startHarness({ log: (level, event, data = {}) => lines.push({ level, event, data }) });
  t.teardown(() => h.close());
  const given = await h.call('GET', '/api/app/version/get?platform=1', undefined, { 'X-Request-Id': 'lb-7f3a9c.42' });
  t.is(given.headers['x-request-id'], 'lb-7f3a9c.42');
  t.is(lines.at(-1)?.data['requestId'], 'lb-7f3a9c.42');
  for (const bad of ['has space', 'x'.repeat(129), 'caf\u00e9']) {
    const r = await h.call('GET', '/api/app/version/get?platform=1', undefined, { 'X-Request-Id': bad });
    t.regex(r.headers['x-request-id'] ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/, bad);
  }
});

test('each request logs one line: operation, player id, result code, status and time; probes at debug', async (t) => {
  const lines: Array<{ level: Level; event: string; data: Record<string, unknown> }> = [];
  const h = await startHarness({ log: (level, event, data = {}) => lines.push({ level, event, data }) });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  await c.post('/api/player/tutorial/tip/add', { tipId: 2 });
  await h.call('GET', '/api/player/get_all');
  await fetch(`${h.url}/healthz`);
  const requests = lines.filter((l) => l.event === 'request');
  const signup = requests.find((l) => l.data['operation'] === 'signupPlayer');
  t.like(signup, {
    level: 'info',
    data: {
      playerId: c.playerId,
      resultCode: 0,
      status: 200,
      method: 'POST',
      path: '/api/player/signup',
      ip: '127.0.0.1',
    },
  });
  const tip = requests.find((l) => l.data['operation'] === 'addPlayerTutorialTip');
  t.like(tip?.data, { playerId: c.playerId, resultCode: 0, status: 200 });
  t.is(typeof tip?.data['ms'], 'number');
  t.is(typeof tip?.data['requestId'], 'string');
  const anonymous = requests.find((l) => l.data['operation'] === 'getAllPlayer' && l.data['status'] === 401);
  t.like(anonymous?.data, { resultCode: 203, playerId: undefined });
  t.like(
    requests.find((l) => l.data['path'] === '/healthz'),
    { level: 'debug', data: { operation: 'healthz', status: 200 } },
  );
});

test("TRUST_PROXY: behind trusted proxies the limits and logs use the client's address from X-Forwarded-For", async (t) => {
  const limits = {
    session: { rate: 100, burst: 100 },
    address: { rate: 100, burst: 100 },
    account: { rate: 0.2, burst: 10 },
  };
  const lines: Array<Record<string, unknown>> = [];
  const direct = await startHarness({ cfg: { rateLimits: limits } });
  const proxied = await startHarness({
    cfg: { rateLimits: limits, trustProxyHops: 1 },
    log: (_l, event, data = {}) => {
      if (event === 'request') lines.push(data);
    },
  });
  t.teardown(() => Promise.all([direct.close(), proxied.close()]));
  // 13 sign-ups from 13 clients behind one load balancer (the issue's trial): one address without TRUST_PROXY.
  const signups = (h: typeof direct) =>
    Promise.all(
      Array.from({ length: 13 }, (_, i) =>
        h
          .call(
            'POST',
            '/api/player/signup',
            { uuid: newUuid(), platform: 1 },
            { 'X-Forwarded-For': `203.0.113.${i + 1}` },
          )
          .then((r) => r.status),
      ),
    );
  const shared = await signups(direct);
  t.deepEqual(shared.filter((s) => s === 429).length, 3, 'one bucket for everyone');
  t.true(
    (await signups(proxied)).every((s) => s === 200),
    'each client its own bucket',
  );
  t.deepEqual(new Set(lines.map((l) => l['ip'])).size, 13);
  // One hop trusted: the address the proxy appended, not what the client wrote before it.
  const spoofed = await proxied.call(
    'POST',
    '/api/player/signup',
    { uuid: newUuid(), platform: 1 },
    { 'X-Forwarded-For': '10.9.9.9, 198.51.100.7' },
  );
  t.is(spoofed.status, 200);
  t.is(lines.at(-1)?.['ip'], '198.51.100.7');
});

test("GET /metrics: the event loop's delay as a cumulative histogram, sampled every 10 ms, its buckets around the 50 ms target", async (t) => {
  const metrics = new Metrics();
  const count = async () => {
    const m = await metrics.registry.metrics();
    const n = sample(m, 'hoshi_event_loop_delay_seconds_count');
    return { m, n: Number.isNaN(n) ? 0 : n };
  };
  // Counted, not timed: wait for the sampler's samples to come, one turn of timers at a time.
  let seen = await count();
  for (let i = 0; i < 200 && seen.n < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    seen = await count();
  }
  t.true(seen.n >= 3, 'samples come in');
  t.is(sample(seen.m, 'hoshi_event_loop_delay_seconds_bucket', 'le="+Inf"'), seen.n);
  for (const le of ['0.01', '0.04', '0.05', '0.075'])
    t.false(Number.isNaN(sample(seen.m, 'hoshi_event_loop_delay_seconds_bucket', `le="${le}"`)), le);
  const quiet = new Metrics({ processMetrics: false });
  t.false(
    (await quiet.registry.metrics()).includes('hoshi_event_loop_delay_seconds'),
    "only with the process's metrics",
  );
});
