// The town and rooms over HTTP through the typed client: a facility's whole
// journey, and a room, each read back by another player who sees only public
// data; and every other operation of the group once, its answer checked against
// its codec by the server and the client alike.
import test, { type ExecutionContext } from 'ava';
import { grant, receiveAllHttp, signupLogin, startHarness, type Harness } from '../_support/http.js';
import { master } from '../_support/core.js';
import { HOUR, MINUTE } from '../../core/time.js';
import type { AnswerOf, CallResult, OperationName } from '../../client/index.js';

type Client = Awaited<ReturnType<typeof signupLogin>>;

const everything = async (c: Client) => {
  const r = await c.get('/api/player/get_all');
  const { serverTime: _ignored, ...rest } = r.body;
  return rest;
};

/** Expects a refusal with this result code and HTTP status, and the player's state unchanged. */
const refused = async (
  t: ExecutionContext,
  c: Client,
  path: string,
  body: unknown,
  resultCode: number,
  status: number,
) => {
  const before = await everything(c);
  const r = await c.post(path, body);
  t.is(r.body['resultCode'], resultCode, `${path}: ${JSON.stringify(r.body)}`);
  t.is(r.status, status);
  t.true(typeof r.body['resultMessage'] === 'string' && (r.body['resultMessage'] as string).length > 0);
  t.deepEqual(await everything(c), before, 'nothing changed');
};

/** The answer of a call that must succeed: the typed client checked it against its codec, as the server did. */
const must = <N extends OperationName>(t: ExecutionContext, r: CallResult<N>): AnswerOf<N> => {
  if (!r.ok) throw new Error(`resultCode ${r.resultCode}: ${r.resultMessage}`);
  t.is(r.status, 200);
  return r.value;
};

