// Concurrency over real HTTP against a real server process: exact remainders,
// nothing granted twice, no deadlock between two players.
import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, type Child } from '../_support/child.js';
import { FileStorage } from '../../adapters/storage/file.js';
import { GameService } from '../../adapters/service/service.js';
import { operationByName } from '../../core/operations/table.js';
import { master } from '../_support/core.js';
import { HOUR } from '../../core/time.js';

const ADMIN = 'concurrency-admin-token';
type Body = Record<string, unknown>;

const client = (server: Child) => {
  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const r = await fetch(`${server.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Body };
  };
  return {
    call,
    async player(uuid: string, accessToken?: string) {
      let token = accessToken;
      let playerId: number | undefined;
      if (!token) {
        const su = await call('POST', '/api/player/signup', { uuid, platform: 1 });
        token = su.body['accessToken'] as string;
        playerId = su.body['playerId'] as number;
      }
      const li = await call('POST', '/api/player/login', { uuid, accessToken: token });
      const sid = { 'X-STAR-SESSION-ID': li.body['sessionId'] as string };
      return {
        playerId: (playerId ?? li.body['playerId']) as number,
        get: (path: string) => call('GET', path, undefined, sid),
        post: (path: string, body: unknown = {}) => call('POST', path, body, sid),
      };
    },
    grant: (playerId: number, kind: string, objectId: number, amount: number) =>
      call(
        'POST',
        '/admin/presents',
        { playerId, grant: { kind, objectId, amount }, title: 'test', message: '' },
        { Authorization: `Bearer ${ADMIN}` },
      ),
  };
};

const receiveAll = async (p: { get: (path: string) => Promise<{ body: Body }> }) => {
  const ids = (
    (await p.get('/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>
  ).map((x) => x.managedPresentId);
  return p.get(`/api/player/present/get?managedPresentId=${ids.join(',')}`);
};

const dataDir = (t: import('ava').ExecutionContext) => {
  const dir = mkdtempSync(join(tmpdir(), 'hoshi-conc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

test('64 concurrent draws whose gems pay for k: exactly k succeed, the gems end at the exact remainder', async (t) => {
  const server = await startChild({ DATA_DIR: dataDir(t), ADMIN_TOKEN: ADMIN, RATE_LIMITS: 'off' });
  t.teardown(() => server.kill('SIGKILL'));
  const c = client(server);
  const p = await c.player('c1000000-0000-4000-8000-000000000001');
  await receiveAll(p);
  // Spend the welcome ticket so single draws pay gems: 3000 (welcome) + 100 (the first log-in's bonus)
  // + 100 gems pay for 21 draws of 150.
  t.is((await p.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).body['resultCode'], 0);
  await c.grant(p.playerId, 'gem', 0, 100);
  await receiveAll(p);
  const gems = ((await p.get('/api/player/get_all')).body['player'] as { gem: number }).gem;
  t.is(gems, 3200);
  const k = Math.floor(gems / 150);
  const results = await Promise.all(
    Array.from({ length: 64 }, () => p.post('/api/player/gacha/draw', { gachaId: 2, drawType: 1 })),
  );
  const codes = results.map((r) => r.body['resultCode']);
  t.is(codes.filter((x) => x === 0).length, k);
  t.is(codes.filter((x) => x === 445).length, 64 - k);
  t.true(results.every((r) => r.status < 500));
  const after = (await p.get('/api/player/get_all')).body;
  t.is((after['player'] as { gem: number }).gem, gems - k * 150);
  const drawn = results
    .flatMap((r) => (r.body['gachaResults'] as Array<{ characterId: number }> | undefined) ?? [])
    .map((x) => x.characterId);
  const owned = new Set((after['managedCharacters'] as Array<{ characterId: number }>).map((x) => x.characterId));
  t.true(
    drawn.every((id) => owned.has(id)),
    'every success is in the state',
  );
});

test('concurrent receives of the same presents grant each once', async (t) => {
  const server = await startChild({ DATA_DIR: dataDir(t), ADMIN_TOKEN: ADMIN, RATE_LIMITS: 'off' });
  t.teardown(() => server.kill('SIGKILL'));
  const c = client(server);
  const p = await c.player('c1000000-0000-4000-8000-000000000002');
  for (let i = 1; i <= 20; i++) await c.grant(p.playerId, 'gold', 0, i);
  const gold = ((await p.get('/api/player/get_all')).body['player'] as { gold: number }).gold;
  const ids = (await p.get('/api/player/present/get_all')).body['presents'] as Array<{
    managedPresentId: number;
    kind: string;
    amount: number;
  }>;
  const expected = ids.filter((x) => x.kind === 'gold').reduce((a, x) => a + x.amount, 0);
  const results = await Promise.all(
    Array.from({ length: 64 }, () =>
      p.get(`/api/player/present/get?managedPresentId=${ids.map((x) => x.managedPresentId).join(',')}`),
    ),
  );
  t.true(results.every((r) => r.body['resultCode'] === 0));
  const received = results.reduce((a, r) => a + (r.body['receivedPresents'] as unknown[]).length, 0);
  t.is(received, ids.length, 'each present received by exactly one request');
  t.is(((await p.get('/api/player/get_all')).body['player'] as { gold: number }).gold, gold + expected);
});

test('concurrent collections of a facility collect what it produced once', async (t) => {
  const dir = dataDir(t);
  // Prepare the player five hours in the past, straight through the service on the same store.
  const storage = await FileStorage.open({ dir });
  const past = Date.now() - 5 * HOUR;
  let tokens = 0;
  const svc = new GameService({
    storage,
    master: master(),
    clock: () => past,
    seedSecret: 'test',
    newToken: () => `token-for-concurrency-${tokens++}`,
    sessionIdleMs: HOUR,
  });
  const uuid = 'c1000000-0000-4000-8000-000000000003';
  const su = await svc.run(operationByName('signupPlayer')!, svc.context(), { uuid, platform: 1 });
  if (su._tag === 'Left') throw new Error(su.left.code);
  const li = await svc.run(operationByName('loginPlayer')!, svc.context(), {
    uuid,
    accessToken: su.right['accessToken'] as string,
  });
  if (li._tag === 'Left') throw new Error(li.left.code);
  const sid = li.right['sessionId'] as string;
  const run = async (name: string, req: unknown) => {
    const r = await svc.run(operationByName(name)!, svc.context({ session: sid }), req);
    if (r._tag === 'Left') throw new Error(`${name}: ${r.left.code}`);
    return r.right;
  };
  const bought = await run('buyAllPlayerTownFacility', { facilities: [{ facilityId: 1, amount: 1 }] });
  const id = (bought['managedTownFacilityIds'] as number[])[0]!;
  await run('openUpPlayerTownFacility', { managedTownFacilityId: id });
  await storage.close();

  const server = await startChild({ DATA_DIR: dir, ADMIN_TOKEN: ADMIN, RATE_LIMITS: 'off' });
  t.teardown(() => server.kill('SIGKILL'));
  const p = await client(server).player(uuid, su.right['accessToken'] as string);
  const gold = ((await p.get('/api/player/get_all')).body['player'] as { gold: number }).gold;
  const cap = master().facility.get(1)?.levels[0]?.production?.cap ?? 0;
  t.true(cap > 0);
  const results = await Promise.all(
    Array.from({ length: 64 }, () =>
      p.post('/api/player/town_facility/item_up', { managedTownFacilityId: id, itemNo: 0, amount: cap }),
    ),
  );
  t.true(results.every((r) => r.status < 500));
  const after = ((await p.get('/api/player/get_all')).body['player'] as { gold: number }).gold;
  t.is(after - gold, cap, 'five hours fill the store to its cap; it is collected once in all');
});

test("two players' friend operations at once never deadlock and end consistent", async (t) => {
  const server = await startChild({ DATA_DIR: dataDir(t), ADMIN_TOKEN: ADMIN, RATE_LIMITS: 'off' });
  t.teardown(() => server.kill('SIGKILL'));
  const c = client(server);
  const a = await c.player('c1000000-0000-4000-8000-00000000000a');
  const b = await c.player('c1000000-0000-4000-8000-00000000000b');
  for (let round = 0; round < 10; round++) {
    const [x, y] = await Promise.all([
      a.post('/api/player/friend/propose', { playerId: b.playerId }),
      b.post('/api/player/friend/propose', { playerId: a.playerId }),
    ]);
    t.true([x, y].every((r) => r.status < 500));
    const listA = (await a.post('/api/player/friend/get_all')).body;
    const listB = (await b.post('/api/player/friend/get_all')).body;
    const isFriend = (l: Body, id: number) => JSON.stringify(l).includes(`"playerId":${id}`);
    t.true(isFriend(listA, b.playerId) && isFriend(listB, a.playerId), `round ${round}: friends both ways`);
    // Both terminate at once: one succeeds, the other finds no friend (501); none hangs.
    const [u, v] = await Promise.all([
      a.post('/api/player/friend/terminate', { playerId: b.playerId }),
      b.post('/api/player/friend/terminate', { playerId: a.playerId }),
    ]);
    t.deepEqual([u.body['resultCode'], v.body['resultCode']].sort(), [0, 501]);
  }
});
