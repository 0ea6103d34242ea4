// Properties over many operations at once (fast-check): any request to a progression or
// town operation, failing or not, never mutates its input, and a failing one leaves the
// state identical; an operation fails only with request errors or the errors it declares;
// balances never go negative.
import test from 'ava';
import fc from 'fast-check';
import { freshPlayer, master, NOW, runOp, withWealth } from '../_support/core.js';
import { tryGrant } from '../../core/shared/grant.js';
import type { Grant } from '../../core/master/common.js';
import { decodeState, type PlayerState } from '../../core/state.js';
import { operationByName, type OperationName, type ResponseOf } from '../../core/operations/table.js';
import { HOUR } from '../../core/time.js';
import type { Executed } from '../../core/operation.js';

const m = master();

/** A player with characters, weapons, an unlocked tree, a training and a few items. */
const base = (): PlayerState => {
  const grants: Grant[] = [
    { kind: 'character', objectId: 1011, amount: 1 },
    { kind: 'character', objectId: 1013, amount: 1 },
    { kind: 'weapon', objectId: 103, amount: 1 },
    { kind: 'weapon', objectId: 11011, amount: 1 },
  ];
  let s = freshPlayer();
  for (const g of grants) {
    const r = tryGrant(m, s, g, 0);
    if (r._tag === 'Left') throw new Error(r.left.code);
    s = r.right.state;
  }
  const [a] = s.characters.map((c) => c.managedCharacterId);
  s = {
    ...s,
    level: 10,
    abilityTrees: [{ managedCharacterId: a ?? 0, slots: [{ slotNo: 1, sphere: { itemId: 10201, level: 1, exp: 0 } }] }],
    trainings: [
      { slotId: 2, trainingId: 1, managedCharacterIds: [a ?? 0], startedAt: NOW, completesAt: NOW + 3600_000 },
    ],
    supportParties: [{ name: 'A', managedCharacterIds: [a ?? 0] }],
  };
  return withWealth(s, {
    gold: 3000,
    gem: 60,
    items: { 2001: 3, 2003: 2, 10001: 2, 10301: 4, 10201: 1, 10101: 1, 101011: 1, 9001: 1, 10501: 15, 5005: 20 },
  });
};

const OPS = [
  'upgradePlayerCharacter',
  'limitbreakPlayerCharacter',
  'evolutionPlayerCharacter',
  'setViewPlayerCharacter',
  'resetAllViewPlayerCharacter',
  'setShownPlayerCharacter',
  'setAllPlayerCharacterSupport',
  'setNamePlayerCharacterSupport',
  'makePlayerWeapon',
  'receivePlayerWeapon',
  'evolutionPlayerWeapon',
  'upgradePlayerWeapon',
  'salePlayerWeapon',
  'addPlayerWeaponLimit',
  'releasePlayerAbility',
  'releaseSlotPlayerAbility',
  'equipPlayerAbility',
  'upgradeSpherePlayerAbility',
  'getListPlayerTraining',
  'ordersPlayerTraining',
  'cancelPlayerTraining',
  'completesPlayerTraining',
  'salePlayerItem',
  'getAllPlayerItemTradeRecipe',
  'tradePlayerItemTrade',
] as const;

const veryRich = (): PlayerState =>
  withWealth(
    { ...freshPlayer(), level: 10 },
    { gold: 10_000_000, kirara: 1_000_000, gem: 100_000, items: { 5001: 500, 5002: 500, 5004: 500 } },
  );

/** Runs an operation; a failure must leave the input state exactly as it was. */
type Step<N extends OperationName> =
  { s: PlayerState; ok: true; response: Executed<ResponseOf<N>>['response'] } | { s: PlayerState; ok: false };
const step = <N extends OperationName>(s: PlayerState, name: N, req: unknown, now = NOW): Step<N> => {
  const before = JSON.stringify(s);
  const r = runOp(name, s, req, { now });
  if (JSON.stringify(s) !== before) throw new Error(`${name} mutated its input`);
  if (r._tag === 'Left') return { s, ok: false };
  return { s: r.right.state, ok: true, response: r.right.response };
};

