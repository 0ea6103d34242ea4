// Master data of the progression group: character levels and evolutions, weapons
// (exp tables, recipes, evolutions, each character's own weapon), ability trees and
// spheres, trainings and trade recipes, and the group's tunable numbers.
import * as t from 'io-ts';
import type { baseFiles } from './base.js';
import {
  Cost,
  Grant,
  ItemAmount,
  Name,
  NonNegInt,
  Period,
  PosInt,
  type FilesOf,
  type MasterProblem,
} from './common.js';
import { parseTime } from '../time.js';

/** Coins per item used in an upgrade: level (before the item) × perLevel + base. */
export const UpgradeGold = t.type({ perLevel: NonNegInt, base: NonNegInt });
export type UpgradeGold = t.TypeOf<typeof UpgradeGold>;

export const Weapon = t.type({
  weaponId: PosInt,
  name: Name,
  classId: PosInt,
  rarity: PosInt,
  salePrice: NonNegInt,
  /** For a character's own weapon, that character; otherwise null. */
  characterId: t.union([PosInt, t.null]),
  maxLevel: PosInt,
  /** The exp table (weaponExpTables.json) its levels follow. */
  expTableId: PosInt,
  /** What `make` costs; null: cannot be made (own weapons, evolved forms). */
  recipe: t.union([Cost, t.null]),
  /** What it evolves into at its maximum level, and what that costs; null: no evolution. */
  evolution: t.union([t.type({ weaponId: PosInt, cost: Cost }), t.null]),
});
export type Weapon = t.TypeOf<typeof Weapon>;

/** Total exp needed for each level: totalExp[0] is level 1 (0). */
export const WeaponExpTable = t.type({ expTableId: PosInt, totalExp: t.array(NonNegInt) });
export type WeaponExpTable = t.TypeOf<typeof WeaponExpTable>;

export const CharacterLevel = t.type({ level: PosInt, totalExp: NonNegInt });
export type CharacterLevel = t.TypeOf<typeof CharacterLevel>;

export const CharacterEvolution = t.type({ characterId: PosInt, cost: Cost });
export type CharacterEvolution = t.TypeOf<typeof CharacterEvolution>;

export const AbilityTree = t.type({
  characterId: PosInt,
  /** Any one of these unlocks the tree (the request names which). */
  releaseItems: t.array(ItemAmount),
  slots: t.array(t.type({ slotNo: PosInt, cost: Cost })),
});
export type AbilityTree = t.TypeOf<typeof AbilityTree>;

/** A fruit item (sphere) that goes into an ability slot, and how it levels. */
export const Sphere = t.type({
  itemId: PosInt,
  /** Total exp for each level: totalExp[0] is level 1 (0); its length is the maximum level. */
  totalExp: t.array(NonNegInt),
  /** Items that feed it, and the exp each gives. */
  materials: t.array(t.type({ itemId: PosInt, exp: PosInt })),
  /** Coins per material item used. */
  goldPerItem: NonNegInt,
});
export type Sphere = t.TypeOf<typeof Sphere>;

export const Training = t.type({
  trainingId: PosInt,
  name: Name,
  /** Player level needed to order it. */
  minPlayerLevel: PosInt,
  durationMinutes: PosInt,
  /** Exactly this many characters take part. */
  characterCount: PosInt,
  /** When set, every character must be of this class. */
  classId: t.union([PosInt, t.null]),
  cost: Cost,
  rewards: t.array(Grant),
  expPerCharacter: NonNegInt,
});
export type Training = t.TypeOf<typeof Training>;

export const TradeRecipe = t.type({
  recipeId: PosInt,
  name: Name,
  kind: t.keyof({ constant: null, event: null }),
  /** Event recipes open in their period; constant ones have none (null). */
  period: t.union([Period, t.null]),
  /** What one trade pays (items and coins). */
  source: Cost,
  /** What one trade gives. */
  result: Grant,
  /** Trades allowed (a count of n uses n), in all or per game day; null: unlimited. */
  limit: t.union([t.type({ max: PosInt, per: t.keyof({ total: null, day: null }) }), t.null]),
  /** The most trades one request may make. */
  maxCount: PosInt,
});
export type TradeRecipe = t.TypeOf<typeof TradeRecipe>;

