// Generates the town group\'s master data (original, invented content): facilities,
// room objects, the town layout and room floors, content rooms, and the items
// facilities produce. Run: npx tsx scripts/gen-fixtures-town.ts (deterministic;
// the output is committed).
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npx tsx scripts/gen-fixtures-town.ts',
  summary: "Regenerates the town group's master data in fixtures/; deterministic, run from the repository root.",
  options: {},
});

const out = (name: string, data: unknown) =>
  writeFileSync(`fixtures/${name}.json`, JSON.stringify(data, null, 2) + '\n');
mkdirSync('fixtures/items', { recursive: true });

// ---- items produced in town (ids 20000–29999) ----
const townItems = [
  { itemId: 20001, name: 'Fresh Bread', category: 'material', salePrice: 40, max: 9999 },
  { itemId: 20002, name: 'Herb Tea Leaves', category: 'material', salePrice: 50, max: 9999 },
  { itemId: 20003, name: 'Polished Cog', category: 'material', salePrice: 80, max: 9999 },
  { itemId: 20004, name: 'Dye Bundle', category: 'material', salePrice: 60, max: 9999 },
];
writeFileSync('fixtures/items/town.json', JSON.stringify(townItems, null, 2) + '\n');

// ---- facilities ----
type Category = 'gold' | 'material' | 'decoration';
interface FacilitySeed {
  name: string;
  category: Category;
  itemId: number | null;
  /** Production per hour at level 1 (grows by this much each level). */
  rate: number;
  gold: number;
  kirara: number;
  maxLevel: number;
  /** Item asked for from level 2 on. */
  upgradeItem: number;
}
const SEEDS: FacilitySeed[] = [
  {
    name: 'Coin Mint',
    category: 'gold',
    itemId: null,
    rate: 600,
    gold: 1000,
    kirara: 500,
    maxLevel: 5,
    upgradeItem: 5001,
  },
  {
    name: 'Bakery Stall',
    category: 'material',
    itemId: 20001,
    rate: 6,
    gold: 800,
    kirara: 400,
    maxLevel: 5,
    upgradeItem: 5002,
  },
  {
    name: 'Lumber Yard',
    category: 'material',
    itemId: 5002,
    rate: 8,
    gold: 800,
    kirara: 400,
    maxLevel: 5,
    upgradeItem: 5001,
  },
  {
    name: 'Ore Quarry',
    category: 'material',
    itemId: 5001,
    rate: 8,
    gold: 800,
    kirara: 400,
    maxLevel: 5,
    upgradeItem: 5002,
  },
  {
    name: 'Silk Loom',
    category: 'material',
    itemId: 5003,
    rate: 5,
    gold: 1200,
    kirara: 600,
    maxLevel: 5,
    upgradeItem: 20004,
  },
  {
    name: 'Wishing Fountain',
    category: 'decoration',
    itemId: null,
    rate: 0,
    gold: 2000,
    kirara: 1500,
    maxLevel: 3,
    upgradeItem: 5004,
  },
  {
    name: 'Glass Kiln',
    category: 'material',
    itemId: 5004,
    rate: 4,
    gold: 1500,
    kirara: 800,
    maxLevel: 5,
    upgradeItem: 20003,
  },
  {
    name: 'Stargazing Well',
    category: 'material',
    itemId: 5005,
    rate: 2,
    gold: 3000,
    kirara: 1500,
    maxLevel: 5,
    upgradeItem: 5004,
  },
  {
    name: 'Apiary',
    category: 'material',
    itemId: 5006,
    rate: 3,
    gold: 1800,
    kirara: 900,
    maxLevel: 5,
    upgradeItem: 20001,
  },
  {
    name: 'Tea Terrace',
    category: 'material',
    itemId: 20002,
    rate: 4,
    gold: 1500,
    kirara: 700,
    maxLevel: 5,
    upgradeItem: 5006,
  },
  {
    name: 'Clockwork Shed',
    category: 'material',
    itemId: 20003,
    rate: 3,
    gold: 2000,
    kirara: 1000,
    maxLevel: 5,
    upgradeItem: 5001,
  },
  {
    name: "Dyer's Vat",
    category: 'material',
    itemId: 20004,
    rate: 4,
    gold: 1500,
    kirara: 700,
    maxLevel: 5,
    upgradeItem: 20002,
  },
  {
    name: 'Lantern Post',
    category: 'decoration',
    itemId: null,
    rate: 0,
    gold: 500,
    kirara: 300,
    maxLevel: 3,
    upgradeItem: 5004,
  },
  {
    name: 'Flower Arch',
    category: 'decoration',
    itemId: null,
    rate: 0,
    gold: 700,
    kirara: 400,
    maxLevel: 3,
    upgradeItem: 5003,
  },
  {
    name: 'Grand Treasury',
    category: 'gold',
    itemId: null,
    rate: 1500,
    gold: 8000,
    kirara: 4000,
    maxLevel: 5,
    upgradeItem: 20003,
  },
];
const facilities = SEEDS.map((f, i) => ({
  facilityId: i + 1,
  name: f.name,
  category: f.category,
  price: { gold: f.gold, kirara: f.kirara },
  salePrice: Math.floor(f.gold / 4),
  levels: Array.from({ length: f.maxLevel }, (_, j) => {
    const level = j + 1;
    const perHour = f.rate * level;
    return {
      level,
      // Storage holds four hours of production at level 1, one more hour each level.
      production: f.category === 'decoration' ? null : { itemId: f.itemId, perHour, cap: perHour * (3 + level) },
      levelUp:
        level === f.maxLevel
          ? null
          : {
              gold: 2000 * level * level,
              // The first level-up needs only coins; later ones ask for a material too.
              items: level === 1 ? [] : [{ itemId: f.upgradeItem, amount: 5 * level }],
              durationSeconds: 3600 * level,
              gemPrice: 50 * level,
            },
    };
  }),
}));
out('facilities', facilities);

