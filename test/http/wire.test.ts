// The HTTP contract of WIRE.md: envelope, statuses, parsing, sessions, the request
// hash, the all-200 setting, the admin API and the OpenAPI document.
import test from 'ava';
import { createHash } from 'node:crypto';
import { ADMIN, signupLogin, startHarness } from '../_support/http.js';
import { OPERATIONS } from '../../core/operations/table.js';
import { ERROR_NAMES, RESULT_CODES, messageOf } from '../../core/errors.js';
import * as io from 'io-ts';
import { defineOp } from '../../core/operation.js';
import { execute } from '../../core/operation.js';
import { rngFromSeed } from '../../core/rng.js';
import { freshPlayer, master, NOW } from '../_support/core.js';
import { HTTP_STATUS } from '../../adapters/http/status.js';

const envelopeOk = (t: import('ava').ExecutionContext, body: Record<string, unknown>) => {
  t.is(typeof body['resultCode'], 'number');
  t.is(typeof body['resultMessage'], 'string');
  t.regex(body['serverTime'] as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  t.is(body['serverVersion'], 7);
};

test('success and error answers carry the envelope; serverTime is in the game zone (+09:00)', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const ok = await c.get('/api/player/get_all');
  envelopeOk(t, ok.body);
  t.is(ok.body['resultCode'], 0);
  t.is(ok.body['resultMessage'], '');
  t.is(ok.body['serverTime'], '2026-11-21T12:00:00');
  const bad = await c.post('/api/player/gacha/draw', { gachaId: 2 });
  envelopeOk(t, bad.body);
  t.is(bad.status, 400);
  t.is(bad.body['resultCode'], 103);
  t.regex(bad.body['resultMessage'] as string, /drawType/);
});

test('unknown paths are 404 with resultCode 102; a GET route called with POST is 405 with Allow', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  for (const [m, p, status] of [
    ['GET', '/api/nothing/here', 404],
    ['POST', '/api/player/get_all', 405],
    ['GET', '/', 404],
  ] as const) {
    const r = await h.call(m, p);
    t.is(r.status, status);
    t.is(r.body['resultCode'], 102);
    t.is(r.headers['allow'], status === 405 ? 'GET, HEAD' : undefined);
    envelopeOk(t, r.body);
  }
});

test('malformed JSON, a non-object body and a wrong content type are 400/102', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId };
  for (const [body, type] of [
    ['{"gachaId": 2,', 'application/json'],
    ['[1,2]', 'application/json'],
    ['"x"', 'application/json'],
    ['gachaId=2', 'text/plain'],
  ] as const) {
    const r = await h.call('POST', '/api/player/gacha/draw', body, { ...headers, 'content-type': type });
    t.is(r.status, 400, body);
    t.is(r.body['resultCode'], 102, body);
  }
  const charset = await h.call('POST', '/api/player/tutorial/tip/add', JSON.stringify({ tipId: '4' }), {
    ...headers,
    'content-type': 'application/json; charset=UTF-8',
  });
  t.is(charset.body['resultCode'], 0, 'charset suffix and numeric strings accepted');
});

test('a body over the limit is 413', async (t) => {
  const h = await startHarness({ cfg: { bodyLimitBytes: 1024 } });
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const r = await c.post('/api/player/move/get', { password: 'x'.repeat(5000) });
  t.is(r.status, 413);
  t.is(r.body['resultCode'], 108);
});

test('GET ids: comma or %2C; a repeated or non-integer parameter is 102, never NaN', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  t.is((await c.get('/api/player/gacha/get_all?gachaIds=2,3')).body['resultCode'], 0);
  t.is((await c.get('/api/player/gacha/get_all?gachaIds=2%2C3')).body['resultCode'], 0);
  t.is((await c.get('/api/player/gacha/get_all?gachaIds=')).body['resultCode'], 0);
  for (const q of ['gachaIds=2&gachaIds=3', 'gachaIds=abc', 'gachaIds=2,NaN', 'gachaIds=1.5']) {
    const r = await c.get(`/api/player/gacha/get_all?${q}`);
    t.is(r.status, 400, q);
    t.is(r.body['resultCode'], 102, q);
  }
});

