// Balance properties (fast-check, through the toolkit's model-based harness):
// random sequences of operations from every group, on random valid states of two
// players, with time moving on. After every step: no balance is negative; inputs
// are never mutated and the same inputs give the same output, byte for byte (the
// harness checks both); a read changes nothing; managed ids are never reused;
// currencies move only in the operations documented to move them, and by the
// documented amounts where the price is fixed.
import test from 'ava';
import fc from 'fast-check';
import { operationByName, OPERATIONS } from '../../core/operations/table.js';
import { itemCount } from '../../core/shared/player.js';
import type { PlayerState } from '../../core/state.js';
import {
  itemsOf,
  managedIds,
  operationsProperty,
  setupPlayer,
  TEMPLATES,
  World,
  type Setup,
  type Step,
  type Model,
} from '../../toolkit/index.js';
import { master, NOW } from '../_support/core.js';
import { accessOf } from '../../core/operation.js';

const NAMES = Object.entries(TEMPLATES)
  .filter(([, v]) => v !== null)
  .map(([k]) => k);
const CURRENCIES = ['gold', 'gem', 'paidGem', 'kirara'] as const;
type Currency = (typeof CURRENCIES)[number];

/**
 * Where each currency may rise (+) or fall (−), from GAME-RULES.md: prices paid
 * and rewards given. Every other operation must leave it as it was.
 */
const MAY: Record<Currency, { up: ReadonlyArray<string>; down: ReadonlyArray<string> }> = {
  gold: {
    up: [
      'getPlayerPresent',
      'salePlayerItem',
      'salePlayerWeapon',
      'salePlayerTownFacility',
      'salePlayerRoomObject',
      'itemUpPlayerTownFacility',
      'completesPlayerTraining',
      'completePlayerQuestLog',
      'completePlayerOffer',
      'drawPlayerChest',
      'tradePlayerItemTrade',
      'addPlayerAdv',
      'completePlayerMission',
    ],
    down: [
      'upgradePlayerCharacter',
      'limitbreakPlayerCharacter',
      'evolutionPlayerCharacter',
      'makePlayerWeapon',
      'upgradePlayerWeapon',
      'evolutionPlayerWeapon',
      'buyAllPlayerTownFacility',
      'levelUpPlayerTownFacility',
      'ordersPlayerTraining',
      'releasePlayerAbility',
      'releaseSlotPlayerAbility',
      'upgradeSpherePlayerAbility',
      'buySetPlayerRoomObject',
      'orderPlayerOffer',
      'tradePlayerItemTrade',
      'equipPlayerAbility',
    ],
  },
  gem: {
    up: [
      'getPlayerPresent',
      'completePlayerQuestLog',
      'completePlayerOffer',
      'drawPlayerChest',
      'addPlayerAdv',
      'completePlayerMission',
    ],
    down: [
      'drawPlayerGacha',
      'addPlayerWeaponLimit',
      'addPlayerTownFacilityLimit',
      'addPlayerRoomObjectLimit',
      'gemLevelUpPlayerTownFacility',
      'retryPlayerQuestLog',
      'buySetPlayerRoomObject',
      'addPlayerStamina',
    ],
  },
  paidGem: {
    up: ['getPlayerPresent'],
    down: [
      'drawPlayerGacha',
      'addPlayerWeaponLimit',
      'addPlayerTownFacilityLimit',
      'addPlayerRoomObjectLimit',
      'gemLevelUpPlayerTownFacility',
      'retryPlayerQuestLog',
      'buySetPlayerRoomObject',
      'addPlayerStamina',
    ],
  },
  kirara: {
    up: [
      'getPlayerPresent',
      'salePlayerTownFacility',
      'salePlayerRoomObject',
      'completePlayerQuestLog',
      'completePlayerOffer',
      'drawPlayerChest',
    ],
    down: ['buyAllPlayerTownFacility', 'buySetPlayerRoomObject', 'levelUpPlayerTownFacility'],
  },
};

const fail = (msg: string): never => {
  throw new Error(msg);
};

const noNegative = (s: PlayerState, where: string): void => {
  for (const c of CURRENCIES) if (s[c] < 0) fail(`${where}: ${c} is ${s[c]}`);
  for (const [id, n] of Object.entries(itemsOf(s))) if (!(n > 0)) fail(`${where}: item ${id} held ${n}`);
  if (s.stamina.value < 0) fail(`${where}: stamina ${s.stamina.value}`);
  for (const g of s.gachaStats) if (g.points < 0) fail(`${where}: gacha ${g.gachaId} points ${g.points}`);
};

