// Master data of the endpoints the original game's clients call first (issue 21):
// app versions per platform and the asset-bundle version, daily, weekly and event
// missions, quest chapters, adv (story) scenes, stamina restores and the age
// brackets with their monthly paid-gem limits. Every number of those operations
// lives here, never in code.
import * as t from 'io-ts';
import type { baseFiles } from './base.js';
import type { progressionFiles } from './progression.js';
import type { townFiles } from './town.js';
import type { socialFiles } from './social.js';
import { Grant, Name, NonNegInt, Period, PosInt, type FilesOf, type MasterProblem } from './common.js';
import { IntRange } from '../codecs.js';
import { parseTime } from '../time.js';
import { COUNTER_NAMES } from '../shared/counters.js';

/** An app version as the clients send it: 1 to 4 dot-separated integers ("1.0.3"). */
export const VERSION_PATTERN = /^\d{1,6}(\.\d{1,6}){0,3}$/;
export const VersionText = t.refinement(t.string, (s) => VERSION_PATTERN.test(s), 'VersionText');

/** Compares two versions number by number ("1.10" is newer than "1.9"; "1.0" equals "1.0.0"). */
export const compareVersions = (a: string, b: string): number => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
};

export const AppPlatform = t.type({
  /** The platform code the clients send: 1 iOS, 2 Android. */
  platform: PosInt,
  name: Name,
  /** Older versions are refused (result code 1 OUTDATED). */
  minVersion: VersionText,
  /** The newest release, shown to clients. */
  latestVersion: VersionText,
  /** Where an outdated client is sent to update. */
  storeUrl: t.string,
});
export type AppPlatform = t.TypeOf<typeof AppPlatform>;

export const AgeBracket = t.type({
  /** The code the clients send in age/set. */
  age: PosInt,
  name: Name,
  /** Ages in the bracket: minAge … maxAge (null: no upper bound). */
  minAge: NonNegInt,
  maxAge: t.union([NonNegInt, t.null]),
  /** Paid gems the player may buy in a calendar month of the game's time zone; null: no limit. */
  monthlyPaidGemLimit: t.union([PosInt, t.null]),
});
export type AgeBracket = t.TypeOf<typeof AgeBracket>;

export const OriginalConfig = t.type({
  app: t.type({
    /** The asset-bundle version version/get answers (abVer); clients send it back as X-STAR-AB. */
    abVer: PosInt,
    /** Asset bundles older than this are refused (result code 30 OUTDATED_AB_VERSION). */
    minAbVer: PosInt,
    platforms: t.array(AppPlatform),
  }),
  missions: t.type({
    /** The weekday weekly missions reset on (0 Sunday … 6 Saturday), at the game day's reset hour. */
    weeklyResetWeekday: IntRange(0, 6),
  }),
  stamina: t.type({
    /** Gems one restore with gems costs (free gems first); it restores the current stamina maximum. */
    gemPrice: PosInt,
    /** The most restores (gems) or items one request may use. */
    perRequestMax: PosInt,
    /** Stamina may pass its maximum through restores, up to this ceiling (311 past it). */
    ceiling: PosInt,
  }),
  /** The age brackets, youngest first. */
  ageBrackets: t.array(AgeBracket),
});
export type OriginalConfig = t.TypeOf<typeof OriginalConfig>;

export const MissionCategory = t.keyof({ daily: null, weekly: null, event: null });
export type MissionCategory = t.TypeOf<typeof MissionCategory>;

export const Mission = t.type({
  missionId: IntRange(1, 999999),
  name: Name,
  /** daily missions reset each game day, weekly ones each game week; event missions run through their period. */
  category: MissionCategory,
  /** What the mission counts, as a number the client can group by (the original's subCode). */
  subCode: PosInt,
  /** The player counter whose growth within the period is the mission's progress (core/shared/counters.ts). */
  counter: Name,
  /** The progress that achieves the mission (rateMax). */
  target: PosInt,
  reward: Grant,
  /** When the mission is offered; required for event missions (with an end); null: always. */
  period: t.union([Period, t.null]),
});
export type Mission = t.TypeOf<typeof Mission>;