test('sessions: missing, unknown or idle-expired is 401/203; Bearer works like X-STAR-SESSION-ID', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const forged: Array<Record<string, string>> = [
    {},
    { 'X-STAR-SESSION-ID': 'forged' },
    { Authorization: 'Bearer forged' },
  ];
  for (const headers of forged) {
    const r = await h.call('GET', '/api/player/get_all', undefined, headers);
    t.is(r.status, 401);
    t.is(r.body['resultCode'], 203);
  }
  const bearer = await h.call('GET', '/api/player/get_all', undefined, { Authorization: `Bearer ${c.sessionId}` });
  t.is(bearer.body['resultCode'], 0);
  h.clock.now += 30 * 60_000;
  t.is((await c.get('/api/player/get_all')).body['resultCode'], 0, 'use keeps the session alive');
  h.clock.now += 61 * 60_000;
  const expired = await c.get('/api/player/get_all');
  t.is(expired.status, 401);
  t.is(expired.body['resultCode'], 203);
});

test('log-in: unknown uuid or wrong token is 202; sign-up of a bound uuid is 201; bad uuid 102', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const wrong = await h.call('POST', '/api/player/login', {
    uuid: c.uuid,
    accessToken: 'not-the-token-at-all',
    platform: 1,
  });
  t.is(wrong.status, 404);
  t.is(wrong.body['resultCode'], 202);
  const none = await h.call('POST', '/api/player/login', {
    uuid: '99999999-9999-4999-8999-999999999999',
    accessToken: 'not-the-token-at-all',
  });
  t.is(none.body['resultCode'], 202);
  const again = await h.call('POST', '/api/player/signup', { uuid: c.uuid, platform: 1, name: 'Twin' });
  t.is(again.status, 409);
  t.is(again.body['resultCode'], 201);
  const bad = await h.call('POST', '/api/player/signup', { uuid: 'not-a-uuid', platform: 1 });
  t.is(bad.body['resultCode'], 102);
  const badPlatform = await h.call('POST', '/api/player/signup', {
    uuid: '12345678-9999-4999-8999-999999999999',
    platform: 3,
  });
  t.is(badPlatform.body['resultCode'], 102);
  const longName = await h.call('POST', '/api/player/signup', {
    uuid: '12345678-9999-4999-8999-999999999999',
    platform: 1,
    name: 'n'.repeat(13),
  });
  t.is(longName.body['resultCode'], 102);
});

const hashOf = (s: string) => createHash('sha256').update(s).digest('hex');

test('request hash: checked when present (sessionId, path with query, raw body, salt); a setting requires it', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const body = '{"tipId":5}';
  const good = hashOf(`${c.sessionId} /api/player/tutorial/tip/add ${body} test-salt`);
  const ok = await h.call('POST', '/api/player/tutorial/tip/add', body, {
    'X-STAR-SESSION-ID': c.sessionId,
    'X-STAR-REQUESTHASH': good,
  });
  t.is(ok.body['resultCode'], 0);
  const getHash = hashOf(`${c.sessionId} /api/player/gacha/get_all?gachaIds=2%2C3 test-salt`);
  const okGet = await h.call('GET', '/api/player/gacha/get_all?gachaIds=2%2C3', undefined, {
    'X-STAR-SESSION-ID': c.sessionId,
    'X-STAR-REQUESTHASH': getHash.toUpperCase(),
  });
  t.is(okGet.body['resultCode'], 0, 'the path is hashed exactly as sent; case-insensitive hex');
  const bad = await h.call('POST', '/api/player/tutorial/tip/add', body, {
    'X-STAR-SESSION-ID': c.sessionId,
    'X-STAR-REQUESTHASH': hashOf('something else'),
  });
  t.is(bad.status, 400);
  t.is(bad.body['resultCode'], 101);
  const tips = (await c.get('/api/player/get_all')).body['player'] as { tutorialTips: number[] };
  t.deepEqual(tips.tutorialTips, [5], 'the refused request changed nothing');

  const strict = await startHarness({ cfg: { requestHashRequired: true } });
  t.teardown(() => strict.close());
  const uuid = '22222222-3333-4444-8555-666666666666';
  const raw = JSON.stringify({ uuid, platform: 1 });
  const missing = await strict.call('POST', '/api/player/signup', raw);
  t.is(missing.body['resultCode'], 101);
  const signed = await strict.call('POST', '/api/player/signup', raw, {
    'X-STAR-REQUESTHASH': hashOf(`/api/player/signup ${raw} test-salt`),
  });
  t.is(signed.body['resultCode'], 0);
});

