// A designer's property, written as one outside the repository would write it: only
// the toolkit is imported (fast-check comes with it), the steps are typed by the
// operation's name, and a failure names the check's message. Run: npx tsx examples/property.ts
// (docs/simulation.md shows it; test/balance/wealth.test.ts is the suite's copy).
import { assertProperty, fc, loadMaster, operationsProperty, wealth, World } from '../toolkit/index.js';

const m = loadMaster();
const w0 = new World({ master: m });
// A moment inside each recipe's period, in game-local time; and the items recipes take.
const moments = [w0.now, ...m.tradeRecipes.flatMap((r) => (r.period ? [w0.time.during(r.period)] : []))];
const sources = [...new Set(m.tradeRecipes.flatMap((r) => (r.source.items ?? []).map((x) => x.itemId)))];
const traded = new Set<number>();
assertProperty(
  operationsProperty({
    setup: fc.record({
      at: fc.constantFrom(...moments),
      gold: fc.nat(50_000),
      items: fc.array(fc.tuple(fc.constantFrom(...sources), fc.nat(400))),
    }),
    world: ({ at, gold, items }) => {
      const w = new World({ master: m, now: at });
      w.give(w.createPlayer().playerId, { gold, items: Object.fromEntries(items) });
      return w;
    },
    operations: ['tradePlayerItemTrade'],
    // step is Step<'tradePlayerItemTrade'>: its answer is the trade's, its player's states are at hand.
    check: (step) => {
      if (step.ok) traded.add(step.answer.recipeId);
      const [was, now] = [wealth(m, step.player.before).saleValue, wealth(m, step.player.after).saleValue];
      return now <= was || `sale value rose from ${was} to ${now}`;
    },
  }),
  { numRuns: 100 },
);
console.log(`no trade raised a sale value; recipes traded: ${[...traded].sort((a, b) => a - b).join(', ')}`);
