// Achievements unlocking (docs/rules/social.md, Achievements): conditions read from master
// data and checked on the state after an operation (a draw, a friendship, a facility's
// level-up); each achievement unlocks once, new, and nothing new leaves the state as it is.
import test from 'ava';
import { freshPlayer, master, NOW, ok, withWealth } from '../../_support/core.js';
import type { Master } from '../../../core/master/index.js';
import type { PlayerState } from '../../../core/state.js';
import { conditionMet, unlockAchievements } from '../../../core/hooks.js';
import { newCharacter } from '../../../core/shared/grant.js';

const idsOf = (s: PlayerState) => s.achievements.map((a) => a.achievementId).sort((a, b) => a - b);
const byName = (name: string) => master().achievements.find((a) => a.name === name)!.achievementId;

test('a gacha draw unlocks the draw and character achievements, new, and the response reports newAchievementCount', (t) => {
  const s = withWealth(freshPlayer(), { gem: 10_000 });
  t.deepEqual(s.achievements, []);
  const r = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 });
  t.true(idsOf(r.state).includes(byName('First Wish')));
  t.true(idsOf(r.state).includes(byName('First Companion')));
  t.true(r.state.achievements.every((a) => a.isNew && a.unlockedAt === NOW));
  t.is(r.response.newAchievementCount, r.state.achievements.length);
  t.truthy(r.response.achievements);
});

test('the engine unlocks each achievement once and leaves the state as it is when nothing is new', (t) => {
  const m = master();
  const s = withWealth(freshPlayer(), { gem: 10_000 });
  const a = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }).state;
  const b = ok(t, 'drawPlayerGacha', a, { gachaId: 2, drawType: 1 }, { seed: 'x' }).state;
  t.is(b.achievements.filter((x) => x.achievementId === byName('First Wish')).length, 1);
  t.is(unlockAchievements(b, b, NOW, m), b);
});

test('conditions are read from master data: changing a threshold changes what unlocks', (t) => {
  const base = master();
  const s = withWealth(freshPlayer(), { gem: 10_000 });
  const m: Master = {
    ...base,
    achievements: base.achievements.map((a) =>
      a.name === 'First Wish' ? { ...a, condition: { kind: 'counter', counter: 'gachaDraws', atLeast: 2 } } : a,
    ),
  };
  const one = ok(t, 'drawPlayerGacha', s, { gachaId: 2, drawType: 1 }, { m }).state;
  t.false(idsOf(one).includes(byName('First Wish')));
  const two = ok(t, 'drawPlayerGacha', one, { gachaId: 2, drawType: 1 }, { m, seed: 'y' }).state;
  t.true(idsOf(two).includes(byName('First Wish')));
});

test('every condition kind is checked on the state', (t) => {
  const s = freshPlayer();
  const c = (condition: Parameters<typeof conditionMet>[0], x: PlayerState) => conditionMet(condition, x, NOW);
  t.false(c({ kind: 'charactersOwned', atLeast: 1 }, s));
  t.true(c({ kind: 'charactersOwned', atLeast: 1 }, { ...s, characters: [newCharacter(1, 1011, NOW)] }));
  t.false(
    c({ kind: 'friends', atLeast: 1 }, { ...s, friends: [{ playerId: 9, state: 'proposed', since: NOW, name: 'x' }] }),
  );
  t.true(
    c({ kind: 'friends', atLeast: 1 }, { ...s, friends: [{ playerId: 9, state: 'friend', since: NOW, name: 'x' }] }),
  );
  t.true(c({ kind: 'playerLevel', atLeast: 10 }, { ...s, level: 10 }));
  t.false(c({ kind: 'playerLevel', atLeast: 10 }, { ...s, level: 9 }));
  t.true(
    c(
      { kind: 'facilityLevel', atLeast: 5 },
      {
        ...s,
        facilities: [
          {
            managedTownFacilityId: 1,
            facilityId: 1,
            level: 5,
            covered: false,
            createdAt: NOW,
            levelUp: null,
            accruedAt: NOW,
            stock: 0,
            carry: 0,
          },
        ],
      },
    ),
  );
  t.false(c({ kind: 'facilityLevel', atLeast: 5 }, s));
  t.true(
    c(
      { kind: 'questCleared', questId: 1010 },
      {
        ...s,
        questRecords: [
          {
            questId: 1010,
            clears: 1,
            failures: 0,
            bestClearRank: 1,
            firstClearedAt: NOW,
            lastPlayedAt: NOW,
            skillUse: null,
          },
        ],
      },
    ),
  );
  t.false(
    c(
      { kind: 'questCleared', questId: 1010 },
      {
        ...s,
        questRecords: [
          {
            questId: 1010,
            clears: 0,
            failures: 2,
            bestClearRank: 0,
            firstClearedAt: null,
            lastPlayedAt: NOW,
            skillUse: null,
          },
        ],
      },
    ),
  );
  t.true(c({ kind: 'counter', counter: 'chestDraws', atLeast: 3 }, { ...s, counters: { chestDraws: 3 } }));
});

test('a friendship unlocks the friend achievement for both players', (t) => {
  const a = freshPlayer({ playerId: 1 });
  const b = freshPlayer({ playerId: 2, seed: 'b' });
  const p = ok(t, 'proposePlayerFriend', a, { playerId: 2 }, { others: [b] });
  const f = ok(t, 'acceptPlayerFriend', p.others[0] as PlayerState, { playerId: 1 }, { others: [p.state] });
  const id = byName('A Friend Indeed');
  t.true(idsOf(f.state).includes(id));
  t.true(idsOf(f.others[0] as PlayerState).includes(id));
});

test('a facility level-up whose time has passed counts for achievements at the next operation, untouched', (t) => {
  const facility = {
    managedTownFacilityId: 900,
    facilityId: 1,
    level: 4,
    covered: false,
    createdAt: NOW,
    levelUp: { startedAt: NOW, completesAt: NOW + 1000 },
    accruedAt: NOW,
    stock: 0,
    carry: 0,
  };
  const s: PlayerState = { ...freshPlayer(), facilities: [facility] };
  const cond = { kind: 'facilityLevel' as const, atLeast: 5 };
  t.false(conditionMet(cond, s, NOW + 999));
  t.true(conditionMet(cond, s, NOW + 1000));
  // Any operation (here a tip) after the timer unlocks it.
  const r = ok(t, 'addPlayerTutorialTip', s, { tipId: 1 }, { now: NOW + 5000 });
  const builder = master().achievements.find((a) => a.condition.kind === 'facilityLevel' && a.condition.atLeast <= 5);
  t.truthy(builder);
  t.true(r.state.achievements.some((a) => a.achievementId === builder!.achievementId && a.isNew));
});
