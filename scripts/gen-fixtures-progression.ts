// Generates the progression group\'s master data in fixtures/ (original, invented
// content): character levels and evolutions, weapons with exp tables, recipes and
// evolutions (every character's own weapon), ability trees and spheres, trainings,
// trade recipes, the group's settings and its items (ids 10000–19999).
// Run: npx tsx scripts/gen-fixtures-progression.ts (reads characters.json and
// classes.json written by scripts/gen-fixtures.ts). Output is deterministic.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npx tsx scripts/gen-fixtures-progression.ts',
  summary:
    "Regenerates the progression group's master data in fixtures/ (reads characters.json and classes.json); deterministic, run from the repository root.",
  options: {},
});

interface Char {
  characterId: number;
  name: string;
  rarity: number;
  classId: number;
  elementId: number;
}
interface Cls {
  classId: number;
  name: string;
}
const characters = JSON.parse(readFileSync('fixtures/characters.json', 'utf8')) as Char[];
const classes = JSON.parse(readFileSync('fixtures/classes.json', 'utf8')) as Cls[];

const out = (name: string, data: unknown) =>
  writeFileSync(`fixtures/${name}.json`, JSON.stringify(data, null, 2) + '\n');
mkdirSync('fixtures/items', { recursive: true });

// ---- items (10000–19999) ----
const WHETSTONE = [10001, 10002, 10003] as const;
const STAR_KEY = 10100;
const classKey = (classId: number) => 10100 + classId;
const SPHERES = [
  'Ember Fruit',
  'Brine Fruit',
  'Pebble Fruit',
  'Breeze Fruit',
  'Dusk Fruit',
  'Vigor Fruit',
  'Focus Fruit',
  'Aegis Fruit',
];
const DEW = [10301, 10302, 10303] as const;
const BADGE = [10401, 10402, 10403, 10404] as const;
const FESTIVAL_TOKEN = 10501;
const SUMMER_SHELL = 10502;
const FORGE_FLUX = 10601;

const items = [
  { itemId: WHETSTONE[0], name: 'Rough Whetstone', category: 'material', salePrice: 20, max: 9999 },
  { itemId: WHETSTONE[1], name: 'Whetstone', category: 'material', salePrice: 100, max: 9999 },
  { itemId: WHETSTONE[2], name: 'Polished Whetstone', category: 'material', salePrice: 400, max: 9999 },
  { itemId: STAR_KEY, name: 'Star Key', category: 'material', salePrice: 500, max: 99 },
  ...classes.map((c) => ({
    itemId: classKey(c.classId),
    name: `${c.name} Key`,
    category: 'material',
    salePrice: 200,
    max: 99,
    classId: c.classId,
  })),
  ...SPHERES.map((name, i) => ({ itemId: 10201 + i, name, category: 'sphere', salePrice: 150, max: 99 })),
  { itemId: DEW[0], name: 'Morning Dew', category: 'material', salePrice: 10, max: 9999 },
  { itemId: DEW[1], name: 'Evening Dew', category: 'material', salePrice: 40, max: 9999 },
  { itemId: DEW[2], name: 'Starlit Dew', category: 'material', salePrice: 120, max: 9999 },
  { itemId: BADGE[0], name: 'Bronze Drill Badge', category: 'trainingReward', salePrice: 50, max: 999 },
  { itemId: BADGE[1], name: 'Silver Drill Badge', category: 'trainingReward', salePrice: 150, max: 999 },
  { itemId: BADGE[2], name: 'Gold Drill Badge', category: 'trainingReward', salePrice: 400, max: 999 },
  { itemId: BADGE[3], name: 'Veteran Ribbon', category: 'trainingReward', salePrice: 800, max: 999 },
  // Event trade currencies: no sale price, so they cannot be sold.
  { itemId: FESTIVAL_TOKEN, name: 'Lantern Token', category: 'material', salePrice: 0, max: 9999 },
  { itemId: SUMMER_SHELL, name: 'Sunny Shell', category: 'material', salePrice: 0, max: 9999 },
  { itemId: FORGE_FLUX, name: 'Forge Flux', category: 'material', salePrice: 250, max: 999 },
];
writeFileSync('fixtures/items/progression.json', JSON.stringify(items, null, 2) + '\n');

// ---- settings ----
out('progression', {
  character: { upgradeGold: { perLevel: 20, base: 80 }, elementBonusPercent: 150 },
  support: { parties: 5, size: 3, nameMaxLength: 16 },
  weapon: {
    upgradeGold: { perLevel: 10, base: 50 },
    expItems: [
      { itemId: WHETSTONE[0], exp: 100 },
      { itemId: WHETSTONE[1], exp: 500 },
      { itemId: WHETSTONE[2], exp: 2000 },
    ],
    receiveLevel: 100,
    saleMax: 50,
  },
  training: {
    slots: [
      { slotId: 1, openLevel: 1 },
      { slotId: 2, openLevel: 5 },
      { slotId: 3, openLevel: 15 },
      { slotId: 4, openLevel: 30 },
    ],
  },
});