// ---- room objects ----
const always = null;
const roomObjects = [
  {
    name: 'Oak Bed',
    category: 'bed',
    width: 2,
    depth: 3,
    price: 3000,
    bargain: null,
    shopPeriod: always,
    salePrice: 750,
  },
  {
    name: 'Round Table',
    category: 'table',
    width: 2,
    depth: 2,
    price: 1500,
    bargain: null,
    shopPeriod: always,
    salePrice: 375,
  },
  {
    name: 'Reading Lamp',
    category: 'light',
    width: 1,
    depth: 1,
    price: 500,
    bargain: null,
    shopPeriod: always,
    salePrice: 125,
  },
  {
    name: 'Tall Bookshelf',
    category: 'shelf',
    width: 3,
    depth: 1,
    price: 2000,
    bargain: null,
    shopPeriod: always,
    salePrice: 500,
  },
  {
    name: 'Potted Fern',
    category: 'plant',
    width: 1,
    depth: 1,
    price: 400,
    bargain: null,
    shopPeriod: always,
    salePrice: 100,
  },
  {
    name: 'Wool Rug',
    category: 'rug',
    width: 3,
    depth: 2,
    price: 1200,
    bargain: null,
    shopPeriod: always,
    salePrice: 300,
  },
  {
    name: 'Cushioned Stool',
    category: 'chair',
    width: 1,
    depth: 1,
    price: 600,
    bargain: null,
    shopPeriod: always,
    salePrice: 150,
  },
  {
    name: 'Writing Desk',
    category: 'table',
    width: 2,
    depth: 1,
    price: 1800,
    bargain: null,
    shopPeriod: always,
    salePrice: 450,
  },
  {
    name: 'Paper Lantern',
    category: 'light',
    width: 1,
    depth: 1,
    price: 800,
    bargain: { price: 400, period: { start: '2026-11-01T00:00:00', end: '2026-12-01T00:00:00' } },
    shopPeriod: always,
    salePrice: 100,
  },
  {
    name: 'Hammock',
    category: 'bed',
    width: 3,
    depth: 1,
    price: 2500,
    bargain: { price: 1000, period: { start: '2025-06-01T00:00:00', end: '2025-07-01T00:00:00' } },
    shopPeriod: always,
    salePrice: 250,
  },
  {
    name: 'Snow Globe Stand',
    category: 'decoration',
    width: 1,
    depth: 1,
    price: 1500,
    bargain: null,
    shopPeriod: { start: '2026-12-20T00:00:00', end: '2027-01-10T00:00:00' },
    salePrice: 300,
  },
  {
    name: 'Aquarium Tank',
    category: 'decoration',
    width: 2,
    depth: 1,
    price: 4000,
    bargain: null,
    shopPeriod: always,
    salePrice: 1000,
  },
  {
    name: 'Sofa for Two',
    category: 'chair',
    width: 2,
    depth: 1,
    price: 2200,
    bargain: null,
    shopPeriod: always,
    salePrice: 550,
  },
  {
    name: 'Ivy Trellis',
    category: 'plant',
    width: 1,
    depth: 2,
    price: 900,
    bargain: null,
    shopPeriod: always,
    salePrice: 225,
  },
].map((o, i) => ({ roomObjectId: i + 1, ...o }));
out('roomObjects', roomObjects);

// ---- the town: build points on a loose grid, content lots, floors, field spots ----
const buildPoints = Array.from({ length: 30 }, (_, i) => ({
  buildPointId: i + 1,
  x: (i % 6) * 4,
  y: Math.floor(i / 6) * 4,
}));
const contentLots = Array.from({ length: 8 }, (_, i) => ({ lotId: i + 1, nearbySlots: 3 }));
const floors = [
  { floorId: 1, name: 'Main Room', width: 12, height: 12, unlockLevel: 1 },
  { floorId: 2, name: 'Loft', width: 10, height: 8, unlockLevel: 10 },
];
const fieldSpots = [
  ['Home', 30],
  ['Market Square', 14],
  ['Bakery Stall', 10],
  ['Fountain Plaza', 10],
  ['Library Steps', 8],
  ['Riverside Bench', 8],
  ['Orchard Path', 8],
  ['Workshop', 7],
  ['Hilltop Lookout', 5],
].map(([name, weight], i) => ({ spotId: i + 1, name, weight }));
out('town', { buildPoints, contentLots, floors, fieldSpots, maxPerRequest: 50 });

// ---- a content room per title ----
const titles = JSON.parse(readFileSync('fixtures/titles.json', 'utf8')) as Array<{ titleId: number; name: string }>;
const ROOM_NOUNS = ['Clubhouse', 'Lounge', 'Study', 'Parlor'];
out(
  'contentRooms',
  titles.map((t, i) => ({
    contentRoomId: 100 + t.titleId,
    titleId: t.titleId,
    name: `${t.name.split(' ')[0]} ${ROOM_NOUNS[i % ROOM_NOUNS.length]}`,
    capacity: 3,
  })),
);
