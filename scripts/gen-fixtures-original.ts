// Generates the master data of the endpoints the original game's clients call first
// (original, invented content): fixtures/original.json (app versions, mission resets,
// stamina restores, age brackets), missions.json, questChapters.json, advScenes.json
// and fixtures/items/original.json (stamina items, ids 6000-6999).
// Run: npx tsx scripts/gen-fixtures-original.ts. Deterministic; the output is committed.
// The adv-only quests the scenes clear are in quests.json (gen-fixtures-social.ts).
import { mkdirSync, writeFileSync } from 'node:fs';

const out = (path: string, data: unknown) =>
  writeFileSync(`fixtures/${path}.json`, JSON.stringify(data, null, 2) + '\n');
mkdirSync('fixtures/items', { recursive: true });

const item = (objectId: number, amount: number) => ({ kind: 'item', objectId, amount });
const gold = (amount: number) => ({ kind: 'gold', objectId: 0, amount });
const gem = (amount: number) => ({ kind: 'gem', objectId: 0, amount });
const festival = { start: '2026-11-01T00:00:00', end: '2027-01-01T00:00:00' };
const harvest = { start: '2025-09-01T00:00:00', end: '2025-10-01T00:00:00' };
const spring = { start: '2027-03-01T00:00:00', end: '2027-04-01T00:00:00' };

// ---- items ----
writeFileSync(
  'fixtures/items/original.json',
  JSON.stringify(
    [
      { itemId: 6001, name: 'Star Candy (Half)', category: 'stamina', salePrice: 0, max: 999, staminaPercent: 50 },
      { itemId: 6002, name: 'Star Candy (Full)', category: 'stamina', salePrice: 0, max: 999, staminaPercent: 100 },
    ],
    null,
    2,
  ) + '\n',
);

// ---- settings ----
out('original', {
  app: {
    abVer: 3,
    minAbVer: 2,
    platforms: [
      {
        platform: 1,
        name: 'iOS',
        minVersion: '1.0.2',
        latestVersion: '1.0.3',
        storeUrl: 'https://example.com/hoshi/ios',
      },
      {
        platform: 2,
        name: 'Android',
        minVersion: '1.0.2',
        latestVersion: '1.0.3',
        storeUrl: 'https://example.com/hoshi/android',
      },
    ],
  },
  missions: { weeklyResetWeekday: 1 },
  stamina: { gemPrice: 50, perRequestMax: 10, ceiling: 999 },
  // Japan's usual monthly limits for minors' purchases, in paid gems.
  ageBrackets: [
    { age: 1, name: 'Under 16', minAge: 0, maxAge: 15, monthlyPaidGemLimit: 5000 },
    { age: 2, name: '16 to 19', minAge: 16, maxAge: 19, monthlyPaidGemLimit: 10000 },
    { age: 3, name: '20 and over', minAge: 20, maxAge: null, monthlyPaidGemLimit: null },
  ],
});

// ---- missions ----
// subCode: 1 quest clears, 2 gacha draws, 3 stamina spent, 4 missions claimed, 5 craft offers, 6 chest draws.
const mission = (
  missionId: number,
  category: string,
  name: string,
  subCode: number,
  counter: string,
  target: number,
  reward: unknown,
  period: unknown = null,
) => ({ missionId, name, category, subCode, counter, target, reward, period });
out('missions', [
  mission(1, 'daily', 'Clear 3 quests', 1, 'questClears', 3, gold(3000)),
  mission(2, 'daily', 'Draw a gacha', 2, 'gachaDraws', 1, item(2002, 3)),
  mission(3, 'daily', 'Spend 30 stamina', 3, 'staminaSpent', 30, gold(2000)),
  mission(101, 'weekly', 'Clear 20 quests', 1, 'questClears', 20, gem(100)),
  mission(102, 'weekly', 'Complete 10 daily missions', 4, 'dailyMissionsClaimed', 10, gem(150)),
  mission(103, 'weekly', 'Complete 2 craft offers', 5, 'offersCompleted', 2, item(9001, 1)),
  mission(201, 'event', 'Lantern Festival: open the lantern box 10 times', 6, 'chestDraws', 10, gem(200), festival),
  mission(202, 'event', 'Lantern Festival: clear 10 quests', 1, 'questClears', 10, item(30001, 5), festival),
  mission(291, 'event', 'Harvest Moon: clear 5 quests', 1, 'questClears', 5, gem(100), harvest),
]);

// ---- quest chapters ----
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
out('questChapters', [
  { chapterId: 1, name: 'Chapter 1: The Mossy Gate', period: null, questIds: [1000, ...range(1001, 1005)] },
  { chapterId: 2, name: 'Chapter 2: Toward the Summit', period: null, questIds: [1050, ...range(1006, 1010)] },
  { chapterId: 101, name: 'Lantern Festival', period: festival, questIds: [2000, 2001, 2002, 2003] },
  { chapterId: 102, name: 'Harvest Moon', period: harvest, questIds: [2900, 2901] },
  { chapterId: 103, name: 'Spring Kite Contest', period: spring, questIds: [2902] },
]);

// ---- adv scenes ----
out('advScenes', [
  { advId: 1000000, name: 'Prologue: Starfall', questId: 1000 },
  { advId: 1000001, name: 'Interlude: Lantern Light', questId: 1050 },
  { advId: 1000100, name: 'A Walk Through Town', questId: null },
  { advId: 2000000, name: 'Lantern Festival: Opening Night', questId: 2000 },
  { advId: 2900000, name: 'Harvest Moon: Prelude', questId: 2900 },
]);