const gemsOf = async (t: ExecutionContext, c: Client) => {
  const { player } = must(t, await c.client.getAllPlayer());
  if (!player) throw new Error('get_all shows the player');
  return player;
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

  const bought = must(t, await a.client.buyAllPlayerTownFacility({ facilities: [{ facilityId: 1, amount: 1 }] }));
  const id = bought.managedTownFacilityIds[0]!;
  await refused(t, a, '/api/player/town_facility/level_up', { managedTownFacilityId: id }, 317, 409);
  must(t, await a.client.openUpPlayerTownFacility({ managedTownFacilityId: id }));

  const started = must(t, await a.client.levelUpPlayerTownFacility({ managedTownFacilityId: id }));
  t.is(started.completesAt, '2026-11-21T13:00:00');

  // While it levels it cannot produce or be sold.
  await refused(
    t,
    a,
    '/api/player/town_facility/item_up',
    { managedTownFacilityId: id, itemNo: 0, amount: 100, actionTime: h.clock.now },
    316,
    409,
  );
  await refused(t, a, '/api/player/town_facility/sale', { managedTownFacilityId: id }, 316, 409);

  // Half the time left: half the gem price.
  await wait(h, 30 * MINUTE, [a, b]);
  const gemsBefore = await gemsOf(t, a);
  const finished = must(t, await a.client.gemLevelUpPlayerTownFacility({ managedTownFacilityId: id }));
  t.is(finished.gemSpent, 25);
  t.is(finished.level, 2);
  const gemsAfter = await gemsOf(t, a);
  t.is(gemsBefore.gem + gemsBefore.paidGem - gemsAfter.gem - gemsAfter.paidGem, 25);

  // Two hours at level 2 (1200 an hour) give exactly 2400 coins.
  await wait(h, 2 * HOUR, [a, b]);
  const first = must(
    t,
    await a.client.itemUpPlayerTownFacility({
      managedTownFacilityId: id,
      itemNo: 0,
      amount: 24000,
      actionTime: h.clock.now,
    }),
  );
  t.is(first.amount, 2400);
  t.is((first.player?.gold ?? 0) - gemsAfter.gold, 2400);
  // Ten more hours would be 12000, but the store holds 6000.
  await wait(h, 10 * HOUR, [a, b]);
  const second = must(
    t,
    await a.client.itemUpPlayerTownFacility({
      managedTownFacilityId: id,
      itemNo: 0,
      amount: 24000,
      actionTime: h.clock.now + HOUR,
    }),
  );
  t.is(second.amount, 6000);

  const placed = must(
    t,
    await a.client.setAllPlayerTownFacilityBuildPoint({
      buildPoints: [{ buildPointId: 3, managedTownFacilityId: id }],
    }),
  );
  t.deepEqual(placed.town, { buildPoints: [{ buildPointId: 3, managedTownFacilityId: id }], contentBuildings: [] });

  const seen = must(t, await b.client.getAllPlayerTown({ playerId: a.playerId }));
  t.is(seen.town.playerId, a.playerId);
  t.deepEqual(seen.town.buildPoints, [
    { buildPointId: 3, facility: { facilityId: 1, level: 2, covered: false, levelingUp: false } },
  ]);
  const text = JSON.stringify(seen);
  for (const secret of ['managed', 'gold', 'gem', 'kirara', 'myCode'])
    t.false(text.includes(secret), `no ${secret} in another player's town`);

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
  const tables = must(
    t,
    await a.client.buySetPlayerRoomObject({
      roomObjectId: 2,
      amount: 2,
      floorId: 1,
      placements: [{ x: 0, y: 0, dir: 0 }],
    }),
  );
  const [t1, t2] = tables.managedRoomObjectIds as [number, number];
  // The answer carries the changed room objects and rooms, declared (answerCodec's Changes).
  t.deepEqual(
    tables.managedRoomObjects?.map((o) => o.managedRoomObjectId),
    [t1, t2],
  );
  t.deepEqual(tables.rooms?.[0]?.placements, [{ managedRoomObjectId: t1, roomObjectId: 2, x: 0, y: 0, dir: 0 }]);
  const beds = must(t, await a.client.buySetPlayerRoomObject({ roomObjectId: 1, amount: 1 }));
  const bed = beds.managedRoomObjectIds[0]!;

  await refused(
    t,
    a,
    '/api/player/room/set',
    {
      floorId: 1,
      placements: [
        { managedRoomObjectId: t1, x: 0, y: 0, dir: 0 },
        { managedRoomObjectId: t2, x: 1, y: 1, dir: 0 },
      ],
    },
    307,
    400,
  );
  await refused(
    t,
    a,
    '/api/player/room/set',
    { floorId: 1, placements: [{ managedRoomObjectId: bed, x: 10, y: 0, dir: 1 }] },
    307,
    400,
  );
  await refused(
    t,
    a,
    '/api/player/room_object/buy_set',
    { roomObjectId: 3, amount: 1, floorId: 1, placements: [{ x: 1, y: 1, dir: 0 }] },
    307,
    400,
  );

  const set = must(
    t,
    await a.client.setPlayerRoom({
      floorId: 1,
      placements: [
        { managedRoomObjectId: t1, x: 0, y: 0, dir: 0 },
        { managedRoomObjectId: t2, x: 2, y: 0, dir: 0 },
        { managedRoomObjectId: bed, x: 9, y: 0, dir: 1 },
      ],
    }),
  );
  t.is(set.rooms?.[0]?.placements.length, 3);

  const seen = must(t, await b.client.getAllPlayerRoom({ playerId: a.playerId, floorId: 1 }));
  t.is(seen.rooms.length, 1);
  t.deepEqual(seen.rooms[0]!.placements, [
    { roomObjectId: 2, x: 0, y: 0, dir: 0 },
    { roomObjectId: 2, x: 2, y: 0, dir: 0 },
    { roomObjectId: 1, x: 9, y: 0, dir: 1 },
  ]);
  t.false(JSON.stringify(seen).includes('managed'));

  // A sale answers what it sold, and the changed objects, rooms and player: every field declared.
  const sold = must(t, await a.client.salePlayerRoomObject({ managedRoomObjectIds: [bed] }));
  t.deepEqual(sold.managedRoomObjectIds, [bed]);
  t.is(sold.gold, master().roomObject.get(1)!.salePrice);
  t.deepEqual(
    sold.managedRoomObjects?.map((o) => o.managedRoomObjectId),
    [t1, t2],
  );
  t.deepEqual(
    sold.rooms?.[0]?.placements.map((p) => p.managedRoomObjectId),
    [t1, t2],
  );
  t.is(typeof sold.player?.gold, 'number');

  const nobody = await b.get('/api/player/room/get_all?playerId=999999');
  t.is(nobody.body['resultCode'], 202);
  t.is(nobody.status, 404);
});

