// Properties of the town group (fast-check): production collected over any split
// of a span equals one collection over the whole span (up to the cap); room
// placements never overlap or leave the grid; failing requests change nothing.
import test from 'ava';
import fc from 'fast-check';
import { freshPlayer, master, NOW, runOp, withWealth } from '../_support/core.js';
import { HOUR } from '../../core/time.js';
import { footprint, overlaps, type Rect } from '../../core/shared/town.js';
import type { PlayerState } from '../../core/state.js';
import type { Executed } from '../../core/operation.js';
import type { OperationName, ResponseOf } from '../../core/operations/table.js';

const rich = (): PlayerState => withWealth({ ...freshPlayer(), level: 10 }, { gold: 10_000_000, kirara: 1_000_000, gem: 100_000, items: { 5001: 500, 5002: 500, 5004: 500 } });

/** Runs an operation; a failure must leave the input state exactly as it was. */
type Step<N extends OperationName> = { s: PlayerState; ok: true; response: Executed<ResponseOf<N>>['response'] } | { s: PlayerState; ok: false };
const step = <N extends OperationName>(s: PlayerState, name: N, req: unknown, now = NOW): Step<N> => {
  const before = JSON.stringify(s);
  const r = runOp(name, s, req, { now });
  if (JSON.stringify(s) !== before) throw new Error(`${name} mutated its input`);
  if (r._tag === 'Left') return { s, ok: false };
  return { s: r.right.state, ok: true, response: r.right.response };
};

const openedFacility = (facilityId: number): { s: PlayerState; id: number } => {
  const b = step(rich(), 'buyAllPlayerTownFacility', { facilities: [{ facilityId, amount: 1 }] });
  if (!b.ok) throw new Error('buying a facility failed');
  const id = b.response.managedTownFacilityIds[0]!;
  return { s: step(b.s, 'openUpPlayerTownFacility', { managedTownFacilityId: id }).s, id };
};

const PRODUCERS = [1, 2, 3, 8, 15];

test('production collected over any split of a span equals one collection over the span (up to the cap)', (t) => {
  const m = master();
  t.notThrows(() => fc.assert(fc.property(
    fc.constantFrom(...PRODUCERS),
    fc.integer({ min: 0, max: 12 * HOUR }),
    fc.array(fc.integer({ min: 0, max: 12 * HOUR }), { maxLength: 6 }),
    fc.boolean(),
    (facilityId, span, cuts, byActionTime) => {
      const { s, id } = openedFacility(facilityId);
      const p = m.facility.get(facilityId)!.levels[0]!.production!;
      const itemNo = p.itemId ?? 0;
      const amount = Math.max(...m.facility.get(facilityId)!.levels.map((l) => l.production!.cap));
      const collectAt = (st: PlayerState, at: number) => byActionTime
        // The client reports when it collected; the server's clock is already at the end.
        ? step(st, 'itemUpPlayerTownFacility', { managedTownFacilityId: id, itemNo, amount, actionTime: NOW + at }, NOW + span)
        : step(st, 'itemUpPlayerTownFacility', { managedTownFacilityId: id, itemNo, amount }, NOW + at);
      const times = [...new Set(cuts.filter((c) => c < span)), span].sort((a, b) => a - b);
      let cur = s;
      let sum = 0;
      for (const at of times) {
        const r = collectAt(cur, at);
        if (!r.ok) return false;
        sum += r.response.amount;
        cur = r.s;
      }
      const once = collectAt(s, span);
      if (!once.ok) return false;
      const whole = once.response.amount;
      const produced = Math.floor((span * p.perHour) / HOUR);
      if (whole !== Math.min(p.cap, produced)) return false;
      // Below the cap no split loses or gains anything; once the store fills, collecting in between can only help.
      return produced <= p.cap ? sum === whole : sum >= whole;
    },
  ), { numRuns: 150 }));
});

// ---- room placements ----
const Pos = fc.record({ x: fc.integer({ min: -2, max: 13 }), y: fc.integer({ min: -2, max: 13 }), dir: fc.integer({ min: 0, max: 3 }) });
const RoomCommand = fc.oneof(
  fc.record({ kind: fc.constant('buy' as const), roomObjectId: fc.integer({ min: 1, max: 15 }), amount: fc.integer({ min: 1, max: 3 }), floorId: fc.constantFrom(1, 2), placements: fc.array(Pos, { maxLength: 3 }) }),
  fc.record({ kind: fc.constant('set' as const), floorId: fc.constantFrom(1, 2, 3), picks: fc.array(fc.record({ pick: fc.nat(), pos: Pos }), { maxLength: 6 }) }),
  fc.record({ kind: fc.constant('sale' as const), picks: fc.array(fc.nat(), { maxLength: 3 }) }),
);
type RoomCommand = typeof RoomCommand extends fc.Arbitrary<infer T> ? T : never;

const runRoom = (s: PlayerState, c: RoomCommand): PlayerState => {
  const ids = s.roomObjects.map((o) => o.managedRoomObjectId);
  const pick = (n: number) => (ids.length === 0 ? n + 1 : (ids[n % ids.length] as number));
  switch (c.kind) {
    case 'buy': return step(s, 'buySetPlayerRoomObject', { roomObjectId: c.roomObjectId, amount: c.amount, floorId: c.floorId, placements: c.placements }).s;
    case 'set': return step(s, 'setPlayerRoom', { floorId: c.floorId, placements: c.picks.map((p) => ({ managedRoomObjectId: pick(p.pick), ...p.pos })) }).s;
    case 'sale': return step(s, 'salePlayerRoomObject', { managedRoomObjectIds: c.picks.map(pick) }).s;
  }
};

