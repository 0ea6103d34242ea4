// Generates the social and adventure group\'s master data (original, invented
// content): fixtures/social.json, quests.json, achievements.json, chests.json,
// offers.json and fixtures/items/social.json (item ids 30000-39999).
// Run: npx tsx scripts/gen-fixtures-social.ts. Deterministic; the output is committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npx tsx scripts/gen-fixtures-social.ts',
  summary: "Regenerates the social group's master data in fixtures/; deterministic, run from the repository root.",
  options: {},
});

const out = (path: string, data: unknown) =>
  writeFileSync(`fixtures/${path}.json`, JSON.stringify(data, null, 2) + '\n');
mkdirSync('fixtures/items', { recursive: true });

const item = (objectId: number, amount: number) => ({ kind: 'item', objectId, amount });
const gold = (amount: number) => ({ kind: 'gold', objectId: 0, amount });
const gem = (amount: number) => ({ kind: 'gem', objectId: 0, amount });
const open = { start: '2024-01-01T00:00:00', end: null };

// ---- items ----
const TOKEN_LANTERN = 30001;
const TOKEN_MOONPETAL = 30002;
const MATERIALS = ['Whisper Moss', 'Dusk Pebble', 'Amber Feather', 'Frost Bloom', 'Copper Cog', 'Comet Tail'];
const MAT = (i: number) => 31001 + i;
const items = [
  { itemId: TOKEN_LANTERN, name: 'Starlit Lantern Token', category: 'chestToken', salePrice: 0, max: 99999 },
  { itemId: TOKEN_MOONPETAL, name: 'Moonpetal Token', category: 'chestToken', salePrice: 0, max: 99999 },
  ...MATERIALS.map((name, i) => ({ itemId: MAT(i), name, category: 'material', salePrice: 20 + 10 * i, max: 9999 })),
  { itemId: 32001, name: 'Wayfarer Compass', category: 'material', salePrice: 500, max: 99 },
];
writeFileSync('fixtures/items/social.json', JSON.stringify(items, null, 2) + '\n');

// ---- game rules of the group ----
out('social', {
  friend: { requestLimit: 20, guestCount: 3 },
  battleParty: { nameMaxLength: 16 },
  quest: { questDataMaxLength: 20000, maxClearRank: 3, useCountMax: 999, skillEntriesMax: 10 },
  chest: { maxDrawCount: 100 },
  offer: { maxActive: 3 },
});

