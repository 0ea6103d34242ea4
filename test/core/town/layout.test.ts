// The town's layout (docs/rules/town.md, The town): town/set places content buildings with
// nearby facilities and build_point/set_all the facilities on build points; town/get_all
// shows each place's facility (kind, level, covered, levelling) to its owner with managed
// ids and to another player without; the reads that take a playerId load that player only.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, ok, withWealth, NOW, master, grantCharacters } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { answerProblems } from '../../../core/answer-check.js';
import { PublicTownView, TownView } from '../../../core/operations/town.js';
import { operationNamed } from '../../../core/operations/table.js';
import type { GameError } from '../../../core/errors.js';
import { HOUR } from '../../../core/time.js';
import { tryGrant } from '../../../core/shared/grant.js';

// Title 1: characters 1011-1015; title 2: 1021-1024. Their content rooms: 101 and 102 (capacity 3).
const ROOM1 = 101;
const ROOM2 = 102;
const mid = (s: PlayerState, characterId: number): number =>
  s.characters.find((c) => c.characterId === characterId)!.managedCharacterId;

const player = (playerId = 1): PlayerState =>
  withCharacters(
    withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 }),
    [1011, 1012, 1013, 1014, 1021],
  );

const withFacilities = (t: ExecutionContext, s: PlayerState, n: number): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId: 1, amount: n }] });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};

const housed = (t: ExecutionContext, s: PlayerState = player()): PlayerState => {
  const a = ok(t, 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s, 1011), mid(s, 1012)],
  }).state;
  return ok(t, 'setAllPlayerContentRoomMember', a, { contentRoomId: ROOM2, managedCharacterIds: [mid(s, 1021)] }).state;
};

/** Whether a town shown is exactly the owner's view (managed ids included). */
const isOwnTown = (town: TownView | PublicTownView): town is TownView => answerProblems(TownView, town).length === 0;

const MINT = 1; // coins: 600/h cap 2400 at level 1; 1200/h cap 6000 at level 2
const FOUNTAIN = 6; // decoration

/** A bought facility (covered); returns the state and its id. */
const boughtOne = (
  t: ExecutionContext,
  facilityId: number,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; id: number } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount: 1 }] }, { now });
  return { s: r.state, id: r.response.managedTownFacilityIds[0]! };
};
/** A bought and opened facility, production starting at `now`. */
const openedOne = (
  t: ExecutionContext,
  facilityId: number,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; id: number } => {
  const b = boughtOne(t, facilityId, s, now);
  return { s: ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }, { now }).state, id: b.id };
};

const m = master();
const LAMP = 3; // room object 1 × 1

const rich = (playerId = 1): PlayerState =>
  withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const fieldOf = (e: GameError): string => ('field' in e ? e.field : '');

/** Bought facilities (covered), all at `now`. */
const bought = (
  t: ExecutionContext,
  facilityId: number,
  amount: number,
  s: PlayerState = rich(),
  now = NOW,
): { s: PlayerState; ids: number[] } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount }] }, { now });
  return { s: r.state, ids: r.response.managedTownFacilityIds };
};

const withCharacters = (s: PlayerState, characterIds: number[]): PlayerState => grantCharacters(s, characterIds, NOW);
/** A player owning characters of titles 1 and 2 (so content rooms 101 and 102 have appeared). */
const townsfolk = (playerId = 1): PlayerState => withCharacters(rich(playerId), [1011, 1012, 1021]);

/** Three mints: a on build point 1, b on build point 2, c and d near content room 101 (lot 1, slots 1 and 2), e nowhere. */
const placedTown = (t: ExecutionContext) => {
  const f = bought(t, MINT, 5, townsfolk());
  const [a, b, c, d, e] = f.ids as [number, number, number, number, number];
  const s = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [
      {
        lotId: 1,
        contentRoomId: ROOM1,
        facilities: [
          { slot: 1, managedTownFacilityId: c },
          { slot: 2, managedTownFacilityId: d },
        ],
      },
    ],
    buildPoints: [
      { buildPointId: 1, managedTownFacilityId: a },
      { buildPointId: 2, managedTownFacilityId: b },
    ],
  }).state;
  return { s, a, b, c, d, e };
};

