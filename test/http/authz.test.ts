// Authorization over every operation: sessions, other players' managed ids, and
// what a read of another player shows.
import test from 'ava';
import { grant, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { OPERATIONS } from '../../core/operations/table.js';
import { MANAGED_ID_SPAN } from '../../core/account.js';
import { asQuery, fieldsOf, managedKind, ownedOf, plausibleRequest } from '../_support/requests.js';
import { accessOf } from '../../core/operation.js';

const SESSION_OPS = OPERATIONS.filter((o) => accessOf(o) === 'session');

/** A player who owns one of each kind of thing, and one present still in the box. */
const stocked = async (h: Harness) => {
  const c = await signupLogin(h);
  for (const [kind, id] of [
    ['character', 1011],
    ['weapon', 103],
    ['townFacility', 1],
    ['roomObject', 1],
    ['gem', 0],
  ] as const)
    await grant(h, c.playerId, kind, id, kind === 'gem' ? 5000 : 1);
  await receiveAllHttp(c);
  await grant(h, c.playerId, 'gold', 0, 1);
  const all = (await c.get('/api/player/get_all')).body;
  const presents = (await c.get('/api/player/present/get_all')).body['presents'] as Array<{ managedPresentId: number }>;
  return { ...c, owned: ownedOf(all, presents) };
};

const send = (
  h: Harness,
  op: (typeof OPERATIONS)[number],
  req: Record<string, unknown>,
  headers: Record<string, string>,
) =>
  op.method === 'GET'
    ? h.call('GET', `/api${op.path}?${asQuery(req)}`, undefined, headers)
    : h.call('POST', `/api${op.path}`, req, headers);

test('every session operation refuses no session, a forged one and an expired one with 401/203', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const c = await signupLogin(h);
  const owned = { character: 1, weapon: 1, facility: 1, roomObject: 1, present: 1 };
  for (const op of SESSION_OPS) {
    for (const headers of [
      {},
      { 'X-STAR-SESSION-ID': 'forged-session-id' },
      { Authorization: 'Bearer forged' },
    ] as Array<Record<string, string>>) {
      const r = await send(h, op, plausibleRequest(op, owned), headers);
      t.deepEqual([r.status, r.body['resultCode']], [401, 203], `${op.name} ${JSON.stringify(headers)}`);
    }
  }
  h.clock.now += 2 * 3600_000;
  for (const op of SESSION_OPS) {
    const r = await send(h, op, plausibleRequest(op, owned), { 'X-STAR-SESSION-ID': c.sessionId });
    t.deepEqual([r.status, r.body['resultCode']], [401, 203], `${op.name} expired`);
  }
});

test("player A's managed ids in B's requests are refused and change nobody", async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await stocked(h);
  const b = await stocked(h);
  const stateOf = async (id: number) => JSON.stringify(await h.storage.load(id));
  const withManaged = SESSION_OPS.filter((op) =>
    fieldsOf(op).some((f) => managedKind(f.name) !== null || JSON.stringify(f.schema).includes('managed')),
  );
  t.true(withManaged.length >= 25, `${withManaged.length} operations take managed ids`);
  for (const op of withManaged) {
    const beforeA = await stateOf(a.playerId);
    const beforeB = await stateOf(b.playerId);
    const r = await send(h, op, plausibleRequest(op, a.owned), { 'X-STAR-SESSION-ID': b.sessionId });
    t.true(r.status < 500, `${op.name}: ${r.status}`);
    if (op.name === 'getPlayerPresent') {
      t.deepEqual(
        (r.body['notReceived'] as Array<{ reason: string }>).map((x) => x.reason),
        ['NOT_FOUND'],
        'a present of A is reported unknown to B',
      );
    } else {
      t.not(r.body['resultCode'], 0, `${op.name} accepted A's ids: ${JSON.stringify(r.body).slice(0, 200)}`);
    }
    t.is(await stateOf(a.playerId), beforeA, `${op.name}: A unchanged`);
    t.is(await stateOf(b.playerId), beforeB, `${op.name}: B unchanged`);
  }
});

test('reads of another player show only public data: no currencies, items or managed ids', async (t) => {
  const h = await startHarness();
  t.teardown(() => h.close());
  const a = await stocked(h);
  const b = await stocked(h);
  const reads = OPERATIONS.filter((o) => o.method === 'GET' && fieldsOf(o).some((f) => f.name === 'playerId'));
  t.deepEqual(reads.map((o) => o.name).sort(), [
    'getAllPlayerFieldPartyMember',
    'getAllPlayerRoom',
    'getAllPlayerTown',
  ]);
  const lo = a.playerId * MANAGED_ID_SPAN;
  for (const op of reads) {
    const r = await b.get(`/api${op.path}?playerId=${a.playerId}`);
    t.is(r.body['resultCode'], 0, op.name);
    const { serverTime: _t, ...payload } = r.body;
    const text = JSON.stringify(payload);
    for (const key of [
      '"gold"',
      '"gem"',
      '"paidGem"',
      '"kirara"',
      '"itemSummary"',
      '"items"',
      '"tokenHash"',
      '"myCode"',
      '"managedCharacters"',
      '"presents"',
    ]) {
      t.false(text.includes(key), `${op.name} shows ${key}`);
    }
    const numbers = (text.match(/\d{6,}/g) ?? []).map(Number);
    t.deepEqual(
      numbers.filter((n) => n > lo && n < lo + MANAGED_ID_SPAN),
      [],
      `${op.name} shows A's managed ids`,
    );
    const missing = await b.get(`/api${op.path}?playerId=99999`);
    t.is(missing.body['resultCode'], 202, `${op.name}: an unknown player`);
  }
  // Reading one's own room with playerId is the same as without.
  const own = await a.get(`/api/player/room/get_all?playerId=${a.playerId}`);
  t.is(own.body['resultCode'], 0);
});
