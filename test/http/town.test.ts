// The town and rooms over HTTP: a facility's whole journey, and a room, each
// read back by another player who sees only public data.
import test, { type ExecutionContext } from 'ava';
import { receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { HOUR, MINUTE } from '../../core/time.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;

const everything = async (c: Client) => {
  const r = await c.get('/api/player/get_all');
  const { serverTime: _ignored, ...rest } = r.body;
  return rest;
};

/** Expects a refusal with this result code and HTTP status, and the player's state unchanged. */
const refused = async (t: ExecutionContext, c: Client, path: string, body: unknown, resultCode: number, status: number) => {
  const before = await everything(c);
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], resultCode, `${path}: ${JSON.stringify(r.body)}`);
  t.is(r.status, status);
  t.true(typeof r.body['resultMessage'] === 'string' && (r.body['resultMessage'] as string).length > 0);
  t.deepEqual(await everything(c), before, 'nothing changed');
};

const okPost = async (t: ExecutionContext, c: Client, path: string, body: unknown) => {
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], 0, `${path}: ${JSON.stringify(r.body)}`);
  t.is(r.status, 200);
  return r.body;
};

const gemsOf = async (c: Client) => {
  const p = (await c.get('/api/player/get_all')).body['player'] as { gem: number; paidGem: number; gold: number };
  return p;
};

/** Moves the server clock, keeping the sessions alive (they expire after an idle hour). */
const wait = async (h: Harness, ms: number, clients: Client[]) => {
  for (let left = ms; left > 0; left -= 30 * MINUTE) {
    h.clock.now += Math.min(left, 30 * MINUTE);
    for (const c of clients) await c.get('/api/player/present/get_all');
  }
};

const harness = async (t: ExecutionContext): Promise<Harness> => {
  const h = await startHarness();
  t.teardown(() => h.close());
  return h;
};

test('a facility: buy, open, level up, refused collect and sale while levelling, finish for gems, collect exactly, place, read as another player', async (t) => {
  const h = await harness(t);
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  await receiveAllHttp(a);

  const bought = await okPost(t, a, '/api/player/town_facility/buy_all', { facilities: [{ facilityId: 1, amount: 1 }] });
  const id = (bought['managedTownFacilityIds'] as number[])[0] as number;
  await refused(t, a, '/api/player/town_facility/level_up', { managedTownFacilityId: id }, 317, 409);
  await okPost(t, a, '/api/player/town_facility/open_up', { managedTownFacilityId: id });

  const started = await okPost(t, a, '/api/player/town_facility/level_up', { managedTownFacilityId: id });
  t.is(started['completesAt'], '2026-11-21T13:00:00');

  // While it levels it cannot produce or be sold.
  await refused(t, a, '/api/player/town_facility/item_up', { managedTownFacilityId: id, itemNo: 0, amount: 100, actionTime: h.clock.now }, 316, 409);
  await refused(t, a, '/api/player/town_facility/sale', { managedTownFacilityId: id }, 316, 409);

  // Half the time left: half the gem price.
  await wait(h, 30 * MINUTE, [a, b]);
  const gemsBefore = await gemsOf(a);
  const finished = await okPost(t, a, '/api/player/town_facility/gem_level_up', { managedTownFacilityId: id });
  t.is(finished['gemSpent'], 25);
  t.is(finished['level'], 2);
  const gemsAfter = await gemsOf(a);
  t.is(gemsBefore.gem + gemsBefore.paidGem - gemsAfter.gem - gemsAfter.paidGem, 25);

  // Two hours at level 2 (1200 an hour) give exactly 2400 coins.
  await wait(h, 2 * HOUR, [a, b]);
  const first = await okPost(t, a, '/api/player/town_facility/item_up', { managedTownFacilityId: id, itemNo: 0, amount: 24000, actionTime: h.clock.now });
  t.is(first['amount'], 2400);
  t.is((first['player'] as { gold: number }).gold - gemsAfter.gold, 2400);
  // Ten more hours would be 12000, but the store holds 6000.
  await wait(h, 10 * HOUR, [a, b]);
  const second = await okPost(t, a, '/api/player/town_facility/item_up', { managedTownFacilityId: id, itemNo: 0, amount: 24000, actionTime: h.clock.now + HOUR });
  t.is(second['amount'], 6000);

  const placed = await okPost(t, a, '/api/player/town_facility/build_point/set_all', { buildPoints: [{ buildPointId: 3, managedTownFacilityId: id }] });
  t.deepEqual(placed['town'], { buildPoints: [{ buildPointId: 3, managedTownFacilityId: id }], contentBuildings: [] });

  const seen = await b.get(`/api/player/town/get_all?playerId=${a.playerId}`);
  t.is(seen.status, 200);
  t.is(seen.body['resultCode'], 0);
  const town = seen.body['town'] as { playerId: number; buildPoints: unknown[] };
  t.is(town.playerId, a.playerId);
  t.deepEqual(town.buildPoints, [{ buildPointId: 3, facility: { facilityId: 1, level: 2, covered: false, levelingUp: false } }]);
  const text = JSON.stringify(seen.body);
  for (const secret of ['managed', 'gold', 'gem', 'kirara', 'myCode']) t.false(text.includes(secret), `no ${secret} in another player's town`);

  const nobody = await b.get('/api/player/town/get_all?playerId=999999');
  t.is(nobody.body['resultCode'], 202);
  t.is(nobody.status, 404);
  const bad = await b.get('/api/player/town/get_all?playerId=abc');
  t.is(bad.body['resultCode'], 102);
  t.is(bad.status, 400);
});