/** Exact amounts for operations with a fixed price or payout. */
const exact = (name: string, req: Record<string, unknown>, s: PlayerState, next: PlayerState): void => {
  const m = master();
  const d = (c: Currency) => next[c] - s[c];
  const gems = d('gem') + d('paidGem');
  switch (name) {
    case 'salePlayerItem': {
      const id = req['itemId'] as number;
      const n = req['amount'] as number;
      if (d('gold') !== (m.item.get(id)?.salePrice ?? NaN) * n) fail(`sale of ${n} × item ${id}: gold ${d('gold')}`);
      if (itemCount(s, id) - itemCount(next, id) !== n)
        fail(`sale of ${n} × item ${id}: items ${itemCount(s, id)} → ${itemCount(next, id)}`);
      break;
    }
    case 'salePlayerWeapon': {
      const sold = (req['managedWeaponIds'] as number[]).map(
        (id) => s.weapons.find((w) => w.managedWeaponId === id)?.weaponId ?? 0,
      );
      const price = sold.reduce((a, w) => a + (m.weapon.get(w)?.salePrice ?? NaN), 0);
      if (d('gold') !== price) fail(`weapon sale: gold ${d('gold')}, prices ${price}`);
      if (next.weapons.length !== s.weapons.length - sold.length) fail('weapon sale: count');
      break;
    }
    case 'buyAllPlayerTownFacility': {
      const rows = req['facilities'] as Array<{ facilityId: number; amount: number }>;
      const gold = rows.reduce((a, r) => a + (m.facility.get(r.facilityId)?.price.gold ?? NaN) * r.amount, 0);
      const kirara = rows.reduce((a, r) => a + (m.facility.get(r.facilityId)?.price.kirara ?? NaN) * r.amount, 0);
      if (-d('gold') !== gold || -d('kirara') !== kirara)
        fail(`facility purchase: gold ${d('gold')} kirara ${d('kirara')}, prices ${gold}/${kirara}`);
      break;
    }
    case 'ordersPlayerTraining': {
      const tr = m.training.get(req['trainingId'] as number);
      if (-d('gold') !== (tr?.cost.gold ?? NaN)) fail(`training: gold ${d('gold')}`);
      break;
    }
    case 'tradePlayerItemTrade': {
      // Sources paid × count; an item result arrives in the box unless the box is full (then it is a present).
      const rc = m.tradeRecipe.get(req['recipeId'] as number);
      const n = req['count'] as number;
      if (!rc) return fail(`trade: no recipe ${String(req['recipeId'])}`);
      for (const x of rc.source.items ?? []) {
        const got =
          itemCount(s, x.itemId) -
          itemCount(next, x.itemId) +
          (rc.result.kind === 'item' && rc.result.objectId === x.itemId ? rc.result.amount * n : 0);
        if (got !== x.amount * n) fail(`trade ${rc.recipeId} × ${n}: item ${x.itemId} paid ${got}`);
      }
      if (-d('gold') !== (rc.source.gold ?? 0) * n - (rc.result.kind === 'gold' ? rc.result.amount * n : 0))
        fail(`trade: gold ${d('gold')}`);
      if (rc.result.kind === 'item') {
        const gained =
          itemCount(next, rc.result.objectId) -
          itemCount(s, rc.result.objectId) +
          ((rc.source.items ?? []).find((x) => x.itemId === rc.result.objectId)?.amount ?? 0) * n;
        const sent = next.presents.length - s.presents.length;
        if (gained !== rc.result.amount * n && sent === 0)
          fail(`trade ${rc.recipeId} × ${n}: got ${gained} of item ${rc.result.objectId}`);
      }
      break;
    }
    case 'drawPlayerGacha': {
      const g = m.gacha.get(req['gachaId'] as number);
      const allowed = g
        ? [0, g.cost.singleGem, g.cost.tenGem, g.cost.firstTenGem, g.cost.paidSingleGem].filter(
            (x): x is number => x !== null,
          )
        : [];
      if (!allowed.includes(-gems)) fail(`draw: gems ${gems}, prices ${allowed.join('/')}`);
      if (d('gold') !== 0 || d('kirara') !== 0) fail('draw: coins or town points moved');
      break;
    }
  }
};

