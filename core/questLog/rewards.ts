// What a quest's clear gives (complete, core/operations/questLog.ts): the drops rolled on
// the server, the rewards and the first-clear reward granted, and the experience.
import type { Master } from '../master/index.js';
import type { Grant } from '../master/common.js';
import type { QuestIndexed } from '../master/social.js';
import type { PlayerState } from '../state.js';
import { pickWeighted, type Rng } from '../rng.js';
import { ok, type Result } from '../shared/result.js';
import { addPlayerExp } from '../shared/player.js';
import { grantAll, type GrantOutcome } from '../shared/grant.js';
import { addCharacterExp } from '../shared/growth.js';
import type { RewardView } from '../views/codecs.js';

const grantView = (o: GrantOutcome): RewardView => ({
  kind: o.grant.kind,
  objectId: o.grant.objectId,
  amount: o.grant.amount,
  managedPresentId: o.managedPresentId,
});

/**
 * Gives a clear's rewards: the drops, the gold, the first-clear reward when `firstClear`
 * (what did not fit goes to the present box), the player's experience and that of the
 * party's characters. Answers the state and what the drops and the first-clear reward became.
 */
export const grantClearRewards = (
  m: Master,
  s: PlayerState,
  q: QuestIndexed,
  firstClear: boolean,
  party: ReadonlyArray<number>,
  rng: Rng,
  now: number,
): Result<{ state: PlayerState; drops: RewardView[]; firstClearRewards: RewardView[] }, 'NOT_FOUND'> => {
  // Drops: rolled here from the quest's table; nothing in the request names a reward.
  const rolled: Grant[] = [];
  for (let i = 0; i < q.drops.rolls; i++) {
    const e = pickWeighted(rng, q.drops.table);
    if (e.grant) rolled.push(e.grant);
  }
  const base: Grant[] = q.rewards.gold > 0 ? [{ kind: 'gold', objectId: 0, amount: q.rewards.gold }] : [];
  const first = firstClear ? q.firstClear : [];
  const meta = {
    title: q.name,
    message: 'A quest reward that did not fit in your storage.',
    source: 'reward',
    deadline: null,
  };
  const granted = grantAll(m, s, [...base, ...rolled, ...first], now, meta);
  if (granted._tag === 'Left') return granted;
  let next = addPlayerExp(m, granted.right.state, q.rewards.playerExp, now);
  if (q.rewards.characterExp > 0) {
    const members = new Set(party);
    next = {
      ...next,
      characters: next.characters.map((c) =>
        members.has(c.managedCharacterId) ? addCharacterExp(m, c, q.rewards.characterExp) : c,
      ),
    };
  }
  const outcomes = granted.right.outcomes;
  return ok({
    state: next,
    drops: outcomes.slice(base.length, base.length + rolled.length).map(grantView),
    firstClearRewards: outcomes.slice(base.length + rolled.length).map(grantView),
  });
};
