// Quests and chapters as the player reads them (docs/rules/original.md, Quests, chapters and
// adv scenes): quest/get_all's story quests and the event quests open now (from the first
// instant of the period to the last before its end), each with its own results;
// quest_chapter/get_all (core/operations/app.ts: it needs no session).
import test, { type ExecutionContext } from 'ava';
import { freshPlayer, master, NOW, ok } from '../../_support/core.js';
import { questChapters } from '../../../core/operations/quest.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';

const m = master();
const LANTERN = 2001; // an event quest with a start and an end
const PROLOGUE = 1000; // adv-only, scene 1000000, first clear 50 gems
const PROLOGUE_SCENE = 1000000;
const BATTLE = 1001;

const eventIds = (t: ExecutionContext, now: number): number[] =>
  ok(t, 'getAllPlayerQuest', freshPlayer(), {}, { now }).response.eventQuests.map((q) => q.id);

/** A player who cleared battle quest 1001 once with the given rank. */
const clearedBattle = (t: ExecutionContext, rank: number): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  const s: PlayerState = {
    ...s0,
    nextManagedId: id + 1,
    characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
        : p,
    ),
  };
  const a = ok(t, 'orderPlayerQuestLog', s, { questId: BATTLE, managedBattlePartyId: 1 }).state;
  return ok(t, 'completePlayerQuestLog', a, {
    orderReceiveId: a.activeQuest!.orderReceiveId,
    state: 2,
    clearRank: rank,
  }).state;
};

test('quest/get_all: story quests in quests[], open event quests with their period in eventQuests[], with the best clear rank and advOnly', (t) => {
  const r = ok(t, 'getAllPlayerQuest', freshPlayer(), {}).response;
  t.deepEqual(
    r.quests.map((q) => q.id),
    [1000, 1001, 1002, 1003, 1004, 1005, 1050, 1006, 1007, 1008, 1009, 1010],
  );
  t.deepEqual(r.quests[0], { id: 1000, clearRank: 0, advOnly: true, clearCount: 0 });
  t.deepEqual(
    r.eventQuests.map((q) => q.id),
    [2000, 2001, 2002, 2003],
    'the Lantern Festival is on; the Harvest Moon and Spring Kite are not',
  );
  t.like(r.eventQuests[1], { id: 2001, advOnly: false, startAt: '2026-11-01T00:00:00', endAt: '2027-01-01T00:00:00' });
  const seen = ok(t, 'addPlayerAdv', freshPlayer(), { advId: '1000000' }).state;
  t.like(ok(t, 'getAllPlayerQuest', seen, {}).response.quests[0], { id: 1000, clearRank: 3, clearCount: 1 });
});

test('get_all lists an event quest from the first instant of its period to the last before its end', (t) => {
  const q = m.quest.get(LANTERN)!;
  t.false(eventIds(t, q.startsAt - 1).includes(LANTERN), 'the millisecond before its start');
  t.true(eventIds(t, q.startsAt).includes(LANTERN), 'its start');
  t.true(eventIds(t, q.endsAt! - 1).includes(LANTERN), 'the last millisecond');
  t.false(eventIds(t, q.endsAt!).includes(LANTERN), 'its end is outside the period');
});

test('get_all shows each quest with its own results: a cleared quest does not lend its rank to the others', (t) => {
  const s = ok(t, 'addPlayerAdv', clearedBattle(t, 1), { advId: PROLOGUE_SCENE }).state;
  const quests = ok(t, 'getAllPlayerQuest', s, {}).response.quests;
  t.like(
    quests.find((q) => q.id === PROLOGUE),
    { clearRank: m.social.quest.maxClearRank, clearCount: 1 },
  );
  t.like(
    quests.find((q) => q.id === BATTLE),
    { clearRank: 1, clearCount: 1 },
  );
  t.like(
    quests.find((q) => q.id === 1002),
    { clearRank: 0, clearCount: 0 },
  );
});

test('quest_chapter/get_all is global: story chapters always, event chapters in their period', (t) => {
  const now = questChapters(m, NOW).questChapters;
  t.deepEqual(
    now.map((c) => c.chapterId),
    [1, 2, 101],
  );
  t.deepEqual(now[0], {
    chapterId: 1,
    name: 'Chapter 1: The Mossy Gate',
    questIds: [1000, 1001, 1002, 1003, 1004, 1005],
    startAt: null,
    endAt: null,
  });
  t.like(now[2], { startAt: '2026-11-01T00:00:00', endAt: '2027-01-01T00:00:00' });
  t.deepEqual(
    questChapters(m, Date.UTC(2027, 2, 10)).questChapters.map((c) => c.chapterId),
    [1, 2, 103],
  );
});
