// Completing a quest (docs/rules/social.md, Quest log): a clear gives coins, exp, character
// exp, the drops the server rolls and the first-clear reward once; a failure gives nothing
// and is counted; each quest keeps its own record; the battle lists checked for form; a
// reward that does not fit is a present from the quest; what each refusal names.
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, NOW, ok, runOp } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';
import type { GameError } from '../../../core/errors.js';
import { type Master, buildMaster } from '../../../core/master/index.js';
import { masterSourceOf } from '../../../adapters/master/load.js';
import { DAY, MINUTE } from '../../../core/time.js';

const STORY = 1001;
const EVENT = 2001;

/** A player with one character in party 1. */
const ready = (): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const battleParties = s0.battleParties.map((p) =>
    p.managedBattlePartyId === 1
      ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
      : p,
  );
  return { ...s0, nextManagedId: id + 1, characters: [newCharacter(id, 1011, NOW)], battleParties };
};

const order = (t: Parameters<typeof ok>[0], s: PlayerState, questId = STORY, extra: Record<string, unknown> = {}) =>
  ok(t, 'orderPlayerQuestLog', s, {
    type: master().quest.get(questId)!.type,
    questId,
    managedBattlePartyId: 1,
    supportCharacterId: 0,
    questData: 'wave:0',
    ...extra,
  });

const idOf = (s: PlayerState): number => s.activeQuest!.orderReceiveId;
/** A clear as the original's clients send it: state 2, the battle lists as "id:n" strings (possibly empty). */
const clear = (s: PlayerState, rank = 3) => ({
  orderReceiveId: idOf(s),
  state: 2,
  clearRank: rank,
  skillExps: '101:1,102:2',
  dropItems: '',
  killedEnemies: '',
  weaponSkillExps: '',
  uniqueSkillUseNum: 1,
  masterSkillUseNum: 0,
  friendUseNum: 1,
  stepCode: 0,
});
const fieldOf = (e: GameError): unknown => ('field' in e ? e.field : undefined);

const m = master();
const cfg = m.social.quest;
const STORY2 = 1002;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** A player owning characters 1011 and 1012 (ids c1, c2) and weapon 103 (id w), with c1 in party 1 and stamina to spare. */
const readyWithWeapon = () => {
  const s0 = freshPlayer();
  const c1 = s0.nextManagedId;
  const c2 = c1 + 1;
  const w = c1 + 2;
  const s: PlayerState = {
    ...s0,
    nextManagedId: c1 + 3,
    stamina: { value: 999, at: NOW },
    characters: [newCharacter(c1, 1011, NOW), newCharacter(c2, 1012, NOW)],
    weapons: [{ managedWeaponId: w, weaponId: 103, level: 1, exp: 0, createdAt: NOW }],
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: c1, managedWeaponId: null } : x)) }
        : p,
    ),
  };
  return { s, c1, c2, w };
};

const orderIn = (t: ExecutionContext, s: PlayerState, questId = STORY, now = NOW, mm: Master = m): PlayerState =>
  ok(t, 'orderPlayerQuestLog', s, { questId, managedBattlePartyId: 1 }, { now, m: mm }).state;
const clearIn = (t: ExecutionContext, s: PlayerState, questId = STORY, now = NOW, rank = 3) => {
  const a = orderIn(t, s, questId, now);
  return ok(
    t,
    'completePlayerQuestLog',
    a,
    { orderReceiveId: a.activeQuest!.orderReceiveId, state: 2, clearRank: rank },
    { now },
  );
};
const clearOf = (s: PlayerState, extra: Record<string, unknown> = {}) => ({
  orderReceiveId: s.activeQuest!.orderReceiveId,
  state: 2,
  clearRank: 3,
  ...extra,
});

/** Master data with quest 1001 retuned by `edit` (checked at start-up as any master data). */
const retuned = (edit: (q: Record<string, unknown>) => void): Master => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown>;
  edit((raw['quests'] as Array<Record<string, unknown>>).find((q) => q['questId'] === STORY)!);
  const built = buildMaster(raw);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.master;
};

