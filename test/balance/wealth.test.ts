// Wealth from nothing (issue 20): a trade converts what a player holds, it never
// creates value. Whatever recipes are open (each event's period is visited), after
// any trade the player's sale value (coins, plus items, weapons and presents at
// their sale price) is no higher than before. It once found 5 Lantern Tokens (sale
// price 0) trading into an Ember Fruit that sells for 150; the spring and summer
// event recipes now take the result's sale value in coins too (docs/rules/progression.md).
import test from 'ava';
import { assertProperty, fc, operationsProperty, wealth, World } from '../../toolkit/index.js';
import { master } from '../_support/core.js';

test("no trade raises a player's sale value: coins + items, weapons and presents at sale price", (t) => {
  const m = master();
  const w0 = new World({ master: m });
  // A moment inside each recipe's period (constant recipes: the default clock).
  const moments = [
    w0.now,
    ...m.tradeRecipes.flatMap((r) => (r.period ? [w0.time.during(r.period, 2 * 24 * 3_600_000)] : [])),
  ];
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
      minutes: fc.nat(180),
      check: (step) => {
        if (step.ok) traded.add(step.answer.recipeId);
        const [was, now] = [wealth(m, step.player.before).saleValue, wealth(m, step.player.after).saleValue];
        return now <= was || `sale value rose from ${was} to ${now}`;
      },
    }),
    { numRuns: 300, seed: 2020 },
  );
  t.deepEqual(
    [...traded].sort(),
    m.tradeRecipes.map((r) => r.recipeId).sort(),
    'every recipe was traded, each event in its period',
  );
});