const FacilityCommand = fc.record({
  op: fc.constantFrom(
    'buyAllPlayerTownFacility',
    'openUpPlayerTownFacility',
    'levelUpPlayerTownFacility',
    'gemLevelUpPlayerTownFacility',
    'itemUpPlayerTownFacility',
    'salePlayerTownFacility',
    'setAllPlayerTownFacilityBuildPoint',
    'setPlayerTown',
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

test('property: any request, failing or not, never mutates its input; a failing one leaves the state identical', (t) => {
  const s = base();
  const ids = [...s.characters.map((c) => c.managedCharacterId), ...s.weapons.map((w) => w.managedWeaponId), 999_999];
  const num = fc.oneof(
    fc.constantFrom(...ids),
    fc.constantFrom(0, -1, 1, 2, 3, 4, 103, 11011, 2001, 2003, 10001, 10101, 10201, 10301, 9001, 101011, 4242),
    fc.constant('x'),
    fc.constant(1.5),
  );
  const items = fc.array(fc.record({ itemId: num, amount: num }), { maxLength: 3 });
  const body = fc.record(
    {
      managedCharacterId: num,
      managedWeaponId: num,
      itemId: num,
      weaponId: num,
      slotNo: num,
      slotId: num,
      trainingId: num,
      recipeId: num,
      count: num,
      amount: num,
      view: num,
      supportPartyNo: num,
      name: fc.constantFrom('', 'Team', 'x'.repeat(40)),
      items,
      managedCharacterIds: fc.array(num, { maxLength: 4 }),
      managedWeaponIds: fc.array(num, { maxLength: 3 }),
      supportParties: fc.array(
        fc.record({ name: fc.constantFrom('P', ''), managedCharacterIds: fc.array(num, { maxLength: 4 }) }),
        { maxLength: 6 },
      ),
    },
    { requiredKeys: [] },
  );
  let failures = 0;
  fc.assert(
    fc.property(fc.constantFrom(...OPS), body, fc.integer({ min: -2, max: 4 }), (op, req, hours) => {
      const before = JSON.stringify(s);
      const r = runOp(op, s, req, { now: NOW + hours * 3600_000 });
      if (r._tag === 'Left') failures++;
      return JSON.stringify(s) === before;
    }),
    { numRuns: 200 },
  );
  t.true(failures > 0, 'some requests failed');
});

test('property: an operation fails only with request errors or the errors it declares', (t) => {
  const s = base();
  const req = fc.record({
    managedCharacterId: fc.constantFrom(s.characters[0]?.managedCharacterId, 999_999),
    managedWeaponId: fc.constantFrom(s.weapons[0]?.managedWeaponId, 999_999),
    slotId: fc.constantFrom(1, 2, 9),
    slotNo: fc.constantFrom(1, 2, 9),
    recipeId: fc.constantFrom(1, 5, 99),
    count: fc.constant(1),
    itemId: fc.constantFrom(2001, 10201, 9001, 4242),
    amount: fc.constantFrom(1, 50),
    weaponId: fc.constantFrom(103, 11011, 999),
  });
  fc.assert(
    fc.property(fc.constantFrom(...OPS), req, (op, body) => {
      const r = runOp(op, s, body);
      if (r._tag === 'Right') return decodeState(JSON.parse(JSON.stringify(r.right.state)))._tag === 'Right';
      return (
        ['INVALID_PARAMETERS', 'INSUFFICIENT_PARAMETERS'].includes(r.left.code) ||
        (operationByName(op)?.errors ?? []).includes(r.left.code)
      );
    }),
    { numRuns: 150 },
  );
  t.pass();
});

test('failing town requests leave the state identical; balances never go negative', (t) => {
  let applied = 0;
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.array(FacilityCommand, { maxLength: 20 }), (cmds) => {
        let s = withWealth(veryRich(), { gold: 30_000, kirara: 3000, gem: 200 });
        let now = NOW;
        for (const c of cmds) {
          now += c.advance;
          const ids = s.facilities.map((f) => f.managedTownFacilityId);
          const id = ids.length === 0 ? c.pick + 1 : (ids[c.pick % ids.length] as number);
          const req: Record<string, unknown> = {
            buyAllPlayerTownFacility: { facilities: [{ facilityId: c.facilityId, amount: c.amount }] },
            itemUpPlayerTownFacility: {
              managedTownFacilityId: id,
              itemNo: c.itemNo,
              amount: c.amount,
              actionTime: now + c.actionOffset,
            },
            setAllPlayerTownFacilityBuildPoint: { buildPoints: [{ buildPointId: c.point, managedTownFacilityId: id }] },
            setPlayerTown: {
              contentBuildings: [],
              buildPoints: [
                { buildPointId: c.point, managedTownFacilityId: id },
                { buildPointId: c.point + 1, managedTownFacilityId: ids[0] ?? 1 },
              ],
            },
            addPlayerTownFacilityLimit: {},
          };
          const r = step(s, c.op, req[c.op] ?? { managedTownFacilityId: id }, now);
          if (r.ok) applied++;
          s = r.s;
          if (s.gold < 0 || s.gem < 0 || s.paidGem < 0 || s.kirara < 0 || s.items.some((i) => i.amount < 0))
            return false;
          if (
            s.facilities.some(
              (f) =>
                f.stock < 0 ||
                f.stock > (master().facility.get(f.facilityId)!.levels[f.level - 1]!.production?.cap ?? 0),
            )
          )
            return false;
        }
        return true;
      }),
      { numRuns: 100 },
    ),
  );
  t.true(applied > 0, 'some requests succeeded');
});
