// Behaviour profiles as data (toolkit/profiles.json): who plays how often, how many
// quests, when they draw and what they buy. An io-ts codec reads the file, so a bad
// file is refused with the path of the bad field. The simulation (npm run sim) and
// designers' own properties read the same file.
import * as t from 'io-ts';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Grant } from '../core/master/common.js';
import { requestError } from '../core/codecs.js';

const Chance = new t.Type<number, number, unknown>(
  'Chance',
  (u): u is number => typeof u === 'number' && u >= 0 && u <= 1,
  (u, c) =>
    typeof u === 'number' && u >= 0 && u <= 1 ? t.success(u) : t.failure(u, c, 'must be a number from 0 to 1'),
  (x) => x,
);
const Count = new t.Type<number, number, unknown>(
  'Count',
  (u): u is number => Number.isSafeInteger(u) && (u as number) >= 0,
  (u, c) =>
    Number.isSafeInteger(u) && (u as number) >= 0
      ? t.success(u as number)
      : t.failure(u, c, 'must be a non-negative integer'),
  (x) => x,
);

export const Profile = t.type({
  name: t.string,
  /** Relative weight of the profile in the population. */
  share: Count,
  /** Chance the player plays on a given day. */
  playChance: Chance,
  /** Quests played a day at most (stamina permitting). */
  questsPerDay: Count,
  /** The gacha the player spends gems on. */
  gachaId: Count,
  /** Gems (free and paid) saved before the player starts ten-draws; then draws while a ten-draw is affordable. */
  drawAtGems: Count,
  /** Whether gacha points are exchanged for the gacha's first target when enough. */
  exchangePoints: t.boolean,
  collectFacilities: t.boolean,
  levelUpFacilities: t.boolean,
  training: t.boolean,
  /** Chance a day of sending a friend request to a random player. */
  friendRequestChance: Chance,
  /** Paid gems bought a day played (delivered as a present, as a store would). */
  purchaseGemsPerDay: Count,
});
export type Profile = t.TypeOf<typeof Profile>;

export const SimConfig = t.type({
  /** The first day's log-in time (ISO 8601 with offset). */
  start: t.string,
  /** The operator's present to every player each day (a log-in gift), or null. */
  dailyGift: t.union([Grant, t.null]),
  dailyGiftTitle: t.string,
  /** The facility every player buys first; the training they order. */
  facilityId: Count,
  trainingId: Count,
  profiles: t.array(Profile),
});
export type SimConfig = t.TypeOf<typeof SimConfig>;

export const DEFAULT_CONFIG = fileURLToPath(new URL('./profiles.json', import.meta.url));

export const loadConfig = (path: string = DEFAULT_CONFIG): SimConfig => {
  const d = SimConfig.decode(JSON.parse(readFileSync(path, 'utf8')));
  if (d._tag === 'Left') {
    const e = requestError(d.left);
    throw new Error(`${path}: ${JSON.stringify(e)}`);
  }
  const c = d.right;
  if (Number.isNaN(Date.parse(c.start))) throw new Error(`${path}: start: not an ISO 8601 time`);
  if (c.profiles.length === 0 || c.profiles.every((p) => p.share === 0))
    throw new Error(`${path}: profiles: at least one with a share`);
  return c;
};