const buyObjects = (
  t: ExecutionContext,
  s: PlayerState,
  roomObjectId: number,
  amount: number,
  extra: Record<string, unknown> = {},
) => {
  const r = ok(t, 'buySetPlayerRoomObject', s, { roomObjectId, amount, ...extra });
  return { s: r.state, ids: r.response.managedRoomObjectIds };
};
const BAKERY = 2;
const withCharacter = (s: PlayerState, characterId: number): PlayerState => {
  const r = tryGrant(master(), s, { kind: 'character', objectId: characterId, amount: 1 }, NOW);
  if (r._tag === 'Left') throw new Error(r.left.code);
  return r.right.state;
};
const buy = (t: ExecutionContext, s: PlayerState, facilityId: number): { s: PlayerState; id: number } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount: 1 }] });
  return { s: r.state, id: r.response.managedTownFacilityIds[0]! };
};

test('town/set places content buildings with nearby facilities; town/get_all reads the own layout with managed ids', (t) => {
  const f = withFacilities(t, housed(t), 3);
  const r = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [
      {
        lotId: 1,
        contentRoomId: ROOM1,
        facilities: [
          { slot: 1, managedTownFacilityId: f.ids[0] },
          { slot: 3, managedTownFacilityId: f.ids[1] },
        ],
      },
    ],
    buildPoints: [{ buildPointId: 4, managedTownFacilityId: f.ids[2] }],
  });
  t.deepEqual(r.response.town, r.state.townLayout, 'the changed layout comes with the answer');
  const town = ok(t, 'getAllPlayerTown', r.state, {}).response.town;
  if (!isOwnTown(town)) return t.fail('the own town shows managed ids');
  t.deepEqual(town.buildPoints, [
    {
      buildPointId: 4,
      facility: { managedTownFacilityId: f.ids[2]!, facilityId: 1, level: 1, covered: true, levelingUp: false },
    },
  ]);
  const cb = town.contentBuildings[0]!;
  t.is(cb.contentRoomId, ROOM1);
  t.is(cb.titleId, 1);
  t.deepEqual(cb.residents, [
    { managedCharacterId: mid(r.state, 1011), characterId: 1011 },
    { managedCharacterId: mid(r.state, 1012), characterId: 1012 },
  ]);
  t.is(cb.facilities.length, 2);
  // Without buildPoints, the build points stay as they are.
  const again = ok(t, 'setPlayerTown', r.state, { contentBuildings: [] });
  t.deepEqual(again.state.townLayout.buildPoints, r.state.townLayout.buildPoints);
  t.deepEqual(again.state.townLayout.contentBuildings, []);
});

test('town/set: an unknown lot, a content room not appeared or a facility not owned is 107', (t) => {
  const f = withFacilities(t, player(), 1);
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, {
    contentBuildings: [{ lotId: 99, contentRoomId: ROOM1, facilities: [] }],
  });
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, { contentBuildings: [{ lotId: 1, contentRoomId: 103, facilities: [] }] });
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, {
    contentBuildings: [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 1, managedTownFacilityId: 9999 }] }],
  });
  fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, {
    contentBuildings: [],
    buildPoints: [{ buildPointId: 999, managedTownFacilityId: f.ids[0] }],
  });
});

test('town/set: a lot, content room or slot used twice, a slot past the lot, or a facility placed twice is 102', (t) => {
  const f = withFacilities(t, player(), 2);
  const [a, b] = f.ids as [number, number];
  const cb = (
    lotId: number,
    contentRoomId: number,
    facilities: Array<{ slot: number; managedTownFacilityId: number }> = [],
  ) => ({ lotId, contentRoomId, facilities });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1), cb(1, ROOM2)] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(1, ROOM1), cb(2, ROOM1)] });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, {
    contentBuildings: [
      cb(1, ROOM1, [
        { slot: 1, managedTownFacilityId: a },
        { slot: 1, managedTownFacilityId: b },
      ]),
    ],
  });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, {
    contentBuildings: [cb(1, ROOM1, [{ slot: 4, managedTownFacilityId: a }])],
  });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, {
    contentBuildings: [
      cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }]),
      cb(2, ROOM2, [{ slot: 1, managedTownFacilityId: a }]),
    ],
  });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, {
    contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }])],
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }],
  });
  // A facility already placed near a content building cannot also go on a build point.
  const placed = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }])],
  }).state;
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerTownFacilityBuildPoint', placed, {
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }],
  });
  fails(t, 'INVALID_PARAMETERS', 'setPlayerTown', f.s, { contentBuildings: [cb(0, ROOM1)] });
});

