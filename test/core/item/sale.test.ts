// Selling items (docs/rules/progression.md, Items and trade): an amount for its sale price,
// exactly the item maximum and one past, coins reaching the coin maximum exactly and one
// past; what each refusal names; sales conserve value.
import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, ok, runOp, withWealth, itemsOf } from '../../_support/core.js';
import { itemCount } from '../../../core/shared/player.js';
import type { GameError } from '../../../core/errors.js';
import type { PlayerState } from '../../../core/state.js';

const m = master();
const rich = (items: Record<string, number> = {}) => withWealth(freshPlayer(), { gold: 100_000, items });
const GOLD_MAX = m.game.currencyMax.gold;
const CANDY = 2001; // sells for 20, maximum 9999
const TOKEN = 10501; // Lantern Token: no sale price

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');
const wealthy = (items: Record<string, number> = {}): PlayerState =>
  withWealth(freshPlayer(), { gold: 1_000_000, items });

test('sale sells an amount of an item for its sale price', (t) => {
  const s = rich({ 2001: 10 });
  const r = ok(t, 'salePlayerItem', s, { itemId: 2001, amount: 4 });
  t.is(itemsOf(r.state)['2001'], 6);
  t.is(r.state.gold - s.gold, 4 * 20);
  t.deepEqual(r.response.itemSummary, [{ itemId: 2001, amount: 6 }]);
  const all = ok(t, 'salePlayerItem', r.state, { itemId: 2001, amount: 6 });
  t.is(itemsOf(all.state)['2001'], undefined);
});

test('sale errors: unknown 107, not sellable 102, over the maximum 102, zero/negative/fractional 102, short 442, coins over the maximum 311', (t) => {
  const s = rich({ 2001: 10, 10501: 5 });
  fails(t, 'NOT_FOUND', 'salePlayerItem', s, { itemId: 424242, amount: 1 });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: 10501, amount: 1 });
  fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: 2001, amount: 10_000 });
  for (const amount of [0, -3, 2.5, 'two'])
    fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: 2001, amount });
  fails(t, 'INSUFFICIENT_PARAMETERS', 'salePlayerItem', s, { itemId: 2001 });
  fails(t, 'ITEM_IS_SHORT', 'salePlayerItem', s, { itemId: 2001, amount: 11 });
  fails(t, 'CURRENCY_LIMIT', 'salePlayerItem', withWealth(s, { gold: m.game.currencyMax.gold - 10 }), {
    itemId: 2001,
    amount: 1,
  });
});

test('sale: an unknown item is 107 naming it; an item with no sale price is 102 on itemId naming it', (t) => {
  const s = wealthy({ [TOKEN]: 5 });
  t.like(fails(t, 'NOT_FOUND', 'salePlayerItem', s, { itemId: 424242, amount: 1 }), { entity: 'item', id: 424242 });
  const e = fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: TOKEN, amount: 1 });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /item 10501 cannot be sold/);
});

test('sale of exactly the item maximum (9999) is sold; one more is 102 on amount naming the maximum', (t) => {
  const max = m.item.get(CANDY)?.max ?? 0;
  const s = withWealth(freshPlayer(), { gold: 0, items: { [CANDY]: max } });
  const r = ok(t, 'salePlayerItem', s, { itemId: CANDY, amount: max });
  t.is(r.state.gold, max * 20);
  t.deepEqual(
    r.state.items.filter((i) => i.itemId === CANDY),
    [],
  );
  const e = fails(t, 'INVALID_PARAMETERS', 'salePlayerItem', s, { itemId: CANDY, amount: max + 1 });
  t.like(e, { field: 'amount' });
  t.regex(reasonOf(e), /at most 9999/);
});

test('sale: coins reaching the coin maximum exactly are paid; one coin past it is 311 on gold naming the maximum', (t) => {
  const r = ok(t, 'salePlayerItem', withWealth(freshPlayer(), { gold: GOLD_MAX - 20, items: { [CANDY]: 1 } }), {
    itemId: CANDY,
    amount: 1,
  });
  t.is(r.state.gold, GOLD_MAX);
  const e = fails(
    t,
    'CURRENCY_LIMIT',
    'salePlayerItem',
    withWealth(freshPlayer(), { gold: GOLD_MAX - 19, items: { [CANDY]: 1 } }),
    { itemId: CANDY, amount: 1 },
  );
  t.like(e, { currency: 'gold', max: GOLD_MAX });
});

test('property: item sales conserve value (coins gained = sale price × amount removed)', (t) => {
  const sellable = m.items
    .filter((i) => i.salePrice > 0)
    .slice(0, 40)
    .map((i) => i.itemId);
  fc.assert(
    fc.property(
      fc.constantFrom(...sellable),
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 1, max: 200 }),
      (itemId, held, amount) => {
        const s = rich({ [itemId]: held });
        const r = runOp('salePlayerItem', s, { itemId, amount });
        if (amount > held) return r._tag === 'Left' && r.left.code === 'ITEM_IS_SHORT';
        if (r._tag === 'Left') return false;
        const price = m.item.get(itemId)?.salePrice ?? 0;
        return r.right.state.gold - s.gold === price * amount && itemCount(r.right.state, itemId) === held - amount;
      },
    ),
    { numRuns: 100 },
  );
  t.pass();
});
