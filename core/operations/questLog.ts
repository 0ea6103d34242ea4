// Quest log: order (pay stamina, store the one active quest and its questData), save
// the wave state, retry for gems, complete (drops rolled on the server from master
// data, rewards, the first-clear reward once, the best rank kept) and reset.
// Requests take the original clients' forms: `state` 2 is a clear, the lists are
// "id:n,id:n" strings, and -1 names no support character (docs/rules/social.md).
// What a clear gives is computed in core/questLog/rewards.ts; an adv-only quest is
// ordered and completed as a scene (type 3 or 4, no party: core/questLog/scene.ts).
import * as t from 'io-ts';
import { IdAmountList, Int, IntEnum, IntRange, NonNegInt, PosInt, Text, obj, objWithOptional } from '../codecs.js';
import { implementOp } from '../operation.js';
import type { Master } from '../master/index.js';
import type { QuestIndexed } from '../master/social.js';
import type { PlayerState } from '../state.js';
import { PARTY_COUNT, type ActiveQuest, type QuestRecord } from '../state/social.js';
import { fail, ok, type Result } from '../shared/result.js';
import { bumpCounter } from '../shared/counters.js';
import { RewardView, nullable } from '../views/codecs.js';
import { grantClearRewards } from '../questLog/rewards.js';
import { applyStep } from './tutorial.js';
import { pay } from '../shared/pay.js';
import { isSceneOrder, orderScene, orderTypeOf, sceneCompleted } from '../questLog/scene.js';
import * as api from '../api/questLog.js';
import { NONE } from '../api/questLog.js';
const FAILED = 1;
const CLEARED = 2;
const isNone = (id: number): boolean => id === NONE || id === 0;

const questOf = (m: Master, questId: number): Result<QuestIndexed, 'NOT_FOUND'> => {
  const q = m.quest.get(questId);
  return q ? ok(q) : fail('NOT_FOUND', { entity: 'quest', id: questId });
};

const inPeriod = (q: QuestIndexed, now: number): boolean => now >= q.startsAt && (q.endsAt === null || now < q.endsAt);

const checkQuestData = (m: Master, questData: string): Result<string, 'INVALID_PARAMETERS'> =>
  questData.length > m.social.quest.questDataMaxLength
    ? fail('INVALID_PARAMETERS', {
        field: 'questData',
        reason: `must be at most ${m.social.quest.questDataMaxLength} characters`,
      })
    : ok(questData);

/** The active quest the request names: none, or another one, is 107. */
const activeOf = (s: PlayerState, orderReceiveId: number): Result<ActiveQuest, 'NOT_FOUND'> =>
  s.activeQuest !== null && s.activeQuest.orderReceiveId === orderReceiveId
    ? ok(s.activeQuest)
    : fail('NOT_FOUND', { entity: 'quest order', id: orderReceiveId });