// ---- characters: exp per level and evolutions ----
// Total exp grows quadratically: level 100 needs 207,900.
out(
  'characterLevels',
  Array.from({ length: 100 }, (_, i) => ({ level: i + 1, totalExp: 20 * i * i + 100 * i })),
);

const RARITY_EVOLUTION: Record<number, { gold: number; sigils: number; seeds: number }> = {
  3: { gold: 30000, sigils: 5, seeds: 1 },
  4: { gold: 60000, sigils: 10, seeds: 2 },
  5: { gold: 100000, sigils: 20, seeds: 3 },
};
out(
  'characterEvolutions',
  characters.map((c) => {
    const e = RARITY_EVOLUTION[c.rarity]!;
    return {
      characterId: c.characterId,
      cost: {
        gold: e.gold,
        items: [
          { itemId: 4000 + c.classId, amount: e.sigils },
          { itemId: 4100, amount: e.seeds },
        ],
      },
    };
  }),
);

// ---- weapons ----
const NOUN: Record<number, string> = { 1: 'Blade', 2: 'Wand', 3: 'Staff', 4: 'Wrench', 5: 'Bow' };
const GRADE: Record<number, string> = { 3: 'Plain', 4: 'Fine', 5: 'Grand' };
const GENERIC_MAX: Record<number, number> = { 3: 20, 4: 30, 5: 40 };
const GENERIC_RECIPE: Record<number, { gold: number; items: Array<{ itemId: number; amount: number }> }> = {
  3: { gold: 1000, items: [{ itemId: 5001, amount: 5 }] },
  4: {
    gold: 3000,
    items: [
      { itemId: 5001, amount: 10 },
      { itemId: 5002, amount: 5 },
    ],
  },
  5: {
    gold: 8000,
    items: [
      { itemId: 5001, amount: 20 },
      { itemId: 5004, amount: 10 },
      { itemId: 5005, amount: 5 },
    ],
  },
};
const weapons: Array<Record<string, unknown>> = [];
for (const c of classes) {
  for (const rarity of [3, 4, 5]) {
    weapons.push({
      weaponId: c.classId * 100 + rarity,
      name: `${GRADE[rarity]} ${NOUN[c.classId]}`,
      classId: c.classId,
      rarity,
      salePrice: rarity * 100,
      characterId: null,
      maxLevel: GENERIC_MAX[rarity],
      expTableId: 1,
      recipe: GENERIC_RECIPE[rarity],
      // A plain weapon can be refined into the next grade of its class.
      evolution:
        rarity < 5
          ? {
              weaponId: c.classId * 100 + rarity + 1,
              cost: { gold: 2000 * rarity, items: [{ itemId: 4000 + c.classId, amount: rarity - 2 }] },
            }
          : null,
    });
  }
}
for (const ch of characters) {
  const first = ch.name.split(' ')[0];
  const name = `${first}'s ${NOUN[ch.classId]}`;
  weapons.push({
    weaponId: 10000 + ch.characterId,
    name,
    classId: ch.classId,
    rarity: ch.rarity,
    salePrice: 1000,
    characterId: ch.characterId,
    maxLevel: 20,
    expTableId: 2,
    recipe: null,
    evolution: {
      weaponId: 20000 + ch.characterId,
      cost: {
        gold: 20000,
        items: [
          { itemId: FORGE_FLUX, amount: 3 },
          { itemId: 4000 + ch.classId, amount: 2 },
        ],
      },
    },
  });
  weapons.push({
    weaponId: 20000 + ch.characterId,
    name: `${name} (Radiant)`,
    classId: ch.classId,
    rarity: ch.rarity,
    salePrice: 3000,
    characterId: ch.characterId,
    maxLevel: 40,
    expTableId: 2,
    recipe: null,
    evolution: null,
  });
}
out('weapons', weapons);
out('weaponExpTables', [
  { expTableId: 1, totalExp: Array.from({ length: 50 }, (_, i) => 30 * i * i + 120 * i) },
  { expTableId: 2, totalExp: Array.from({ length: 50 }, (_, i) => 40 * i * i + 160 * i) },
]);

// ---- ability trees and spheres ----
out(
  'abilityTrees',
  characters.map((c) => ({
    characterId: c.characterId,
    releaseItems: [
      { itemId: classKey(c.classId), amount: 1 },
      { itemId: STAR_KEY, amount: 1 },
    ],
    slots: [1, 2, 3, 4].slice(0, c.rarity - 1).map((slotNo) => ({
      slotNo,
      cost: { gold: 1000 * slotNo, items: [{ itemId: DEW[0], amount: 5 * slotNo }] },
    })),
  })),
);
out(
  'spheres',
  SPHERES.map((_, i) => ({
    itemId: 10201 + i,
    totalExp: [0, 100, 300, 600, 1000],
    materials: [
      { itemId: DEW[0], exp: 10 },
      { itemId: DEW[1], exp: 50 },
      { itemId: DEW[2], exp: 200 },
    ],
    goldPerItem: 100,
  })),
);