test('content rooms, the field party, the town and storage slots over HTTP: each answer exactly as declared', async (t) => {
  const h = await harness(t);
  const a = await signupLogin(h);
  const b = await signupLogin(h);
  for (const characterId of [1011, 1012]) await grant(h, a.playerId, 'character', characterId, 1);
  await grant(h, a.playerId, 'gem', 0, 5000);
  await receiveAllHttp(a);
  const owned = must(t, await a.client.getAllPlayer()).managedCharacters ?? [];
  const mid = (characterId: number) => owned.find((c) => c.characterId === characterId)!.managedCharacterId;
  const [m1, m2] = [mid(1011), mid(1012)];

  // Content room 101 (title 1) appeared with the characters.
  const room = must(t, await a.client.getAllPlayerContentRoomMember({ contentRoomId: 101 }));
  t.like(room, { contentRoomId: 101, isNew: true, members: [] });
  const shown = must(t, await a.client.setShownPlayerContentRoom({ contentRoomId: 101 }));
  t.is(shown.contentRooms?.find((r) => r.contentRoomId === 101)?.isNew, false);
  const housed = must(
    t,
    await a.client.setAllPlayerContentRoomMember({ contentRoomId: 101, managedCharacterIds: [m1, m2] }),
  );
  t.deepEqual(housed.managedCharacterIds, [m1, m2]);

  // The field party: the owner sees managed ids, another player does not.
  const party = must(t, await a.client.getAllPlayerFieldPartyMember());
  t.deepEqual(
    party.fieldPartyMembers.map((x) => x.characterId),
    [1011, 1012],
  );
  t.true(party.fieldPartyMembers.every((x) => 'managedCharacterId' in x && x.schedule.length === 24));
  const theirs = must(t, await b.client.getAllPlayerFieldPartyMember({ playerId: a.playerId }));
  t.false(JSON.stringify(theirs.fieldPartyMembers).includes('managed'));
  const left = must(t, await a.client.removeAllPlayerFieldPartyMember({ managedCharacterIds: [m2] }));
  t.deepEqual(left.removed, [m2]);

  // The town: a content building with a facility beside it, and one on a build point.
  const bought = must(t, await a.client.buyAllPlayerTownFacility({ facilities: [{ facilityId: 1, amount: 2 }] }));
  const [f1, f2] = bought.managedTownFacilityIds as [number, number];
  const set = must(
    t,
    await a.client.setPlayerTown({
      contentBuildings: [{ lotId: 1, contentRoomId: 101, facilities: [{ slot: 1, managedTownFacilityId: f1 }] }],
      buildPoints: [{ buildPointId: 2, managedTownFacilityId: f2 }],
    }),
  );
  t.deepEqual(set.town?.buildPoints, [{ buildPointId: 2, managedTownFacilityId: f2 }]);
  const { town } = must(t, await a.client.getAllPlayerTown());
  t.deepEqual(town.contentBuildings[0]?.residents, [{ managedCharacterId: m1, characterId: 1011 }]);
  const sold = must(t, await a.client.salePlayerTownFacility({ managedTownFacilityId: f2 }));
  t.is(sold.gold, master().facility.get(1)!.salePrice);
  t.deepEqual(sold.town?.buildPoints, []);

  // Storage slots for gems.
  const facilities = must(t, await a.client.addPlayerTownFacilityLimit());
  t.is(facilities.player?.facilityLimit, facilities.facilityLimit);
  const objects = must(t, await a.client.addPlayerRoomObjectLimit());
  t.is(objects.player?.roomObjectLimit, objects.roomObjectLimit);
});
