// Missions and their progress (docs/rules/original.md, Missions): mission/get_all lists the
// daily, weekly and event missions in the original's shape and in id order; progress comes
// from the player's actions in the period, never from the client (mission/set's upload is
// ignored); periods reset in game-local time, an event mission is offered from the first
// instant of its period to the last before its end and its log is dropped after it; the
// missions hook keeps the state when no period begins.
import test, { type ExecutionContext } from 'ava';
import { fails, freshPlayer, master, NOW, ok, receiveAll, withWealth } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { newCharacter } from '../../../core/shared/grant.js';
import { HOUR, MINUTE, dayIndex } from '../../../core/time.js';
import {
  dayStart,
  managedMissionIdOf,
  settledLogs,
  missionOpen,
  settleMissions,
} from '../../../core/shared/missions.js';
import { type Master, buildMaster } from '../../../core/master/index.js';
import { masterSourceOf } from '../../../adapters/master/load.js';

const m = master();
/** NOW is Saturday 2026-11-21 12:00 in the game's zone (+09:00); game days begin at 04:00, weeks on Monday. */
const DAY_NOW = dayIndex(NOW, m.game.timezoneOffsetMinutes, m.game.dayResetHour);
const NEXT_DAY = dayStart(m, DAY_NOW + 1);
const NEXT_WEEK = NOW + 40 * HOUR;

const daily = (missionId: number, day = DAY_NOW) => managedMissionIdOf(missionId, day);
const DRAW = 2; // daily: draw a gacha (target 1, item 2002 ×3)
const CLEAR3 = 1; // daily: clear 3 quests
const STAMINA30 = 3; // daily: spend 30 stamina
const DAILIES = 102; // weekly: claim 10 daily missions
const LANTERN = 201; // event: 2026-11-01T00:00:00 to 2027-01-01T00:00:00, game-local time

/** A game-local wall-clock time (the zone of master data's periods) as an instant. */
const local = (y: number, mo: number, d: number): number =>
  Date.UTC(y, mo - 1, d) - m.game.timezoneOffsetMinutes * MINUTE;
const LANTERN_START = local(2026, 11, 1);
const LANTERN_END = local(2027, 1, 1);

const logsOf = (t: ExecutionContext, s: PlayerState, now = NOW, mm: Master = m) =>
  ok(t, 'getAllPlayerMission', s, {}, { now, m: mm }).response.missionLogs;
const logOf = (t: ExecutionContext, s: PlayerState, missionId: number, now = NOW) =>
  logsOf(t, s, now).find((l) => l.missionId === missionId);
const rich = (t: ExecutionContext): PlayerState => withWealth(receiveAll(t, freshPlayer()), { gem: 100_000 });
const drawOnce = (t: ExecutionContext, s: PlayerState, now = NOW): PlayerState =>
  ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { now, seed: `d${now}` }).state;

/** A player with one character in battle party 1, ready to order quests. */
const questReady = (): PlayerState => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  return {
    ...s0,
    nextManagedId: id + 1,
    characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
        : p,
    ),
  };
};
const clearQuest = (t: ExecutionContext, s: PlayerState, now: number): PlayerState => {
  const ordered = ok(t, 'orderPlayerQuestLog', s, { questId: 1001, managedBattlePartyId: 1 }, { now }).state;
  return ok(
    t,
    'completePlayerQuestLog',
    ordered,
    { orderReceiveId: ordered.activeQuest!.orderReceiveId, state: 2, clearRank: 3 },
    { now },
  ).state;
};

/** The bundled missions listed backwards, with daily mission 3 renumbered 150 (above the weekly ones). */
const shuffled = (): Master => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown>;
  const missions = (raw['missions'] as Array<Record<string, unknown>>).map((x) =>
    x['missionId'] === STAMINA30 ? { ...x, missionId: 150 } : x,
  );
  raw['missions'] = missions.reverse();
  const built = buildMaster(raw);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.master;
};

test("mission/get_all lists the daily, weekly and open event missions in the original's shape, all at 0 for a new player", (t) => {
  const logs = logsOf(t, freshPlayer());
  t.deepEqual(
    logs.map((l) => l.missionId),
    [1, 2, 3, 101, 102, 103, 201, 202],
    'an ended event (291) is not offered',
  );
  t.deepEqual(
    logs.find((l) => l.missionId === DRAW),
    {
      managedMissionId: daily(DRAW),
      missionId: DRAW,
      subCode: 2,
      rate: 0,
      rateMax: 1,
      state: 0,
      reward: { kind: 'item', objectId: 2002, amount: 3 },
      limitTime: '2026-11-22T04:00:00',
      category: 'daily',
      name: 'Draw a gacha',
      startAt: '2026-11-21T04:00:00',
      claimedAt: null,
    },
  );
  t.like(
    logs.find((l) => l.missionId === DAILIES),
    { category: 'weekly', startAt: '2026-11-16T04:00:00', limitTime: '2026-11-23T04:00:00' },
  );
  t.like(
    logs.find((l) => l.missionId === LANTERN),
    {
      category: 'event',
      managedMissionId: LANTERN * 1_000_000,
      startAt: '2026-11-01T00:00:00',
      limitTime: '2027-01-01T00:00:00',
    },
  );
});

