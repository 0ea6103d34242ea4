// The player's derived values (core/shared/player.ts): stamina regeneration as the client
// sees it and as paying settles it, player exp and levels from quests, storage limits, item
// counts and managed ids. Every number comes from master data (playerLevels.json, game.json's
// stamina).
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { freshPlayer, master, NOW, ok } from '../../_support/core.js';
import type { ItemStack, PlayerState } from '../../../core/state.js';
import { newCharacter, tryGrant } from '../../../core/shared/grant.js';
import {
  addPlayerExp,
  allocateIds,
  itemAmount,
  itemCount,
  itemIndex,
  settleStamina,
  staminaNow,
} from '../../../core/shared/player.js';

const m = master();
/** One regeneration interval, in ms. */
const REGEN = m.game.stamina.regenSeconds * 1000;
const row = (level: number) => m.playerLevels[level - 1] as (typeof m.playerLevels)[number];
const TOP = m.playerLevels.length;
/** Level 1's stamina maximum (a fresh player's level). */
const MAX1 = row(1).staminaMax;

const STORY = 1001;
const quest = m.quest.get(STORY)!;

/** A fresh player with one character in battle party 1, as a quest order needs. */
const ready = (patch: Partial<PlayerState> = {}): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const battleParties = s0.battleParties.map((p) =>
    p.managedBattlePartyId === 1
      ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
      : p,
  );
  return { ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)], battleParties, ...patch };
};
const withStamina = (s: PlayerState, value: number, at: number): PlayerState => ({ ...s, stamina: { value, at } });

/** The stamina the client is shown at `now` (the player view of get_all). */
const shown = (t: ExecutionContext, s: PlayerState, now: number): number =>
  ok(t, 'getAllPlayer', s, {}, { now }).response.player.stamina;

const order = (t: ExecutionContext, s: PlayerState, now = NOW): PlayerState =>
  ok(
    t,
    'orderPlayerQuestLog',
    s,
    { type: quest.type, questId: STORY, managedBattlePartyId: 1, supportCharacterId: 0, questData: 'wave:0' },
    { now },
  ).state;
const clear = (t: ExecutionContext, s: PlayerState, now: number): PlayerState =>
  ok(
    t,
    'completePlayerQuestLog',
    s,
    {
      orderReceiveId: s.activeQuest!.orderReceiveId,
      state: 2,
      clearRank: 1,
      skillExps: '',
      dropItems: '',
      killedEnemies: '',
      weaponSkillExps: '',
    },
    { now, seed: 'player-rules' },
  ).state;

test('stamina below the maximum regenerates one point per full interval since it was stored', (t) => {
  const s = withStamina(freshPlayer(), 10, NOW);
  t.is(shown(t, s, NOW), 10);
  t.is(shown(t, s, NOW + REGEN - 1), 10, 'one ms short of an interval gives nothing');
  t.is(shown(t, s, NOW + REGEN), 11, 'a full interval gives one point');
  t.is(shown(t, s, NOW + 3 * REGEN + REGEN / 2), 13, 'three and a half intervals give three points');
});

test("regeneration stops at the level's maximum", (t) => {
  const s = withStamina(freshPlayer(), MAX1 - 2, NOW);
  t.is(shown(t, s, NOW + 2 * REGEN), MAX1);
  t.is(shown(t, s, NOW + 50 * REGEN), MAX1, 'long after, still the maximum');
});

test('a clock that went back regenerates nothing and takes nothing away', (t) => {
  const s = withStamina(freshPlayer(), 10, NOW);
  t.is(shown(t, s, NOW - 5 * REGEN), 10);
});

test('stamina above the maximum (a level-up refill) is kept and does not regenerate', (t) => {
  const s = withStamina(freshPlayer(), MAX1 + 20, NOW);
  t.is(shown(t, s, NOW + 100 * REGEN), MAX1 + 20);
  t.is(staminaNow(m, s, NOW + 100 * REGEN), MAX1 + 20);
});

