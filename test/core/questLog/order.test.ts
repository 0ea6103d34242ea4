// Ordering a quest and the active quest (docs/rules/social.md, Quest log): order pays
// stamina and stores the one active quest; the quest, its type, its period and the party are
// checked, each refusal naming what is wrong; save keeps the wave state, retry pays gems up
// to the quest's maximum, reset discards the quest with no refund.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, withWealth } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';
import { DAY, MINUTE } from '../../../core/time.js';
import type { GameError } from '../../../core/errors.js';
import type { Master } from '../../../core/master/index.js';

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

/** The state with party 1's first slot set as given. */
const slot0 = (s: PlayerState, managedCharacterId: number | null, managedWeaponId: number | null): PlayerState => ({
  ...s,
  battleParties: s.battleParties.map((p) =>
    p.managedBattlePartyId === 1
      ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId, managedWeaponId } : x)) }
      : p,
  ),
});

const orderIn = (t: ExecutionContext, s: PlayerState, questId = STORY, now = NOW, mm: Master = m): PlayerState =>
  ok(t, 'orderPlayerQuestLog', s, { questId, managedBattlePartyId: 1 }, { now, m: mm }).state;

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
  fails(
    t,
    'QUEST_OUT_OF_PERIOD',
    'orderPlayerQuestLog',
    s,
    { questId: EVENT, managedBattlePartyId: 1 },
    { now: NOW + 60 * DAY },
  );
  fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', s, {
    questId: STORY,
    managedBattlePartyId: 1,
    supportCharacterId: 424242,
  });
  ok(t, 'orderPlayerQuestLog', s, { questId: EVENT, managedBattlePartyId: 1, supportCharacterId: 1011 });
});

test('order: an empty party is 102, a party id outside 1-15 is 102, a character or weapon no longer owned is 107', (t) => {
  const s = ready();
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 2 });
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 16 });
  fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', { ...s, characters: [] }, { questId: STORY, managedBattlePartyId: 1 });
  const soldWeapon = s.battleParties.map((p) =>
    p.managedBattlePartyId === 1
      ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { ...x, managedWeaponId: 999 } : x)) }
      : p,
  );
  fails(
    t,
    'NOT_FOUND',
    'orderPlayerQuestLog',
    { ...s, battleParties: soldWeapon },
    { questId: STORY, managedBattlePartyId: 1 },
  );
});

test('order: questData over the configured size is 102; at the size it is kept as given', (t) => {
  const max = master().social.quest.questDataMaxLength;
  fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', ready(), {
    questId: STORY,
    managedBattlePartyId: 1,
    questData: 'x'.repeat(max + 1),
  });
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
  fails(
    t,
    'STAMINA_IS_SHORT',
    'orderPlayerQuestLog',
    s,
    { questId: STORY, managedBattlePartyId: 1 },
    { now: NOW + 2 * regen },
  );
  ok(t, 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: 1 }, { now: NOW + 3 * regen });
});

test('order: supportCharacterId -1 (the original\'s "none"), 0 or absent is no support; below -1 is 102', (t) => {
  const s = ready();
  for (const none of [-1, '-1', 0])
    t.is(order(t, s, STORY, { supportCharacterId: none }).state.activeQuest?.supportCharacterId, null);
  const { supportCharacterId: _x, ...bare } = {
    type: 1,
    questId: STORY,
    managedBattlePartyId: 1,
    supportCharacterId: 0,
  };
  t.is(ok(t, 'orderPlayerQuestLog', s, bare).state.activeQuest?.supportCharacterId, null);
  t.is(order(t, s, STORY, { supportCharacterId: 1011 }).state.activeQuest?.supportCharacterId, 1011);
  t.is(
    fieldOf(
      fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, {
        questId: STORY,
        managedBattlePartyId: 1,
        supportCharacterId: -2,
      }),
    ),
    'supportCharacterId',
  );
});

test('order: managedBattlePartyId -1 (no party) is understood and refused, 102 naming the field; nothing changes', (t) => {
  const s = ready();
  for (const none of [-1, 0]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, {
      questId: STORY,
      managedBattlePartyId: none,
      supportCharacterId: -1,
    });
    t.is(fieldOf(e), 'managedBattlePartyId');
    t.regex('reason' in e ? e.reason : '', /needs a battle party/);
  }
  t.is(
    fieldOf(fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', s, { questId: STORY, managedBattlePartyId: -2 })),
    'managedBattlePartyId',
  );
});

