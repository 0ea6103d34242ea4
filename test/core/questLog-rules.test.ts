// Quest log rules at their edges (docs/rules/social.md, Quest log; GAME-RULES.md,
// Quests): an event quest's first and last instants, what each refusal names, a party
// whose members are owned one by one, each quest with its own record, the drops rolled
// (every roll of a table without a "nothing" entry drops), a quest that gives no coins
// or no character exp, and the first clear's time kept.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import type { Master } from '../../core/master/index.js';
import type { GameError } from '../../core/errors.js';
import { buildMaster } from '../../core/master/index.js';
import { masterSourceOf } from '../../adapters/master/load.js';
import { newCharacter } from '../../core/shared/grant.js';
import { DAY, MINUTE } from '../../core/time.js';

const m = master();
const cfg = m.social.quest;
const STORY = 1001;
const STORY2 = 1002;
const EVENT = 2001;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** A player owning characters 1011 and 1012 (ids c1, c2) and weapon 103 (id w), with c1 in party 1 and stamina to spare. */
const ready = () => {
  const s0 = freshPlayer();
  const c1 = s0.nextManagedId;
  const c2 = c1 + 1;
  const w = c1 + 2;
  const s: PlayerState = {
    ...s0, nextManagedId: c1 + 3, stamina: { value: 999, at: NOW },
    characters: [newCharacter(c1, 1011, NOW), newCharacter(c2, 1012, NOW)],
    weapons: [{ managedWeaponId: w, weaponId: 103, level: 1, exp: 0, createdAt: NOW }],
    battleParties: s0.battleParties.map((p) => (p.managedBattlePartyId === 1
      ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: c1, managedWeaponId: null } : x)) }
      : p)),
  };
  return { s, c1, c2, w };
};

/** The state with party 1's first slot set as given. */
const slot0 = (s: PlayerState, managedCharacterId: number | null, managedWeaponId: number | null): PlayerState => ({
  ...s,
  battleParties: s.battleParties.map((p) => (p.managedBattlePartyId === 1 ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId, managedWeaponId } : x)) } : p)),
});

const orderIn = (t: ExecutionContext, s: PlayerState, questId = STORY, now = NOW, mm: Master = m): PlayerState =>
  ok(t, 'orderPlayerQuestLog', s, { questId, managedBattlePartyId: 1 }, { now, m: mm }).state;
const clearIn = (t: ExecutionContext, s: PlayerState, questId = STORY, now = NOW, rank = 3) => {
  const a = orderIn(t, s, questId, now);
  return ok(t, 'completePlayerQuestLog', a, { orderReceiveId: a.activeQuest!.orderReceiveId, state: 2, clearRank: rank }, { now });
};
const clearOf = (s: PlayerState, extra: Record<string, unknown> = {}) => ({ orderReceiveId: s.activeQuest!.orderReceiveId, state: 2, clearRank: 3, ...extra });

/** Master data with quest 1001 retuned by `edit` (checked at start-up as any master data). */
const retuned = (edit: (q: Record<string, unknown>) => void): Master => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown>;
  edit((raw['quests'] as Array<Record<string, unknown>>).find((q) => q['questId'] === STORY)!);
  const built = buildMaster(raw);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.master;
};

// ---- order ----

test('order: an unknown quest is 107 naming the entity "quest" and the id', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', ready().s, { questId: 9999, managedBattlePartyId: 1 }), { entity: 'quest', id: 9999 });
});

test('order: an event quest is ordered from the first instant of its period to the last before its end; outside is 461 naming the quest', (t) => {
  const q = m.quest.get(EVENT)!;
  const { s } = ready();
  const req = { questId: EVENT, managedBattlePartyId: 1 };
  t.like(fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, req, { now: q.startsAt - 1 }), { questId: EVENT });
  t.is(ok(t, 'orderPlayerQuestLog', s, req, { now: q.startsAt }).state.activeQuest?.questId, EVENT);
  t.is(ok(t, 'orderPlayerQuestLog', s, req, { now: q.endsAt! - 1 }).state.activeQuest?.questId, EVENT);
  t.like(fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, req, { now: q.endsAt! }), { questId: EVENT });
});

test('order: a type other than the quest\'s is 102 naming type, and the reason gives the quest\'s type', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', ready().s, { type: 2, questId: STORY, managedBattlePartyId: 1 });
  t.like(e, { field: 'type' });
  t.regex(reasonOf(e), new RegExp(`\\b${STORY}\\b.*type ${m.quest.get(STORY)!.type}\\b`));
});

test('order: an adv-only quest is 102 naming questId, and the reason sends the client to adv/add', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', ready().s, { questId: 1000, managedBattlePartyId: 1 });
  t.like(e, { field: 'questId' });
  t.regex(reasonOf(e), /adv\/add/);
});

