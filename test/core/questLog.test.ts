import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, NOW, ok, runOp, withWealth } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import { newCharacter } from '../../core/shared/grant.js';
import { DAY, MINUTE } from '../../core/time.js';
import type { GameError } from '../../core/errors.js';

const STORY = 1001;
const EVENT = 2001;

/** A player with one character in party 1. */
const ready = (): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const battleParties = s0.battleParties.map((p) => (p.managedBattlePartyId === 1
    ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
    : p));
  return { ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)], battleParties };
};

const order = (t: Parameters<typeof ok>[0], s: PlayerState, questId = STORY, extra: Record<string, unknown> = {}) =>
  ok(t, 'orderPlayerQuestLog', s, { type: master().quest.get(questId)!.type, questId, managedBattlePartyId: 1, supportCharacterId: 0, questData: 'wave:0', ...extra });

const idOf = (s: PlayerState): number => s.activeQuest!.orderReceiveId;
/** A clear as the original's clients send it: state 2, the battle lists as "id:n" strings (possibly empty). */
const clear = (s: PlayerState, rank = 3) => ({
  orderReceiveId: idOf(s), state: 2, clearRank: rank, skillExps: '101:1,102:2', dropItems: '', killedEnemies: '', weaponSkillExps: '',
  uniqueSkillUseNum: 1, masterSkillUseNum: 0, friendUseNum: 1, stepCode: 0,
});
const fieldOf = (e: GameError): unknown => ('field' in e ? e.field : undefined);

test('order pays stamina and stores the one active quest with its questData and a new orderReceiveId', (t) => {
  const s = ready();
  const r = order(t, s);
  const q = master().quest.get(STORY)!;
  t.is(r.state.stamina.value, s.stamina.value - q.stamina);
  t.is(r.state.activeQuest?.questId, STORY);
  t.is(r.state.activeQuest?.questData, 'wave:0');
  t.is(r.state.activeQuest?.orderReceiveId, r.response.orderReceiveId);
  t.is(r.state.nextManagedId, s.nextManagedId + 1, 'order ids are managed ids, never reused');
  t.deepEqual(r.state.activeQuest?.managedCharacterIds, [s.characters[0]!.managedCharacterId]);
});

test('order: unknown quest 107, wrong type 102, out of period 461 (past and future), unknown support character 107', (t) => {
  const s = ready();
  fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', s, { questId: 9999, managedBattlePartyId: 1 });
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { type: 2, questId: STORY, managedBattlePartyId: 1 });
  fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, { questId: 2901, managedBattlePartyId: 1 });
  fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, { questId: 2902, managedBattlePartyId: 1 });
  fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, { questId: EVENT, managedBattlePartyId: 1 }, { now: NOW + 60 * DAY });
  fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 1, supportCharacterId: 424242 });
  ok(t, 'orderPlayerQuestLog', s, { questId: EVENT, managedBattlePartyId: 1, supportCharacterId: 1011 });
});

test('order: an empty party is 102, a party id outside 1-15 is 102, a character or weapon no longer owned is 107', (t) => {
  const s = ready();
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 2 });
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 16 });
  fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', { ...s, characters: [] }, { questId: STORY, managedBattlePartyId: 1 });
  const soldWeapon = s.battleParties.map((p) => (p.managedBattlePartyId === 1 ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { ...x, managedWeaponId: 999 } : x)) } : p));
  fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', { ...s, battleParties: soldWeapon }, { questId: STORY, managedBattlePartyId: 1 });
});

test('order: questData over the configured size is 102; at the size it is kept as given', (t) => {
  const max = master().social.quest.questDataMaxLength;
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', ready(), { questId: STORY, managedBattlePartyId: 1, questData: 'x'.repeat(max + 1) });
  t.is(order(t, ready(), STORY, { questData: 'y'.repeat(max) }).state.activeQuest?.questData.length, max);
});

test('order: an active quest is 466 until it is completed or reset', (t) => {
  const a = order(t, ready()).state;
  fails(t, 'QUEST_ORDER_LIMIT', 'orderPlayerQuestLog', a, { questId: STORY, managedBattlePartyId: 1 });
  const reset = ok(t, 'resetPlayerQuestLog', a, {}).state;
  t.truthy(order(t, reset).state.activeQuest);
});

test('order: short of stamina is 451, and enough has regenerated later', (t) => {
  const s = { ...ready(), stamina: { value: 2, at: NOW } };
  fails(t, 'STAMINA_IS_SHORT', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 1 });
  const regen = master().game.stamina.regenSeconds * 1000;
  fails(t, 'STAMINA_IS_SHORT', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 1 }, { now: NOW + 2 * regen });
  ok(t, 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 1 }, { now: NOW + 3 * regen });
});