test('build_point/set_all replaces the facilities on build points', (t) => {
  const a = openedOne(t, MINT);
  const b = boughtOne(t, FOUNTAIN, a.s);
  const one = ok(t, 'setAllPlayerTownFacilityBuildPoint', b.s, {
    buildPoints: [
      { buildPointId: 1, managedTownFacilityId: a.id },
      { buildPointId: 2, managedTownFacilityId: b.id },
    ],
  });
  t.is(one.state.townLayout.buildPoints.length, 2);
  const two = ok(t, 'setAllPlayerTownFacilityBuildPoint', one.state, {
    buildPoints: [{ buildPointId: 5, managedTownFacilityId: b.id }],
  });
  t.deepEqual(two.state.townLayout.buildPoints, [{ buildPointId: 5, managedTownFacilityId: b.id }]);
});

test('build_point/set_all: 107 for an unknown facility or build point, 102 for a point or facility used twice', (t) => {
  const a = openedOne(t, MINT);
  const b = boughtOne(t, FOUNTAIN, a.s);
  fails(t, 'NOT_FOUND', 'setAllPlayerTownFacilityBuildPoint', b.s, {
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: 9999 }],
  });
  fails(t, 'NOT_FOUND', 'setAllPlayerTownFacilityBuildPoint', b.s, {
    buildPoints: [{ buildPointId: 999, managedTownFacilityId: a.id }],
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerTownFacilityBuildPoint', b.s, {
    buildPoints: [
      { buildPointId: 1, managedTownFacilityId: a.id },
      { buildPointId: 1, managedTownFacilityId: b.id },
    ],
  });
  fails(t, 'INVALID_PARAMETERS', 'setAllPlayerTownFacilityBuildPoint', b.s, {
    buildPoints: [
      { buildPointId: 1, managedTownFacilityId: a.id },
      { buildPointId: 2, managedTownFacilityId: a.id },
    ],
  });
});

test('town/set refusals name the entity, or the field at fault and why', (t) => {
  const f = bought(t, MINT, 2, townsfolk());
  const [a, b] = f.ids as [number, number];
  const slots = m.contentLot.get(1)!;
  const cb = (
    lotId: number,
    contentRoomId: number,
    facilities: Array<{ slot: number; managedTownFacilityId: number }> = [],
  ) => ({ lotId, contentRoomId, facilities });
  const invalid = (req: unknown, name: 'setPlayerTown' | 'setAllPlayerTownFacilityBuildPoint' = 'setPlayerTown') => {
    const e = fails(t, 'INVALID_PARAMETERS', name, f.s, req);
    return [fieldOf(e), reasonOf(e)];
  };
  const notFound = (req: unknown) => fails(t, 'NOT_FOUND', 'setPlayerTown', f.s, req);

  t.like(notFound({ contentBuildings: [], buildPoints: [{ buildPointId: 1, managedTownFacilityId: 9999 }] }), {
    entity: 'town facility',
    id: 9999,
  });
  t.like(notFound({ contentBuildings: [], buildPoints: [{ buildPointId: 999, managedTownFacilityId: a }] }), {
    entity: 'build point',
    id: 999,
  });
  t.like(notFound({ contentBuildings: [cb(99, ROOM1)] }), { entity: 'content lot', id: 99 });
  t.like(notFound({ contentBuildings: [cb(1, 103)] }), { entity: 'content room', id: 103 });

  t.deepEqual(
    invalid(
      {
        buildPoints: [
          { buildPointId: 1, managedTownFacilityId: a },
          { buildPointId: 1, managedTownFacilityId: b },
        ],
      },
      'setAllPlayerTownFacilityBuildPoint',
    ),
    ['buildPoints.1.buildPointId', 'build point 1 is used twice'],
  );
  t.deepEqual(
    invalid(
      {
        buildPoints: [
          { buildPointId: 1, managedTownFacilityId: a },
          { buildPointId: 2, managedTownFacilityId: a },
        ],
      },
      'setAllPlayerTownFacilityBuildPoint',
    ),
    ['buildPoints.1.managedTownFacilityId', `town facility ${a} is placed twice`],
  );
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1), cb(1, ROOM2)] }), [
    'contentBuildings.1.lotId',
    'lot 1 is used twice',
  ]);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1), cb(2, ROOM1)] }), [
    'contentBuildings.1.contentRoomId',
    `content room ${ROOM1} is placed twice`,
  ]);
  t.deepEqual(invalid({ contentBuildings: [cb(1, ROOM1, [{ slot: slots + 1, managedTownFacilityId: a }])] }), [
    'contentBuildings.0.facilities.0.slot',
    `lot 1 has slots 1 to ${slots}`,
  ]);
  t.deepEqual(
    invalid({
      contentBuildings: [
        cb(1, ROOM1, [
          { slot: 1, managedTownFacilityId: a },
          { slot: 1, managedTownFacilityId: b },
        ]),
      ],
    }),
    ['contentBuildings.0.facilities.1.slot', 'slot 1 is used twice'],
  );
  t.deepEqual(
    invalid({
      contentBuildings: [
        cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }]),
        cb(2, ROOM2, [{ slot: 1, managedTownFacilityId: a }]),
      ],
    }),
    ['contentBuildings.1.facilities.0.managedTownFacilityId', `town facility ${a} is placed twice`],
  );
  t.deepEqual(
    invalid({
      contentBuildings: [cb(1, ROOM1, [{ slot: 1, managedTownFacilityId: a }])],
      buildPoints: [{ buildPointId: 1, managedTownFacilityId: a }],
    }),
    ['contentBuildings.0.facilities.0.managedTownFacilityId', `town facility ${a} is placed twice`],
  );
});

