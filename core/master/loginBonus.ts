// Master data of the daily log-in bonus (issue 32): the calendar of rewards the first
// log-in of each game day puts in the gift box. Two tracks, as the original game had: a
// cycle of consecutive days (a missed game day starts it again at day 1) and milestones
// of total log-in days. The game day is game.json's (timezoneOffsetMinutes, dayResetHour).
import * as t from 'io-ts';
import type { baseFiles } from './base.js';
import type { progressionFiles } from './progression.js';
import type { townFiles } from './town.js';
import { Grant, LongText, Name, PosInt, type FilesOf, type MasterProblem } from './common.js';

/** A reward: a present the bonus puts in the gift box, with its title and message (welcome.json's shape). */
export const BonusPresent = t.intersection([
  t.type({ grant: Grant, title: Name, message: LongText }),
  /** Days the present may wait in the box; absent: no deadline. */
  t.partial({ deadlineDays: PosInt }),
]);
export type BonusPresent = t.TypeOf<typeof BonusPresent>;

/** A day of the consecutive cycle: days run 1, 2, 3… in order. */
export const BonusDay = t.type({ day: PosInt, rewards: t.array(BonusPresent) });
export type BonusDay = t.TypeOf<typeof BonusDay>;

/** A milestone of total log-in days: given when the total reaches `days`, then every `repeatEvery` days (null: once). */
export const BonusMilestone = t.type({
  days: PosInt,
  repeatEvery: t.union([PosInt, t.null]),
  rewards: t.array(BonusPresent),
});
export type BonusMilestone = t.TypeOf<typeof BonusMilestone>;

/** Both tracks empty: no log-in bonus, and nothing is tracked (master data written before issue 32). */
export const LoginBonusConfig = t.type({ consecutive: t.array(BonusDay), total: t.array(BonusMilestone) });
export type LoginBonusConfig = t.TypeOf<typeof LoginBonusConfig>;

export const loginBonusFiles = { loginBonus: LoginBonusConfig };

/** Checks loginBonus.json against the other files, pushing each problem with its field. */
export const checkLoginBonus = (
  f: FilesOf<typeof baseFiles & typeof progressionFiles & typeof townFiles & typeof loginBonusFiles>,
  problems: MasterProblem[],
): void => {
  const at = (field: string, message: string) => problems.push({ file: 'loginBonus.json', field, message });
  const items = new Set(f.items.map((x) => x.itemId));
  const characters = new Set(f.characters.map((x) => x.characterId));
  const weapons = new Set(f.weapons.map((x) => x.weaponId));
  const facilities = new Set(f.facilities.map((x) => x.facilityId));
  const roomObjects = new Set(f.roomObjects.map((x) => x.roomObjectId));
  const known: Record<Grant['kind'], (id: number) => boolean> = {
    item: (id) => items.has(id),
    character: (id) => characters.has(id),
    weapon: (id) => weapons.has(id),
    townFacility: (id) => facilities.has(id),
    roomObject: (id) => roomObjects.has(id),
    gold: (id) => id === 0,
    gem: (id) => id === 0,
    paidGem: (id) => id === 0,
    kirara: (id) => id === 0,
  };
  const rewards = (field: string, rs: ReadonlyArray<BonusPresent>) => {
    // An entry without a reward is a mistake in the file, not a day to skip.
    if (rs.length === 0) at(field, 'at least one reward');
    rs.forEach((r, k) => {
      if (!known[r.grant.kind](r.grant.objectId))
        at(`${field}.${k}.grant.objectId`, `no ${r.grant.kind} ${r.grant.objectId}`);
    });
  };
  const cfg = f.loginBonus;
  cfg.consecutive.forEach((d, i) => {
    if (d.day !== i + 1) at(`consecutive.${i}.day`, `days must run 1, 2, 3…; expected ${i + 1}`);
    rewards(`consecutive.${i}.rewards`, d.rewards);
  });
  cfg.total.forEach((ms, i) => {
    const prev = cfg.total[i - 1];
    if (prev && ms.days <= prev.days) at(`total.${i}.days`, 'milestones must be listed by days, each once');
    rewards(`total.${i}.rewards`, ms.rewards);
  });
};