export const ProgressionConfig = t.type({
  character: t.type({
    upgradeGold: UpgradeGold,
    /** Exp of an exp item, in percent, when its element is the character's. */
    elementBonusPercent: PosInt,
  }),
  support: t.type({ parties: PosInt, size: PosInt, nameMaxLength: PosInt }),
  weapon: t.type({
    upgradeGold: UpgradeGold,
    /** Items that give weapon exp. */
    expItems: t.array(t.type({ itemId: PosInt, exp: PosInt })),
    /** Character level needed to receive the character's own weapon. */
    receiveLevel: PosInt,
    /** The most weapons one sale may name. */
    saleMax: PosInt,
  }),
  training: t.type({ slots: t.array(t.type({ slotId: PosInt, openLevel: PosInt })) }),
});
export type ProgressionConfig = t.TypeOf<typeof ProgressionConfig>;

export const progressionFiles = {
  progression: ProgressionConfig,
  characterLevels: t.array(CharacterLevel),
  characterEvolutions: t.array(CharacterEvolution),
  weapons: t.array(Weapon),
  weaponExpTables: t.array(WeaponExpTable),
  abilityTrees: t.array(AbilityTree),
  spheres: t.array(Sphere),
  trainings: t.array(Training),
  tradeRecipes: t.array(TradeRecipe),
};

/** A trade recipe with its period parsed to instants (null: always open). */
export interface TradeRecipeIndexed extends TradeRecipe {
  readonly startsAt: number | null;
  readonly endsAt: number | null;
}

const byId = <T>(
  rows: ReadonlyArray<T>,
  key: (r: T) => number,
  file: string,
  field: string,
  problems: MasterProblem[],
): Map<number, T> => {
  const m = new Map<number, T>();
  rows.forEach((r, i) => {
    const id = key(r);
    if (m.has(id)) problems.push({ file, field: `${i}.${field}`, message: `duplicate id ${id}` });
    m.set(id, r);
  });
  return m;
};

const increasing = (xs: ReadonlyArray<number>): boolean =>
  xs.every((x, i) => (i === 0 ? x === 0 : x > (xs[i - 1] ?? 0)));

/**
 * Indexes and cross-checks of this group's files, built once at start-up. Push a
 * problem (file, field, message) for anything that does not fit; the result is
 * merged into Master.
 */