test('paying stamina settles what regenerated and keeps the partial interval running', (t) => {
  // 3 intervals and 100 s since it was stored: 3 points, and 100 s toward the next.
  const a = order(t, withStamina(ready(), 10, NOW - 3 * REGEN - 100_000));
  t.deepEqual(a.stamina, { value: 10 + 3 - quest.stamina, at: NOW - 100_000 });
  t.is(shown(t, a, NOW + REGEN - 100_000 - 1), 10 + 3 - quest.stamina, 'the next point is not there one ms early');
  t.is(
    shown(t, a, NOW + REGEN - 100_000),
    10 + 3 - quest.stamina + 1,
    'the next point comes one interval after the last one',
  );
});

test('regeneration that reaches the maximum restarts the interval when the stamina is next spent', (t) => {
  // Two points short, 2 intervals and 100 s ago: full by now; the 100 s past the last point are not carried.
  const a = order(t, withStamina(ready(), MAX1 - 2, NOW - 2 * REGEN - 100_000));
  t.deepEqual(a.stamina, { value: MAX1 - quest.stamina, at: NOW });
  t.is(shown(t, a, NOW + REGEN - 1), MAX1 - quest.stamina);
  t.is(shown(t, a, NOW + REGEN), MAX1 - quest.stamina + 1);
});

test('a full stamina stored long ago regenerates from the moment it is spent, not from when it was stored', (t) => {
  const a = order(t, withStamina(ready(), MAX1, NOW - 50 * REGEN));
  t.deepEqual(a.stamina, { value: MAX1 - quest.stamina, at: NOW });
  t.is(shown(t, a, NOW), MAX1 - quest.stamina, 'nothing regenerated at once');
  t.is(shown(t, a, NOW + REGEN), MAX1 - quest.stamina + 1);
});

test('stamina over the maximum pays from its value and starts regenerating only once below the maximum', (t) => {
  const a = order(t, withStamina(ready(), MAX1 + 3, NOW - 50 * REGEN));
  t.deepEqual(a.stamina, { value: MAX1 + 3 - quest.stamina, at: NOW });
  t.is(shown(t, a, NOW + REGEN), MAX1 + 3 - quest.stamina + 1);
});

test('settling with nothing due returns the very same state (an unchanged state is not written or resent)', (t) => {
  // Full, already settled now.
  const full = withStamina(freshPlayer(), MAX1, NOW);
  t.is(settleStamina(m, full, NOW), full);
  // Full since earlier: the stored time moves to now (regeneration pauses from now).
  const fullEarlier = withStamina(freshPlayer(), MAX1, NOW - REGEN);
  t.deepEqual(settleStamina(m, fullEarlier, NOW).stamina, { value: MAX1, at: NOW });
  // Below the maximum with less than an interval elapsed: nothing to settle.
  const partial = withStamina(freshPlayer(), 10, NOW - REGEN + 1);
  t.is(settleStamina(m, partial, NOW), partial);
  // One interval elapsed: one point, and the stored time moves on by exactly one interval.
  t.deepEqual(settleStamina(m, partial, NOW + 1).stamina, { value: 11, at: NOW + 1 });
});

test("a quest clear that brings the exp exactly to the next level's total levels up; one exp short does not", (t) => {
  const need = row(2).totalExp;
  const up = clear(t, order(t, ready({ exp: need - quest.rewards.playerExp })), NOW + 60_000);
  t.is(up.level, 2);
  t.is(up.exp, need);
  const short = clear(t, order(t, ready({ exp: need - quest.rewards.playerExp - 1 })), NOW + 60_000);
  t.is(short.level, 1);
  t.is(short.exp, need - 1);
});

test("a level-up settles regeneration, adds the new level's maximum on top, and the surplus is kept without regenerating", (t) => {
  const need = row(2).totalExp;
  // Ordered at NOW: 20 stored 2 intervals and 60 s before, 22 settled, the quest's stamina paid.
  const a = order(t, withStamina(ready({ exp: need - quest.rewards.playerExp }), 20, NOW - 2 * REGEN - 60_000));
  const left = 22 - quest.stamina;
  t.deepEqual(a.stamina, { value: left, at: NOW - 60_000 });
  // Cleared 3 intervals later: 3 more points regenerated, then the level-2 maximum on top.
  const at = NOW + 3 * REGEN;
  const up = clear(t, a, at);
  t.is(up.level, 2);
  t.deepEqual(up.stamina, { value: left + 3 + row(2).staminaMax, at });
  t.is(shown(t, up, at + 100 * REGEN), left + 3 + row(2).staminaMax);
});