/** Every placed object is owned, placed once in all the floors, inside its grid and clear of the others. */
const roomsValid = (s: PlayerState): boolean => {
  const m = master();
  const seen = new Set<number>();
  for (const r of s.rooms) {
    const fl = m.floor.get(r.floorId);
    if (!fl) return false;
    const rects: Rect[] = [];
    for (const p of r.placements) {
      if (seen.has(p.managedRoomObjectId)) return false;
      seen.add(p.managedRoomObjectId);
      const o = s.roomObjects.find((x) => x.managedRoomObjectId === p.managedRoomObjectId);
      if (!o) return false;
      const rect = footprint(m.roomObject.get(o.roomObjectId)!, p);
      if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > fl.width || rect.y + rect.h > fl.height) return false;
      if (rects.some((q) => overlaps(q, rect))) return false;
      rects.push(rect);
    }
  }
  return true;
};

test('placements never overlap, never leave the grid and never name an object twice, whatever is asked', (t) => {
  let placed = 0;
  t.notThrows(() => fc.assert(fc.property(fc.array(RoomCommand, { maxLength: 15 }), (cmds) => {
    let s = rich();
    for (const c of cmds) {
      s = runRoom(s, c);
      if (!roomsValid(s)) return false;
    }
    placed += s.rooms.reduce((n, r) => n + r.placements.length, 0);
    return true;
  }), { numRuns: 150 }));
  t.true(placed > 0, 'the commands did place objects');
});

// ---- failing requests change nothing (checked inside step) ----
const FacilityCommand = fc.record({
  op: fc.constantFrom(
    'buyAllPlayerTownFacility', 'openUpPlayerTownFacility', 'levelUpPlayerTownFacility', 'gemLevelUpPlayerTownFacility',
    'itemUpPlayerTownFacility', 'salePlayerTownFacility', 'setAllPlayerTownFacilityBuildPoint', 'setPlayerTown',
    'addPlayerTownFacilityLimit',
  ),
  pick: fc.nat(),
  facilityId: fc.integer({ min: 0, max: 17 }),
  amount: fc.integer({ min: -1, max: 40 }),
  itemNo: fc.constantFrom(0, 20001, 5002, 7),
  advance: fc.integer({ min: 0, max: 3 * HOUR }),
  actionOffset: fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
  point: fc.integer({ min: 0, max: 32 }),
});

test('failing town requests leave the state identical; balances never go negative', (t) => {
  let applied = 0;
  t.notThrows(() => fc.assert(fc.property(fc.array(FacilityCommand, { maxLength: 20 }), (cmds) => {
    let s = withWealth(rich(), { gold: 30_000, kirara: 3000, gem: 200 });
    let now = NOW;
    for (const c of cmds) {
      now += c.advance;
      const ids = s.facilities.map((f) => f.managedTownFacilityId);
      const id = ids.length === 0 ? c.pick + 1 : (ids[c.pick % ids.length] as number);
      const req: Record<string, unknown> = {
        buyAllPlayerTownFacility: { facilities: [{ facilityId: c.facilityId, amount: c.amount }] },
        itemUpPlayerTownFacility: { managedTownFacilityId: id, itemNo: c.itemNo, amount: c.amount, actionTime: now + c.actionOffset },
        setAllPlayerTownFacilityBuildPoint: { buildPoints: [{ buildPointId: c.point, managedTownFacilityId: id }] },
        setPlayerTown: { contentBuildings: [], buildPoints: [{ buildPointId: c.point, managedTownFacilityId: id }, { buildPointId: c.point + 1, managedTownFacilityId: ids[0] ?? 1 }] },
        addPlayerTownFacilityLimit: {},
      };
      const r = step(s, c.op, req[c.op] ?? { managedTownFacilityId: id }, now);
      if (r.ok) applied++;
      s = r.s;
      if (s.gold < 0 || s.gem < 0 || s.paidGem < 0 || s.kirara < 0 || s.items.some((i) => i.amount < 0)) return false;
      if (s.facilities.some((f) => f.stock < 0 || f.stock > (master().facility.get(f.facilityId)!.levels[f.level - 1]!.production?.cap ?? 0))) return false;
    }
    return true;
  }), { numRuns: 100 }));
  t.true(applied > 0, 'some requests succeeded');
});

test('a level-up finished for gems costs at most its gem price and never less than the time left asks', (t) => {
  t.notThrows(() => fc.assert(fc.property(fc.integer({ min: 0, max: HOUR - 1 }), (elapsed) => {
    const { s, id } = openedFacility(1);
    const running = step(s, 'levelUpPlayerTownFacility', { managedTownFacilityId: id }).s;
    const r = step(running, 'gemLevelUpPlayerTownFacility', { managedTownFacilityId: id }, NOW + elapsed);
    if (!r.ok) return false;
    const spent = r.response.gemSpent;
    return spent <= 50 && spent >= 1 && spent === Math.ceil((50 * (HOUR - elapsed)) / HOUR);
  }), { numRuns: 100 }));
});
