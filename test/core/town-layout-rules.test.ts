// The town view at its edges (docs/rules/town.md, "The town"): each place shows
// the facility placed there (kind, level, covered, levelling), to its owner and
// to another player.
import test, { type ExecutionContext } from 'ava';
import { freshPlayer, master, NOW, ok, withWealth } from '../_support/core.js';
import { HOUR } from '../../core/time.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { PlayerState } from '../../core/state.js';
import type { PublicTownView, TownView } from '../../core/operations/town.js';

const MINT = 1; // level-up to 2 takes one hour
const BAKERY = 2;
const ROOM1 = 101; // content room of title 1 (character 1011)

const rich = (playerId = 1): PlayerState => withWealth(freshPlayer({ playerId }), { gold: 1_000_000, kirara: 1_000_000, gem: 10_000 });
const withCharacter = (s: PlayerState, characterId: number): PlayerState => {
  const r = tryGrant(master(), s, { kind: 'character', objectId: characterId, amount: 1 }, NOW);
  if (r._tag === 'Left') throw new Error(r.left.code);
  return r.right.state;
};
const buy = (t: ExecutionContext, s: PlayerState, facilityId: number): { s: PlayerState; id: number } => {
  const r = ok(t, 'buyAllPlayerTownFacility', s, { facilities: [{ facilityId, amount: 1 }] });
  return { s: r.state, id: r.response.managedTownFacilityIds[0]! };
};

test('each place shows the facility placed there, not another the player owns: to the owner and to others', (t) => {
  const a = buy(t, withCharacter(rich(2), 1011), MINT); // owned first
  const b = buy(t, a.s, BAKERY);
  const c = buy(t, b.s, BAKERY);
  const placed = ok(t, 'setPlayerTown', c.s, {
    contentBuildings: [{ lotId: 1, contentRoomId: ROOM1, facilities: [{ slot: 2, managedTownFacilityId: c.id }] }],
    buildPoints: [{ buildPointId: 1, managedTownFacilityId: b.id }, { buildPointId: 2, managedTownFacilityId: a.id }],
  }).state;
  const own: TownView | PublicTownView = ok(t, 'getAllPlayerTown', placed, {}).response.town;
  t.deepEqual(own.buildPoints.map((p) => p.facility?.facilityId), [BAKERY, MINT]);
  t.deepEqual(own.contentBuildings[0]!.facilities.map((x) => x.facility?.facilityId), [BAKERY]);
  const seen = ok(t, 'getAllPlayerTown', rich(1), { playerId: 2 }, { others: [placed] }).response.town;
  t.deepEqual(seen.buildPoints, [
    { buildPointId: 1, facility: { facilityId: BAKERY, level: 1, covered: true, levelingUp: false } },
    { buildPointId: 2, facility: { facilityId: MINT, level: 1, covered: true, levelingUp: false } },
  ]);
  t.deepEqual(seen.contentBuildings[0]!.facilities, [{ slot: 2, facility: { facilityId: BAKERY, level: 1, covered: true, levelingUp: false } }]);
});

test('a facility levelling shows levelingUp at its place until its level-up has passed, then its new level', (t) => {
  const b = buy(t, rich(2), MINT);
  const open = ok(t, 'openUpPlayerTownFacility', b.s, { managedTownFacilityId: b.id }).state;
  const levelling = ok(t, 'levelUpPlayerTownFacility', open, { managedTownFacilityId: b.id }).state;
  const placed = ok(t, 'setPlayerTown', levelling, { contentBuildings: [], buildPoints: [{ buildPointId: 1, managedTownFacilityId: b.id }] }).state;
  const at = (now: number) => ok(t, 'getAllPlayerTown', placed, {}, { now }).response.town.buildPoints[0]!.facility;
  t.like(at(NOW + HOUR - 1), { managedTownFacilityId: b.id, facilityId: MINT, level: 1, covered: false, levelingUp: true });
  t.like(at(NOW + HOUR), { managedTownFacilityId: b.id, facilityId: MINT, level: 2, covered: false, levelingUp: false });
  const seen = ok(t, 'getAllPlayerTown', rich(1), { playerId: 2 }, { others: [placed], now: NOW + HOUR - 1 }).response.town;
  t.deepEqual(seen.buildPoints[0]!.facility, { facilityId: MINT, level: 1, covered: false, levelingUp: true });
});