test('save stores the wave state; another or no orderReceiveId is 107; oversize questData 102', (t) => {
  const a = order(t, ready()).state;
  const r = ok(t, 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'wave:2' }, { now: NOW + MINUTE });
  t.is(r.state.activeQuest?.questData, 'wave:2');
  t.is(r.state.activeQuest?.saves, 1);
  fails(t, 'NOT_FOUND', 'savePlayerQuestLog', a, { orderReceiveId: idOf(a) + 1, questData: 'x' });
  fails(t, 'NOT_FOUND', 'savePlayerQuestLog', ready(), { orderReceiveId: 1, questData: 'x' });
  fails(t, 'INVALID_PARAMETERS', 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'x'.repeat(master().social.quest.questDataMaxLength + 1) });
});

test('retry pays gems up to the quest\'s maximum, then 465; short of gems 445; another order 107', (t) => {
  const q = master().quest.get(STORY)!;
  let s = withWealth(order(t, ready()).state, { gem: q.retry.gem * q.retry.max });
  for (let i = 0; i < q.retry.max; i++) s = ok(t, 'retryPlayerQuestLog', s, { orderReceiveId: idOf(s) }).state;
  t.is(s.gem, 0);
  t.is(s.activeQuest?.retries, q.retry.max);
  fails(t, 'QUEST_RETRY_LIMIT', 'retryPlayerQuestLog', withWealth(s, { gem: 1000 }), { orderReceiveId: idOf(s) });
  const fresh = order(t, ready()).state;
  fails(t, 'GEM_IS_SHORT', 'retryPlayerQuestLog', withWealth(fresh, { gem: q.retry.gem - 1 }), { orderReceiveId: idOf(fresh) });
  fails(t, 'NOT_FOUND', 'retryPlayerQuestLog', withWealth(fresh, { gem: 1000 }), { orderReceiveId: idOf(fresh) + 7 });
});

test('complete (clear) gives coins, exp, character exp, server-rolled drops and the first-clear reward once; discards questData', (t) => {
  const m = master();
  const q = m.quest.get(STORY)!;
  const a = order(t, ready()).state;
  const r = ok(t, 'completePlayerQuestLog', a, clear(a, 2), { seed: 's1' });
  t.is(r.state.activeQuest, null);
  t.is(r.response.cleared, true);
  t.is(r.response.clearRank, 2);
  t.deepEqual(r.response.rewards, { gold: q.rewards.gold, playerExp: q.rewards.playerExp, characterExp: q.rewards.characterExp });
  t.is(r.state.exp, a.exp + q.rewards.playerExp);
  t.true(r.state.characters[0]!.exp > 0, 'the party characters got exp');
  const first = r.response.firstClearRewards;
  t.deepEqual(first.map((g) => [g.kind, g.amount]), q.firstClear.map((g) => [g.kind, g.amount]));
  const drops = r.response.drops;
  t.true(drops.length <= q.drops.rolls);
  const dropGold = drops.filter((d) => d.kind === 'gold').reduce((n, d) => n + d.amount, 0);
  const gemFirst = q.firstClear.filter((g) => g.kind === 'gem').reduce((n, g) => n + g.amount, 0);
  t.is(r.state.gold, a.gold + q.rewards.gold + dropGold);
  t.is(r.state.gem, a.gem + gemFirst);
  t.is(r.state.questRecords[0]?.clears, 1);
  t.is(r.state.counters['questClears'], 1);

  // Second clear: no first-clear reward.
  const b = order(t, r.state).state;
  const r2 = ok(t, 'completePlayerQuestLog', b, clear(b, 1), { seed: 's2' });
  t.deepEqual(r2.response.firstClearRewards, []);
  t.is(r2.state.gem, r.state.gem, 'no first-clear gems the second time');
  t.is(r2.state.questRecords[0]?.bestClearRank, 2, 'the best clear rank is kept');
  t.is(r2.state.questRecords[0]?.clears, 2);
  t.deepEqual(r2.state.questRecords[0]?.skillUse, { skills: [1, 2], unique: 1, master: 0, friend: 1 });
});

test('complete: the same state, request and seed give the same drops; fields naming rewards are ignored', (t) => {
  const a = order(t, ready()).state;
  const x = ok(t, 'completePlayerQuestLog', a, clear(a), { seed: 'same' });
  const y = ok(t, 'completePlayerQuestLog', a, {
    ...clear(a), drops: [{ kind: 'gem', objectId: 0, amount: 99999 }], gold: 99999, rewards: { gem: 5000 },
    // The original's clients name what dropped and what was killed; a claim is never a reward.
    dropItems: '7010:99,7011:99,8003:99', killedEnemies: '19010002:4', weaponSkillExps: '5:999',
  }, { seed: 'same' });
  t.deepEqual(y.response.drops, x.response.drops);
  t.deepEqual(JSON.stringify(y.state), JSON.stringify(x.state));
});