/** The step's checks: the currencies, exact amounts, balances, managed ids and the other player. */
const checkStep = (st: Step, model: Model): true => {
  const { name, playerId: me, request, result: r } = st;
  const op = operationByName(name) ?? fail(`no operation ${name}`);
  const where = `step ${st.index} ${name} ${JSON.stringify(request)}`;
  const ever = (model.memo.get('ever') ??
    new Map([...st.before.values()].map((p) => [p.playerId, new Set(managedIds(p))]))) as Map<number, Set<string>>;
  model.memo.set('ever', ever);
  if (r._tag === 'Left') return true;
  const s = st.before.get(me) as PlayerState;
  const next = r.right.state;
  if (op.readOnly && next !== s) fail(`${where}: a read changed the state`);
  if (next !== s && next.version !== s.version + 1) fail(`${where}: version ${s.version} → ${next.version}`);
  for (const c of CURRENCIES) {
    const delta = next[c] - s[c];
    if (delta > 0 && !MAY[c].up.includes(name)) fail(`${where}: ${c} rose by ${delta}`);
    if (delta < 0 && !MAY[c].down.includes(name)) fail(`${where}: ${c} fell by ${-delta}`);
  }
  exact(name, request as Record<string, unknown>, s, next);
  for (const [id, p] of st.after) {
    noNegative(p, `${where} (player ${id})`);
    const seen = ever.get(id) ?? new Set<string>();
    ever.set(id, seen);
    const before = new Set(managedIds(st.before.get(id) as PlayerState));
    for (const k of managedIds(p)) {
      if (!before.has(k) && seen.has(k)) fail(`${where}: managed id ${k} used again`);
      seen.add(k);
    }
    const was = st.before.get(id) as PlayerState;
    if (id !== me && p !== was && CURRENCIES.some((c) => p[c] !== was[c]))
      fail(`${where}: the other player's currencies moved`);
  }
  return true;
};

const setupArb: fc.Arbitrary<Setup> = fc.record({
  gold: fc.integer({ min: 0, max: 3_000_000 }),
  gem: fc.integer({ min: 0, max: 30_000 }),
  paidGem: fc.integer({ min: 0, max: 3_000 }),
  kirara: fc.integer({ min: 0, max: 200_000 }),
  characters: fc.array(fc.nat(400), { maxLength: 6 }),
  items: fc.array(fc.tuple(fc.nat(1000), fc.integer({ min: 1, max: 200 })), { maxLength: 14 }),
  kit: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 })),
});
test('random operation sequences from every group keep every balance invariant', (t) => {
  const ok: Record<string, number> = {};
  let refused = 0;
  fc.assert(
    operationsProperty({
      setup: fc.tuple(setupArb, setupArb),
      world: ([a, b]) => {
        const w = new World({ master: master(), now: NOW });
        setupPlayer(w, a, 1);
        setupPlayer(w, b, 2);
        return w;
      },
      maxSteps: 60,
      check: checkStep,
      onRun: (m) => {
        for (const [k, n] of Object.entries(m.ok)) ok[k] = (ok[k] ?? 0) + n;
        refused += Object.values(m.refused).reduce((x, y) => x + y, 0);
      },
    }),
    { numRuns: 200, seed: 6006 },
  );
  // The generator must reach successes in every group, not only refusals.
  const groups = new Set(Object.keys(ok).map((n) => operationByName(n)?.group));
  for (const g of [
    'gacha',
    'present',
    'tutorial',
    'character',
    'weapon',
    'training',
    'ability',
    'item',
    'townFacility',
    'town',
    'room',
    'roomObject',
    'contentRoom',
    'friend',
    'battleParty',
    'achievement',
    'questLog',
    'chest',
    'offer',
    'move',
  ]) {
    t.true(groups.has(g), `some operation of group ${g} succeeded (${JSON.stringify(ok)})`);
  }
  t.true(refused > 0, 'failures were exercised too');
});

test('the templates cover every session operation of the table', (t) => {
  // Deleting the account ends the player: the model's players play on, so it has no template.
  const sessionOps = OPERATIONS.filter((o) => accessOf(o) === 'session' && o.name !== 'deletePlayer')
    .map((o) => o.name)
    .sort();
  t.deepEqual([...NAMES].sort(), sessionOps);
});
