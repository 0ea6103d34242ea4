// Quest log: order (pay stamina, store the one active quest and its questData), save
// the wave state, retry for gems, complete (drops rolled on the server from master
// data, rewards, the first-clear reward once, the best rank kept) and reset.
import * as t from 'io-ts';
import { Int, IntRange, NonNegInt, PosInt, Text, obj, objWithOptional } from '../codecs.js';
import { defineOp, type AnyOperation } from '../operation.js';
import type { Master } from '../master/index.js';
import type { Grant } from '../master/common.js';
import type { QuestIndexed } from '../master/social.js';
import type { PlayerState } from '../state.js';
import { PARTY_COUNT, type ActiveQuest, type QuestRecord } from '../state/social.js';
import { pickWeighted } from '../rng.js';
import { fail, ok, type Result } from '../shared/result.js';
import { pay } from '../shared/pay.js';
import { addPlayerExp } from '../shared/player.js';
import { grantAll, type GrantOutcome } from '../shared/grant.js';
import { bumpCounter } from '../shared/counters.js';
import { addCharacterExp } from '../shared/growth.js';
import { recordStep } from './tutorial.js';

/** The codec's bound only keeps requests sane; the configured limit (social.quest.questDataMaxLength) is the rule. */
const QuestData = Text(0, 60000);
const CLEAR = 1;
const FAILED = 2;

const questOf = (m: Master, questId: number): Result<QuestIndexed> => {
  const q = m.quest.get(questId);
  return q ? ok(q) : fail('NOT_FOUND', { entity: 'quest', id: questId });
};

const inPeriod = (q: QuestIndexed, now: number): boolean => now >= q.startsAt && (q.endsAt === null || now < q.endsAt);

const checkQuestData = (m: Master, questData: string): Result<string> =>
  questData.length > m.social.quest.questDataMaxLength
    ? fail('INVALID_PARAMETERS', { field: 'questData', reason: `must be at most ${m.social.quest.questDataMaxLength} characters` })
    : ok(questData);

/** The active quest the request names: none, or another one, is 107. */
const activeOf = (s: PlayerState, orderReceiveId: number): Result<ActiveQuest> =>
  s.activeQuest !== null && s.activeQuest.orderReceiveId === orderReceiveId
    ? ok(s.activeQuest)
    : fail('NOT_FOUND', { entity: 'quest order', id: orderReceiveId });

const grantView = (o: GrantOutcome) => ({ ...o.grant, managedPresentId: o.managedPresentId });

// ---- order ----
const OrderRequest = objWithOptional(
  { questId: PosInt, managedBattlePartyId: IntRange(1, PARTY_COUNT) },
  { type: PosInt, supportCharacterId: NonNegInt, questData: QuestData },
  'OrderPlayerQuestLogRequest',
);

const order = defineOp({
  name: 'orderPlayerQuestLog', method: 'POST', path: '/player/quest_log/order', group: 'questLog', access: 'session',
  summary: 'Starts a quest with a battle party: in period, pays stamina, stores it as the one active quest with its questData.',
  request: OrderRequest,
  response: t.type({ orderReceiveId: t.number, questId: t.number, stamina: t.number }, 'OrderPlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS', 'QUEST_OUT_OF_PERIOD', 'QUEST_ORDER_LIMIT', 'STAMINA_IS_SHORT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const qr = questOf(m, req.questId);
    if (qr._tag === 'Left') return qr;
    const q = qr.right;
    if (req.type !== undefined && req.type !== q.type) return fail('INVALID_PARAMETERS', { field: 'type', reason: `quest ${q.questId} is of type ${q.type}` });
    if (!inPeriod(q, now)) return fail('QUEST_OUT_OF_PERIOD', { questId: q.questId });
    if (s.activeQuest !== null) return fail('QUEST_ORDER_LIMIT', { reason: `quest order ${s.activeQuest.orderReceiveId} is still active: complete or reset it first` });
    const data = checkQuestData(m, req.questData ?? '');
    if (data._tag === 'Left') return data;
    const party = s.battleParties.find((p) => p.managedBattlePartyId === req.managedBattlePartyId);
    const members = (party?.slots ?? []).flatMap((x) => (x.managedCharacterId === null ? [] : [x.managedCharacterId]));
    if (members.length === 0) return fail('INVALID_PARAMETERS', { field: 'managedBattlePartyId', reason: 'the party has no character' });
    for (const id of members) if (!s.characters.some((c) => c.managedCharacterId === id)) return fail('NOT_FOUND', { entity: 'character', id });
    for (const x of party?.slots ?? []) {
      if (x.managedWeaponId !== null && !s.weapons.some((w) => w.managedWeaponId === x.managedWeaponId)) return fail('NOT_FOUND', { entity: 'weapon', id: x.managedWeaponId });
    }
    const support = req.supportCharacterId ?? 0;
    if (support !== 0 && !m.character.has(support)) return fail('NOT_FOUND', { entity: 'character', id: support });
    const paid = pay(m, s, { stamina: q.stamina }, now);
    if (paid._tag === 'Left') return paid;
    const orderReceiveId = paid.right.nextManagedId;
    const active: ActiveQuest = {
      orderReceiveId, questId: q.questId, type: q.type, managedBattlePartyId: req.managedBattlePartyId,
      managedCharacterIds: members, supportCharacterId: support === 0 ? null : support,
      questData: data.right, orderedAt: now, savedAt: now, saves: 0, retries: 0,
    };
    const next = bumpCounter({ ...paid.right, nextManagedId: orderReceiveId + 1, activeQuest: active }, 'questOrders');
    return ok({ state: next, response: { orderReceiveId, questId: q.questId, stamina: next.stamina.value } });
  },
});