test('complete (failed) ends the quest with no rewards, counting the failure', (t) => {
  const a = order(t, ready()).state;
  const r = ok(t, 'completePlayerQuestLog', a, { orderReceiveId: idOf(a), state: 1 });
  t.is(r.state.activeQuest, null);
  t.like(r.response, { cleared: false, clearRank: 0, rewards: null, drops: [], firstClearRewards: [] });
  t.is(r.state.gold, a.gold);
  t.is(r.state.exp, a.exp);
  t.is(r.state.questRecords[0]?.failures, 1);
  t.is(r.state.questRecords[0]?.clears, 0);
});

test('complete: a clear rank outside 1..max, too many or too large use counts are 102; another order 107', (t) => {
  const a = order(t, ready()).state;
  const cfg = master().social.quest;
  fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), clearRank: 0 });
  fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), clearRank: cfg.maxClearRank + 1 });
  const entries = (n: number, count = 1) => Array.from({ length: n }, (_, i) => `${i + 1}:${count}`).join(',');
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), skillExps: entries(cfg.skillEntriesMax + 1) })), 'skillExps');
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), skillExps: entries(2, cfg.useCountMax + 1) })), 'skillExps');
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), friendUseNum: cfg.useCountMax + 1 })), 'friendUseNum');
  ok(t, 'completePlayerQuestLog', a, { ...clear(a), skillExps: entries(cfg.skillEntriesMax, cfg.useCountMax) });
  fails(t, 'NOT_FOUND', 'completePlayerQuestLog', a, { ...clear(a), orderReceiveId: idOf(a) + 1 });
  fails(t, 'NOT_FOUND', 'completePlayerQuestLog', ready(), { orderReceiveId: 5, state: 2, clearRank: 1 });
});

test('complete: a positive stepCode records the tutorial step; going back is 102', (t) => {
  const a = order(t, ready()).state;
  t.is(ok(t, 'completePlayerQuestLog', a, { ...clear(a), stepCode: 4 }).state.tutorial.step, 4);
  fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', { ...a, tutorial: { ...a.tutorial, step: 4 } }, { ...clear(a), stepCode: 3 });
});

test('reset discards the active quest with no refund; none active is 317; another id 107', (t) => {
  const a = order(t, ready()).state;
  const r = ok(t, 'resetPlayerQuestLog', a, { orderReceiveId: idOf(a) });
  t.is(r.state.activeQuest, null);
  t.is(r.state.stamina.value, a.stamina.value);
  t.true('activeQuest' in r.response);
  fails(t, 'STATE_CONFLICT', 'resetPlayerQuestLog', r.state, {});
  fails(t, 'NOT_FOUND', 'resetPlayerQuestLog', a, { orderReceiveId: idOf(a) + 1 });
});

test('property: drops come only from the quest\'s table, at most one per roll', (t) => {
  const m = master();
  const q = m.quest.get(EVENT)!;
  const allowed = new Set(q.drops.table.flatMap((d) => (d.grant ? [JSON.stringify(d.grant)] : [])));
  const a = order(t, ready(), EVENT).state;
  fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 12 }), (seed) => {
    const r = runOp('completePlayerQuestLog', a, clear(a), { seed });
    if (r._tag === 'Left') return false;
    const drops = r.right.response.drops;
    return drops.length <= q.drops.rolls && drops.every((d) => allowed.has(JSON.stringify({ kind: d.kind, objectId: d.objectId, amount: d.amount })));
  }), { numRuns: 100 });
  t.pass();
});

test('complete: a reward over a capacity goes to the present box instead of being lost', (t) => {
  const m = master();
  const a = order(t, ready()).state;
  const full = { ...a, gold: m.game.currencyMax.gold };
  const r = ok(t, 'completePlayerQuestLog', full, clear(full));
  t.is(r.state.gold, m.game.currencyMax.gold);
  const q = m.quest.get(STORY)!;
  t.true(r.state.presents.some((p) => p.kind === 'gold' && p.amount === q.rewards.gold && p.source === 'reward'));
});

// ---- the original clients' request forms ----

test('complete state: 2 is a clear and 1 a failure (also as numeric strings); 0, 3 or text is 102 naming state, nothing changed', (t) => {
  const a = order(t, ready()).state;
  t.true(ok(t, 'completePlayerQuestLog', a, { ...clear(a), state: '2' }).response.cleared);
  t.false(ok(t, 'completePlayerQuestLog', a, { orderReceiveId: idOf(a), state: '1' }).response.cleared);
  for (const state of [0, 3, -1, 'cleared', 2.5]) t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), state })), 'state');
  t.is(fieldOf(fails(t, 'INSUFFICIENT_PARAMETERS', 'completePlayerQuestLog', a, { orderReceiveId: idOf(a) })), 'state');
});

