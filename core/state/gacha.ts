// What a re-draw gacha's kept result granted (issue 33): the result is owned at once and
// stays replaceable until the player moves on; a re-roll takes back exactly this.
import * as t from 'io-ts';

const num = t.number;

export const KeptGrant = t.type({
  /** Characters the result created (removed by a re-roll). */
  managedCharacterIds: t.array(num),
  /** Limit-break items its duplicates added, by item id (taken back by a re-roll). */
  items: t.array(t.type({ itemId: num, amount: num })),
  /** Characters owned before the result whose awakening its duplicates raised, with the awakening before. */
  awakened: t.array(t.type({ managedCharacterId: num, awakening: num })),
  /** What did not fit in storage: the presents it made or added to, and how many it put in each. */
  presents: t.array(t.type({ managedPresentId: num, amount: num })),
  /** Re-rolls made so far (0: the draw itself). A change to the player that leaves it as it was closes the result. */
  rolls: num,
});
export type KeptGrant = t.TypeOf<typeof KeptGrant>;
