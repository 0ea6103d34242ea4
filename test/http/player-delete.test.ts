// POST /api/player/delete over HTTP (docs/privacy.md): the access token confirms it (a
// wrong one is 102 and changes nothing); afterwards the player no longer logs in (202),
// its session is over (203), no look-up by uuid, friend code or name finds it (the game's
// and the operator's), friends and requests drop it, its id is never handed out again and
// its uuid may sign up anew; the answers kept for Idempotency-Keys and the replay log hold
// nothing of its name or uuid. The same on the stores' files: test/storage/erasure.test.ts.
import test from 'ava';
import { ADMIN, newUuid, startHarness, type Harness } from '../_support/http.js';
import { isDeleted } from '../../core/state.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';

const NAME = 'Zelda Quixo';
const admin = { Authorization: `Bearer ${ADMIN}` };
type Body = Record<string, unknown>;

/** A player signed up with a name and logged in, with raw helpers (a session's calls, an Idempotency-Key when given). */
const player = async (h: Harness, name: string) => {
  const uuid = newUuid();
  const su = await h.call('POST', '/api/player/signup', { uuid, platform: 1, name });
  if (su.body['resultCode'] !== 0) throw new Error(`sign-up: ${JSON.stringify(su.body)}`);
  const accessToken = su.body['accessToken'] as string;
  const li = await h.call('POST', '/api/player/login', { uuid, accessToken, platform: 1 });
  const sessionId = li.body['sessionId'] as string;
  const headers = (key?: string): Record<string, string> => ({
    'X-STAR-SESSION-ID': sessionId,
    ...(key ? { 'Idempotency-Key': key } : {}),
  });
  const me = { uuid, accessToken, sessionId, playerId: su.body['playerId'] as number };
  const got = await h.call('GET', '/api/player/get_all', undefined, headers());
  return {
    ...me,
    myCode: (got.body['player'] as { myCode: string }).myCode,
    get: (path: string) => h.call('GET', path, undefined, headers()),
    post: (path: string, body: unknown = {}, key?: string) => h.call('POST', path, body, headers(key)),
  };
};

const listed = (b: Body, list: string): number[] => (b[list] as Array<{ playerId: number }>).map((x) => x.playerId);