test('complete (clear) gives coins, exp, character exp, server-rolled drops and the first-clear reward once; discards questData', (t) => {
  const m = master();
  const q = m.quest.get(STORY)!;
  const a = order(t, ready()).state;
  const r = ok(t, 'completePlayerQuestLog', a, clear(a, 2), { seed: 's1' });
  t.is(r.state.activeQuest, null);
  t.is(r.response.cleared, true);
  t.is(r.response.clearRank, 2);
  t.deepEqual(r.response.rewards, {
    gold: q.rewards.gold,
    playerExp: q.rewards.playerExp,
    characterExp: q.rewards.characterExp,
  });
  t.is(r.state.exp, a.exp + q.rewards.playerExp);
  t.true(r.state.characters[0]!.exp > 0, 'the party characters got exp');
  const first = r.response.firstClearRewards;
  t.deepEqual(
    first.map((g) => [g.kind, g.amount]),
    q.firstClear.map((g) => [g.kind, g.amount]),
  );
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
  const y = ok(
    t,
    'completePlayerQuestLog',
    a,
    {
      ...clear(a),
      drops: [{ kind: 'gem', objectId: 0, amount: 99999 }],
      gold: 99999,
      rewards: { gem: 5000 },
      // The original's clients name what dropped and what was killed; a claim is never a reward.
      dropItems: '7010:99,7011:99,8003:99',
      killedEnemies: '19010002:4',
      weaponSkillExps: '5:999',
    },
    { seed: 'same' },
  );
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

test("property: drops come only from the quest's table, at most one per roll", (t) => {
  const m = master();
  const q = m.quest.get(EVENT)!;
  const allowed = new Set(q.drops.table.flatMap((d) => (d.grant ? [JSON.stringify(d.grant)] : [])));
  const a = order(t, ready(), EVENT).state;
  fc.assert(
    fc.property(fc.string({ minLength: 1, maxLength: 12 }), (seed) => {
      const r = runOp('completePlayerQuestLog', a, clear(a), { seed });
      if (r._tag === 'Left') return false;
      const drops = r.right.response.drops;
      return (
        drops.length <= q.drops.rolls &&
        drops.every((d) => allowed.has(JSON.stringify({ kind: d.kind, objectId: d.objectId, amount: d.amount })))
      );
    }),
    { numRuns: 100 },
  );
  t.pass();
});

test('complete state: 2 is a clear and 1 a failure (also as numeric strings); 0, 3 or text is 102 naming state, nothing changed', (t) => {
  const a = order(t, ready()).state;
  t.true(ok(t, 'completePlayerQuestLog', a, { ...clear(a), state: '2' }).response.cleared);
  t.false(ok(t, 'completePlayerQuestLog', a, { orderReceiveId: idOf(a), state: '1' }).response.cleared);
  for (const state of [0, 3, -1, 'cleared', 2.5])
    t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), state })), 'state');
  t.is(fieldOf(fails(t, 'INSUFFICIENT_PARAMETERS', 'completePlayerQuestLog', a, { orderReceiveId: idOf(a) })), 'state');
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

test('complete: each quest keeps its own record, sorted by quest id; the first clear of a quest gives its first-clear reward whatever was cleared before', (t) => {
  const first = clearIn(t, readyWithWeapon().s, STORY2, NOW, 2);
  const second = clearIn(t, first.state, STORY, NOW + MINUTE, 1);
  t.deepEqual(
    second.response.firstClearRewards.map((g) => [g.kind, g.amount]),
    m.quest.get(STORY)!.firstClear.map((g) => [g.kind, g.amount]),
  );
  t.deepEqual(
    second.state.questRecords.map((r) => [r.questId, r.clears, r.bestClearRank]),
    [
      [STORY, 1, 1],
      [STORY2, 1, 2],
    ],
  );
  t.deepEqual(
    second.response.questLogs?.map((r) => r.questId),
    [STORY, STORY2],
    'the answer lists them in the same order',
  );
  const third = clearIn(t, second.state, STORY2, NOW + 2 * MINUTE, 3);
  t.deepEqual(third.response.firstClearRewards, [], 'no first-clear reward the second time');
  t.deepEqual(
    third.state.questRecords.map((r) => [r.questId, r.clears, r.bestClearRank]),
    [
      [STORY, 1, 1],
      [STORY2, 2, 3],
    ],
  );
  t.deepEqual(third.state.questRecords[0], second.state.questRecords[0], "the other quest's record is untouched");
});

