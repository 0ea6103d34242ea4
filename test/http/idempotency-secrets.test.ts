// Idempotency keys and secrets (issue 18): keys without a session are the caller's
// own (a sign-up's: its uuid's), a stored answer never hands out a secret (access
// token, session id: kept without it, its replay refused with 409/112), and the
// session is checked before the store of answers is read (a moved account's old
// session is 203, never a stored answer).
import test from 'ava';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newUuid, signupLogin, startHarness } from '../_support/http.js';
import { FileStorage } from '../../adapters/storage/file.js';

const fileHarness = async (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-idem-'));
  const storage = await FileStorage.open({ dir });
  const h = await startHarness({ storage });
  t.teardown(async () => {
    await h.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { h, dir };
};

test('a retried sign-up never replays the access token: 409/112, and the token is stored nowhere', async (t) => {
  const { h, dir } = await fileHarness(t);
  const body = { uuid: newUuid(), platform: 1 };
  const first = await h.call('POST', '/api/player/signup', body, { 'Idempotency-Key': 'su-1' });
  t.is(first.body['resultCode'], 0);
  const token = first.body['accessToken'] as string;
  const retry = await h.call('POST', '/api/player/signup', body, { 'Idempotency-Key': 'su-1' });
  t.is(retry.status, 409);
  t.is(retry.body['resultCode'], 112);
  t.regex(retry.body['resultMessage'] as string, /already done.*accessToken/);
  t.false(JSON.stringify(retry.body).includes(token));
  t.is(retry.body['accessToken'], undefined);
  // Not in what the store keeps either (the journal holds the stored answer).
  t.false(readFileSync(join(dir, 'journal.log'), 'utf8').includes(token), 'the journal holds no access token');
  // The first caller's token still logs in; only the replay is refused.
  const li = await h.call('POST', '/api/player/login', { uuid: body.uuid, accessToken: token });
  t.is(li.body['resultCode'], 0);
});

test('a sign-up key is scoped by the uuid: another caller picking the same key signs up its own player', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const uuidA = newUuid();
  const a = await h.call(
    'POST',
    '/api/player/signup',
    { uuid: uuidA, platform: 1 },
    { 'Idempotency-Key': 'common-key' },
  );
  const b = await h.call(
    'POST',
    '/api/player/signup',
    { uuid: newUuid(), platform: 1 },
    { 'Idempotency-Key': 'common-key' },
  );
  t.is(a.body['resultCode'], 0);
  t.is(b.body['resultCode'], 0, 'not 422: the key is not shared across callers');
  t.not(a.body['playerId'], b.body['playerId']);
  t.not(a.body['accessToken'], b.body['accessToken']);
  // The same uuid with the same key and another body: the caller's own key, reused.
  const reused = await h.call(
    'POST',
    '/api/player/signup',
    { uuid: uuidA, platform: 2 },
    { 'Idempotency-Key': 'common-key' },
  );
  t.is(reused.status, 422);
  t.is(reused.body['resultCode'], 109);
});

test("a retried log-in never replays the session id; a move's never replays the new token", async (t) => {
  const { h, dir } = await fileHarness(t);
  const c = await signupLogin(h);
  const body = { uuid: c.uuid, accessToken: c.accessToken };
  const first = await h.call('POST', '/api/player/login', body, { 'Idempotency-Key': 'li-1' });
  t.is(first.body['resultCode'], 0);
  const retry = await h.call('POST', '/api/player/login', body, { 'Idempotency-Key': 'li-1' });
  t.is(retry.body['resultCode'], 112);
  t.is(retry.body['sessionId'], undefined);
  t.regex(retry.body['resultMessage'] as string, /sessionId/);
  // The first answer's session works; a log-in with a new key gives another.
  t.is(
    (await h.call('GET', '/api/player/get_all', undefined, { 'X-STAR-SESSION-ID': first.body['sessionId'] as string }))
      .status,
    200,
  );
  t.is((await h.call('POST', '/api/player/login', body, { 'Idempotency-Key': 'li-2' })).body['resultCode'], 0);

  const mv = await c.post('/api/player/move/get', { password: 'pass-1234' });
  const move = { moveCode: mv.body['moveCode'], movePassword: 'pass-1234', uuid: newUuid(), platform: 2 };
  const moved = await h.call('POST', '/api/player/move/set', move, { 'Idempotency-Key': 'mv-1' });
  t.is(moved.body['resultCode'], 0);
  const again = await h.call('POST', '/api/player/move/set', move, { 'Idempotency-Key': 'mv-1' });
  t.is(again.body['resultCode'], 112);
  t.is(again.body['accessToken'], undefined);
  const journal = readFileSync(join(dir, 'journal.log'), 'utf8');
  t.false(journal.includes(moved.body['accessToken'] as string));
  t.false(journal.includes(first.body['sessionId'] as string));
});

test("a moved account's old session gets 203, not the answer stored under its key", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'tip-7' };
  t.is((await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 7 }, headers)).body['resultCode'], 0);
  t.is(
    (await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 7 }, headers)).body['resultCode'],
    0,
    'the stored answer, while the session lives',
  );
  const mv = await c.post('/api/player/move/get', { password: 'pass-1234' });
  const moved = await h.call('POST', '/api/player/move/set', {
    moveCode: mv.body['moveCode'],
    movePassword: 'pass-1234',
    uuid: newUuid(),
    platform: 2,
  });
  t.is(moved.body['resultCode'], 0);
  const old = await h.call('POST', '/api/player/tutorial/tip/add', { tipId: 7 }, headers);
  t.is(old.status, 401);
  t.is(old.body['resultCode'], 203);
  // A read with the old session too.
  t.is((await c.get('/api/player/get_all')).body['resultCode'], 203);
});