test('a deletion: confirmed by the access token; then no log-in, no session, no look-up, no relation; the id stays spent', async (t) => {
  const storage = new MemoryStorage();
  const h = await startHarness({ storage });
  t.teardown(() => h.close());
  const a = await player(h, NAME);
  const b = await player(h, 'Bo');
  const c = await player(h, 'Cy');
  // A and B are friends (B accepts with a key: its kept answer lists A by name); C asked A.
  t.is((await a.post('/api/player/friend/propose', { playerId: b.playerId })).body['resultCode'], 0);
  const accepted = await b.post('/api/player/friend/accept', { playerId: a.playerId }, 'accept-1');
  t.is(accepted.body['resultCode'], 0);
  t.true(JSON.stringify(accepted.body).includes(NAME), "B's answer shows A's name");
  t.is((await c.post('/api/player/friend/propose', { playerId: a.playerId })).body['resultCode'], 0);

  // A wrong token: 102, and nothing changed.
  const before = await h.call('GET', `/admin/players/${a.playerId}`, undefined, admin);
  const wrong = await a.post('/api/player/delete', { accessToken: '00000000-0000-4000-8000-00000000dead' });
  t.is(wrong.body['resultCode'], 102);
  t.regex(wrong.body['resultMessage'] as string, /accessToken/);
  t.deepEqual(
    (await h.call('GET', `/admin/players/${a.playerId}`, undefined, admin)).body['state'],
    before.body['state'],
  );
  t.deepEqual(listed((await b.post('/api/player/friend/get_all')).body, 'friends'), [a.playerId]);

  const done = await a.post('/api/player/delete', { accessToken: a.accessToken }, 'delete-1');
  t.is(done.body['resultCode'], 0, JSON.stringify(done.body));
  t.is(done.body['playerId'], a.playerId);
  t.regex(done.body['deletedAt'] as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  t.is(done.body['player'], undefined, 'no view of a deleted player');

  // The player is gone for the game.
  t.is((await a.get('/api/player/get_all')).body['resultCode'], 203, 'its session is over');
  t.is((await a.post('/api/player/delete', { accessToken: a.accessToken }, 'delete-1')).body['resultCode'], 203);
  const login = await h.call('POST', '/api/player/login', { uuid: a.uuid, accessToken: a.accessToken, platform: 1 });
  t.is(login.body['resultCode'], 202, 'it no longer logs in');
  t.is((await b.post('/api/player/friend/search', { myCode: a.myCode })).body['resultCode'], 202);
  t.deepEqual(listed((await b.post('/api/player/friend/get_all')).body, 'friends'), []);
  t.deepEqual(listed((await c.post('/api/player/friend/get_all')).body, 'proposed'), []);
  t.is((await b.post('/api/player/friend/propose', { playerId: a.playerId })).body['resultCode'], 202);
  const guests = await b.post('/api/player/friend/get_all', { fromQuest: true });
  t.false(listed(guests.body, 'guests').includes(a.playerId), 'never a guest');

  // And for the operator.
  t.is((await h.call('GET', `/admin/players/${a.playerId}`, undefined, admin)).status, 404);
  for (const q of [`uuid=${a.uuid}`, `myCode=${a.myCode}`, `name=${encodeURIComponent(NAME)}`]) {
    const found = await h.call('GET', `/admin/players?${q}`, undefined, admin);
    t.deepEqual(found.body['players'], [], q);
  }
  t.is((await h.call('GET', `/admin/players/${a.playerId}/sessions`, undefined, admin)).status, 404);
  const present = { playerId: a.playerId, grant: { kind: 'gold', objectId: 0, amount: 1 }, title: 'Hi', message: '' };
  t.is((await h.call('POST', '/admin/presents', present, admin)).body['resultCode'], 202);
  t.like((await h.call('GET', '/admin/presents/reach?all=true', undefined, admin)).body, { players: 2 });

  // What the store keeps: a tombstone (its id never handed out again), no session, nothing of it in answers or the log.
  const stored = (storage as unknown as { states: Map<number, Parameters<typeof isDeleted>[0]> }).states.get(
    a.playerId,
  );
  t.true(stored !== undefined && isDeleted(stored));
  t.deepEqual(await storage.sessionsOf(a.playerId), []);
  const kept = await storage.getIdempotency(`p${b.playerId}:accept-1`);
  t.truthy(kept, "B's answer is still kept for its retry");
  t.false(JSON.stringify(kept).includes(NAME), "without A's name");
  const retried = await b.post('/api/player/friend/accept', { playerId: a.playerId }, 'accept-1');
  t.is(retried.body['resultCode'], 0, 'a retry gets the kept answer');
  t.is(await storage.getIdempotency(`p${a.playerId}:delete-1`), undefined, "A's own answers are dropped");
  const log = JSON.stringify(await storage.readLog());
  for (const gone of [NAME, a.uuid, a.myCode]) t.false(log.includes(gone), `the replay log holds no ${gone}`);
  t.true((await storage.readLog({ players: [a.playerId] })).length > 3, "A's entries stay (the log keeps its order)");

  // Its uuid may sign up again: a new player, a new id.
  const again = await h.call('POST', '/api/player/signup', { uuid: a.uuid, platform: 1, name: 'Again' });
  t.is(again.body['resultCode'], 0);
  t.true((again.body['playerId'] as number) > c.playerId);
});

test("a read's answer is not kept for its Idempotency-Key: it would keep other players' names", async (t) => {
  const storage = new MemoryStorage();
  const h = await startHarness({ storage });
  t.teardown(() => h.close());
  const a = await player(h, NAME);
  const b = await player(h, 'Bo');
  const found = await b.post('/api/player/friend/search', { myCode: a.myCode }, 'search-1');
  t.is(found.body['resultCode'], 0);
  t.is(await storage.getIdempotency(`p${b.playerId}:search-1`), undefined);
  t.is((await b.post('/api/player/friend/search', { myCode: a.myCode }, 'search-1')).body['resultCode'], 0);
});
