// Sessions, idempotency, version checks and seeds over HTTP (issue 23): each test
// fails on a fault the suite once let through (a hand-made mutation sample).
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { FileStorage, type FileStorageOptions } from '../../adapters/storage/file.js';
import { MemoryStorage } from '../../adapters/storage/memory.js';
import type { Commit } from '../../adapters/storage/storage.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;
type Body = Record<string, unknown>;

const harness = async (
  t: import('ava').ExecutionContext,
  storage?: import('../../adapters/storage/storage.js').Storage,
): Promise<Harness> => {
  // The answers' codecs are checked by the contract tests; these check state and result codes.
  const h = await startHarness({ ...(storage ? { storage } : {}), cfg: { checkAnswers: false } });
  t.teardown(async () => {
    await h.close();
    await h.storage.close();
  });
  return h;
};

const fileStore = async (
  t: import('ava').ExecutionContext,
  faults: FileStorageOptions['faults'],
): Promise<FileStorage> => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-survivors-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return FileStorage.open({ dir, faults });
};

const playerOf = async (c: Client) => (await c.get('/api/player/get_all')).body;
const gemOf = async (c: Client) => ((await playerOf(c))['player'] as { gem: number }).gem;
const charactersOf = async (c: Client) => ((await playerOf(c))['managedCharacters'] as unknown[]).length;
const drawn = (b: Body) => (b['gachaResults'] as Array<{ characterId: number }>).map((r) => r.characterId);

test('after a move to a new device, the old session answers 203 to POSTs too, and changes nothing', async (t) => {
  const h = await harness(t);
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  const mv = await c.post('/api/player/move/get', { password: 'pass-1234' });
  t.is(mv.body['resultCode'], 0);
  const NEW = '0c0c0c0c-1111-4222-8333-444444444444';
  const moved = await h.call('POST', '/api/player/move/set', {
    moveCode: mv.body['moveCode'],
    movePassword: 'pass-1234',
    uuid: NEW,
    platform: 2,
  });
  t.is(moved.body['resultCode'], 0);
  const li = await h.call('POST', '/api/player/login', {
    uuid: NEW,
    accessToken: moved.body['accessToken'],
    platform: 2,
    appVersion: '1.0.0',
  });
  const now = { 'X-STAR-SESSION-ID': li.body['sessionId'] as string };
  const before = (await h.call('GET', '/api/player/get_all', undefined, now)).body;
  delete before['serverTime'];

  for (const [path, body] of [
    ['/api/player/gacha/draw', { gachaId: 2, drawType: 1 }],
    ['/api/player/tutorial/tip/add', { tipId: 4 }],
    ['/api/player/move/get', { password: 'pass-5678' }],
  ] as const) {
    const r = await c.post(path, body);
    t.is(r.body['resultCode'], 203, `${path} with the old session`);
    t.is(r.status, 401, path);
  }
  t.is((await c.get('/api/player/get_all')).body['resultCode'], 203);
  const after = (await h.call('GET', '/api/player/get_all', undefined, now)).body;
  delete after['serverTime'];
  t.deepEqual(after, before, 'the old session changed nothing');
});

test('a friend proposal sent twice with one Idempotency-Key gets the stored answer both times, not 317', async (t) => {
  const h = await harness(t);
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  const headers = { 'X-STAR-SESSION-ID': a.sessionId, 'Idempotency-Key': 'propose-1' };
  const first = await h.call('POST', '/api/player/friend/propose', { playerId: b.playerId }, headers);
  t.is(first.body['resultCode'], 0);
  const again = await h.call('POST', '/api/player/friend/propose', { playerId: b.playerId }, headers);
  t.is(again.body['resultCode'], 0, 'the stored answer, not 317');
  t.is(again.body['state'], first.body['state']);
  // Without the key the same request is refused: the stored answer was not a second proposal.
  t.is((await a.post('/api/player/friend/propose', { playerId: b.playerId })).body['resultCode'], 317);
  const received = (await b.post('/api/player/friend/get_all', {})).body['received'] as Array<{ playerId: number }>;
  t.deepEqual(
    received.map((x) => x.playerId),
    [a.playerId],
  );
});