test('order: an unknown quest is 107 naming the entity "quest" and the id', (t) => {
  t.like(
    fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', readyWithWeapon().s, { questId: 9999, managedBattlePartyId: 1 }),
    { entity: 'quest', id: 9999 },
  );
});

test('order: an event quest is ordered from the first instant of its period to the last before its end; outside is 461 naming the quest', (t) => {
  const q = m.quest.get(EVENT)!;
  const { s } = readyWithWeapon();
  const req = { questId: EVENT, managedBattlePartyId: 1 };
  t.like(fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, req, { now: q.startsAt - 1 }), { questId: EVENT });
  t.is(ok(t, 'orderPlayerQuestLog', s, req, { now: q.startsAt }).state.activeQuest?.questId, EVENT);
  t.is(ok(t, 'orderPlayerQuestLog', s, req, { now: q.endsAt! - 1 }).state.activeQuest?.questId, EVENT);
  t.like(fails(t, 'QUEST_OUT_OF_PERIOD', 'orderPlayerQuestLog', s, req, { now: q.endsAt! }), { questId: EVENT });
});

test("order: a type other than the quest's is 102 naming type, and the reason gives the quest's type", (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', readyWithWeapon().s, {
    type: 2,
    questId: STORY,
    managedBattlePartyId: 1,
  });
  t.like(e, { field: 'type' });
  t.regex(reasonOf(e), new RegExp(`\\b${STORY}\\b.*type ${m.quest.get(STORY)!.type}\\b`));
});

test('order: questData null (as KiraraFantasia-Bot sends it) is no questData', (t) => {
  t.is(order(t, ready(), STORY, { questData: null }).state.activeQuest?.questData, '');
});

test('order: with a quest active it is 466, and the reason names the active order', (t) => {
  const a = orderIn(t, readyWithWeapon().s);
  const e = fails(t, 'QUEST_ORDER_LIMIT', 'orderPlayerQuestLog', a, { questId: STORY2, managedBattlePartyId: 1 });
  t.regex(reasonOf(e), new RegExp(`\\b${a.activeQuest!.orderReceiveId}\\b`));
});

test('order: questData left out is stored empty; over the configured size it is 102 naming questData and the size (save too)', (t) => {
  const a = orderIn(t, readyWithWeapon().s);
  t.is(a.activeQuest?.questData, '');
  const over = 'x'.repeat(cfg.questDataMaxLength + 1);
  for (const e of [
    fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', readyWithWeapon().s, {
      questId: STORY,
      managedBattlePartyId: 1,
      questData: over,
    }),
    fails(t, 'INVALID_PARAMETERS', 'savePlayerQuestLog', a, {
      orderReceiveId: a.activeQuest!.orderReceiveId,
      questData: over,
    }),
  ]) {
    t.like(e, { field: 'questData' });
    t.regex(reasonOf(e), new RegExp(`\\b${cfg.questDataMaxLength}\\b`));
  }
});

test('order: a party without a character is 102 naming managedBattlePartyId and saying it has none', (t) => {
  const e = fails(t, 'INVALID_PARAMETERS', 'orderPlayerQuestLog', readyWithWeapon().s, {
    questId: STORY,
    managedBattlePartyId: 2,
  });
  t.like(e, { field: 'managedBattlePartyId' });
  t.regex(reasonOf(e), /no character/);
});

test('order: a party character the player does not own is 107 naming it, though the player owns others', (t) => {
  const { s, c1, c2 } = readyWithWeapon();
  const gone = { ...s, characters: s.characters.filter((c) => c.managedCharacterId !== c1) };
  t.deepEqual(
    gone.characters.map((c) => c.managedCharacterId),
    [c2],
    'another character is still owned',
  );
  t.like(fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', gone, { questId: STORY, managedBattlePartyId: 1 }), {
    entity: 'character',
    id: c1,
  });
});

test('order: an owned weapon in the party is taken; a weapon the player does not own is 107 naming it, though the player owns others', (t) => {
  const { s, c1, w } = readyWithWeapon();
  const armed = slot0(s, c1, w);
  t.is(orderIn(t, armed).activeQuest?.questId, STORY);
  t.like(
    fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', slot0(s, c1, w + 100), { questId: STORY, managedBattlePartyId: 1 }),
    { entity: 'weapon', id: w + 100 },
  );
});

