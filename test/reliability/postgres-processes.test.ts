// Several server processes on one PostgreSQL database: requests for the same
// players alternate between them, and the reliability promises hold across processes.
import test from 'ava';
import { startChild, type Child } from '../_support/child.js';
import { crashLoop } from '../../scripts/lib/crash-loop.js';
import { PostgresStorage } from '../../adapters/storage/postgres.js';
import { freshSchema, TEST_DATABASE_URL } from '../_support/pg.js';

const ADMIN = 'postgres-processes-admin';
type Body = Record<string, unknown>;

const twoServers = async (t: import('ava').ExecutionContext): Promise<[Child, Child]> => {
  const schema = freshSchema();
  const env = {
    DATABASE_URL: TEST_DATABASE_URL,
    PG_SCHEMA: schema,
    ADMIN_TOKEN: ADMIN,
    RATE_LIMITS: 'off',
    PG_POOL_SIZE: '4',
  };
  // Both start at once: the schema's migration races and must end once, cleanly.
  const servers = await Promise.all([startChild(env), startChild(env)]);
  t.teardown(async () => {
    await Promise.all(servers.map((s) => s.kill('SIGKILL')));
    await PostgresStorage.dropSchema(TEST_DATABASE_URL, schema);
  });
  return servers;
};

const call = async (
  server: Child,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) => {
  const r = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as Body };
};

/** A player signed up on one server and logged in; its calls go to either server. */
const player = async (servers: [Child, Child], uuid: string) => {
  const su = await call(servers[0], 'POST', '/api/player/signup', { uuid, platform: 1 });
  const li = await call(servers[1], 'POST', '/api/player/login', { uuid, accessToken: su.body['accessToken'] });
  const sid = { 'X-STAR-SESSION-ID': li.body['sessionId'] as string };
  return {
    playerId: su.body['playerId'] as number,
    get: (i: number, path: string) => call(servers[i % 2] as Child, 'GET', path, undefined, sid),
    post: (i: number, path: string, body: unknown = {}) => call(servers[i % 2] as Child, 'POST', path, body, sid),
    postWith: (i: number, path: string, body: unknown, headers: Record<string, string>) =>
      call(servers[i % 2] as Child, 'POST', path, body, { ...sid, ...headers }),
  };
};

