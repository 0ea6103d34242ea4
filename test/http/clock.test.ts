// One request, one clock read: the app's first middleware reads `now` and builds
// the request context from it; the rate limits, the session's idle check, the
// reducer, the commit, the idempotency record and the envelope's serverTime all
// take it from there. A clock that counts its calls sees exactly one per request,
// whatever the request does (and two requests at different times see their own).
import test from 'ava';
import type { AddressInfo } from 'node:net';
import { createApp, type AppConfig } from '../../adapters/http/app.js';
import { silentLogger } from '../../adapters/http/log.js';
import { DEFAULT_LIMITS } from '../../adapters/http/rate-limit.js';
import { GameService } from '../../adapters/service/service.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import { ADMIN } from '../_support/http.js';
import { master, NOW } from '../_support/core.js';
import { formatTime } from '../../core/time.js';

test('every request reads the clock once, and answers with that instant', async (t) => {
  let reads = 0;
  let now = NOW;
  let tokens = 0;
  const service = new GameService({
    storage: new MemoryStorage(),
    master: master(),
    seedSecret: 's',
    sessionIdleMs: 3_600_000,
    clock: () => {
      reads++;
      return now;
    },
    newToken: () => `00000000-0000-4000-8000-${String(++tokens).padStart(12, '0')}`,
  });
  const cfg: AppConfig = {
    adminToken: ADMIN,
    requestHashSalt: 'salt',
    requestHashRequired: false,
    bodyLimitBytes: 65536,
    always200: false,
    serverVersion: 1,
    checkAnswers: true,
    rateLimits: DEFAULT_LIMITS,
  };
  const server = createApp(service, cfg, silentLogger).listen(0, '127.0.0.1');
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const offset = master().game.timezoneOffsetMinutes;

  /** Sends one request a minute after the last; checks it read the clock once and answered with that time. */
  const call = async (
    what: string,
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    now += 60_000;
    const before = reads;
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as Record<string, unknown>;
    t.is(reads - before, 1, `${what}: one clock read`);
    t.is(answer['serverTime'], formatTime(now, offset), `${what}: serverTime is the request's now`);
    return answer;
  };

  const uuid = '00000000-0000-4000-8000-00000000c10c';
  const su = await call('sign-up', 'POST', '/api/player/signup', { uuid, platform: 1 });
  const li = await call('log-in', 'POST', '/api/player/login', { uuid, accessToken: su['accessToken'] });
  const session = { 'X-STAR-SESSION-ID': li['sessionId'] as string };
  await call('a read', 'GET', '/api/player/get_all', undefined, session);
  const present = await call('present list', 'GET', '/api/player/present/get_all', undefined, session);
  const ids = (present['presents'] as Array<{ managedPresentId: number }>).map((p) => p.managedPresentId).join(',');
  await call('receive', 'GET', `/api/player/present/get?managedPresentId=${ids}`, undefined, session);
  const keyed = { ...session, 'Idempotency-Key': 'clock-1' };
  const drawn = await call('a draw under a key', 'POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 1 }, keyed);
  t.is(drawn['resultCode'], 0);
  await call(
    'the same key again (the stored answer)',
    'POST',
    '/api/player/gacha/draw',
    { gachaId: 3, drawType: 1 },
    keyed,
  );
  await call('a move code', 'POST', '/api/player/move/get', { password: 'pass-1234' }, session);
  t.is(
    (await call('an expired session', 'GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': 'nope' }))[
      'resultCode'
    ],
    203,
  );
  t.is((await call('a bad request', 'POST', '/api/player/gacha/draw', { gachaId: 'x' }, session))['resultCode'], 102);
  await call('no such path', 'GET', '/api/nothing/here');
  await call(
    'an operator present',
    'POST',
    '/admin/presents',
    { playerId: su['playerId'], grant: { kind: 'gold', objectId: 0, amount: 1 }, title: 'T', message: '' },
    { Authorization: `Bearer ${ADMIN}` },
  );
});