test("complete: a failure is counted in the quest's own record, beside the others", (t) => {
  const cleared = clearIn(t, readyWithWeapon().s, STORY2, NOW).state;
  const a = orderIn(t, cleared, STORY, NOW + MINUTE);
  const r = ok(
    t,
    'completePlayerQuestLog',
    a,
    { orderReceiveId: a.activeQuest!.orderReceiveId, state: 1 },
    { now: NOW + MINUTE },
  );
  t.deepEqual(
    r.state.questRecords.map((x) => [x.questId, x.clears, x.failures]),
    [
      [STORY, 0, 1],
      [STORY2, 1, 0],
    ],
  );
});

test("complete: the first clear's time is kept by later clears", (t) => {
  const first = clearIn(t, readyWithWeapon().s, STORY, NOW).state;
  const later = clearIn(t, first, STORY, NOW + DAY).state;
  t.like(later.questRecords[0], { clears: 2, firstClearedAt: NOW, lastPlayedAt: NOW + DAY });
});

test('complete: the server rolls drops.rolls picks: from a table without a "nothing" entry every roll drops, and the answer lists each', (t) => {
  const drop = { kind: 'item', objectId: 31001, amount: 2 } as const;
  const mm = retuned((q) => {
    q['drops'] = { rolls: 3, table: [{ weight: 1, grant: drop }] };
  });
  const { s } = readyWithWeapon();
  const a = orderIn(t, s, STORY, NOW, mm);
  const r = ok(t, 'completePlayerQuestLog', a, clearOf(a), { m: mm });
  t.deepEqual(
    r.response.drops,
    [1, 2, 3].map(() => ({ ...drop, managedPresentId: null })),
  );
  t.is(r.state.items.find((i) => i.itemId === drop.objectId)?.amount, 3 * drop.amount);
  t.deepEqual(
    r.response.firstClearRewards.map((g) => [g.kind, g.amount]),
    mm.quest.get(STORY)!.firstClear.map((g) => [g.kind, g.amount]),
  );
});

test('complete: a quest that gives no coins and no character exp gives neither: no coin present for a player over the coin cap, no character changed', (t) => {
  const mm = retuned((q) => {
    q['rewards'] = { ...(q['rewards'] as Record<string, unknown>), gold: 0, characterExp: 0 };
    q['drops'] = { rolls: 1, table: [{ weight: 1, grant: { kind: 'item', objectId: 31001, amount: 1 } }] };
  });
  const { s } = readyWithWeapon();
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
  const a = orderIn(t, { ...readyWithWeapon().s, gold: m.game.currencyMax.gold });
  const r = ok(t, 'completePlayerQuestLog', a, clearOf(a));
  const present = r.state.presents.find((p) => p.kind === 'gold' && p.source === 'reward');
  t.truthy(present);
  t.like(present, { title: m.quest.get(STORY)!.name });
  t.regex(present!.message, /did not fit/);
});

// ---- requests ----

test('complete: a clear rank outside 1..max, too many or too large use counts are 102; another order 107', (t) => {
  const a = order(t, ready()).state;
  const cfg = master().social.quest;
  fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), clearRank: 0 });
  fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), clearRank: cfg.maxClearRank + 1 });
  const entries = (n: number, count = 1) => Array.from({ length: n }, (_, i) => `${i + 1}:${count}`).join(',');
  t.is(
    fieldOf(
      fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, {
        ...clear(a),
        skillExps: entries(cfg.skillEntriesMax + 1),
      }),
    ),
    'skillExps',
  );
  t.is(
    fieldOf(
      fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, {
        ...clear(a),
        skillExps: entries(2, cfg.useCountMax + 1),
      }),
    ),
    'skillExps',
  );
  t.is(
    fieldOf(
      fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), friendUseNum: cfg.useCountMax + 1 }),
    ),
    'friendUseNum',
  );
  ok(t, 'completePlayerQuestLog', a, { ...clear(a), skillExps: entries(cfg.skillEntriesMax, cfg.useCountMax) });
  fails(t, 'NOT_FOUND', 'completePlayerQuestLog', a, { ...clear(a), orderReceiveId: idOf(a) + 1 });
  fails(t, 'NOT_FOUND', 'completePlayerQuestLog', ready(), { orderReceiveId: 5, state: 2, clearRank: 1 });
});