test('a room: buy objects, place them, refuse an overlap and an out-of-grid placement, read it as another player', async (t) => {
  const h = await harness(t);
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  await receiveAllHttp(a);

  // Two round tables (2×2), one placed as bought; and a bed (2×3) kept in storage.
  const tables = await okPost(t, a, '/api/player/room_object/buy_set', { roomObjectId: 2, amount: 2, floorId: 1, placements: [{ x: 0, y: 0, dir: 0 }] });
  const [t1, t2] = tables['managedRoomObjectIds'] as [number, number];
  const beds = await okPost(t, a, '/api/player/room_object/buy_set', { roomObjectId: 1, amount: 1 });
  const bed = (beds['managedRoomObjectIds'] as number[])[0] as number;

  await refused(t, a, '/api/player/room/set', { floorId: 1, placements: [{ managedRoomObjectId: t1, x: 0, y: 0, dir: 0 }, { managedRoomObjectId: t2, x: 1, y: 1, dir: 0 }] }, 307, 400);
  await refused(t, a, '/api/player/room/set', { floorId: 1, placements: [{ managedRoomObjectId: bed, x: 10, y: 0, dir: 1 }] }, 307, 400);
  await refused(t, a, '/api/player/room_object/buy_set', { roomObjectId: 3, amount: 1, floorId: 1, placements: [{ x: 1, y: 1, dir: 0 }] }, 307, 400);

  const set = await okPost(t, a, '/api/player/room/set', {
    floorId: 1,
    placements: [{ managedRoomObjectId: t1, x: 0, y: 0, dir: 0 }, { managedRoomObjectId: t2, x: 2, y: 0, dir: 0 }, { managedRoomObjectId: bed, x: 9, y: 0, dir: 1 }],
  });
  t.truthy(set['rooms']);

  const seen = await b.get(`/api/player/room/get_all?playerId=${a.playerId}&floorId=1`);
  t.is(seen.body['resultCode'], 0);
  const rooms = seen.body['rooms'] as Array<{ floorId: number; placements: unknown[] }>;
  t.is(rooms.length, 1);
  t.deepEqual(rooms[0]!.placements, [
    { roomObjectId: 2, x: 0, y: 0, dir: 0 },
    { roomObjectId: 2, x: 2, y: 0, dir: 0 },
    { roomObjectId: 1, x: 9, y: 0, dir: 1 },
  ]);
  t.false(JSON.stringify(seen.body).includes('managed'));

  const nobody = await b.get('/api/player/room/get_all?playerId=999999');
  t.is(nobody.body['resultCode'], 202);
  t.is(nobody.status, 404);
});