test('order: with a quest active it is 466, and the reason names the active order', (t) => {
  const a = orderIn(t, ready().s);
  const e = fails(t, 'QUEST_ORDER_LIMIT', 'orderPlayerQuestLog', a, { questId: STORY2, managedBattlePartyId: 1 });
  t.regex(reasonOf(e), new RegExp(`\\b${a.activeQuest!.orderReceiveId}\\b`));
});

test('order: questData left out is stored empty; over the configured size it is 102 naming questData and the size (save too)', (t) => {
  const a = orderIn(t, ready().s);
  t.is(a.activeQuest?.questData, '');
  const over = 'x'.repeat(cfg.questDataMaxLength + 1);
  for (const e of [
    fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', ready().s, { questId: STORY, managedBattlePartyId: 1, questData: over }),
    fails(t, 'INVALID_PARAMETERS', 'savePlayerQuestLog', a, { orderReceiveId: a.activeQuest!.orderReceiveId, questData: over }),
  ]) {
    t.like(e, { field: 'questData' });
    t.regex(reasonOf(e), new RegExp(`\\b${cfg.questDataMaxLength}\\b`));
  }
});

test('order: a party without a character is 102 naming managedBattlePartyId and saying it has none', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', ready().s, { questId: STORY, managedBattlePartyId: 2 });
  t.like(e, { field: 'managedBattlePartyId' });
  t.regex(reasonOf(e), /no character/);
});

test('order: a party character the player does not own is 107 naming it, though the player owns others', (t) => {
  const { s, c1, c2 } = ready();
  const gone = { ...s, characters: s.characters.filter((c) => c.managedCharacterId !== c1) };
  t.deepEqual(gone.characters.map((c) => c.managedCharacterId), [c2], 'another character is still owned');
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', gone, { questId: STORY, managedBattlePartyId: 1 }), { entity: 'character', id: c1 });
});

test('order: an owned weapon in the party is taken; a weapon the player does not own is 107 naming it, though the player owns others', (t) => {
  const { s, c1, w } = ready();
  const armed = slot0(s, c1, w);
  t.is(orderIn(t, armed).activeQuest?.questId, STORY);
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', slot0(s, c1, w + 100), { questId: STORY, managedBattlePartyId: 1 }), { entity: 'weapon', id: w + 100 });
});

test('order: an unknown support character is 107 naming the entity "character" and the id', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', ready().s, { questId: STORY, managedBattlePartyId: 1, supportCharacterId: 424242 }), { entity: 'character', id: 424242 });
});

test('save, retry, complete and reset: an orderReceiveId that is not the active quest\'s is 107 naming the entity "quest order" and the id', (t) => {
  const a = orderIn(t, ready().s);
  const wrong = a.activeQuest!.orderReceiveId + 1;
  const expected = { entity: 'quest order', id: wrong };
  t.like(fails(t, 'NOT_FOUND', 'savePlayerQuestLog', a, { orderReceiveId: wrong, questData: 'w' }), expected);
  t.like(fails(t, 'NOT_FOUND', 'retryPlayerQuestLog', a, { orderReceiveId: wrong }), expected);
  t.like(fails(t, 'NOT_FOUND', 'completePlayerQuestLog', a, { orderReceiveId: wrong, state: 1 }), expected);
  t.like(fails(t, 'NOT_FOUND', 'resetPlayerQuestLog', a, { orderReceiveId: wrong }), expected);
});

// ---- complete ----

test('complete: a clear rank outside 1 … maxClearRank is 102 naming clearRank, and the reason gives the range', (t) => {
  const a = orderIn(t, ready().s);
  for (const clearRank of [0, cfg.maxClearRank + 1]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, clearOf(a, { clearRank }));
    t.like(e, { field: 'clearRank' });
    t.regex(reasonOf(e), new RegExp(`\\b1 and ${cfg.maxClearRank}\\b`));
  }
});

test('complete: more skillExps entries than skillEntriesMax is 102, and the reason gives the most', (t) => {
  const a = orderIn(t, ready().s);
  const skillExps = Array.from({ length: cfg.skillEntriesMax + 1 }, (_, i) => `${i + 1}:1`).join(',');
  const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, clearOf(a, { skillExps }));
  t.like(e, { field: 'skillExps' });
  t.regex(reasonOf(e), new RegExp(`\\b${cfg.skillEntriesMax}\\b`));
});

test('complete: each use count at useCountMax is taken; one over is 102 naming its own field and the most', (t) => {
  const a = orderIn(t, ready().s);
  for (const field of ['uniqueSkillUseNum', 'masterSkillUseNum', 'friendUseNum']) {
    ok(t, 'completePlayerQuestLog', a, clearOf(a, { [field]: cfg.useCountMax }));
    const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, clearOf(a, { [field]: cfg.useCountMax + 1 }));
    t.like(e, { field }, field);
    t.regex(reasonOf(e), new RegExp(`\\b${cfg.useCountMax}\\b`));
  }
});