test('a clear that gives exp without a level-up leaves the stamina as stored (no refill)', (t) => {
  const need = row(2).totalExp;
  const a = order(t, withStamina(ready({ exp: need - quest.rewards.playerExp - 1 }), 20, NOW - 2 * REGEN - 60_000));
  const up = clear(t, a, NOW + 3 * REGEN);
  t.is(up.level, 1);
  t.deepEqual(up.stamina, a.stamina);
});

test("exp past the last level's total is lost and the level stops at the last level", (t) => {
  const top = row(TOP).totalExp;
  const s = ready({ level: TOP - 1, exp: top - 10, stamina: { value: row(TOP - 1).staminaMax, at: NOW } });
  const done = clear(t, order(t, s), NOW + 60_000);
  t.is(done.level, TOP);
  t.is(done.exp, top, 'only the 10 exp that fit were kept');
  // At the last level, more exp changes nothing.
  const again = clear(t, order(t, done, NOW + 120_000), NOW + 180_000);
  t.is(again.level, TOP);
  t.is(again.exp, top);
});

test('a shortened level table takes nothing away: exp already past its last total is kept, and a gain adds nothing', (t) => {
  const shortened = { ...m, playerLevels: m.playerLevels.slice(0, TOP - 1) };
  const s = { ...freshPlayer(), level: TOP, exp: row(TOP).totalExp };
  const after = addPlayerExp(shortened, s, 50, NOW);
  t.is(after.exp, s.exp);
  t.is(after.level, s.level);
});

test("a gain that crosses several levels adds the new level's stamina maximum once", (t) => {
  const s = withStamina({ ...freshPlayer(), level: 1, exp: 0 }, 3, NOW);
  const up = addPlayerExp(m, s, row(3).totalExp, NOW);
  t.is(up.level, 3);
  t.deepEqual(up.stamina, { value: 3 + row(3).staminaMax, at: NOW });
});

test('player exp of zero or less changes nothing: the same state comes back', (t) => {
  const s = withStamina({ ...freshPlayer(), exp: 30 }, 10, NOW - 10 * REGEN);
  t.is(addPlayerExp(m, s, 0, NOW), s);
  t.is(addPlayerExp(m, s, -20, NOW), s);
  t.is(addPlayerExp(m, s, 5, NOW).exp, 35);
});

test('a storage limit is its base plus one step per purchase, shown in the player view', (t) => {
  const l = m.game.limits;
  const s: PlayerState = { ...freshPlayer(), limitAdds: { weapon: 1, facility: 0, roomObject: 2 } };
  const p = ok(t, 'getAllPlayer', s, {}).response.player;
  t.is(p.weaponLimit, l.weapons.base + l.weapons.step);
  t.is(p.facilityLimit, l.facilities.base);
  t.is(p.roomObjectLimit, l.roomObjects.base + 2 * l.roomObjects.step);
});

test("property: the item box, kept sorted by item id, answers every held item's amount and 0 for any other id", (t) => {
  fc.assert(
    fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 12 }),
      fc.integer({ min: 0, max: 61 }),
      (ids, probe) => {
        const items: ItemStack[] = [...ids].sort((a, b) => a - b).map((itemId) => ({ itemId, amount: itemId * 3 + 1 }));
        const held = items.find((i) => i.itemId === probe);
        if (itemAmount(items, probe) !== (held ? held.amount : 0)) return false;
        if (itemCount({ ...freshPlayer(), items }, probe) !== (held ? held.amount : 0)) return false;
        // Where the id is, or would be inserted to keep the order: after every smaller id.
        return itemIndex(items, probe) === items.filter((i) => i.itemId < probe).length;
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});

test('granted weapons get new managed ids in sequence, and the next id moves past them', (t) => {
  const s = freshPlayer();
  const r = tryGrant(m, s, { kind: 'weapon', objectId: 103, amount: 3 }, NOW);
  if (r._tag === 'Left') return t.fail(r.left.code);
  const n = s.nextManagedId;
  t.deepEqual(
    r.right.state.weapons.map((w) => w.managedWeaponId),
    [n, n + 1, n + 2],
  );
  t.is(r.right.state.nextManagedId, n + 3);
  const none = allocateIds(s, 0);
  t.deepEqual(none.ids, []);
  t.is(none.state.nextManagedId, n);
});
