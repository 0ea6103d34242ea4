// Master data of an older shape still loads: what a later version added to it (a
// field, a whole file) has its default here, filled in before the files are checked,
// as decodeState fills the fields a player gained later (core/state.ts groupDefaults).
// Only what is absent is filled: a file or field that is there but wrong is refused as
// ever, named by its file and field. The files as read, not as filled, are what the
// master hash covers and a snapshot keeps (adapters/master/load.ts), so a snapshot
// written by older code still reads back under its hash. docs/replay.md lists them.
import type { OriginalConfig } from './original.js';
import type { LoginBonusConfig } from './loginBonus.js';

/**
 * original.json for master data written before issue 21: no app platform and no age
 * bracket (version/get and age/set refuse every code until the operator lists them),
 * weekly missions reset on Monday, stamina restores at the bundled fixtures' numbers.
 */
export const ORIGINAL_DEFAULT: OriginalConfig = {
  app: { abVer: 1, minAbVer: 1, platforms: [] },
  missions: { weeklyResetWeekday: 1 },
  stamina: { gemPrice: 50, perRequestMax: 10, ceiling: 999 },
  ageBrackets: [],
};

/** loginBonus.json for master data written before issue 32: no calendar, so log-ins give and track nothing (as before). */
export const LOGIN_BONUS_DEFAULT: LoginBonusConfig = { consecutive: [], total: [] };

/** Master files added after the first release, with the content a directory without them gets. */
export const FILE_DEFAULTS: Readonly<Record<string, unknown>> = {
  /** Issue 21. */
  original: ORIGINAL_DEFAULT,
  /** Issue 21: no missions, no chapters, no adv scenes. */
  missions: [],
  questChapters: [],
  advScenes: [],
  /** Issue 32. */
  loginBonus: LOGIN_BONUS_DEFAULT,
};

/** One addition to master data, as `filled` reports it. */
export interface Filled {
  readonly file: string;
  readonly field: string;
  readonly how: string;
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === 'object' && u !== null && !Array.isArray(u);

/**
 * Fields added to files that existed before, each filling its own file's content
 * (never changed in place: the files as read stay as they were). Returns the content
 * unchanged when nothing was absent.
 */
const FIELD_DEFAULTS: ReadonlyArray<{
  readonly file: string;
  readonly field: string;
  readonly how: string;
  readonly fill: (content: unknown) => unknown;
}> = [
  {
    // Issue 21: the tutorial's last step finishes it. Before, maxStep was the highest step
    // accepted (none finished it; only -1 did): the same range of steps is accepted now,
    // and recording the last of them also finishes the tutorial.
    file: 'game',
    field: 'tutorial.lastStep',
    how: 'tutorial.maxStep',
    fill: (game) => {
      if (!isRecord(game) || !isRecord(game['tutorial'])) return game;
      const { maxStep, ...tutorial } = game['tutorial'];
      if ('lastStep' in tutorial || maxStep === undefined) return game;
      return { ...game, tutorial: { ...tutorial, lastStep: maxStep } };
    },
  },
  {
    // Issue 18: maxFailures wrong passwords make a move code rest (before, they voided it).
    // The bundled fixtures' rest.
    file: 'game',
    field: 'move.restMinutes',
    how: '15',
    fill: (game) => {
      if (!isRecord(game) || !isRecord(game['move']) || 'restMinutes' in game['move']) return game;
      return { ...game, move: { ...game['move'], restMinutes: 15 } };
    },
  },
  {
    // Issue 18: the present box's bound (before, none), the bundled fixtures' one.
    file: 'game',
    field: 'presents.boxMax',
    how: '1000',
    fill: (game) => {
      if (!isRecord(game) || !isRecord(game['presents']) || 'boxMax' in game['presents']) return game;
      return { ...game, presents: { ...game['presents'], boxMax: 1000 } };
    },
  },
  {
    // Issue 18: the moved-from uuids kept (before, every one), the bundled fixtures' number.
    file: 'game',
    field: 'move.movedFromKeep',
    how: '10',
    fill: (game) => {
      if (!isRecord(game) || !isRecord(game['move']) || 'movedFromKeep' in game['move']) return game;
      return { ...game, move: { ...game['move'], movedFromKeep: 10 } };
    },
  },
  {
    // Issue 18: the draw records kept at most (before, every one of historyDays), the bundled fixtures' number.
    file: 'game',
    field: 'gacha.historyMax',
    how: '3000',
    fill: (game) => {
      if (!isRecord(game) || !isRecord(game['gacha']) || 'historyMax' in game['gacha']) return game;
      return { ...game, gacha: { ...game['gacha'], historyMax: 3000 } };
    },
  },
  {
    // Issue 21: adv-only quests (cleared by viewing their scene). Before, every quest had a battle.
    file: 'quests',
    field: '*.advOnly',
    how: 'false',
    fill: (quests) => {
      if (!Array.isArray(quests) || !quests.some((q) => isRecord(q) && !('advOnly' in q))) return quests;
      return quests.map((q) => (isRecord(q) && !('advOnly' in q) ? { ...q, advOnly: false } : q));
    },
  },
];

/** Fills one file's absent fields (a part of a folder file is filled as the file). */
export const fillFileDefaults = (name: string, content: unknown): unknown =>
  FIELD_DEFAULTS.reduce((c, d) => (d.file === name ? d.fill(c) : c), content);

/**
 * The master files (file name → parsed JSON) with everything added since they were
 * written filled with its default, and what was filled. A file missing that has no
 * default stays missing (buildMaster reports it).
 */
export const fillMasterDefaults = (
  raw: Readonly<Record<string, unknown>>,
): { files: Record<string, unknown>; filled: ReadonlyArray<Filled> } => {
  const files: Record<string, unknown> = { ...raw };
  const filled: Filled[] = [];
  for (const [name, content] of Object.entries(FILE_DEFAULTS)) {
    if (name in files) continue;
    files[name] = content;
    filled.push({
      file: `${name}.json`,
      field: '(file)',
      how: Array.isArray(content) ? 'an empty list' : 'its default',
    });
  }
  for (const d of FIELD_DEFAULTS) {
    if (!(d.file in files)) continue;
    const before = files[d.file];
    const after = d.fill(before);
    if (after !== before) {
      files[d.file] = after;
      filled.push({ file: `${d.file}.json`, field: d.field, how: d.how });
    }
  }
  return { files, filled };
};
