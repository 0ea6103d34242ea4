// What the player sees of achievements (docs/rules/social.md, Achievements): get_all lists
// the unlocked ones with newAchievementCount, shown clears isNew, set chooses the one
// displayed. Refusals name the unknown or locked achievement; choosing the one already
// displayed changes nothing (nothing to commit).
import test from 'ava';
import { fails, freshPlayer, ok, receiveAll, withWealth, master, NOW } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import type { GameError } from '../../../core/errors.js';

const byName = (name: string): number => master().achievements.find((a) => a.name === name)!.achievementId;
const FIRST_WISH = byName('First Wish');
const VETERAN = byName('Veteran');

/** A player who has unlocked (and not yet seen) First Wish. */
const unlockedOne = (): PlayerState => ({
  ...freshPlayer(),
  achievements: [{ achievementId: FIRST_WISH, unlockedAt: NOW, isNew: true }],
});

const unknownId = (): number => Math.max(...master().achievements.map((a) => a.achievementId)) + 1;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('get_all lists unlocked achievements with newAchievementCount; shown clears isNew (named or all)', (t) => {
  const s = ok(t, 'drawPlayerGacha', withWealth(receiveAll(t, freshPlayer()), { gem: 10_000 }), {
    gachaId: 2,
    drawType: 3,
  }).state;
  const n = s.achievements.length;
  t.true(n >= 2);
  t.is(ok(t, 'getAllPlayerAchievement', s, {}).response.newAchievementCount, n);
  const first = s.achievements[0]!.achievementId;
  const one = ok(t, 'shownPlayerAchievement', s, { achievementIds: [first] });
  t.is(one.response.newAchievementCount, n - 1);
  t.false(one.state.achievements[0]!.isNew);
  const all = ok(t, 'shownPlayerAchievement', one.state, {});
  t.is(all.response.newAchievementCount, 0);
  t.is(ok(t, 'getAllPlayerAchievement', all.state, {}).response.newAchievementCount, 0);
  t.is(ok(t, 'shownPlayerAchievement', all.state, {}).state, all.state, 'nothing new: nothing changes');
});

test('shown: an unknown achievement is 107, a locked one 317', (t) => {
  const s = ok(t, 'drawPlayerGacha', withWealth(freshPlayer(), { gem: 10_000 }), { gachaId: 2, drawType: 1 }).state;
  fails(t, 'NOT_FOUND', 'shownPlayerAchievement', s, { achievementIds: [9999] });
  fails(t, 'STATE_CONFLICT', 'shownPlayerAchievement', s, { achievementIds: [byName('Veteran')] });
});

test('set chooses the displayed achievement: it must be unlocked (317), known (107)', (t) => {
  const s = ok(t, 'drawPlayerGacha', withWealth(freshPlayer(), { gem: 10_000 }), { gachaId: 2, drawType: 1 }).state;
  const id = byName('First Wish');
  const r = ok(t, 'setPlayerAchievement', s, { achievementId: id });
  t.is(r.state.displayedAchievementId, id);
  t.is(r.response.displayedAchievementId, id);
  fails(t, 'STATE_CONFLICT', 'setPlayerAchievement', s, { achievementId: byName('Veteran') });
  fails(t, 'NOT_FOUND', 'setPlayerAchievement', s, { achievementId: 9999 });
});

test('set: an unknown achievement is 107 naming the entity "achievement" and the id asked for', (t) => {
  const id = unknownId();
  t.like(fails(t, 'NOT_FOUND', 'setPlayerAchievement', unlockedOne(), { achievementId: id }), {
    entity: 'achievement',
    id,
  });
  t.like(fails(t, 'NOT_FOUND', 'shownPlayerAchievement', unlockedOne(), { achievementIds: [FIRST_WISH, id] }), {
    entity: 'achievement',
    id,
  });
});

test('set: a known but locked achievement is 317, and the reason names that achievement', (t) => {
  const e = fails(t, 'STATE_CONFLICT', 'setPlayerAchievement', unlockedOne(), { achievementId: VETERAN });
  t.regex(reasonOf(e), new RegExp(`\\b${VETERAN}\\b`));
  t.regex(reasonOf(e), /not unlocked/);
  const shown = fails(t, 'STATE_CONFLICT', 'shownPlayerAchievement', unlockedOne(), { achievementIds: [VETERAN] });
  t.regex(reasonOf(shown), new RegExp(`\\b${VETERAN}\\b`));
});

test('set: choosing the achievement already displayed answers it and changes nothing (no new version to commit)', (t) => {
  const first = ok(t, 'setPlayerAchievement', unlockedOne(), { achievementId: FIRST_WISH });
  t.true(first.changed);
  t.is(first.state.displayedAchievementId, FIRST_WISH);
  const again = ok(t, 'setPlayerAchievement', first.state, { achievementId: FIRST_WISH });
  t.is(again.response.displayedAchievementId, FIRST_WISH);
  t.false(again.changed, 'nothing to commit');
  t.is(again.state, first.state, 'the very same state, version included');
});