test('request hash without a session: the plain form and the original clients\' leading-space form (" " + path ...) are both accepted', async (t) => {
  const h = await startHarness({ cfg: { requestHashRequired: true } });
  t.teardown(() => h.close());
  const signup = async (uuid: string, hashed: (raw: string) => string) => {
    const raw = JSON.stringify({ uuid, platform: 1 });
    return h.call('POST', '/api/player/signup', raw, { 'X-STAR-REQUESTHASH': hashed(raw) });
  };
  const plain = await signup('31313131-0000-4000-8000-000000000001', (raw) =>
    hashOf(`/api/player/signup ${raw} test-salt`),
  );
  t.is(plain.body['resultCode'], 0);
  const spaced = await signup('31313131-0000-4000-8000-000000000002', (raw) =>
    hashOf(` /api/player/signup ${raw} test-salt`),
  );
  t.is(spaced.body['resultCode'], 0, 'the leading-space form');
  const twoSpaces = await signup('31313131-0000-4000-8000-000000000003', (raw) =>
    hashOf(`  /api/player/signup ${raw} test-salt`),
  );
  t.is(twoSpaces.body['resultCode'], 101, 'only those two forms');
  const rawLogin = JSON.stringify({
    uuid: '31313131-0000-4000-8000-000000000002',
    accessToken: spaced.body['accessToken'],
  });
  const login = await h.call('POST', '/api/player/login', rawLogin, {
    'X-STAR-REQUESTHASH': hashOf(` /api/player/login ${rawLogin} test-salt`),
  });
  t.is(login.body['resultCode'], 0);
  // With a session the session id leads: the leading-space form is not that.
  const sid = login.body['sessionId'] as string;
  const withSession = (hash: string) =>
    h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': sid, 'X-STAR-REQUESTHASH': hash });
  t.is((await withSession(hashOf(' /api/player/get_all test-salt'))).body['resultCode'], 101);
  t.is((await withSession(hashOf(`${sid} /api/player/get_all test-salt`))).body['resultCode'], 0);
});

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('access tokens are UUID strings (36 characters): sign-up and move/set hand them out, log-in takes them', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  t.regex(c.accessToken, UUID_V4);
  t.is(c.accessToken.length, 36);
  const mv = await c.post('/api/player/move/get', { password: 'pass-1234' });
  const uuid = '32323232-0000-4000-8000-000000000001';
  const moved = await h.call('POST', '/api/player/move/set', {
    moveCode: mv.body['moveCode'],
    movePassword: 'pass-1234',
    uuid,
    platform: 2,
  });
  t.is(moved.body['resultCode'], 0);
  t.regex(moved.body['accessToken'] as string, UUID_V4);
  const li = await h.call('POST', '/api/player/login', { uuid, accessToken: moved.body['accessToken'], platform: 2 });
  t.is(li.body['resultCode'], 0);
});