test('complete: skillExps "id:n,id:n" keeps the counts in order; the empty string (or leaving a list out) is the empty list', (t) => {
  const a = order(t, ready()).state;
  const r = ok(t, 'completePlayerQuestLog', a, { ...clear(a), skillExps: '3432518231:4,7:0,12:9' });
  t.deepEqual(r.state.questRecords[0]?.skillUse?.skills, [4, 0, 9]);
  const empty = ok(t, 'completePlayerQuestLog', a, { ...clear(a), skillExps: '' });
  t.deepEqual(empty.state.questRecords[0]?.skillUse?.skills, []);
  const { skillExps: _s, dropItems: _d, killedEnemies: _k, weaponSkillExps: _w, ...bare } = clear(a);
  t.deepEqual(JSON.stringify(ok(t, 'completePlayerQuestLog', a, bare).state), JSON.stringify(empty.state));
});

test('complete: dropItems, killedEnemies and weaponSkillExps are checked for form and give nothing', (t) => {
  const a = order(t, ready()).state;
  const plain = ok(t, 'completePlayerQuestLog', a, clear(a), { seed: 'lists' });
  const claimed = ok(t, 'completePlayerQuestLog', a, { ...clear(a), dropItems: '7010:99,7011:99,8003:99,1:999', killedEnemies: '19010002:4,19010003:2', weaponSkillExps: '5:999' }, { seed: 'lists' });
  t.deepEqual(JSON.stringify(claimed.state), JSON.stringify(plain.state), 'claimed drops change nothing');
  t.deepEqual(claimed.response, plain.response);
});

test('complete and save: a malformed "id:n" list is 102 naming its field, and nothing changes', (t) => {
  const a = order(t, ready()).state;
  const bad: ReadonlyArray<unknown> = ['1', '1:', ':2', '1:2,', ',1:2', '1:2,,3:4', '0:5', '-1:2', '1:-2', '1:2:3', '1:x', 'a:1', ' 1:2', '1.5:2', '1:2;3:4', 7, ['1:2'], null, '99999999999999999:1'];
  for (const field of ['skillExps', 'dropItems', 'killedEnemies', 'weaponSkillExps']) {
    for (const value of bad) {
      const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), [field]: value });
      t.is(fieldOf(e), field, `${field} = ${JSON.stringify(value)}`);
      t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'w', [field]: value })), field);
    }
    // More entries than the codec's bound (100).
    const many = Array.from({ length: 101 }, (_, i) => `${i + 1}:1`).join(',');
    t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), [field]: many })), field);
  }
  const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), dropItems: '1:2,7010:x' });
  t.regex('reason' in e ? e.reason : '', /entry 2 \("7010:x"\)/);
});

test('save takes the battle lists too (checked, not kept): the same state as without them', (t) => {
  const a = order(t, ready()).state;
  const lists = { skillExps: '1:2', dropItems: '7010:99', killedEnemies: '', weaponSkillExps: '3:1' };
  const withLists = ok(t, 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'wave:1', ...lists });
  const without = ok(t, 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'wave:1' });
  t.deepEqual(JSON.stringify(withLists.state), JSON.stringify(without.state));
  t.deepEqual(withLists.response, { ...without.response });
});

test('order: supportCharacterId -1 (the original\'s "none"), 0 or absent is no support; below -1 is 102', (t) => {
  const s = ready();
  for (const none of [-1, '-1', 0]) t.is(order(t, s, STORY, { supportCharacterId: none }).state.activeQuest?.supportCharacterId, null);
  const { supportCharacterId: _x, ...bare } = { type: 1, questId: STORY, managedBattlePartyId: 1, supportCharacterId: 0 };
  t.is(ok(t, 'orderPlayerQuestLog', s, bare).state.activeQuest?.supportCharacterId, null);
  t.is(order(t, s, STORY, { supportCharacterId: 1011 }).state.activeQuest?.supportCharacterId, 1011);
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 1, supportCharacterId: -2 })), 'supportCharacterId');
});

test('order: managedBattlePartyId -1 (no party) is understood and refused, 102 naming the field; nothing changes', (t) => {
  const s = ready();
  for (const none of [-1, 0]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: none, supportCharacterId: -1 });
    t.is(fieldOf(e), 'managedBattlePartyId');
    t.regex('reason' in e ? e.reason : '', /needs a battle party/);
  }
  t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: -2 })), 'managedBattlePartyId');
});
