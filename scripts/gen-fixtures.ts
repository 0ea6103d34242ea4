// Generates the foundation\'s master data in fixtures/ (original, invented content).
// Run: npx tsx scripts/gen-fixtures.ts. The output is committed; edit numbers there
// or here and regenerate. Other groups keep their own files beside these.
import { writeFileSync, mkdirSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npm run fixtures --',
  summary:
    "Regenerates the foundation's master data in fixtures/ (characters, classes, gachas, items and the rest); deterministic, run from the repository root.",
  options: {},
});

const rng = seedrandom.alea('hoshi-fixtures');
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
const cap = (s: string) => s[0]!.toUpperCase() + s.slice(1);

const ONSET = ['k', 's', 't', 'n', 'h', 'm', 'r', 'l', 'v', 'b', 'd', 'z', 'f', 'p', 'y'];
const VOWEL = ['a', 'e', 'i', 'o', 'u', 'ia', 'eo', 'ai'];
const used = new Set<string>();
const word = (syl: number): string => {
  for (;;) {
    let w = '';
    for (let i = 0; i < syl; i++) w += pick(ONSET) + pick(VOWEL);
    if (rng() < 0.4) w += pick(['n', 'l', 'r', 's']);
    if (!used.has(w)) {
      used.add(w);
      return cap(w);
    }
  }
};
const TITLE_NOUNS = [
  'Academy',
  'Chronicle',
  'Caravan',
  'Lighthouse',
  'Orchard',
  'Observatory',
  'Workshop',
  'Harbor',
  'Garden',
  'Library',
  'Festival',
  'Expedition',
  'Bakery',
  'Orchestra',
  'Atelier',
  'Voyage',
];

const out = (name: string, data: unknown) =>
  writeFileSync(`fixtures/${name}.json`, JSON.stringify(data, null, 2) + '\n');
mkdirSync('fixtures/items', { recursive: true });

const game = {
  timezoneOffsetMinutes: 540,
  dayResetHour: 4,
  player: {
    startLevel: 1,
    startGold: 10000,
    startGem: 0,
    startPaidGem: 0,
    startKirara: 1000,
    nameMaxLength: 12,
    defaultName: 'Traveler',
  },
  currencyMax: { gold: 999999999, gem: 999999, paidGem: 999999, kirara: 9999999 },
  limits: {
    characters: 500,
    friends: 50,
    weapons: { base: 100, step: 5, cap: 300, gemPrice: 50 },
    facilities: { base: 30, step: 1, cap: 60, gemPrice: 100 },
    roomObjects: { base: 100, step: 10, cap: 400, gemPrice: 50 },
  },
  stamina: { regenSeconds: 300 },
  presents: { receiveMax: 100, receivedKeepCount: 100, receivedKeepDays: 30, boxMax: 1000 },
  move: {
    passwordMinLength: 4,
    passwordMaxLength: 16,
    codeLength: 10,
    validHours: 24,
    maxFailures: 5,
    restMinutes: 15,
    movedFromKeep: 10,
  },
  gacha: { historyDays: 90, historyMax: 3000, tenDrawSize: 10 },
  // Steps 1 sign-up, 2 first present claim, 3 first adv, 4 tutorial gacha, 5 party set (the last: it finishes).
  tutorial: { finishedStep: -1, lastStep: 5, maxTipId: 9999 },
};
out('game', game);

const playerLevels = Array.from({ length: 150 }, (_, i) => {
  const level = i + 1;
  // Exp to reach a level grows quadratically; stamina max grows one point a level.
  return { level, totalExp: i === 0 ? 0 : Math.round(50 * i + 8 * i * i), staminaMax: 40 + level };
});
out('playerLevels', playerLevels);

const classes = ['Fighter', 'Magician', 'Cleric', 'Engineer', 'Scout'].map((name, i) => ({ classId: i + 1, name }));
const elements = ['Flame', 'Tide', 'Stone', 'Gale', 'Moon'].map((name, i) => ({ elementId: i + 1, name }));
out('classes', classes);
out('elements', elements);

out('rarities', [
  {
    rarity: 3,
    baseLevelCap: 50,
    limitBreakStep: 5,
    maxLimitBreak: 4,
    evolutionBonus: 30,
    limitBreakItemAmount: 5,
    duplicateItemAmount: 5,
    maxAwakening: 5,
  },
  {
    rarity: 4,
    baseLevelCap: 55,
    limitBreakStep: 5,
    maxLimitBreak: 4,
    evolutionBonus: 25,
    limitBreakItemAmount: 2,
    duplicateItemAmount: 2,
    maxAwakening: 5,
  },
  {
    rarity: 5,
    baseLevelCap: 60,
    limitBreakStep: 5,
    maxLimitBreak: 4,
    evolutionBonus: 20,
    limitBreakItemAmount: 1,
    duplicateItemAmount: 1,
    maxAwakening: 5,
  },
]);