// ---- quests ----
const CHAPTER = [
  'Mossy Gate',
  'Lantern Road',
  'Whispering Ford',
  'Amber Hollow',
  'Copper Steps',
  'Frost Orchard',
  'Dusk Mill',
  'Comet Ridge',
  'Silent Belfry',
  'Starlit Summit',
];
const story = CHAPTER.map((name, i) => ({
  questId: 1001 + i,
  name,
  type: 1,
  period: open,
  stamina: 5 + i,
  waves: 3 + Math.floor(i / 4),
  retry: { gem: 50, max: 3 },
  rewards: { gold: 500 + 100 * i, playerExp: 30 + 10 * i, characterExp: 100 + 20 * i },
  drops: {
    rolls: 3,
    table: [
      { weight: 40, grant: null },
      { weight: 30, grant: item(MAT(i % 6), 1) },
      { weight: 15, grant: item(MAT((i + 1) % 6), 2) },
      { weight: 10, grant: gold(300) },
      { weight: 5, grant: item(2002, 1) },
    ],
  },
  firstClear: [gem(50), ...(i === 9 ? [item(32001, 1)] : [])],
  advOnly: false,
}));
// Adv-only quests: story scenes without a battle, cleared by viewing their scene
// (adv/add; the scenes are in advScenes.json, written by gen-fixtures-original.ts).
const advOnly = (
  questId: number,
  name: string,
  type: number,
  period: { start: string; end: string | null },
  firstClear: unknown[],
) => ({
  questId,
  name,
  type,
  period,
  stamina: 0,
  waves: 1,
  retry: { gem: 50, max: 0 },
  rewards: { gold: 0, playerExp: 0, characterExp: 0 },
  drops: { rolls: 0, table: [] },
  firstClear,
  advOnly: true,
});
const festival = { start: '2026-11-01T00:00:00', end: '2027-01-01T00:00:00' };
const events = [
  { questId: 2001, name: 'Lantern Festival: Night Market', period: festival, stamina: 10, tokens: 3 },
  { questId: 2002, name: 'Lantern Festival: River Parade', period: festival, stamina: 15, tokens: 5 },
  { questId: 2003, name: 'Lantern Festival: Sky Lanterns', period: festival, stamina: 20, tokens: 8 },
  {
    questId: 2901,
    name: 'Harvest Moon Revue',
    period: { start: '2025-09-01T00:00:00', end: '2025-10-01T00:00:00' },
    stamina: 10,
    tokens: 3,
  },
  {
    questId: 2902,
    name: 'Spring Kite Contest',
    period: { start: '2027-03-01T00:00:00', end: '2027-04-01T00:00:00' },
    stamina: 10,
    tokens: 3,
  },
].map((e) => ({
  questId: e.questId,
  name: e.name,
  type: 2,
  period: e.period,
  stamina: e.stamina,
  waves: 3,
  retry: { gem: 100, max: 2 },
  rewards: { gold: 1000, playerExp: 50, characterExp: 150 },
  drops: {
    rolls: 2,
    table: [
      { weight: 50, grant: item(e.period === festival ? TOKEN_LANTERN : TOKEN_MOONPETAL, e.tokens) },
      { weight: 30, grant: item(MAT(2), 1) },
      { weight: 20, grant: null },
    ],
  },
  firstClear: [item(e.period === festival ? TOKEN_LANTERN : TOKEN_MOONPETAL, 10)],
  advOnly: false,
}));
out('quests', [
  advOnly(1000, 'Prologue: Starfall', 1, open, [gem(50)]),
  ...story.slice(0, 5),
  advOnly(1050, 'Interlude: Lantern Light', 1, open, [gold(1000)]),
  ...story.slice(5),
  advOnly(2000, 'Lantern Festival: Opening Night', 2, festival, [item(TOKEN_LANTERN, 5)]),
  ...events.slice(0, 3),
  advOnly(2900, 'Harvest Moon: Prelude', 2, { start: '2025-09-01T00:00:00', end: '2025-10-01T00:00:00' }, [
    item(TOKEN_MOONPETAL, 5),
  ]),
  ...events.slice(3),
]);

// ---- achievements ----
const ach = (achievementId: number, name: string, description: string, condition: Record<string, unknown>) => ({
  achievementId,
  name,
  description,
  condition,
});
out('achievements', [
  ach(1, 'First Wish', 'Draw a gacha once.', { kind: 'counter', counter: 'gachaDraws', atLeast: 1 }),
  ach(2, 'Ten Wishes', 'Draw gachas ten times.', { kind: 'counter', counter: 'gachaDraws', atLeast: 10 }),
  ach(3, 'Wishing Well', 'Draw gachas a hundred times.', { kind: 'counter', counter: 'gachaDraws', atLeast: 100 }),
  ach(4, 'First Companion', 'Welcome a character.', { kind: 'charactersOwned', atLeast: 1 }),
  ach(5, 'Full Table', 'Welcome ten characters.', { kind: 'charactersOwned', atLeast: 10 }),
  ach(6, 'A Friend Indeed', 'Make a friend.', { kind: 'friends', atLeast: 1 }),
  ach(7, 'Town Favourite', 'Make ten friends.', { kind: 'friends', atLeast: 10 }),
  ach(8, 'First Clear', 'Clear a quest.', { kind: 'counter', counter: 'questClears', atLeast: 1 }),
  ach(9, 'Seasoned Traveler', 'Clear quests fifty times.', { kind: 'counter', counter: 'questClears', atLeast: 50 }),
  ach(10, 'Summit Seen', 'Clear the Starlit Summit.', { kind: 'questCleared', questId: 1010 }),
  ach(11, 'Rising Star', 'Reach player level 10.', { kind: 'playerLevel', atLeast: 10 }),
  ach(12, 'Veteran', 'Reach player level 50.', { kind: 'playerLevel', atLeast: 50 }),
  ach(13, 'Master Builder', 'Raise a town facility to level 5.', { kind: 'facilityLevel', atLeast: 5 }),
  ach(14, 'Box Opener', 'Draw from event chests ten times.', { kind: 'counter', counter: 'chestDraws', atLeast: 10 }),
  ach(15, 'Jackpot!', 'Draw a chest jackpot.', { kind: 'counter', counter: 'chestJackpots', atLeast: 1 }),
  ach(16, 'Craftsperson', 'Complete a craft offer.', { kind: 'counter', counter: 'offersCompleted', atLeast: 1 }),
]);