test('complete: each quest keeps its own record, sorted by quest id; the first clear of a quest gives its first-clear reward whatever was cleared before', (t) => {
  const first = clearIn(t, ready().s, STORY2, NOW, 2);
  const second = clearIn(t, first.state, STORY, NOW + MINUTE, 1);
  t.deepEqual(second.response.firstClearRewards.map((g) => [g.kind, g.amount]), m.quest.get(STORY)!.firstClear.map((g) => [g.kind, g.amount]));
  t.deepEqual(second.state.questRecords.map((r) => [r.questId, r.clears, r.bestClearRank]), [[STORY, 1, 1], [STORY2, 1, 2]]);
  t.deepEqual(second.response.questLogs?.map((r) => r.questId), [STORY, STORY2], 'the answer lists them in the same order');
  const third = clearIn(t, second.state, STORY2, NOW + 2 * MINUTE, 3);
  t.deepEqual(third.response.firstClearRewards, [], 'no first-clear reward the second time');
  t.deepEqual(third.state.questRecords.map((r) => [r.questId, r.clears, r.bestClearRank]), [[STORY, 1, 1], [STORY2, 2, 3]]);
  t.deepEqual(third.state.questRecords[0], second.state.questRecords[0], 'the other quest\'s record is untouched');
});

test('complete: a failure is counted in the quest\'s own record, beside the others', (t) => {
  const cleared = clearIn(t, ready().s, STORY2, NOW).state;
  const a = orderIn(t, cleared, STORY, NOW + MINUTE);
  const r = ok(t, 'completePlayerQuestLog', a, { orderReceiveId: a.activeQuest!.orderReceiveId, state: 1 }, { now: NOW + MINUTE });
  t.deepEqual(r.state.questRecords.map((x) => [x.questId, x.clears, x.failures]), [[STORY, 0, 1], [STORY2, 1, 0]]);
});

test('complete: the first clear\'s time is kept by later clears', (t) => {
  const first = clearIn(t, ready().s, STORY, NOW).state;
  const later = clearIn(t, first, STORY, NOW + DAY).state;
  t.like(later.questRecords[0], { clears: 2, firstClearedAt: NOW, lastPlayedAt: NOW + DAY });
});

test('complete: the server rolls drops.rolls picks: from a table without a "nothing" entry every roll drops, and the answer lists each', (t) => {
  const drop = { kind: 'item', objectId: 31001, amount: 2 } as const;
  const mm = retuned((q) => { q['drops'] = { rolls: 3, table: [{ weight: 1, grant: drop }] }; });
  const { s } = ready();
  const a = orderIn(t, s, STORY, NOW, mm);
  const r = ok(t, 'completePlayerQuestLog', a, clearOf(a), { m: mm });
  t.deepEqual(r.response.drops, [1, 2, 3].map(() => ({ ...drop, managedPresentId: null })));
  t.is(r.state.items.find((i) => i.itemId === drop.objectId)?.amount, 3 * drop.amount);
  t.deepEqual(r.response.firstClearRewards.map((g) => [g.kind, g.amount]), mm.quest.get(STORY)!.firstClear.map((g) => [g.kind, g.amount]));
});

test('complete: a quest that gives no coins and no character exp gives neither: no coin present for a player over the coin cap, no character changed', (t) => {
  const mm = retuned((q) => {
    q['rewards'] = { ...(q['rewards'] as Record<string, unknown>), gold: 0, characterExp: 0 };
    q['drops'] = { rolls: 1, table: [{ weight: 1, grant: { kind: 'item', objectId: 31001, amount: 1 } }] };
  });
  const { s } = ready();
  // More coins than the cap: the cap was lowered after they were earned.
  const rich = { ...s, gold: mm.game.currencyMax.gold + 1 };
  const a = orderIn(t, rich, STORY, NOW, mm);
  const r = ok(t, 'completePlayerQuestLog', a, clearOf(a), { m: mm });
  t.like(r.response.rewards, { gold: 0, characterExp: 0 });
  t.is(r.state.gold, rich.gold);
  t.deepEqual(r.state.presents, a.presents, 'nothing went to the present box');
  t.deepEqual(r.state.characters, a.characters);
  t.false('managedCharacters' in r.response, 'no character changed, so none is listed');
});

test('complete: a quest reward that does not fit is a present from the quest (source reward, its name as title) saying why it came', (t) => {
  const a = orderIn(t, { ...ready().s, gold: m.game.currencyMax.gold });
  const r = ok(t, 'completePlayerQuestLog', a, clearOf(a));
  const present = r.state.presents.find((p) => p.kind === 'gold' && p.source === 'reward');
  t.truthy(present);
  t.like(present, { title: m.quest.get(STORY)!.name });
  t.regex(present!.message, /did not fit/);
});

// ---- reset ----

test('reset with no quest in progress is 317 saying so', (t) => {
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'resetPlayerQuestLog', ready().s, {})), /no quest/);
});