// ---- reading ----

test("town/get_all?playerId shows another player's layout: no managed ids, no currencies or items", (t) => {
  const f = withFacilities(t, housed(t, player(2)), 1);
  const other = ok(t, 'setPlayerTown', f.s, {
    contentBuildings: [{ lotId: 2, contentRoomId: ROOM1, facilities: [{ slot: 2, managedTownFacilityId: f.ids[0] }] }],
  }).state;
  const r = ok(t, 'getAllPlayerTown', player(1), { playerId: 2 }, { others: [other] });
  t.is(r.state.version, player(1).version, 'a read changes nothing');
  const text = JSON.stringify(r.response);
  for (const secret of ['managed', 'gold', 'gem', 'kirara', 'items', 'myCode'])
    t.false(text.includes(secret), `no ${secret}`);
  const town = r.response.town;
  t.deepEqual(answerProblems(PublicTownView, town), [], 'exactly the public view');
  t.is(town.playerId, 2);
  t.deepEqual(town.contentBuildings[0]!.residents, [{ characterId: 1011 }, { characterId: 1012 }]);
  t.deepEqual(town.contentBuildings[0]!.facilities, [
    { slot: 2, facility: { facilityId: 1, level: 1, covered: true, levelingUp: false } },
  ]);
});

test("town/get_all?playerId: an unknown player is 202; one's own id reads one's own layout", (t) => {
  const s = player(1);
  fails(t, 'PLAYER_NOT_FOUND', 'getAllPlayerTown', s, { playerId: 77 }, { others: [undefined] });
  const own = ok(t, 'getAllPlayerTown', s, { playerId: 1 }, { others: [s] });
  t.true(isOwnTown(own.response.town));
  t.is(own.response.town.playerId, 1);
});