test('mission/get_all lists daily, then weekly, then event missions, each by id, whatever order master data lists them in', (t) => {
  const mm = shuffled();
  t.deepEqual(
    mm.missions.map((x) => x.missionId),
    [291, 202, 201, 103, 102, 101, 150, 2, 1],
    'master data lists them backwards',
  );
  const s = freshPlayer({ m: mm });
  const logs = logsOf(t, s, NOW, mm);
  t.deepEqual(
    logs.map((l) => [l.category, l.missionId]),
    [
      ['daily', 1],
      ['daily', 2],
      ['daily', 150],
      ['weekly', 101],
      ['weekly', 102],
      ['weekly', 103],
      ['event', 201],
      ['event', 202],
    ],
  );
});

test('the stored mission logs are kept by mission id, whatever order master data lists the missions in', (t) => {
  const mm = shuffled();
  const s = receiveAll(t, freshPlayer({ m: mm }), { m: mm });
  t.deepEqual(
    s.missionLogs.map((l) => l.missionId),
    [1, 2, 101, 102, 103, 150, 201, 202],
  );
});

// ---- progress ----

test("progress is computed from the player's actions in the period (a gacha draw), never from the client; achieved missions show state 1", (t) => {
  const s = drawOnce(t, rich(t));
  t.like(logOf(t, s, DRAW), { rate: 1, state: 1 });
  t.like(logOf(t, s, LANTERN), { rate: 0, state: 0 });
  // The original's upload is accepted and its numbers ignored.
  const set = ok(t, 'setPlayerMission', s, { managedMissionId: daily(CLEAR3), missionId: CLEAR3, rate: 3, state: 1 });
  t.is(set.state, s, 'nothing changed');
  t.like(
    set.response.missionLogs.find((l) => l.missionId === CLEAR3),
    { rate: 0, state: 0 },
  );
  t.deepEqual(set.response.missionLogs, logsOf(t, s));
  t.like(logOf(t, s, CLEAR3), { rate: 0 });
  fails(t, 'NOT_FOUND', 'setPlayerMission', s, { managedMissionId: daily(CLEAR3, DAY_NOW - 1), rate: 3 });
  t.is(ok(t, 'setPlayerMission', s, {}).response.missionLogs.length, 8);
});

test('set: a managedMissionId not listed now is 107 naming the entity "mission" and the id sent', (t) => {
  const yesterday = managedMissionIdOf(DRAW, DAY_NOW - 1);
  t.like(fails(t, 'NOT_FOUND', 'setPlayerMission', freshPlayer(), { managedMissionId: yesterday }), {
    entity: 'mission',
    id: yesterday,
  });
});

test('quest clears and the stamina they cost count for their missions; progress stops at rateMax', (t) => {
  const s0 = freshPlayer();
  const id = s0.nextManagedId;
  let s: PlayerState = {
    ...s0,
    nextManagedId: id + 1,
    characters: [newCharacter(id, 1011, NOW)],
    battleParties: s0.battleParties.map((p) =>
      p.managedBattlePartyId === 1
        ? { ...p, slots: p.slots.map((x, i) => (i === 0 ? { managedCharacterId: id, managedWeaponId: null } : x)) }
        : p,
    ),
  };
  for (let i = 0; i < 4; i++) {
    s = ok(t, 'orderPlayerQuestLog', s, { questId: 1001, managedBattlePartyId: 1 }).state;
    s = ok(t, 'completePlayerQuestLog', s, {
      orderReceiveId: s.activeQuest!.orderReceiveId,
      state: 2,
      clearRank: 3,
    }).state;
  }
  t.like(logOf(t, s, CLEAR3), { rate: 3, rateMax: 3, state: 1 }, 'four clears, capped at three');
  t.like(logOf(t, s, STAMINA30), { rate: 20, rateMax: 30, state: 0 }, 'four orders of 5 stamina');
  t.is(s.counters['staminaSpent'], 20);
});

// ---- periods ----

test('an event mission is offered from the first instant of its period, not a millisecond before', (t) => {
  const s = freshPlayer();
  t.false(
    logsOf(t, s, LANTERN_START - 1).some((l) => l.missionId === LANTERN),
    'the millisecond before its start',
  );
  t.like(logOf(t, s, LANTERN, LANTERN_START), {
    startAt: '2026-11-01T00:00:00',
    limitTime: '2027-01-01T00:00:00',
    rate: 0,
  });
  const ms = m.mission.get(LANTERN)!;
  t.false(missionOpen(ms, LANTERN_START - 1));
  t.true(missionOpen(ms, LANTERN_START));
});

test('an event mission is offered up to the last millisecond before its end, and no longer at the end', (t) => {
  const s = freshPlayer();
  t.like(
    logOf(t, s, LANTERN, LANTERN_END - 1),
    { limitTime: '2027-01-01T00:00:00' },
    'the last millisecond of the event',
  );
  t.false(
    logsOf(t, s, LANTERN_END).some((l) => l.missionId === LANTERN),
    'the end is outside the period',
  );
  const ms = m.mission.get(LANTERN)!;
  t.true(missionOpen(ms, LANTERN_END - 1));
  t.false(missionOpen(ms, LANTERN_END));
});