test('move passwords of 4 to 16 characters: "1234" and 16 characters are accepted; 3 and 17 are 102 and change nothing', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const sixteen = await c.post('/api/player/move/get', { password: 'p'.repeat(16) });
  t.is(sixteen.body['resultCode'], 0);
  const four = await c.post('/api/player/move/get', { password: '1234' });
  t.is(four.body['resultCode'], 0);
  for (const password of ['123', 'p'.repeat(17)]) {
    const r = await c.post('/api/player/move/get', { password });
    t.is(r.status, 400);
    t.is(r.body['resultCode'], 102, `${password.length} characters`);
  }
  // The refused requests replaced nothing: the "1234" code still moves the account.
  const uuid = '33333333-0000-4000-8000-000000000001';
  const short = await h.call('POST', '/api/player/move/set', {
    moveCode: four.body['moveCode'],
    movePassword: '123',
    uuid,
    platform: 1,
  });
  t.is(short.body['resultCode'], 102);
  const moved = await h.call('POST', '/api/player/move/set', {
    moveCode: four.body['moveCode'],
    movePassword: '1234',
    uuid,
    platform: 1,
  });
  t.is(moved.body['resultCode'], 0);
  t.is(moved.body['playerId'], c.playerId);
});

test('the all-200 setting answers every status 200 with the same resultCode', async (t) => {
  const h = await startHarness({ cfg: { always200: true } });
  t.teardown(() => h.close());
  const r = await h.call('GET', '/api/player/get_all');
  t.is(r.status, 200);
  t.is(r.body['resultCode'], 203);
  const missing = await h.call('GET', '/api/nope');
  t.is(missing.status, 200);
  t.is(missing.body['resultCode'], 102);
});

test('every error has a distinct name, a result code and an HTTP status', (t) => {
  for (const name of ERROR_NAMES) {
    t.true(Number.isInteger(RESULT_CODES[name].resultCode), name);
    t.true(HTTP_STATUS[name] >= 400 && HTTP_STATUS[name] < 600, name);
  }
  t.is(RESULT_CODES.GEM_IS_SHORT.resultCode, 445);
  t.is(RESULT_CODES.PLAYER_MOVED.resultCode, 212);
});

test('GET /api/openapi.json documents every operation with its request schema and result codes', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const r = await h.call('GET', '/api/openapi.json');
  t.is(r.status, 200);
  t.is(r.body['openapi'], '3.1.0');
  const paths = r.body['paths'] as Record<
    string,
    Record<
      string,
      {
        operationId: string;
        'x-result-codes': Array<{ resultCode: number }>;
        requestBody?: unknown;
        parameters?: unknown[];
      }
    >
  >;
  for (const op of OPERATIONS) {
    const entry = paths[`/api${op.path}`]?.[op.method.toLowerCase()];
    t.truthy(entry, op.name);
    t.is(entry?.operationId, op.name);
    t.true((entry?.['x-result-codes'].length ?? 0) > 0);
  }
  const draw = paths['/api/player/gacha/draw']!['post']!;
  // The body is a component (test/http/openapi.test.ts checks the document in depth).
  const schemas = (r.body['components'] as { schemas: Record<string, { required?: string[] }> }).schemas;
  t.like(draw.requestBody as object, {
    required: true,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/DrawPlayerGachaRequest' } } },
  });
  t.like(schemas['DrawPlayerGachaRequest'], { required: ['gachaId', 'drawType'] });
  t.true(draw['x-result-codes'].some((c) => c.resultCode === 445));
  const present = paths['/api/player/present/get']!['get']!;
  t.deepEqual(
    (present.parameters as Array<{ name?: string; in?: string }>).filter((p) => p.in === 'query').map((p) => p.name),
    ['managedPresentId', 'stepCode'],
  );
});

