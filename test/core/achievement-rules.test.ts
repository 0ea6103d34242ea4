// Achievement rules at their edges (docs/rules/social.md, Achievements): what a
// refusal of an unknown or a locked achievement names, and that choosing the
// achievement already displayed changes nothing (nothing to commit).
import test from 'ava';
import { fails, freshPlayer, master, NOW, ok } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';
import type { GameError } from '../../core/errors.js';

const byName = (name: string): number => master().achievements.find((a) => a.name === name)!.achievementId;
const FIRST_WISH = byName('First Wish');
const VETERAN = byName('Veteran');

/** A player who has unlocked (and not yet seen) First Wish. */
const unlockedOne = (): PlayerState => ({ ...freshPlayer(), achievements: [{ achievementId: FIRST_WISH, unlockedAt: NOW, isNew: true }] });

const unknownId = (): number => Math.max(...master().achievements.map((a) => a.achievementId)) + 1;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

test('set: an unknown achievement is 107 naming the entity "achievement" and the id asked for', (t) => {
  const id = unknownId();
  t.like(fails(t, 'NOT_FOUND', 'setPlayerAchievement', unlockedOne(), { achievementId: id }), { entity: 'achievement', id });
  t.like(fails(t, 'NOT_FOUND', 'shownPlayerAchievement', unlockedOne(), { achievementIds: [FIRST_WISH, id] }), { entity: 'achievement', id });
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