test('each place shows the facility placed there, not another the player owns: to the owner and to others', (t) => {
  const a = buy(t, withCharacter(rich(2), 1011), MINT); // owned first
  const b = buy(t, a.s, BAKERY);
  const c = buy(t, b.s, BAKERY);
  const placed = ok(t, 'setPlayerTown', c.s, {
    contentBuildings: [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 2, managedTownFacilityId: c.id }] }],
    buildPoints: [
      { buildPointId: 1, managedTownFacilityId: b.id },
      { buildPointId: 2, managedTownFacilityId: a.id },
    ],
  }).state;
  const own: TownView | PublicTownView = ok(t, 'getAllPlayerTown', placed, {}).response.town;
  t.deepEqual(
    own.buildPoints.map((p) => p.facility?.facilityId),
    [BAKERY, MINT],
  );
  t.deepEqual(
    own.contentBuildings[0]!.facilities.map((x) => x.facility?.facilityId),
    [BAKERY],
  );
  const seen = ok(t, 'getAllPlayerTown', rich(1), { playerId: 2 }, { others: [placed] }).response.town;
  t.deepEqual(seen.buildPoints, [
    { buildPointId: 1, facility: { facilityId: BAKERY, level: 1, covered: true, levelingUp: false } },
    { buildPointId: 2, facility: { facilityId: MINT, level: 1, covered: true, levelingUp: false } },
  ]);
  t.deepEqual(seen.contentBuildings[0]!.facilities, [
    { slot: 2, facility: { facilityId: BAKERY, level: 1, covered: true, levelingUp: false } },
  ]);
});

test('a facility levelling shows levelingUp at its place until its level-up has passed, then its new level', (t) => {
  const b = buy(t, rich(2), MINT);
  const open = ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }).state;
  const levelling = ok(t, 'levelUpPlayerTownFacility', open, { managedTownFacilityId: b.id }).state;
  const placed = ok(t, 'setPlayerTown', levelling, {
    contentBuildings: [],
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: b.id }],
  }).state;
  const at = (now: number) => ok(t, 'getAllPlayerTown', placed, {}, { now }).response.town.buildPoints[0]!.facility;
  t.like(at(NOW + HOUR - 1), {
    managedTownFacilityId: b.id,
    facilityId: MINT,
    level: 1,
    covered: false,
    levelingUp: true,
  });
  t.like(at(NOW + HOUR), {
    managedTownFacilityId: b.id,
    facilityId: MINT,
    level: 2,
    covered: false,
    levelingUp: false,
  });
  const seen = ok(t, 'getAllPlayerTown', rich(1), { playerId: 2 }, { others: [placed], now: NOW + HOUR - 1 }).response
    .town;
  t.deepEqual(seen.buildPoints[0]!.facility, { facilityId: MINT, level: 1, covered: false, levelingUp: true });
});

test("reading one's own id shows one's own town, residents and rooms with managed ids, even with oneself loaded as the other player", (t) => {
  const { s, a, c } = placedTown(t);
  const housed = ok(t, 'setAllPlayerContentRoomMember', s, {
    contentRoomId: ROOM1,
    managedCharacterIds: [mid(s, 1011)],
  }).state;
  const withLamp = buyObjects(t, housed, LAMP, 1, { placements: [{ x: 0, y: 0, dir: 0 }] });
  const me = withLamp.s;
  const opts = { others: [me] };
  const town = ok(t, 'getAllPlayerTown', me, { playerId: me.playerId }, opts).response.town;
  t.like(town.buildPoints[0], { buildPointId: 1, facility: { managedTownFacilityId: a } });
  t.like(town.contentBuildings[0]?.facilities[0], { slot: 1, facility: { managedTownFacilityId: c } });
  t.deepEqual(town.contentBuildings[0]?.residents, [{ managedCharacterId: mid(me, 1011), characterId: 1011 }]);
  const party = ok(t, 'getAllPlayerFieldPartyMember', me, { playerId: me.playerId }, opts).response.fieldPartyMembers;
  t.like(party[0], { managedCharacterId: mid(me, 1011), characterId: 1011 });
  const rooms = ok(t, 'getAllPlayerRoom', me, { playerId: me.playerId, floorId: 1 }, opts).response.rooms;
  t.like(rooms[0]?.placements[0], { managedRoomObjectId: withLamp.ids[0] });
});

test('a read with playerId loads that player; without it, nobody else', (t) => {
  for (const name of ['getAllPlayerTown', 'getAllPlayerFieldPartyMember', 'getAllPlayerRoom'] as const) {
    const touches = operationNamed(name).touches;
    if (!touches) return t.fail(`${name} declares the players it reads`);
    t.deepEqual(touches({ playerId: 42 }), [{ by: 'playerId', playerId: 42 }], name);
    t.deepEqual(touches({}), [], name);
  }
});