test("daily missions reset at the game day's reset hour (04:00 local): a new id, progress from 0, and only the new day's actions count", (t) => {
  const s = drawOnce(t, rich(t));
  t.like(
    logOf(t, s, DRAW, NEXT_DAY - 1),
    { managedMissionId: daily(DRAW), state: 1 },
    '03:59:59.999 is still the same game day',
  );
  t.like(logOf(t, s, DRAW, NEXT_DAY), {
    managedMissionId: daily(DRAW, DAY_NOW + 1),
    rate: 0,
    state: 0,
    startAt: '2026-11-22T04:00:00',
    limitTime: '2026-11-23T04:00:00',
  });
  const next = drawOnce(t, s, NEXT_DAY + HOUR);
  t.like(logOf(t, next, DRAW, NEXT_DAY + HOUR), { rate: 1, state: 1 }, 'one draw today, not the two in all');
  t.is(next.counters['gachaDraws'], 2);
  ok(t, 'completePlayerMission', next, { managedMissionId: daily(DRAW, DAY_NOW + 1) }, { now: NEXT_DAY + HOUR });
});

test('weekly missions reset on the configured weekday (Monday 04:00 local); event missions run through their period and are dropped after it', (t) => {
  let s = drawOnce(t, rich(t));
  s = ok(t, 'completePlayerMission', s, { managedMissionId: daily(DRAW) }).state;
  t.like(logOf(t, s, DAILIES, NEXT_WEEK - 1), { rate: 1 });
  t.like(logOf(t, s, DAILIES, NEXT_WEEK), {
    rate: 0,
    startAt: '2026-11-23T04:00:00',
    limitTime: '2026-11-30T04:00:00',
  });
  const afterEvent = Date.UTC(2027, 0, 2);
  t.false(
    logsOf(t, s, afterEvent).some((l) => l.category === 'event'),
    'no event runs on 2027-01-02',
  );
  t.true(s.missionLogs.some((l) => l.missionId === LANTERN));
  const later = drawOnce(t, s, afterEvent);
  t.false(
    later.missionLogs.some((l) => l.missionId === LANTERN),
    "an ended event's log is dropped at the next change",
  );
});

test("actions before a daily reset never count after it: yesterday's quest clears are not today's", (t) => {
  let s = questReady();
  s = clearQuest(t, s, NOW);
  s = clearQuest(t, s, NOW + MINUTE);
  t.like(logOf(t, s, CLEAR3), { rate: 2, state: 0 }, 'two clears today, one short of the target');
  t.like(logOf(t, s, STAMINA30), { rate: 10 });
  const later = NEXT_DAY + HOUR;
  s = clearQuest(t, s, later);
  t.is(s.counters['questClears'], 3, 'three clears in all');
  t.like(logOf(t, s, CLEAR3, later), { rate: 1, rateMax: 3, state: 0 }, 'one clear in the new game day');
  t.like(logOf(t, s, STAMINA30, later), { rate: 5, state: 0 }, "one order's stamina in the new game day");
});

test('when an event ends, its log is dropped at the next change and the other missions keep their progress', (t) => {
  const s = rich(t);
  t.true(
    s.missionLogs.some((l) => l.missionId === LANTERN),
    'the event runs now',
  );
  const afterEvent = LANTERN_END + HOUR;
  const next = drawOnce(t, s, afterEvent);
  t.deepEqual(
    next.missionLogs.map((l) => l.missionId),
    [1, 2, 3, 101, 102, 103],
    "every offered mission keeps its log; only the ended event's goes",
  );
  t.like(
    logOf(t, next, DRAW, afterEvent),
    { rate: 1, state: 1 },
    "the draw made as the event ended counts for today's mission",
  );
});

test('the missions hook keeps the state when no period begins, and takes the base from the state before the operation', (t) => {
  const s = drawOnce(t, rich(t));
  t.is(settledLogs(m, s, s.missionLogs, NOW + MINUTE), s.missionLogs);
  const fresh = settledLogs(m, s, s.missionLogs, NEXT_DAY);
  t.is(fresh.find((l) => l.missionId === DRAW)?.base, s.counters['gachaDraws']);
  t.is(
    fresh.find((l) => l.missionId === DAILIES),
    s.missionLogs.find((l) => l.missionId === DAILIES),
    'the week goes on',
  );
});

test('the missions hook gives back the very state when no period begins (nothing new, nothing to write)', (t) => {
  const s = drawOnce(t, rich(t));
  const after = { ...s, gold: s.gold + 1 };
  t.is(settleMissions(s, after, NOW + MINUTE, m), after);
  const nextDay = settleMissions(s, after, NEXT_DAY, m);
  t.not(nextDay, after, 'a new game day starts the daily missions anew');
  t.is(nextDay.gold, after.gold);
});