// ---- save ----
const save = defineOp({
  name: 'savePlayerQuestLog', method: 'POST', path: '/player/quest_log/save', group: 'questLog', access: 'session',
  summary: 'Stores the wave state (questData) of the active quest.',
  request: obj({ orderReceiveId: PosInt, questData: QuestData }, 'SavePlayerQuestLogRequest'),
  response: t.type({ orderReceiveId: t.number, saves: t.number }, 'SavePlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const a = activeOf(s, req.orderReceiveId);
    if (a._tag === 'Left') return a;
    const data = checkQuestData(m, req.questData);
    if (data._tag === 'Left') return data;
    const active = { ...a.right, questData: data.right, savedAt: now, saves: a.right.saves + 1 };
    return ok({ state: { ...s, activeQuest: active }, response: { orderReceiveId: active.orderReceiveId, saves: active.saves } });
  },
});

// ---- retry ----
const retry = defineOp({
  name: 'retryPlayerQuestLog', method: 'POST', path: '/player/quest_log/retry', group: 'questLog', access: 'session',
  summary: 'Continues the active quest\'s wave for gems, up to the quest\'s maximum retries.',
  request: obj({ orderReceiveId: PosInt }, 'RetryPlayerQuestLogRequest'),
  response: t.type({ orderReceiveId: t.number, retries: t.number, retryMax: t.number }, 'RetryPlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'QUEST_RETRY_LIMIT', 'GEM_IS_SHORT'],
  reduce: (s, req, _rng, now, { master: m }) => {
    const a = activeOf(s, req.orderReceiveId);
    if (a._tag === 'Left') return a;
    const qr = questOf(m, a.right.questId);
    if (qr._tag === 'Left') return qr;
    const q = qr.right;
    if (a.right.retries >= q.retry.max) return fail('QUEST_RETRY_LIMIT', { max: q.retry.max });
    const paid = pay(m, s, { gem: q.retry.gem }, now);
    if (paid._tag === 'Left') return paid;
    const active = { ...a.right, retries: a.right.retries + 1 };
    return ok({ state: { ...paid.right, activeQuest: active }, response: { orderReceiveId: active.orderReceiveId, retries: active.retries, retryMax: q.retry.max } });
  },
});

// ---- complete ----
const CompleteRequest = objWithOptional(
  { orderReceiveId: PosInt, state: IntRange(CLEAR, FAILED) },
  { clearRank: NonNegInt, skillExps: t.array(NonNegInt), uniqueSkillUseNum: NonNegInt, masterSkillUseNum: NonNegInt, friendUseNum: NonNegInt, stepCode: Int },
  'CompletePlayerQuestLogRequest',
);

const emptyRecord = (questId: number, now: number): QuestRecord => ({
  questId, clears: 0, failures: 0, bestClearRank: 0, firstClearedAt: null, lastPlayedAt: now, skillUse: null,
});

const putRecord = (s: PlayerState, r: QuestRecord): PlayerState => {
  const i = s.questRecords.findIndex((x) => x.questId === r.questId);
  const questRecords = i < 0 ? [...s.questRecords, r].sort((a, b) => a.questId - b.questId) : s.questRecords.map((x, j) => (j === i ? r : x));
  return { ...s, questRecords };
};

const complete = defineOp({
  name: 'completePlayerQuestLog', method: 'POST', path: '/player/quest_log/complete', group: 'questLog', access: 'session',
  summary: 'Ends the active quest (state 1 clear, 2 failed). A clear rolls the drops on the server, gives the rewards and the first-clear reward once, keeps the best rank and the skill use counts.',
  request: CompleteRequest,
  response: t.type({
    orderReceiveId: t.number, questId: t.number, cleared: t.boolean, bestClearRank: t.number,
    drops: t.array(t.unknown), rewards: t.unknown, firstClearRewards: t.array(t.unknown),
  }, 'CompletePlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'INVALID_PARAMETERS'],
  reduce: (s, req, rng, now, { master: m }) => {
    const a = activeOf(s, req.orderReceiveId);
    if (a._tag === 'Left') return a;
    const qr = questOf(m, a.right.questId);
    if (qr._tag === 'Left') return qr;
    const q = qr.right;
    const cfg = m.social.quest;
    const cleared = req.state === CLEAR;
    const rank = req.clearRank ?? 0;
    if (cleared && (rank < 1 || rank > cfg.maxClearRank)) return fail('INVALID_PARAMETERS', { field: 'clearRank', reason: `must be between 1 and ${cfg.maxClearRank} for a clear` });
    const skills = req.skillExps ?? [];
    if (skills.length > cfg.skillEntriesMax) return fail('INVALID_PARAMETERS', { field: 'skillExps', reason: `must list at most ${cfg.skillEntriesMax} entries` });
    const counts = [...skills, req.uniqueSkillUseNum ?? 0, req.masterSkillUseNum ?? 0, req.friendUseNum ?? 0];
    if (counts.some((n) => n > cfg.useCountMax)) return fail('INVALID_PARAMETERS', { field: 'skillExps', reason: `use counts must be at most ${cfg.useCountMax}` });

    const before = s.questRecords.find((r) => r.questId === q.questId) ?? emptyRecord(q.questId, now);
    let next: PlayerState = { ...s, activeQuest: null };
    if (req.stepCode !== undefined && req.stepCode > 0) {
      const stepped = recordStep(m, next, req.stepCode);
      if (stepped._tag === 'Left') return stepped;
      next = stepped.right;
    }
    if (!cleared) {
      next = putRecord(next, { ...before, failures: before.failures + 1, lastPlayedAt: now });
      return ok({ state: next, response: { orderReceiveId: req.orderReceiveId, questId: q.questId, cleared: false, bestClearRank: before.bestClearRank, drops: [], rewards: null, firstClearRewards: [] } });
    }

    // Drops: rolled here from the quest's table; nothing in the request names a reward.
    const rolled: Grant[] = [];
    for (let i = 0; i < q.drops.rolls; i++) {
      const e = pickWeighted(rng, q.drops.table);
      if (e.grant) rolled.push(e.grant);
    }
    const base: Grant[] = q.rewards.gold > 0 ? [{ kind: 'gold', objectId: 0, amount: q.rewards.gold }] : [];
    const first = before.clears === 0 ? q.firstClear : [];
    const meta = { title: q.name, message: 'A quest reward that did not fit in your storage.', source: 'reward', deadline: null };
    const granted = grantAll(m, next, [...base, ...rolled, ...first], now, meta);
    if (granted._tag === 'Left') return granted;
    next = addPlayerExp(m, granted.right.state, q.rewards.playerExp, now);
    if (q.rewards.characterExp > 0) {
      const party = new Set(a.right.managedCharacterIds);
      next = { ...next, characters: next.characters.map((c) => (party.has(c.managedCharacterId) ? addCharacterExp(m, c, q.rewards.characterExp) : c)) };
    }
    const record: QuestRecord = {
      ...before, clears: before.clears + 1, bestClearRank: Math.max(before.bestClearRank, rank),
      firstClearedAt: before.firstClearedAt ?? now, lastPlayedAt: now,
      skillUse: { skills, unique: req.uniqueSkillUseNum ?? 0, master: req.masterSkillUseNum ?? 0, friend: req.friendUseNum ?? 0 },
    };
    next = bumpCounter(putRecord(next, record), 'questClears');
    const outcomes = granted.right.outcomes;
    return ok({
      state: next,
      response: {
        orderReceiveId: req.orderReceiveId, questId: q.questId, cleared: true, clearRank: rank, bestClearRank: record.bestClearRank,
        drops: outcomes.slice(base.length, base.length + rolled.length).map(grantView),
        rewards: { gold: q.rewards.gold, playerExp: q.rewards.playerExp, characterExp: q.rewards.characterExp },
        firstClearRewards: outcomes.slice(base.length + rolled.length).map(grantView),
      },
    });
  },
});

// ---- reset ----
const reset = defineOp({
  name: 'resetPlayerQuestLog', method: 'POST', path: '/player/quest_log/reset', group: 'questLog', access: 'session',
  summary: 'Discards the active quest and its questData (no refund).',
  request: objWithOptional({}, { orderReceiveId: PosInt }, 'ResetPlayerQuestLogRequest'),
  response: t.type({ orderReceiveId: t.number }, 'ResetPlayerQuestLogResponse'),
  errors: ['NOT_FOUND', 'STATE_CONFLICT'],
  reduce: (s, req) => {
    if (s.activeQuest === null) return fail('STATE_CONFLICT', { reason: 'no quest is in progress' });
    if (req.orderReceiveId !== undefined && req.orderReceiveId !== s.activeQuest.orderReceiveId) return fail('NOT_FOUND', { entity: 'quest order', id: req.orderReceiveId });
    return ok({ state: { ...s, activeQuest: null }, response: { orderReceiveId: s.activeQuest.orderReceiveId } });
  },
});

export const questLogOps: AnyOperation[] = [complete, order, reset, retry, save];
