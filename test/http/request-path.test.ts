// The request path's short cuts (issue 34) answer as the long way did: an entry's exact
// path skips the router and, for a GET without a body, the body parser; other spellings
// of it still reach the router; a body is still parsed and refused alike; request log
// lines are not built for a logger that does not write them; the envelope's head is
// written before the payload as the spread object was; session keys are the hash of the id.
import test from 'ava';
import { request } from 'node:http';
import { envelope } from '../../adapters/http/envelope.js';
import { jsonLogger, type Level, type Logger } from '../../adapters/http/log.js';
import { Metrics } from '../../adapters/http/metrics.js';
import { sessionKey } from '../../adapters/service/sessions.js';
import { sha256 } from '../../core/secret.js';
import { formatTime } from '../../core/time.js';
import { signupLogin, startHarness, type Harness } from '../_support/http.js';

/** A request with any method, headers and body (fetch sends no GET body). */
const raw = (
  h: Harness,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> =>
  new Promise((resolve, reject) => {
    const sized = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const req = request(`${h.url}${path}`, { method, headers: sized }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });

test("an entry's exact path and its other spellings (trailing slash, other case, HEAD) answer alike", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const session = { 'x-star-session-id': c.sessionId };
  const exact = await raw(h, 'GET', '/api/player/get_all', session);
  t.is(exact.status, 200);
  const drop = (s: string) => s.replace(/"serverTime":"[^"]*",/, '');
  for (const path of ['/api/player/get_all/', '/API/player/GET_ALL']) {
    const other = await raw(h, 'GET', path, session);
    t.is(other.status, 200, path);
    t.is(drop(other.text), drop(exact.text), path);
  }
  const head = await raw(h, 'HEAD', '/api/player/get_all', session);
  t.is(head.status, 200);
  t.is(head.text, '');
  t.is(head.headers['cache-control'], 'no-store');
  t.is(exact.headers['cache-control'], 'no-store');
  t.regex(String(exact.headers['x-request-id']), /^[0-9a-f-]{36}$/);
});

test('a GET with a body is still parsed: a broken JSON body is 102, a JSON one is served', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const json = { 'x-star-session-id': c.sessionId, 'content-type': 'application/json' };
  const broken = await raw(h, 'GET', '/api/player/get_all', json, '{"a":');
  t.is(broken.status, 400);
  t.like(JSON.parse(broken.text), { resultCode: 102 });
  t.regex(broken.text, /is not valid JSON/);
  const fine = await raw(h, 'GET', '/api/player/get_all', json, '{}');
  t.is(fine.status, 200);
  t.like(JSON.parse(fine.text), { resultCode: 0 });
  // An empty body, declared: nothing to parse either.
  const empty = await raw(h, 'GET', '/api/player/get_all', { ...json, 'content-length': '0' });
  t.like(JSON.parse(empty.text), { resultCode: 0 });
});

test("a POST on an entry's exact path has its body parsed, and a broken or non-object body refused as before", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const json = { 'x-star-session-id': c.sessionId, 'content-type': 'application/json' };
  const before = await c.get('/api/player/get_all');
  const broken = await raw(h, 'POST', '/api/player/tutorial/tip/add', json, '{"tipId":');
  t.is(broken.status, 400);
  t.regex(broken.text, /is not valid JSON/);
  const list = await raw(h, 'POST', '/api/player/tutorial/tip/add', json, '[1]');
  t.is(list.status, 400);
  t.regex(list.text, /must be a JSON object/);
  const form = await raw(
    h,
    'POST',
    '/api/player/tutorial/tip/add',
    { ...json, 'content-type': 'text/plain' },
    'tipId=2',
  );
  t.is(form.status, 400);
  t.regex(form.text, /must be application\/json/);
  // Nothing changed by the refusals.
  t.deepEqual((await c.get('/api/player/get_all')).body['player'], before.body['player']);
  const added = await raw(h, 'POST', '/api/player/tutorial/tip/add', json, '{"tipId":2}');
  t.is(added.status, 200);
  t.like(JSON.parse(added.text), { resultCode: 0 });
});

test('request lines are not built for a logger that writes only notice and above; at info they are', async (t) => {
  const asked: Array<{ level: Level; event: string }> = [];
  const record = (min: 'notice' | 'info'): Logger =>
    Object.assign((level: Level, event: string) => void asked.push({ level, event }), { min });
  const quiet = await startHarness({ log: record('notice') });
  t.teardown(() => quiet.close());
  await signupLogin(quiet);
  await quiet.call('GET', '/api/player/get_all');
  t.deepEqual(
    asked.filter((a) => a.event === 'request'),
    [],
  );
  const loud = await startHarness({ log: record('info') });
  t.teardown(() => loud.close());
  await loud.call('GET', '/api/player/get_all');
  t.deepEqual(
    asked.filter((a) => a.event === 'request'),
    [{ level: 'info', event: 'request' }],
  );
  // jsonLogger says its level, so the app can ask.
  t.is(jsonLogger('warn', () => undefined).min, 'warn');
});

test("the envelope's head comes first as in { ...head, ...payload }, whatever the payload's names", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const env = envelope(h.service, { always200: false, serverVersion: 7 });
  const now = h.clock.now;
  const head = {
    resultCode: 0,
    resultMessage: '',
    serverTime: formatTime(now, h.service.masterAt(now).master.game.timezoneOffsetMinutes),
    serverVersion: 7,
  };
  const payloads: Array<Record<string, unknown>> = [
    {},
    { player: { name: 'Aki' }, list: [1, 2] },
    { '2': 'index', a: 1, '1': 'first' },
    { resultMessage: 'the payload names a head field', x: null },
    { skipped: undefined, kept: 'yes' },
  ];
  for (const payload of payloads) {
    const ctx = {
      state: { requestId: 'r', now } as { requestId: string; now: number; resultCode?: number },
      status: 0,
      type: '',
      body: undefined as unknown,
    };
    env.ok(ctx as unknown as Parameters<typeof env.ok>[0], payload);
    t.is(ctx.body, JSON.stringify({ ...head, ...payload }));
    t.is(ctx.state.resultCode, 0);
  }
});

test("a session's key is the hash of its id, for ids seen again, beyond the kept ones, and long ones", (t) => {
  const ids = Array.from({ length: 10_000 }, (_, i) => `session-id-${i}`);
  for (const round of [0, 1])
    for (const id of round === 0 ? ids : [...ids].reverse()) {
      if (sessionKey(id) !== sha256(`session:${id}`)) return t.fail(`round ${round}, ${id}`);
    }
  const long = 'x'.repeat(5000);
  t.is(sessionKey(long), sha256(`session:${long}`));
  t.is(sessionKey(long), sha256(`session:${long}`));
});

test('requests counted between reads of /metrics are added once, at the read', async (t) => {
  const m = new Metrics({ processMetrics: false });
  const count = async () => {
    const line = (await m.text()).split('\n').find((l) => l.startsWith('hoshi_requests_total{'));
    return line ? Number(line.split(' ').pop()) : 0;
  };
  m.request('getAllPlayer', 200, 0, 0.001);
  m.request('getAllPlayer', 200, 0, 0.001);
  t.is(await count(), 2);
  t.is(await count(), 2);
  m.request('getAllPlayer', 200, 0, 0.001);
  t.is(await count(), 3);
  const figures = await m.figures();
  t.deepEqual(figures.requests, [{ operation: 'getAllPlayer', total: 3, errors: 0 }]);
});
