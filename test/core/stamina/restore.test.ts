// Stamina restores (stamina/add, docs/rules/original.md, Stamina): with gems, each restore
// refills the maximum; with a stamina item, its share of the maximum per item; the most
// restores a request may ask for and the ceiling, exactly and one past; the forms of "no
// item"; when regeneration pauses; what each refusal names.
import test from 'ava';
import { fails, freshPlayer, itemsOf, master, NOW, ok, withWealth } from '../../_support/core.js';
import type { PlayerState } from '../../../core/state.js';
import { type Master, buildMaster } from '../../../core/master/index.js';
import type { GameError } from '../../../core/errors.js';
import { masterSourceOf } from '../../../adapters/master/load.js';
import { staminaNow } from '../../../core/shared/player.js';

const m = master();

const tired = (s: PlayerState, value = 0): PlayerState => ({ ...s, stamina: { value, at: NOW } });
const cfg = m.original.stamina;
const HALF = 6001; // a stamina item restoring 50% of the maximum
const NOT_STAMINA = 2002; // an item of another category
const INTERVAL = m.game.stamina.regenSeconds * 1000;
const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

/** A level-1 player with the given stamina, counted from NOW, and plenty to pay with. */
const at = (value: number): PlayerState => ({
  ...withWealth(freshPlayer(), { gem: 100_000, items: { [HALF]: 20 } }),
  stamina: { value, at: NOW },
});
const MAX = m.playerLevels[0]!.staminaMax;
const halfGain = Math.max(1, Math.floor((MAX * m.item.get(HALF)!.staminaPercent!) / 100));

/** Master data where an item of another category also gives a staminaPercent (start-up accepts it: only stamina items need one). */
const percentOnOtherItem = (): Master => {
  const raw = structuredClone(masterSourceOf(m)!.raw) as Record<string, unknown>;
  const item = (raw['items'] as Array<Record<string, unknown>>).find((i) => i['itemId'] === NOT_STAMINA)!;
  item['staminaPercent'] = 100;
  const built = buildMaster(raw);
  if (!built.ok) throw new Error(JSON.stringify(built.problems));
  return built.master;
};

test('stamina/add with gems: each restore refills the maximum for the gem price, free gems first', (t) => {
  const s = withWealth(tired(freshPlayer()), { gem: 60, paidGem: 100 });
  const r = ok(t, 'addPlayerStamina', s, { type: 1, num: 2, itemId: -1 });
  const max = m.playerLevels[0]!.staminaMax;
  t.deepEqual(r.response, {
    ...r.response,
    stamina: 2 * max,
    staminaMax: max,
    restored: 2 * max,
    gem: 100,
    itemId: null,
    itemAmount: 0,
  });
  t.like(r.state, { gem: 0, paidGem: 60, stamina: { value: 2 * max, at: NOW } });
  t.like(r.response.player, { stamina: 2 * max });
  t.is(r.state.counters['staminaRestores'], 2);
  fails(t, 'GEM_IS_SHORT', 'addPlayerStamina', withWealth(s, { gem: 49, paidGem: 0 }), { type: 1, num: 1, itemId: -1 });
  t.like(ok(t, 'addPlayerStamina', s, { type: 1, num: 1 }).response, { gem: 50 }, 'itemId absent is no item');
});

test('stamina/add with an item: its share of the maximum per item, on top of regeneration; at or over the maximum regeneration pauses', (t) => {
  const max = m.playerLevels[0]!.staminaMax;
  const s = withWealth(tired(freshPlayer(), 3), { items: { 6001: 2, 6002: 1 } });
  const later = NOW + 10 * m.game.stamina.regenSeconds * 1000;
  const r = ok(t, 'addPlayerStamina', s, { type: 2, num: 1, itemId: 6001 }, { now: later });
  t.is(r.response.stamina, 3 + 10 + Math.floor(max / 2));
  t.deepEqual(itemsOf(r.state)['6001'], 1);
  t.like(r.response, { itemId: 6001, itemAmount: 1, gem: 0 });
  const full = ok(t, 'addPlayerStamina', r.state, { type: 2, num: 1, itemId: 6002 }, { now: later });
  t.like(full.state.stamina, { value: 3 + 10 + Math.floor(max / 2) + max, at: later });
});

test('stamina/add refusals: wrong item for the type 102, unknown 107, not a stamina item 102, not held 442, over the ceiling 311, too many 102', (t) => {
  const s = withWealth(tired(freshPlayer()), { gem: 100_000, items: { 6001: 1 } });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 1, num: 1, itemId: 6001 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 2, num: 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 2, num: 1 });
  fails(t, 'NOT_FOUND', 'addPlayerStamina', s, { type: 2, num: 1, itemId: 424242 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 2, num: 1, itemId: 2002 });
  fails(t, 'ITEM_IS_SHORT', 'addPlayerStamina', s, { type: 2, num: 2, itemId: 6001 });
  fails(t, 'CURRENCY_LIMIT', 'addPlayerStamina', tired(s, 990), { type: 1, num: 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, {
    type: 1,
    num: m.original.stamina.perRequestMax + 1,
    itemId: -1,
  });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 3, num: 1, itemId: -1 });
  fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', s, { type: 1, num: 0, itemId: -1 });
});