test('complete: a positive stepCode records the tutorial step; going back is 102', (t) => {
  const a = order(t, ready()).state;
  t.is(ok(t, 'completePlayerQuestLog', a, { ...clear(a), stepCode: 4 }).state.tutorial.step, 4);
  fails(
    t,
    'INVALID_PARAMETERS',
    'completePlayerQuestLog',
    { ...a, tutorial: { ...a.tutorial, step: 4 } },
    { ...clear(a), stepCode: 3 },
  );
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
  const claimed = ok(
    t,
    'completePlayerQuestLog',
    a,
    {
      ...clear(a),
      dropItems: '7010:99,7011:99,8003:99,1:999',
      killedEnemies: '19010002:4,19010003:2',
      weaponSkillExps: '5:999',
    },
    { seed: 'lists' },
  );
  t.deepEqual(JSON.stringify(claimed.state), JSON.stringify(plain.state), 'claimed drops change nothing');
  t.deepEqual(claimed.response, plain.response);
});

test('complete and save: a malformed "id:n" list is 102 naming its field, and nothing changes', (t) => {
  const a = order(t, ready()).state;
  const bad: ReadonlyArray<unknown> = [
    '1',
    '1:',
    ':2',
    '1:2,',
    ',1:2',
    '1:2,,3:4',
    '0:5',
    '-1:2',
    '1:-2',
    '1:2:3',
    '1:x',
    'a:1',
    ' 1:2',
    '1.5:2',
    '1:2;3:4',
    7,
    ['1:2'],
    null,
    '99999999999999999:1',
  ];
  for (const field of ['skillExps', 'dropItems', 'killedEnemies', 'weaponSkillExps']) {
    for (const value of bad) {
      const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), [field]: value });
      t.is(fieldOf(e), field, `${field} = ${JSON.stringify(value)}`);
      t.is(
        fieldOf(
          fails(t, 'INVALID_PARAMETERS', 'savePlayerQuestLog', a, {
            orderReceiveId: idOf(a),
            questData: 'w',
            [field]: value,
          }),
        ),
        field,
      );
    }
    // More entries than the codec's bound (100).
    const many = Array.from({ length: 101 }, (_, i) => `${i + 1}:1`).join(',');
    t.is(fieldOf(fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), [field]: many })), field);
  }
  const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, { ...clear(a), dropItems: '1:2,7010:x' });
  t.regex('reason' in e ? e.reason : '', /entry 2 \("7010:x"\)/);
});

test('complete: a clear rank outside 1 … maxClearRank is 102 naming clearRank, and the reason gives the range', (t) => {
  const a = orderIn(t, readyWithWeapon().s);
  for (const clearRank of [0, cfg.maxClearRank + 1]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, clearOf(a, { clearRank }));
    t.like(e, { field: 'clearRank' });
    t.regex(reasonOf(e), new RegExp(`\\b1 and ${cfg.maxClearRank}\\b`));
  }
});

test('complete: more skillExps entries than skillEntriesMax is 102, and the reason gives the most', (t) => {
  const a = orderIn(t, readyWithWeapon().s);
  const skillExps = Array.from({ length: cfg.skillEntriesMax + 1 }, (_, i) => `${i + 1}:1`).join(',');
  const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, clearOf(a, { skillExps }));
  t.like(e, { field: 'skillExps' });
  t.regex(reasonOf(e), new RegExp(`\\b${cfg.skillEntriesMax}\\b`));
});

test('complete: each use count at useCountMax is taken; one over is 102 naming its own field and the most', (t) => {
  const a = orderIn(t, readyWithWeapon().s);
  for (const field of ['uniqueSkillUseNum', 'masterSkillUseNum', 'friendUseNum']) {
    ok(t, 'completePlayerQuestLog', a, clearOf(a, { [field]: cfg.useCountMax }));
    const e = fails(t, 'INVALID_PARAMETERS', 'completePlayerQuestLog', a, clearOf(a, { [field]: cfg.useCountMax + 1 }));
    t.like(e, { field }, field);
    t.regex(reasonOf(e), new RegExp(`\\b${cfg.useCountMax}\\b`));
  }
});
