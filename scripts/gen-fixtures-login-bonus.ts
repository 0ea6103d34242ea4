// Generates the daily log-in bonus's master data (original, invented content):
// fixtures/loginBonus.json, a seven-day consecutive cycle and total-day milestones.
// Run: npx tsx scripts/gen-fixtures-login-bonus.ts. Deterministic; the output is committed.
import { writeFileSync } from 'node:fs';
import { cliArgs } from './args.js';

cliArgs({
  command: 'npx tsx scripts/gen-fixtures-login-bonus.ts',
  summary:
    "Regenerates the log-in bonus's master data (fixtures/loginBonus.json); deterministic, run from the repository root.",
  options: {},
});

const item = (objectId: number, amount: number) => ({ kind: 'item', objectId, amount });
const gold = (amount: number) => ({ kind: 'gold', objectId: 0, amount });
const gem = (amount: number) => ({ kind: 'gem', objectId: 0, amount });

// Consecutive days: a week, then the week again; a missed game day starts it at day 1.
// Their presents wait 30 days in the box; the milestones' wait for ever.
const day = (n: number, grant: unknown, what: string) => ({
  day: n,
  rewards: [
    {
      grant,
      title: `Log-in bonus: day ${n}`,
      message: n === 1 ? `${what} for logging in today.` : `${what} for logging in ${n} days in a row.`,
      deadlineDays: 30,
    },
  ],
});
const milestone = (days: number, repeatEvery: number | null, grant: unknown, what: string) => ({
  days,
  repeatEvery,
  rewards: [
    {
      grant,
      title:
        days === 1
          ? 'Your first log-in'
          : repeatEvery === null
            ? `${days} days of log-ins`
            : `Every ${repeatEvery} days of log-ins`,
      message:
        days === 1
          ? `${what} for your first day.`
          : `${what} for logging in on ${repeatEvery === null ? `${days} days` : `every ${repeatEvery} days`}.`,
    },
  ],
});

const loginBonus = {
  consecutive: [
    day(1, gold(5000), 'Coins'),
    day(2, item(6001, 1), 'A Star Candy (Half)'),
    day(3, gold(10000), 'Coins'),
    day(4, item(2002, 3), 'Flame Candies'),
    day(5, item(3001, 1), 'A Standard Draw Ticket'),
    day(6, gold(20000), 'Coins'),
    day(7, gem(150), 'Gems'),
  ],
  total: [
    milestone(1, null, gem(100), 'Gems'),
    milestone(5, null, item(3001, 1), 'A Standard Draw Ticket'),
    milestone(10, null, gem(300), 'Gems'),
    milestone(20, null, item(9001, 1), 'A Prism Shard'),
    milestone(30, null, gem(500), 'Gems'),
    milestone(50, 50, gem(500), 'Gems'),
  ],
};

writeFileSync('fixtures/loginBonus.json', JSON.stringify(loginBonus, null, 2) + '\n');