const order = implementOp(api.order, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const qr = questOf(m, req.questId);
    if (qr._tag === 'Left') return qr;
    const q = qr.right;
    const type = orderTypeOf(q);
    if (req.type !== undefined && req.type !== type)
      return fail('INVALID_PARAMETERS', { field: 'type', reason: `quest ${q.questId} is of type ${type}` });
    if (!inPeriod(q, now)) return fail('QUEST_OUT_OF_PERIOD', { questId: q.questId });
    if (s.activeQuest !== null)
      return fail('QUEST_ORDER_LIMIT', {
        reason: `quest order ${s.activeQuest.orderReceiveId} is still active: complete or reset it first`,
      });
    if (q.advOnly) return orderScene(m, s, q, now);
    const data = checkQuestData(m, req.questData ?? '');
    if (data._tag === 'Left') return data;
    if (isNone(req.managedBattlePartyId))
      return fail('INVALID_PARAMETERS', {
        field: 'managedBattlePartyId',
        reason: 'a quest needs a battle party (-1 names none)',
      });
    const party = s.battleParties.find((p) => p.managedBattlePartyId === req.managedBattlePartyId);
    const members = (party?.slots ?? []).flatMap((x) => (x.managedCharacterId === null ? [] : [x.managedCharacterId]));
    if (members.length === 0)
      return fail('INVALID_PARAMETERS', { field: 'managedBattlePartyId', reason: 'the party has no character' });
    for (const id of members)
      if (!s.characters.some((c) => c.managedCharacterId === id)) return fail('NOT_FOUND', { entity: 'character', id });
    for (const x of party?.slots ?? []) {
      if (x.managedWeaponId !== null && !s.weapons.some((w) => w.managedWeaponId === x.managedWeaponId))
        return fail('NOT_FOUND', { entity: 'weapon', id: x.managedWeaponId });
    }
    const support =
      req.supportCharacterId === undefined || isNone(req.supportCharacterId) ? null : req.supportCharacterId;
    if (support !== null && !m.character.has(support)) return fail('NOT_FOUND', { entity: 'character', id: support });
    const paid = pay(m, s, { stamina: q.stamina }, now);
    if (paid._tag === 'Left') return paid;
    const orderReceiveId = paid.right.nextManagedId;
    const active: ActiveQuest = {
      orderReceiveId,
      questId: q.questId,
      type: q.type,
      managedBattlePartyId: req.managedBattlePartyId,
      managedCharacterIds: members,
      supportCharacterId: support,
      questData: data.right,
      orderedAt: now,
      savedAt: now,
      saves: 0,
      retries: 0,
    };
    const next = bumpCounter(
      bumpCounter({ ...paid.right, nextManagedId: orderReceiveId + 1, activeQuest: active }, 'questOrders'),
      'staminaSpent',
      q.stamina,
    );
    return ok({ state: next, response: { orderReceiveId, questId: q.questId, stamina: next.stamina.value } });
  },
});

// ---- save ----
const save = implementOp(api.save, {
  reduce: (s, req, _rng, now, { master: m }) => {
    const a = activeOf(s, req.orderReceiveId);
    if (a._tag === 'Left') return a;
    const data = checkQuestData(m, req.questData);
    if (data._tag === 'Left') return data;
    const active = { ...a.right, questData: data.right, savedAt: now, saves: a.right.saves + 1 };
    return ok({
      state: { ...s, activeQuest: active },
      response: { orderReceiveId: active.orderReceiveId, saves: active.saves },
    });
  },
});

// ---- retry ----
const retry = implementOp(api.retry, {
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
    return ok({
      state: { ...paid.right, activeQuest: active },
      response: { orderReceiveId: active.orderReceiveId, retries: active.retries, retryMax: q.retry.max },
    });
  },
});

const emptyRecord = (questId: number, now: number): QuestRecord => ({
  questId,
  clears: 0,
  failures: 0,
  bestClearRank: 0,
  firstClearedAt: null,
  lastPlayedAt: now,
  skillUse: null,
});

const putRecord = (s: PlayerState, r: QuestRecord): PlayerState => {
  const i = s.questRecords.findIndex((x) => x.questId === r.questId);
  const questRecords =
    i < 0
      ? [...s.questRecords, r].sort((a, b) => a.questId - b.questId)
      : s.questRecords.map((x, j) => (j === i ? r : x));
  return { ...s, questRecords };
};