const TITLES = 32;
const titles = Array.from({ length: TITLES }, (_, i) => ({
  titleId: i + 1,
  name: `${word(2)} ${TITLE_NOUNS[i % TITLE_NOUNS.length]}`,
}));
out('titles', titles);

// Each title: one ★5, one ★4 and two or three ★3 characters.
const RARITY_PATTERN = [5, 4, 3, 3, 3];
const characters: Array<Record<string, unknown>> = [];
const lbItems: Array<Record<string, unknown>> = [];
titles.forEach((title, ti) => {
  const count = ti % 3 === 0 ? 5 : 4;
  for (let j = 0; j < count; j++) {
    const characterId = 1000 + title.titleId * 10 + j + 1;
    const name = `${word(2)} ${word(1)}`;
    const limitBreakItemId = 100000 + characterId;
    characters.push({
      characterId,
      name,
      titleId: title.titleId,
      rarity: RARITY_PATTERN[j],
      classId: ((ti + j) % 5) + 1,
      elementId: ((ti * 2 + j) % 5) + 1,
      limitBreakItemId,
      evolvedName: `${name} (Radiant)`,
    });
    lbItems.push({
      itemId: limitBreakItemId,
      name: `Memory of ${name}`,
      category: 'limitBreak',
      salePrice: 100,
      max: 999,
    });
  }
});
out('characters', characters);

const baseItems = [
  { itemId: 9001, name: 'Prism Shard', category: 'universalLimitBreak', salePrice: 1000, max: 999 },
  ...elements.flatMap((e, i) => [
    {
      itemId: 2001 + i * 3,
      name: `Small ${e.name} Candy`,
      category: 'exp',
      salePrice: 20,
      max: 9999,
      exp: 100,
      elementId: e.elementId,
    },
    {
      itemId: 2002 + i * 3,
      name: `${e.name} Candy`,
      category: 'exp',
      salePrice: 100,
      max: 9999,
      exp: 500,
      elementId: e.elementId,
    },
    {
      itemId: 2003 + i * 3,
      name: `Large ${e.name} Candy`,
      category: 'exp',
      salePrice: 400,
      max: 9999,
      exp: 2000,
      elementId: e.elementId,
    },
  ]),
  { itemId: 3001, name: 'Standard Draw Ticket', category: 'ticket', salePrice: 0, max: 999 },
  { itemId: 3002, name: 'Festival Draw Ticket', category: 'ticket', salePrice: 0, max: 999 },
  ...classes.map((c, i) => ({
    itemId: 4001 + i,
    name: `${c.name} Sigil`,
    category: 'evolution',
    salePrice: 300,
    max: 999,
    classId: c.classId,
  })),
  { itemId: 4100, name: 'Radiant Seed', category: 'evolution', salePrice: 1000, max: 999 },
  ...['Iron Ore', 'Timber', 'Spun Silk', 'Glass Bead', 'Star Dust', 'Honey Drop'].map((name, i) => ({
    itemId: 5001 + i,
    name,
    category: 'material',
    salePrice: 30 + i * 10,
    max: 9999,
  })),
];
writeFileSync('fixtures/items/base.json', JSON.stringify(baseItems, null, 2) + '\n');
writeFileSync('fixtures/items/limitBreak.json', JSON.stringify(lbItems, null, 2) + '\n');