test('the admin API is absent without ADMIN_TOKEN and refuses a wrong token', async (t) => {
  const off = await startHarness({ cfg: { adminToken: undefined } });
  const on = await startHarness();
  t.teardown(() => Promise.all([off.close(), on.close()]));
  const absent = await off.call('GET', '/admin/players/1', undefined, { Authorization: `Bearer ${ADMIN}` });
  t.is(absent.status, 404);
  const c = await signupLogin(on);
  const wrong = await on.call('GET', `/admin/players/${c.playerId}`, undefined, { Authorization: 'Bearer nope' });
  t.is(wrong.status, 401);
  const read = await on.call('GET', `/admin/players/${c.playerId}`, undefined, { Authorization: `Bearer ${ADMIN}` });
  t.is((read.body['state'] as { playerId: number }).playerId, c.playerId);
  const missing = await on.call('GET', '/admin/players/999', undefined, { Authorization: `Bearer ${ADMIN}` });
  t.is(missing.body['resultCode'], 202);
});

test('admin presents: to one player or to all, any kind; an unknown object is 107', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const auth = { Authorization: `Bearer ${ADMIN}` };
  const all = await h.call(
    'POST',
    '/admin/presents',
    { all: true, grant: { kind: 'item', objectId: 3002, amount: 2 }, title: 'For everyone', message: 'Thanks!' },
    auth,
  );
  t.deepEqual([all.body['resultCode'], all.body['sent']], [0, 2]);
  for (const kind of ['character', 'weapon', 'townFacility', 'roomObject']) {
    const id = kind === 'character' ? 1011 : kind === 'weapon' ? 103 : 1;
    const one = await h.call(
      'POST',
      '/admin/presents',
      { playerId: a.playerId, grant: { kind, objectId: id, amount: 1 }, title: kind, message: '' },
      auth,
    );
    t.is(one.body['resultCode'], 0, kind);
  }
  const unknown = await h.call(
    'POST',
    '/admin/presents',
    { playerId: a.playerId, grant: { kind: 'item', objectId: 424242, amount: 1 }, title: 'x', message: '' },
    auth,
  );
  t.is(unknown.body['resultCode'], 107);
  const both = await h.call(
    'POST',
    '/admin/presents',
    { playerId: a.playerId, all: true, grant: { kind: 'gold', objectId: 0, amount: 1 }, title: 'x', message: '' },
    auth,
  );
  t.is(both.body['resultCode'], 102);
  const listA = (await a.get('/api/player/present/get_all')).body['presents'] as Array<{
    kind: string;
    source: string;
  }>;
  t.deepEqual(
    listA
      .slice(0, 5)
      .map((p) => p.kind)
      .sort(),
    ['character', 'item', 'roomObject', 'townFacility', 'weapon'],
  );
  const listB = (await b.get('/api/player/present/get_all')).body['presents'] as Array<{ objectId: number }>;
  t.is(listB[0]!.objectId, 3002);
  const ids = listA.map((p) => (p as unknown as { managedPresentId: number }).managedPresentId);
  const got = await a.get(`/api/player/present/get?managedPresentId=${ids.join(',')}`);
  t.is((got.body['notReceived'] as unknown[]).length, 0);
  const state = (await a.get('/api/player/get_all')).body;
  t.is((state['managedWeapons'] as unknown[]).length, 1);
  t.is((state['managedTownFacilities'] as unknown[]).length, 1);
  t.is((state['managedRoomObjects'] as unknown[]).length, 1);
});

test('personal answers are never kept by a cache: /api and the operator API answer Cache-Control: no-store, errors and refusals too', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await signupLogin(h);
  const admin = { Authorization: `Bearer ${ADMIN}` };
  for (const r of [
    await a.get('/api/player/get_all'),
    await h.call('GET', '/api/player/get_all'),
    await h.call('POST', '/api/player/signup', { uuid: 'not-a-uuid' }),
    await h.call('GET', `/admin/players/${a.playerId}`, undefined, admin),
    await h.call('GET', '/admin/master', undefined, {}),
  ]) {
    t.is(r.headers['cache-control'], 'no-store');
  }
  const doc = await h.call('GET', '/api/openapi.json');
  t.not(doc.headers['cache-control'], 'no-store', 'the OpenAPI document is the same for everyone');
});