// ---- chests ----
let prizeId = 0;
const prize = (grant: Record<string, unknown>, count: number, jackpot = false) => ({
  prizeId: ++prizeId,
  grant,
  count,
  jackpot,
});
const lanternSteps = [
  [
    prize(gem(300), 1, true),
    prize(item(9001, 1), 2),
    prize(item(MAT(0), 3), 10),
    prize(gold(1000), 20),
    prize(item(2002, 2), 12),
  ],
  [
    prize(gem(500), 1, true),
    prize(item(9001, 1), 3),
    prize(item(MAT(1), 3), 15),
    prize(gold(2000), 25),
    prize(item(2003, 1), 16),
  ],
  [
    prize(item(32001, 1), 1, true),
    prize(item(9001, 1), 2),
    prize(item(MAT(3), 2), 20),
    prize(gold(3000), 30),
    prize(item(2002, 3), 27),
  ],
];
prizeId = 0;
const moonSteps = [[prize(gem(200), 1, true), prize(item(MAT(4), 2), 10), prize(gold(500), 19)]];
out('chests', [
  {
    chestId: 1,
    name: 'Starlit Lantern Box',
    period: festival,
    cost: { itemId: TOKEN_LANTERN, amount: 1 },
    steps: lanternSteps.map((prizes) => ({ prizes })),
  },
  {
    chestId: 2,
    name: 'Harvest Moon Box',
    period: { start: '2025-09-01T00:00:00', end: '2025-10-01T00:00:00' },
    cost: { itemId: TOKEN_MOONPETAL, amount: 2 },
    steps: moonSteps.map((prizes) => ({ prizes })),
  },
]);

// ---- offers ----
out('offers', [
  {
    offerId: 1,
    name: 'Mend a Lantern',
    requires: { playerLevel: 1, questId: null },
    materials: { gold: 1000, items: [{ itemId: MAT(0), amount: 3 }] },
    durationSeconds: 3600,
    rewards: [item(9001, 1)],
    limit: null,
  },
  {
    offerId: 2,
    name: 'Polish the Bells',
    requires: { playerLevel: 1, questId: null },
    materials: { gold: 200, items: [] },
    durationSeconds: 600,
    rewards: [gold(2000)],
    limit: null,
  },
  {
    offerId: 3,
    name: 'Tune a Comet Compass',
    requires: { playerLevel: 5, questId: 1005 },
    materials: {
      gold: 5000,
      items: [
        { itemId: MAT(1), amount: 5 },
        { itemId: MAT(2), amount: 2 },
      ],
    },
    durationSeconds: 14400,
    rewards: [gem(100), item(32001, 1)],
    limit: 1,
  },
  {
    offerId: 4,
    name: 'Weave a Festival Garland',
    requires: { playerLevel: 1, questId: 2001 },
    materials: { gold: 500, items: [{ itemId: MAT(2), amount: 2 }] },
    durationSeconds: 1800,
    rewards: [item(TOKEN_LANTERN, 5)],
    limit: 3,
  },
  {
    offerId: 5,
    name: 'Sort the Seed Drawer',
    requires: { playerLevel: 1, questId: null },
    materials: { gold: 100, items: [] },
    durationSeconds: 900,
    rewards: [item(MAT(5), 1)],
    limit: null,
  },
  {
    offerId: 6,
    name: 'Oil the Mill Wheel',
    requires: { playerLevel: 1, questId: null },
    materials: { gold: 100, items: [] },
    durationSeconds: 900,
    rewards: [item(MAT(4), 1)],
    limit: null,
  },
]);