// ---- trainings ----
const gold = (amount: number) => ({ kind: 'gold', objectId: 0, amount });
const item = (objectId: number, amount: number) => ({ kind: 'item', objectId, amount });
out('trainings', [
  {
    trainingId: 1,
    name: 'Morning Drill',
    minPlayerLevel: 1,
    durationMinutes: 60,
    characterCount: 1,
    classId: null,
    cost: { gold: 500 },
    rewards: [gold(1500), item(BADGE[0], 2)],
    expPerCharacter: 500,
  },
  {
    trainingId: 2,
    name: 'Forest Patrol',
    minPlayerLevel: 1,
    durationMinutes: 120,
    characterCount: 2,
    classId: null,
    cost: { gold: 1000 },
    rewards: [item(BADGE[0], 3), item(5002, 5)],
    expPerCharacter: 1000,
  },
  {
    trainingId: 3,
    name: 'Sword Dance',
    minPlayerLevel: 1,
    durationMinutes: 90,
    characterCount: 1,
    classId: 1,
    cost: { gold: 800 },
    rewards: [item(BADGE[1], 1), item(4001, 1)],
    expPerCharacter: 800,
  },
  {
    trainingId: 4,
    name: 'Arcane Study',
    minPlayerLevel: 5,
    durationMinutes: 180,
    characterCount: 1,
    classId: 2,
    cost: { gold: 1500 },
    rewards: [item(BADGE[1], 2), item(4002, 1)],
    expPerCharacter: 1500,
  },
  {
    trainingId: 5,
    name: 'Shrine Vigil',
    minPlayerLevel: 10,
    durationMinutes: 240,
    characterCount: 2,
    classId: 3,
    cost: { gold: 2000 },
    rewards: [item(BADGE[1], 3), item(4003, 2)],
    expPerCharacter: 2000,
  },
  {
    trainingId: 6,
    name: 'Scout Relay',
    minPlayerLevel: 10,
    durationMinutes: 300,
    characterCount: 1,
    classId: 5,
    cost: { gold: 2000 },
    rewards: [item(BADGE[2], 1), item(4005, 2)],
    expPerCharacter: 2500,
  },
  {
    trainingId: 7,
    name: 'Workshop Shift',
    minPlayerLevel: 20,
    durationMinutes: 360,
    characterCount: 2,
    classId: 4,
    cost: { gold: 3000, items: [{ itemId: 5001, amount: 5 }] },
    rewards: [item(BADGE[2], 2), item(FORGE_FLUX, 1)],
    expPerCharacter: 3000,
  },
  {
    trainingId: 8,
    name: 'Mountain March',
    minPlayerLevel: 15,
    durationMinutes: 480,
    characterCount: 3,
    classId: null,
    cost: { gold: 5000 },
    rewards: [gold(8000), item(BADGE[3], 1), item(4100, 1)],
    expPerCharacter: 4000,
  },
]);

// ---- trade recipes ----
// A trade converts, it never creates value: the sources' sale value (coins and items
// at sale price) is at least the result's. Event tokens cannot be sold, so an event
// recipe whose result sells takes that sale value in coins too (docs/rules/progression.md).
out('tradeRecipes', [
  {
    recipeId: 1,
    name: 'Badges for a Whetstone',
    kind: 'constant',
    period: null,
    source: { items: [{ itemId: BADGE[0], amount: 5 }] },
    result: item(WHETSTONE[1], 1),
    limit: null,
    maxCount: 99,
  },
  {
    recipeId: 2,
    name: 'Star Dust into a Prism Shard',
    kind: 'constant',
    period: null,
    source: { gold: 5000, items: [{ itemId: 5005, amount: 20 }] },
    result: item(9001, 1),
    limit: { max: 3, per: 'day' },
    maxCount: 3,
  },
  {
    recipeId: 3,
    name: 'Gold Badges for a Radiant Seed',
    kind: 'constant',
    period: null,
    source: { items: [{ itemId: BADGE[2], amount: 3 }] },
    result: item(4100, 1),
    limit: { max: 10, per: 'total' },
    maxCount: 10,
  },
  {
    recipeId: 4,
    name: 'Lantern Festival Ticket',
    kind: 'event',
    period: { start: '2026-11-01T00:00:00', end: '2027-01-15T00:00:00' },
    source: { items: [{ itemId: FESTIVAL_TOKEN, amount: 10 }] },
    result: item(3001, 1),
    limit: { max: 20, per: 'total' },
    maxCount: 20,
  },
  {
    recipeId: 5,
    name: 'Summer Shell Key',
    kind: 'event',
    period: { start: '2025-07-01T00:00:00', end: '2025-09-01T00:00:00' },
    source: { gold: 500, items: [{ itemId: SUMMER_SHELL, amount: 30 }] },
    result: item(STAR_KEY, 1),
    limit: { max: 5, per: 'total' },
    maxCount: 5,
  },
  {
    recipeId: 6,
    name: 'Spring Bloom Fruit',
    kind: 'event',
    period: { start: '2099-03-01T00:00:00', end: '2099-04-01T00:00:00' },
    source: { gold: 150, items: [{ itemId: FESTIVAL_TOKEN, amount: 5 }] },
    result: item(10201, 1),
    limit: null,
    maxCount: 10,
  },
]);