export const QuestChapter = t.type({
  chapterId: PosInt,
  name: Name,
  /** When the chapter is shown; null: always (story chapters). */
  period: t.union([Period, t.null]),
  /** Its quests, in the order they are played. */
  questIds: t.array(PosInt),
});
export type QuestChapter = t.TypeOf<typeof QuestChapter>;

export const AdvScene = t.type({
  /** The id the clients send in adv/add (as a string: "1000000"). */
  advId: PosInt,
  name: Name,
  /** The adv-only quest this scene is, cleared by viewing it; null for a scene of its own. */
  questId: t.union([PosInt, t.null]),
});
export type AdvScene = t.TypeOf<typeof AdvScene>;

export const originalFiles = {
  original: OriginalConfig,
  missions: t.array(Mission),
  questChapters: t.array(QuestChapter),
  advScenes: t.array(AdvScene),
};

export interface MissionIndexed extends Mission {
  readonly startsAt: number | null;
  readonly endsAt: number | null;
}
export interface ChapterIndexed extends QuestChapter {
  readonly startsAt: number | null;
  readonly endsAt: number | null;
}

/** Indexes and cross-checks of this group's files, built once at start-up (merged into Master). */
export const indexOriginal = (
  f: FilesOf<typeof baseFiles & typeof progressionFiles & typeof townFiles & typeof socialFiles & typeof originalFiles>,
  problems: MasterProblem[],
) => {
  const offset = f.game.timezoneOffsetMinutes;
  const at = (file: string, field: string, message: string) => problems.push({ file, field, message });
  const period = (file: string, field: string, p: { start: string; end: string | null } | null) => {
    if (p === null) return { startsAt: null, endsAt: null };
    const startsAt = parseTime(p.start, offset);
    const endsAt = p.end === null ? null : parseTime(p.end, offset);
    if (startsAt === undefined) at(file, `${field}.start`, 'not a valid time');
    if (endsAt === undefined) at(file, `${field}.end`, 'not a valid time');
    return { startsAt: startsAt ?? 0, endsAt: endsAt ?? null };
  };
  const items = new Map(f.items.map((x) => [x.itemId, x]));
  const quests = new Map(f.quests.map((q) => [q.questId, q]));
  const known: Record<Grant['kind'], (id: number) => boolean> = {
    item: (id) => items.has(id),
    character: (id) => f.characters.some((c) => c.characterId === id),
    weapon: (id) => f.weapons.some((w) => w.weaponId === id),
    townFacility: (id) => f.facilities.some((x) => x.facilityId === id),
    roomObject: (id) => f.roomObjects.some((x) => x.roomObjectId === id),
    gold: (id) => id === 0,
    gem: (id) => id === 0,
    paidGem: (id) => id === 0,
    kirara: (id) => id === 0,
  };

  const cfg = f.original;
  const platforms = new Map<number, AppPlatform>();
  cfg.app.platforms.forEach((p, i) => {
    if (platforms.has(p.platform))
      at('original.json', `app.platforms.${i}.platform`, `duplicate platform ${p.platform}`);
    if (compareVersions(p.minVersion, p.latestVersion) > 0)
      at('original.json', `app.platforms.${i}.minVersion`, 'newer than latestVersion');
    platforms.set(p.platform, p);
  });
  if (cfg.app.minAbVer > cfg.app.abVer) at('original.json', 'app.minAbVer', 'greater than abVer');
  const ageBracket = new Map<number, AgeBracket>();
  cfg.ageBrackets.forEach((b, i) => {
    if (ageBracket.has(b.age)) at('original.json', `ageBrackets.${i}.age`, `duplicate bracket ${b.age}`);
    if (b.maxAge !== null && b.maxAge < b.minAge) at('original.json', `ageBrackets.${i}.maxAge`, 'below minAge');
    const prev = cfg.ageBrackets[i - 1];
    if (prev && (prev.maxAge === null || b.minAge !== prev.maxAge + 1))
      at('original.json', `ageBrackets.${i}.minAge`, 'brackets must follow each other, youngest first');
    ageBracket.set(b.age, b);
  });
  f.items.forEach((it, i) => {
    if (it.category === 'stamina' && it.staminaPercent === undefined)
      at('items.json', `${i}.staminaPercent`, 'a stamina item needs staminaPercent');
  });

  const mission = new Map<number, MissionIndexed>();
  f.missions.forEach((ms, i) => {
    const file = 'missions.json';
    if (mission.has(ms.missionId)) at(file, `${i}.missionId`, `duplicate id ${ms.missionId}`);
    if (!(COUNTER_NAMES as ReadonlyArray<string>).includes(ms.counter))
      at(file, `${i}.counter`, `unknown counter ${ms.counter} (core/shared/counters.ts COUNTER_NAMES)`);
    if (!known[ms.reward.kind](ms.reward.objectId))
      at(file, `${i}.reward.objectId`, `no ${ms.reward.kind} ${ms.reward.objectId}`);
    if (ms.category === 'event' && (ms.period === null || ms.period.end === null))
      at(file, `${i}.period`, 'an event mission needs a period with an end');
    mission.set(ms.missionId, { ...ms, ...period(file, `${i}.period`, ms.period) });
  });

  const chapter = new Map<number, ChapterIndexed>();
  const inChapter = new Set<number>();
  f.questChapters.forEach((c, i) => {
    const file = 'questChapters.json';
    if (chapter.has(c.chapterId)) at(file, `${i}.chapterId`, `duplicate id ${c.chapterId}`);
    c.questIds.forEach((q, j) => {
      if (!quests.has(q)) at(file, `${i}.questIds.${j}`, `unknown quest ${q}`);
      if (inChapter.has(q)) at(file, `${i}.questIds.${j}`, `quest ${q} is already in a chapter`);
      inChapter.add(q);
    });
    chapter.set(c.chapterId, { ...c, ...period(file, `${i}.period`, c.period) });
  });

  const advScene = new Map<number, AdvScene>();
  const advOfQuest = new Map<number, number>();
  f.advScenes.forEach((a, i) => {
    const file = 'advScenes.json';
    if (advScene.has(a.advId)) at(file, `${i}.advId`, `duplicate id ${a.advId}`);
    if (a.questId !== null) {
      const q = quests.get(a.questId);
      if (!q) at(file, `${i}.questId`, `unknown quest ${a.questId}`);
      else if (!q.advOnly) at(file, `${i}.questId`, `quest ${a.questId} is not adv-only`);
      if (advOfQuest.has(a.questId)) at(file, `${i}.questId`, `quest ${a.questId} already has a scene`);
      advOfQuest.set(a.questId, a.advId);
    }
    advScene.set(a.advId, a);
  });
  f.quests.forEach((q, i) => {
    if (q.advOnly && !advOfQuest.has(q.questId))
      at('quests.json', `${i}.advOnly`, `adv-only quest ${q.questId} has no scene in advScenes.json`);
  });

  return { platform: platforms, ageBracket, mission, chapter, advScene, advOfQuest } as {
    platform: ReadonlyMap<number, AppPlatform>;
    ageBracket: ReadonlyMap<number, AgeBracket>;
    mission: ReadonlyMap<number, MissionIndexed>;
    chapter: ReadonlyMap<number, ChapterIndexed>;
    advScene: ReadonlyMap<number, AdvScene>;
    /** The scene of each adv-only quest. */
    advOfQuest: ReadonlyMap<number, number>;
  };
};