export const indexProgression = (f: FilesOf<typeof baseFiles & typeof progressionFiles>, problems: MasterProblem[]) => {
  const items = new Map(f.items.map((x) => [x.itemId, x]));
  const characters = new Map(f.characters.map((x) => [x.characterId, x]));
  const classIds = new Set(f.classes.map((x) => x.classId));
  const weapons = new Map(f.weapons.map((x) => [x.weaponId, x]));
  const at = (file: string) => (field: string, message: string) => problems.push({ file, field, message });
  const checkItems = (
    say: (field: string, message: string) => void,
    field: string,
    list: ReadonlyArray<{ itemId: number }>,
  ) =>
    list.forEach((x, j) => {
      if (!items.has(x.itemId)) say(`${field}.${j}.itemId`, `unknown item ${x.itemId}`);
    });
  const checkCost = (say: (field: string, message: string) => void, field: string, c: Cost) =>
    checkItems(say, `${field}.items`, c.items ?? []);
  const checkGrant = (say: (field: string, message: string) => void, field: string, g: Grant) => {
    const exists =
      g.kind === 'item'
        ? items.has(g.objectId)
        : g.kind === 'character'
          ? characters.has(g.objectId)
          : g.kind === 'weapon'
            ? weapons.has(g.objectId)
            : g.kind === 'roomObject' || g.kind === 'townFacility'
              ? true
              : g.objectId === 0;
    if (!exists) say(`${field}.objectId`, `no ${g.kind} ${g.objectId}`);
  };

  // Character levels: 1, 2, 3… with growing exp, reaching every rarity's final cap.
  const cl = at('characterLevels.json');
  f.characterLevels.forEach((l, i) => {
    if (l.level !== i + 1) cl(`${i}.level`, `levels must run 1, 2, 3…; expected ${i + 1}`);
    if (i === 0 ? l.totalExp !== 0 : l.totalExp <= (f.characterLevels[i - 1]?.totalExp ?? 0))
      cl(`${i}.totalExp`, 'must start at 0 and grow with the level');
  });
  f.rarities.forEach((r) => {
    const top = r.baseLevelCap + r.maxLimitBreak * r.limitBreakStep + r.evolutionBonus;
    if (top > f.characterLevels.length)
      cl('(file)', `rarity ${r.rarity} reaches level ${top}, the table ends at ${f.characterLevels.length}`);
  });

  const characterEvolution = byId(
    f.characterEvolutions,
    (x) => x.characterId,
    'characterEvolutions.json',
    'characterId',
    problems,
  );
  f.characterEvolutions.forEach((e, i) => {
    const say = (field: string, message: string) =>
      problems.push({ file: 'characterEvolutions.json', field: `${i}.${field}`, message });
    if (!characters.has(e.characterId)) say('characterId', `unknown character ${e.characterId}`);
    checkCost(say, 'cost', e.cost);
  });

  const weaponExpTable = byId(f.weaponExpTables, (x) => x.expTableId, 'weaponExpTables.json', 'expTableId', problems);
  f.weaponExpTables.forEach((x, i) => {
    if (!increasing(x.totalExp))
      problems.push({ file: 'weaponExpTables.json', field: `${i}.totalExp`, message: 'must start at 0 and grow' });
  });

  const ownWeapon = new Map<number, number>();
  f.weapons.forEach((w, i) => {
    const say = (field: string, message: string) =>
      problems.push({ file: 'weapons.json', field: `${i}.${field}`, message });
    const table = weaponExpTable.get(w.expTableId);
    if (!table) say('expTableId', `unknown exp table ${w.expTableId}`);
    else if (table.totalExp.length < w.maxLevel)
      say('maxLevel', `exp table ${w.expTableId} has only ${table.totalExp.length} levels`);
    if (w.recipe) checkCost(say, 'recipe', w.recipe);
    if (w.evolution) {
      const to = weapons.get(w.evolution.weaponId);
      if (!to) say('evolution.weaponId', `unknown weapon ${w.evolution.weaponId}`);
      else if (
        to.classId !== w.classId ||
        to.characterId !== w.characterId ||
        to.maxLevel < w.maxLevel ||
        to.expTableId !== w.expTableId
      ) {
        say(
          'evolution.weaponId',
          'the evolved form must keep class, owner and exp table, and not lower the maximum level',
        );
      }
      checkCost(say, 'evolution.cost', w.evolution.cost);
    }
    // The own weapon a character receives is the one that is not an evolved form.
    if (w.characterId !== null && !f.weapons.some((x) => x.evolution?.weaponId === w.weaponId)) {
      if (ownWeapon.has(w.characterId)) say('characterId', `character ${w.characterId} has two own weapons`);
      ownWeapon.set(w.characterId, w.weaponId);
    }
    if (!classIds.has(w.classId)) say('classId', `unknown class ${w.classId}`);
  });

  const cfg = f.progression;
  const pc = at('progression.json');
  const weaponExpItem = new Map<number, number>();
  cfg.weapon.expItems.forEach((x, j) => {
    if (!items.has(x.itemId)) pc(`weapon.expItems.${j}.itemId`, `unknown item ${x.itemId}`);
    weaponExpItem.set(x.itemId, x.exp);
  });
  if (new Set(cfg.training.slots.map((x) => x.slotId)).size !== cfg.training.slots.length)
    pc('training.slots', 'repeats a slotId');

  const abilityTree = byId(f.abilityTrees, (x) => x.characterId, 'abilityTrees.json', 'characterId', problems);
  f.abilityTrees.forEach((a, i) => {
    const say = (field: string, message: string) =>
      problems.push({ file: 'abilityTrees.json', field: `${i}.${field}`, message });
    if (!characters.has(a.characterId)) say('characterId', `unknown character ${a.characterId}`);
    if (a.releaseItems.length === 0) say('releaseItems', 'needs at least one item');
    checkItems(say, 'releaseItems', a.releaseItems);
    a.slots.forEach((s, j) => checkCost(say, `slots.${j}.cost`, s.cost));
    if (new Set(a.slots.map((s) => s.slotNo)).size !== a.slots.length) say('slots', 'repeats a slotNo');
  });

  const sphere = byId(f.spheres, (x) => x.itemId, 'spheres.json', 'itemId', problems);
  f.spheres.forEach((s, i) => {
    const say = (field: string, message: string) =>
      problems.push({ file: 'spheres.json', field: `${i}.${field}`, message });
    if (items.get(s.itemId)?.category !== 'sphere') say('itemId', `item ${s.itemId} is not a sphere item`);
    if (s.totalExp.length === 0 || !increasing(s.totalExp)) say('totalExp', 'must start at 0 and grow');
    checkItems(say, 'materials', s.materials);
  });

  const training = byId(f.trainings, (x) => x.trainingId, 'trainings.json', 'trainingId', problems);
  f.trainings.forEach((x, i) => {
    const say = (field: string, message: string) =>
      problems.push({ file: 'trainings.json', field: `${i}.${field}`, message });
    if (x.classId !== null && !classIds.has(x.classId)) say('classId', `unknown class ${x.classId}`);
    checkCost(say, 'cost', x.cost);
    x.rewards.forEach((g, j) => checkGrant(say, `rewards.${j}`, g));
  });

  const tradeRecipe = new Map<number, TradeRecipeIndexed>();
  f.tradeRecipes.forEach((r, i) => {
    const say = (field: string, message: string) =>
      problems.push({ file: 'tradeRecipes.json', field: `${i}.${field}`, message });
    if (tradeRecipe.has(r.recipeId)) say('recipeId', `duplicate id ${r.recipeId}`);
    if ((r.kind === 'event') !== (r.period !== null)) say('period', 'event recipes have a period, constant ones none');
    const startsAt = r.period ? parseTime(r.period.start, f.game.timezoneOffsetMinutes) : null;
    const endsAt = r.period?.end ? parseTime(r.period.end, f.game.timezoneOffsetMinutes) : null;
    if (startsAt === undefined) say('period.start', 'not a valid time');
    if (endsAt === undefined) say('period.end', 'not a valid time');
    checkCost(say, 'source', r.source);
    checkGrant(say, 'result', r.result);
    tradeRecipe.set(r.recipeId, { ...r, startsAt: startsAt ?? null, endsAt: endsAt ?? null });
  });

  return {
    characterEvolution,
    weaponExpTable,
    ownWeapon,
    weaponExpItem,
    abilityTree,
    sphere,
    training,
    tradeRecipe,
  } as {
    readonly characterEvolution: ReadonlyMap<number, CharacterEvolution>;
    readonly weaponExpTable: ReadonlyMap<number, WeaponExpTable>;
    /** characterId → the weaponId of the own weapon that character receives. */
    readonly ownWeapon: ReadonlyMap<number, number>;
    /** itemId → weapon exp it gives. */
    readonly weaponExpItem: ReadonlyMap<number, number>;
    readonly abilityTree: ReadonlyMap<number, AbilityTree>;
    readonly sphere: ReadonlyMap<number, Sphere>;
    readonly training: ReadonlyMap<number, Training>;
    readonly tradeRecipe: ReadonlyMap<number, TradeRecipeIndexed>;
  };
};