test('order: an unknown support character is 107 naming the entity "character" and the id', (t) => {
  t.like(
    fails(t, 'NOT_FOUND', 'orderPlayerQuestLog', readyWithWeapon().s, {
      questId: STORY,
      managedBattlePartyId: 1,
      supportCharacterId: 424242,
    }),
    { entity: 'character', id: 424242 },
  );
});

// ---- save, retry and reset ----

test('save stores the wave state; another or no orderReceiveId is 107; oversize questData 102', (t) => {
  const a = order(t, ready()).state;
  const r = ok(t, 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'wave:2' }, { now: NOW + MINUTE });
  t.is(r.state.activeQuest?.questData, 'wave:2');
  t.is(r.state.activeQuest?.saves, 1);
  fails(t, 'NOT_FOUND', 'savePlayerQuestLog', a, { orderReceiveId: idOf(a) + 1, questData: 'x' });
  fails(t, 'NOT_FOUND', 'savePlayerQuestLog', ready(), { orderReceiveId: 1, questData: 'x' });
  fails(t, 'INVALID_PARAMETERS', 'savePlayerQuestLog', a, {
    orderReceiveId: idOf(a),
    questData: 'x'.repeat(master().social.quest.questDataMaxLength + 1),
  });
});

test('save takes the battle lists too (checked, not kept): the same state as without them', (t) => {
  const a = order(t, ready()).state;
  const lists = { skillExps: '1:2', dropItems: '7010:99', killedEnemies: '', weaponSkillExps: '3:1' };
  const withLists = ok(t, 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'wave:1', ...lists });
  const without = ok(t, 'savePlayerQuestLog', a, { orderReceiveId: idOf(a), questData: 'wave:1' });
  t.deepEqual(JSON.stringify(withLists.state), JSON.stringify(without.state));
  t.deepEqual(withLists.response, { ...without.response });
});

test("retry pays gems up to the quest's maximum, then 465; short of gems 445; another order 107", (t) => {
  const q = master().quest.get(STORY)!;
  let s = withWealth(order(t, ready()).state, { gem: q.retry.gem * q.retry.max });
  for (let i = 0; i < q.retry.max; i++) s = ok(t, 'retryPlayerQuestLog', s, { orderReceiveId: idOf(s) }).state;
  t.is(s.gem, 0);
  t.is(s.activeQuest?.retries, q.retry.max);
  fails(t, 'QUEST_RETRY_LIMIT', 'retryPlayerQuestLog', withWealth(s, { gem: 1000 }), { orderReceiveId: idOf(s) });
  const fresh = order(t, ready()).state;
  fails(t, 'GEM_IS_SHORT', 'retryPlayerQuestLog', withWealth(fresh, { gem: q.retry.gem - 1 }), {
    orderReceiveId: idOf(fresh),
  });
  fails(t, 'NOT_FOUND', 'retryPlayerQuestLog', withWealth(fresh, { gem: 1000 }), { orderReceiveId: idOf(fresh) + 7 });
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

test('save, retry, complete and reset: an orderReceiveId that is not the active quest\'s is 107 naming the entity "quest order" and the id', (t) => {
  const a = orderIn(t, readyWithWeapon().s);
  const wrong = a.activeQuest!.orderReceiveId + 1;
  const expected = { entity: 'quest order', id: wrong };
  t.like(fails(t, 'NOT_FOUND', 'savePlayerQuestLog', a, { orderReceiveId: wrong, questData: 'w' }), expected);
  t.like(fails(t, 'NOT_FOUND', 'retryPlayerQuestLog', a, { orderReceiveId: wrong }), expected);
  t.like(fails(t, 'NOT_FOUND', 'completePlayerQuestLog', a, { orderReceiveId: wrong, state: 1 }), expected);
  t.like(fails(t, 'NOT_FOUND', 'resetPlayerQuestLog', a, { orderReceiveId: wrong }), expected);
});

test('reset with no quest in progress is 317 saying so', (t) => {
  t.regex(reasonOf(fails(t, 'STATE_CONFLICT', 'resetPlayerQuestLog', readyWithWeapon().s, {})), /no quest/);
});