test('a storage failure (105) is not stored under the Idempotency-Key: after a one-off journal write failure, the retry succeeds', async (t) => {
  let failNext = false;
  const storage = await fileStore(t, {
    beforeWrite: () => {
      if (failNext) {
        failNext = false;
        throw Object.assign(new Error('I/O error'), { code: 'EIO' });
      }
    },
  });
  const h = await harness(t, storage);
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  const gems = await gemOf(c);
  const headers = { 'X-STAR-SESSION-ID': c.sessionId, 'Idempotency-Key': 'draw-after-eio' };
  failNext = true;
  const failed = await h.call('POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 3 }, headers);
  t.is(failed.body['resultCode'], 105);
  t.is(failed.status, 503);
  t.is(await gemOf(c), gems, 'nothing was paid');
  const retried = await h.call('POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 3 }, headers);
  t.is(retried.body['resultCode'], 0, 'the retry runs the request');
  t.is(await gemOf(c), gems - 1500);
  const stored = await h.call('POST', '/api/player/gacha/draw', { gachaId: 3, drawType: 3 }, headers);
  t.deepEqual(drawn(stored.body), drawn(retried.body), 'and the success is what the key keeps');
  t.is(await gemOf(c), gems - 1500, 'paid once');
});

/** Stores whose commits can be refused with a version conflict, as when another process wrote first. */
const conflictStores: Array<
  [
    string,
    (
      t: import('ava').ExecutionContext,
      conflict: (c: Commit) => boolean,
    ) => Promise<import('../../adapters/storage/storage.js').Storage>,
  ]
> = [
  ['memory', async (_t, conflict) => new MemoryStorage({ faults: { conflict } })],
  ['file', async (t, conflict) => fileStore(t, { conflict })],
];

for (const [name, make] of conflictStores) {
  test(`a version conflict is retried, never answered as done (${name} store)`, async (t) => {
    let conflicts = 0;
    const h = await harness(t, await make(t, () => conflicts > 0 && conflicts-- > 0));
    const c = await signupLogin(h);
    await receiveAllHttp(c);
    const gems = await gemOf(c);
    const chars = await charactersOf(c);

    conflicts = 1;
    const once = await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 });
    t.is(once.body['resultCode'], 0);
    t.is(conflicts, 0, 'the conflict happened');
    t.is(await gemOf(c), gems - 1500, 'the retry committed the draw');
    const fresh = (once.body['gachaResults'] as Array<{ isNew: boolean }>).filter((r) => r.isNew).length;
    t.is(await charactersOf(c), chars + fresh, 'each new character granted once');

    conflicts = 1000;
    const refused = await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 });
    t.is(refused.body['resultCode'], 317, 'conflicts every time: 317, not a success');
    t.is(refused.status, 409);
    conflicts = 0;
    t.is(await gemOf(c), gems - 1500, 'the refused draw was not paid');

    // A log-in whose commit conflicts gives no session.
    conflicts = 1;
    const li = await h.call('POST', '/api/player/login', {
      uuid: c.uuid,
      accessToken: c.accessToken,
      platform: 1,
      appVersion: '1.0.0',
    });
    t.is(li.body['resultCode'], 317);
    t.is(li.body['sessionId'], undefined);
  });
}

test("the seed takes the state's version: the same draw at versions n and n+1 draws other characters", async (t) => {
  const h = await harness(t);
  const c = await signupLogin(h);
  await receiveAllHttp(c);
  const a = await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 });
  const b = await c.post('/api/player/gacha/draw', { gachaId: 3, drawType: 3 });
  t.is(a.body['resultCode'], 0);
  t.is(b.body['resultCode'], 0);
  t.notDeepEqual(drawn(b.body), drawn(a.body));
});