const ids = (rarity: number) => characters.filter((c) => c.rarity === rarity).map((c) => c.characterId as number);
const allPool = [...ids(5), ...ids(4), ...ids(3)];
const RATES = [
  { rarity: 5, weight: 30 },
  { rarity: 4, weight: 185 },
  { rarity: 3, weight: 785 },
];
const t1 = characters.filter((c) => c.titleId === 1);
const star5 = t1.find((c) => c.rarity === 5)!.characterId as number;
const star4 = [
  t1.find((c) => c.rarity === 4)!.characterId as number,
  characters.find((c) => c.titleId === 2 && c.rarity === 4)!.characterId as number,
];
const free = { singleGem: 0, tenGem: 0, firstTenGem: null, paidSingleGem: null, ticketItemId: null, ticketAmount: 1 };
const standardCost = {
  singleGem: 150,
  tenGem: 1500,
  firstTenGem: 750,
  paidSingleGem: 100,
  ticketItemId: 3001,
  ticketAmount: 1,
};
const open = { start: '2024-01-01T00:00:00', end: null };
const gachas = [
  {
    gachaId: 1,
    name: 'First Light Gacha',
    kind: 'firstTime',
    period: open,
    weekdays: null,
    cost: free,
    limits: { perDay: null, total: 10 },
    rates: RATES,
    pool: allPool,
    pickups: [],
    guaranteeMinRarity: 4,
    pointsPerDraw: 0,
    targets: [],
    reDraw: true,
  },
  {
    gachaId: 2,
    name: 'Standard Gacha',
    kind: 'standard',
    period: open,
    weekdays: null,
    cost: standardCost,
    limits: { perDay: null, total: null },
    rates: RATES,
    pool: allPool,
    pickups: [],
    guaranteeMinRarity: 4,
    pointsPerDraw: 1,
    targets: [],
    reDraw: false,
  },
  {
    gachaId: 3,
    name: `${titles[0]!.name} Spotlight`,
    kind: 'pickup',
    period: { start: '2024-06-01T00:00:00', end: '2099-01-01T00:00:00' },
    weekdays: null,
    cost: { ...standardCost, firstTenGem: null, ticketItemId: 3002 },
    limits: { perDay: null, total: null },
    rates: RATES,
    pool: allPool,
    pickups: [
      { characterId: star5, shareBp: 5000 },
      { characterId: star4[0], shareBp: 2500 },
      { characterId: star4[1], shareBp: 2500 },
    ],
    guaranteeMinRarity: 4,
    pointsPerDraw: 1,
    targets: [
      { characterId: star5, points: 200 },
      { characterId: star4[0], points: 50 },
      { characterId: star4[1], points: 50 },
    ],
    reDraw: false,
  },
  {
    gachaId: 4,
    name: 'Daily Bargain Gacha',
    kind: 'standard',
    period: open,
    weekdays: null,
    cost: { singleGem: 50, tenGem: 500, firstTenGem: null, paidSingleGem: 30, ticketItemId: null, ticketAmount: 1 },
    limits: { perDay: 1, total: null },
    rates: RATES,
    pool: allPool,
    pickups: [],
    guaranteeMinRarity: null,
    pointsPerDraw: 0,
    targets: [],
    reDraw: false,
  },
  {
    gachaId: 5,
    name: 'Old Summer Gacha',
    kind: 'pickup',
    period: { start: '2025-07-01T00:00:00', end: '2025-09-01T00:00:00' },
    weekdays: null,
    cost: standardCost,
    limits: { perDay: null, total: null },
    rates: RATES,
    pool: allPool,
    pickups: [{ characterId: ids(5)[3]!, shareBp: 5000 }],
    guaranteeMinRarity: 4,
    pointsPerDraw: 1,
    targets: [],
    reDraw: false,
  },
  {
    gachaId: 6,
    name: 'Weekend Gacha',
    kind: 'standard',
    period: open,
    weekdays: [0, 6],
    cost: standardCost,
    limits: { perDay: 20, total: 100 },
    rates: [
      { rarity: 5, weight: 60 },
      { rarity: 4, weight: 240 },
      { rarity: 3, weight: 700 },
    ],
    pool: allPool,
    pickups: [],
    guaranteeMinRarity: 4,
    pointsPerDraw: 1,
    targets: [],
    reDraw: false,
  },
];
out('gachas', gachas);

out('welcome', [
  {
    grant: { kind: 'gem', objectId: 0, amount: 3000 },
    title: 'Welcome!',
    message: 'Gems for your first ten-draw, and a little more.',
  },
  { grant: { kind: 'gold', objectId: 0, amount: 50000 }, title: 'Welcome!', message: 'Coins to get you started.' },
  {
    grant: { kind: 'item', objectId: 3001, amount: 1 },
    title: 'Welcome!',
    message: 'A draw ticket for the Standard Gacha.',
  },
  {
    grant: { kind: 'kirara', objectId: 0, amount: 5000 },
    title: 'Welcome!',
    message: 'Town points for your first buildings.',
  },
  {
    grant: { kind: 'item', objectId: 2002, amount: 10 },
    title: 'Welcome!',
    message: 'Candies to train your first friends.',
    deadlineDays: 30,
  },
]);

// weapons.json, facilities.json and roomObjects.json belong to the progression and town groups.