test('num: the configured most restores in one request (perRequestMax) is taken; one more is 102 naming num and the most', (t) => {
  const r = ok(t, 'addPlayerStamina', at(0), { type: 1, num: cfg.perRequestMax, itemId: -1 });
  t.is(r.response.restored, cfg.perRequestMax * MAX);
  t.is(r.response.gem, cfg.perRequestMax * cfg.gemPrice);
  t.is(r.state.counters['staminaRestores'], cfg.perRequestMax);
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', at(0), {
    type: 1,
    num: cfg.perRequestMax + 1,
    itemId: -1,
  });
  t.like(e, { field: 'num' });
  t.regex(reasonOf(e), new RegExp(`\\b${cfg.perRequestMax}\\b`));
});

test('with gems, itemId 0 (the older "none") is no item, as -1 is; an item id is 102 naming itemId and asking for -1', (t) => {
  const zero = ok(t, 'addPlayerStamina', at(0), { type: 1, num: 1, itemId: 0 });
  const none = ok(t, 'addPlayerStamina', at(0), { type: 1, num: 1, itemId: -1 });
  t.deepEqual(zero.response, none.response);
  t.like(zero.response, { restored: MAX, gem: cfg.gemPrice, itemId: null });
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', at(0), { type: 1, num: 1, itemId: HALF });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), /-1/);
});

test('with an item, itemId 0, -1 or absent names none: 102 naming itemId (not an unknown item, 107)', (t) => {
  for (const itemId of [0, -1, undefined]) {
    const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', at(0), { type: 2, num: 1, itemId });
    t.like(e, { field: 'itemId' }, `itemId ${String(itemId)}`);
    t.regex(reasonOf(e), /stamina item/);
  }
});

test('with an item: an unknown one is 107 naming the entity "item" and its id; another category is 102 naming the item', (t) => {
  t.like(fails(t, 'NOT_FOUND', 'addPlayerStamina', at(0), { type: 2, num: 1, itemId: 424242 }), {
    entity: 'item',
    id: 424242,
  });
  const e = fails(t, 'INVALID_PARAMETERS', 'addPlayerStamina', withWealth(at(0), { items: { [NOT_STAMINA]: 5 } }), {
    type: 2,
    num: 1,
    itemId: NOT_STAMINA,
  });
  t.like(e, { field: 'itemId' });
  t.regex(reasonOf(e), new RegExp(`\\b${NOT_STAMINA}\\b`));
});

test('only a stamina item restores stamina: an item of another category is 102 even when its data gives a staminaPercent', (t) => {
  const mm = percentOnOtherItem();
  t.not(mm.item.get(NOT_STAMINA)!.category, 'stamina');
  const e = fails(
    t,
    'INVALID_PARAMETERS',
    'addPlayerStamina',
    withWealth(at(0), { items: { [NOT_STAMINA]: 5 } }),
    { type: 2, num: 1, itemId: NOT_STAMINA },
    { m: mm },
  );
  t.like(e, { field: 'itemId' });
});

test('several items in one request each restore their share: num items give num times the share and take num items', (t) => {
  const s = at(0);
  const r = ok(t, 'addPlayerStamina', s, { type: 2, num: 3, itemId: HALF });
  t.is(r.response.restored, 3 * halfGain);
  t.is(r.response.stamina, 3 * halfGain);
  t.like(r.response, { itemId: HALF, itemAmount: 3, gem: 0 });
  t.is(itemsOf(r.state)[String(HALF)], itemsOf(s)[String(HALF)]! - 3);
});

test('the ceiling: a restore reaching exactly stamina.ceiling is taken; one point past it is 311 naming stamina and the ceiling, nothing paid', (t) => {
  const r = ok(t, 'addPlayerStamina', at(cfg.ceiling - MAX), { type: 1, num: 1, itemId: -1 });
  t.is(r.state.stamina.value, cfg.ceiling);
  const e = fails(t, 'CURRENCY_LIMIT', 'addPlayerStamina', at(cfg.ceiling - MAX + 1), { type: 1, num: 1, itemId: -1 });
  t.like(e, { currency: 'stamina', max: cfg.ceiling });
});

test('a restore that stays below the maximum keeps the regeneration clock: the next point comes when it was due', (t) => {
  const later = NOW + INTERVAL / 3; // part of an interval has run
  const r = ok(t, 'addPlayerStamina', at(0), { type: 2, num: 1, itemId: HALF }, { now: later });
  t.true(halfGain < MAX);
  t.deepEqual(r.state.stamina, { value: halfGain, at: NOW }, 'the partial interval is kept');
  t.is(
    staminaNow(m, r.state, NOW + INTERVAL),
    halfGain + 1,
    'one point at the end of the interval begun before the restore',
  );
});

test('a restore reaching exactly the maximum pauses regeneration from now', (t) => {
  const later = NOW + INTERVAL / 3;
  const r = ok(t, 'addPlayerStamina', at(MAX - halfGain), { type: 2, num: 1, itemId: HALF }, { now: later });
  t.deepEqual(r.state.stamina, { value: MAX, at: later });
});

test('a restore passing the maximum pauses regeneration from now, mid-interval too', (t) => {
  const later = NOW + INTERVAL / 3;
  const r = ok(t, 'addPlayerStamina', at(MAX - 1), { type: 1, num: 1, itemId: -1 }, { now: later });
  t.deepEqual(r.state.stamina, { value: 2 * MAX - 1, at: later });
});