const complete = implementOp(api.complete, {
  reduce: (s, req, rng, now, { master: m }) => {
    const a = activeOf(s, req.orderReceiveId);
    if (a._tag === 'Left') return a;
    const qr = questOf(m, a.right.questId);
    if (qr._tag === 'Left') return qr;
    const q = qr.right;
    const cfg = m.social.quest;
    const cleared = req.state === CLEARED;
    const scene = isSceneOrder(a.right);
    const rank = req.clearRank ?? 0;
    // A scene has no rank: its clearRank is not read.
    if (cleared && !scene && (rank < 1 || rank > cfg.maxClearRank))
      return fail('INVALID_PARAMETERS', {
        field: 'clearRank',
        reason: `must be between 1 and ${cfg.maxClearRank} for a clear`,
      });
    // Skill use counts, "id:n" each: kept as the counts, in the order sent; they never give anything.
    const skills = (req.skillExps ?? []).map((x) => x.amount);
    if (skills.length > cfg.skillEntriesMax)
      return fail('INVALID_PARAMETERS', {
        field: 'skillExps',
        reason: `must list at most ${cfg.skillEntriesMax} entries`,
      });
    const counts: ReadonlyArray<readonly [string, number]> = [
      ...skills.map((n) => ['skillExps', n] as const),
      ['uniqueSkillUseNum', req.uniqueSkillUseNum ?? 0],
      ['masterSkillUseNum', req.masterSkillUseNum ?? 0],
      ['friendUseNum', req.friendUseNum ?? 0],
    ];
    const over = counts.find(([, n]) => n > cfg.useCountMax);
    if (over)
      return fail('INVALID_PARAMETERS', { field: over[0], reason: `use counts must be at most ${cfg.useCountMax}` });
    // dropItems, killedEnemies and weaponSkillExps were checked for form by the codec and are not
    // read: drops are rolled below, and the game has no enemy log or weapon skills to credit.

    const before = s.questRecords.find((r) => r.questId === q.questId) ?? emptyRecord(q.questId, now);
    let next: PlayerState = { ...s, activeQuest: null };
    const stepped = applyStep(m, next, req.stepCode);
    if (stepped._tag === 'Left') return stepped;
    next = stepped.right;
    if (req.state === FAILED) {
      next = putRecord(next, { ...before, failures: before.failures + 1, lastPlayedAt: now });
      return ok({
        state: next,
        response: {
          orderReceiveId: req.orderReceiveId,
          questId: q.questId,
          cleared: false,
          clearRank: 0,
          bestClearRank: before.bestClearRank,
          drops: [],
          rewards: null,
          firstClearRewards: [],
        },
      });
    }

    if (scene) return sceneCompleted(m, next, q, req.orderReceiveId, now);
    // The drops rolled, the rewards and the first-clear reward (the first clear only) given, and the experience.
    const granted = grantClearRewards(m, next, q, before.clears === 0, a.right.managedCharacterIds, rng, now);
    if (granted._tag === 'Left') return granted;
    next = granted.right.state;
    const record: QuestRecord = {
      ...before,
      clears: before.clears + 1,
      bestClearRank: Math.max(before.bestClearRank, rank),
      firstClearedAt: before.firstClearedAt ?? now,
      lastPlayedAt: now,
      skillUse: {
        skills,
        unique: req.uniqueSkillUseNum ?? 0,
        master: req.masterSkillUseNum ?? 0,
        friend: req.friendUseNum ?? 0,
      },
    };
    next = bumpCounter(putRecord(next, record), 'questClears');
    return ok({
      state: next,
      response: {
        orderReceiveId: req.orderReceiveId,
        questId: q.questId,
        cleared: true,
        clearRank: rank,
        bestClearRank: record.bestClearRank,
        drops: granted.right.drops,
        rewards: { gold: q.rewards.gold, playerExp: q.rewards.playerExp, characterExp: q.rewards.characterExp },
        firstClearRewards: granted.right.firstClearRewards,
      },
    });
  },
});

// ---- reset ----
const reset = implementOp(api.reset, {
  reduce: (s, req) => {
    if (s.activeQuest === null) return fail('STATE_CONFLICT', { reason: 'no quest is in progress' });
    if (req.orderReceiveId !== undefined && req.orderReceiveId !== s.activeQuest.orderReceiveId)
      return fail('NOT_FOUND', { entity: 'quest order', id: req.orderReceiveId });
    return ok({ state: { ...s, activeQuest: null }, response: { orderReceiveId: s.activeQuest.orderReceiveId } });
  },
});

export const questLogOps = [complete, order, reset, retry, save] as const;