test('across two processes: 64 concurrent draws spend exactly what the gems pay for', async (t) => {
  const servers = await twoServers(t);
  const p = await player(servers, 'f1000000-0000-4000-8000-000000000001');
  const ids = (
    (await p.get(0, '/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>
  ).map((x) => x.managedPresentId);
  await p.get(1, `/api/player/present/get?managedPresentId=${ids.join(',')}`);
  t.is(
    (await p.post(0, '/api/player/gacha/draw', { gachaId: 2, drawType: 1 })).body['resultCode'],
    0,
    'spend the ticket',
  );
  await call(
    servers[1],
    'POST',
    '/admin/presents',
    { playerId: p.playerId, grant: { kind: 'gem', objectId: 0, amount: 100 }, title: 'x', message: '' },
    { Authorization: `Bearer ${ADMIN}` },
  );
  const gift = (
    (await p.get(1, '/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>
  )[0]!.managedPresentId;
  await p.get(0, `/api/player/present/get?managedPresentId=${gift}`);
  const rs = await Promise.all(
    Array.from({ length: 64 }, (_, i) => p.post(i, '/api/player/gacha/draw', { gachaId: 2, drawType: 1 })),
  );
  t.true(
    rs.every((r) => r.status < 500),
    rs.map((r) => r.body['resultCode']).join(','),
  );
  // 3,000 welcome gems, 100 of the first log-in's bonus and 100 of the gift pay for 21 draws of 150.
  t.is(rs.filter((r) => r.body['resultCode'] === 0).length, 21);
  t.is(((await p.get(1, '/api/player/get_all')).body['player'] as { gem: number }).gem, 50);
});

test('across two processes: concurrent receives grant each present once', async (t) => {
  const servers = await twoServers(t);
  const p = await player(servers, 'f1000000-0000-4000-8000-000000000002');
  for (let i = 1; i <= 10; i++)
    await call(
      servers[i % 2] as Child,
      'POST',
      '/admin/presents',
      { playerId: p.playerId, grant: { kind: 'gold', objectId: 0, amount: i }, title: 'x', message: '' },
      { Authorization: `Bearer ${ADMIN}` },
    );
  const gold = ((await p.get(0, '/api/player/get_all')).body['player'] as { gold: number }).gold;
  const box = (await p.get(1, '/api/player/present/get_all')).body['presents'] as Array<{
    managedPresentId: number;
    kind: string;
    amount: number;
  }>;
  const rs = await Promise.all(
    Array.from({ length: 32 }, (_, i) =>
      p.get(i, `/api/player/present/get?managedPresentId=${box.map((x) => x.managedPresentId).join(',')}`),
    ),
  );
  t.true(rs.every((r) => r.body['resultCode'] === 0));
  t.is(
    rs.reduce((a, r) => a + (r.body['receivedPresents'] as unknown[]).length, 0),
    box.length,
  );
  const want = box.filter((x) => x.kind === 'gold').reduce((a, x) => a + x.amount, 0);
  t.is(((await p.get(0, '/api/player/get_all')).body['player'] as { gold: number }).gold, gold + want);
});

test('across two processes: two players proposing to each other end as friends exactly once', async (t) => {
  const servers = await twoServers(t);
  const a = await player(servers, 'f1000000-0000-4000-8000-00000000000a');
  const b = await player(servers, 'f1000000-0000-4000-8000-00000000000b');
  for (let round = 0; round < 5; round++) {
    const [x, y] = await Promise.all([
      a.post(0, '/api/player/friend/propose', { playerId: b.playerId }),
      b.post(1, '/api/player/friend/propose', { playerId: a.playerId }),
    ]);
    t.true(
      [x, y].every((r) => r.status < 500),
      `${x.body['resultCode']} ${y.body['resultCode']}`,
    );
    const friendsOf = async (c: typeof a, i: number) =>
      JSON.stringify((await c.post(i, '/api/player/friend/get_all')).body['friends'] ?? []);
    t.true((await friendsOf(a, 1)).includes(`"playerId":${b.playerId}`));
    t.true((await friendsOf(b, 0)).includes(`"playerId":${a.playerId}`));
    const [u, v] = await Promise.all([
      a.post(1, '/api/player/friend/terminate', { playerId: b.playerId }),
      b.post(0, '/api/player/friend/terminate', { playerId: a.playerId }),
    ]);
    t.deepEqual([u.body['resultCode'], v.body['resultCode']].sort(), [0, 501]);
  }
});

test('across two processes: one Idempotency-Key sent to both applies once and both answer alike', async (t) => {
  const servers = await twoServers(t);
  const p = await player(servers, 'f1000000-0000-4000-8000-000000000003');
  const ids = (
    (await p.get(0, '/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>
  ).map((x) => x.managedPresentId);
  await p.get(1, `/api/player/present/get?managedPresentId=${ids.join(',')}`);
  const gems = ((await p.get(0, '/api/player/get_all')).body['player'] as { gem: number }).gem;
  const results = await Promise.all(
    Array.from({ length: 8 }, (_, i) =>
      p.postWith(
        i,
        '/api/player/gacha/draw',
        { gachaId: 3, drawType: 3 },
        { 'Idempotency-Key': 'same-key-both-processes' },
      ),
    ),
  );
  const codes = results.map((r) => r.body['resultCode']);
  t.true(
    codes.every((c) => c === 0 || c === 110),
    codes.join(','),
  );
  const draws = new Set(
    results.filter((r) => r.body['resultCode'] === 0).map((r) => JSON.stringify(r.body['gachaResults'])),
  );
  t.is(draws.size, 1, 'every success carries the same draw');
  t.is(((await p.get(1, '/api/player/get_all')).body['player'] as { gem: number }).gem, gems - 1500, 'paid once');
});

test('PostgreSQL: SIGKILL during acknowledged writes loses none of them, three times over', async (t) => {
  const schema = freshSchema();
  t.teardown(() => PostgresStorage.dropSchema(TEST_DATABASE_URL, schema));
  const r = await crashLoop(3, 'postgres', undefined, { DATABASE_URL: TEST_DATABASE_URL, PG_SCHEMA: schema });
  t.log(`requests ${r.requests}, acknowledged ${r.acknowledged}, 5xx ${r.fiveXX}, restarts ${r.restarts}`);
  t.deepEqual(r.problems, []);
  t.is(r.fiveXX, 0);
  // Each round kills after at least 20 acknowledged writes (counted, not timed).
  t.true(r.acknowledged >= 60, `acknowledged ${r.acknowledged}`);
});
