// Box-event chests at their edges (docs/rules/social.md "Chests"): the period to the
// millisecond, the per-request maximum and what is left, what each refusal names, the step
// and resets a draw and a reset answer, a prize over a capacity sent to the present box,
// and one chest's progress kept apart from another's.
import test from 'ava';
import { fails, freshPlayer, master, ok, withWealth } from '../_support/core.js';
import type { GameError } from '../../core/errors.js';
import type { Master } from '../../core/master/index.js';
import type { PlayerState } from '../../core/state.js';
import type { ChestProgress } from '../../core/state/social.js';

const reasonOf = (e: GameError): string => ('reason' in e ? e.reason : '');

const LANTERN = 1;
const OLD = 2;
const m = master();
const lantern = m.chest.get(LANTERN)!;
const token = lantern.cost.itemId;
const rich = (n = 1000): PlayerState => withWealth(freshPlayer(), { items: { [String(token)]: n } });
const boxSize = (step: number) => lantern.steps[step]!.prizes.reduce((n, p) => n + p.count, 0);
const jackpotOf = (step: number) => lantern.steps[step]!.prizes.find((p) => p.jackpot)!;
const plain = (step: number) => lantern.steps[step]!.prizes.filter((p) => !p.jackpot);
/** The Harvest Moon box's progress: every prize of its box drawn, the jackpot too, reset twice. */
const oldProgress: ChestProgress = { chestId: OLD, step: 0, drawn: m.chest.get(OLD)!.steps[0]!.prizes.map((p) => ({ prizeId: p.prizeId, count: p.count })), jackpotDrawn: true, resets: 2 };

test('a chest is open from its start, to the millisecond, and closed from its end', (t) => {
  const s = rich();
  const { startsAt, endsAt } = lantern;
  if (endsAt === null) { t.fail('the Lantern box has an end in the fixtures'); return; }
  const listed = (now: number) => ok(t, 'getAllPlayerChest', s, {}, { now }).response.chests.map((c) => c.chestId);
  t.deepEqual(listed(startsAt), [LANTERN], 'open at its start');
  t.deepEqual(listed(startsAt - 1), [], 'not yet a millisecond before');
  t.deepEqual(listed(endsAt - 1), [LANTERN], 'open a millisecond before its end');
  t.deepEqual(listed(endsAt), [], 'closed at its end');
  ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: startsAt });
  t.like(fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: startsAt - 1 }), { chestId: LANTERN });
  ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: endsAt - 1 });
  t.like(fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: endsAt }), { chestId: LANTERN });
  const won: PlayerState = { ...s, chests: [{ chestId: LANTERN, step: 0, drawn: [], jackpotDrawn: true, resets: 0 }] };
  ok(t, 'resetPlayerChest', won, { chestId: LANTERN }, { now: startsAt });
  fails(t, 'CHEST_OUT_OF_PERIOD', 'resetPlayerChest', won, { chestId: LANTERN }, { now: endsAt });
});

test('an unknown chest is 107 naming the chest and its id, for every chest operation', (t) => {
  const s = rich();
  t.like(fails(t, 'NOT_FOUND', 'drawPlayerChest', s, { chestId: 77, count: 1 }), { entity: 'chest', id: 77 });
  t.like(fails(t, 'NOT_FOUND', 'getStepPlayerChest', s, { chestId: 77 }), { entity: 'chest', id: 77 });
  t.like(fails(t, 'NOT_FOUND', 'resetPlayerChest', s, { chestId: 77 }), { entity: 'chest', id: 77 });
});

test('count may be social.chest.maxDrawCount and not one more: the refusal names count and the maximum', (t) => {
  // A copy of the master data whose maximum is below the box's size, so the boundary itself can be drawn.
  const max = 3;
  const m3: Master = { ...m, social: { ...m.social, chest: { ...m.social.chest, maxDrawCount: max } } };
  const r = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: max }, { m: m3 });
  t.is(r.response.results.length, max);
  const e = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', rich(), { chestId: LANTERN, count: max + 1 }, { m: m3 });
  t.like(e, { field: 'count' });
  t.regex(reasonOf(e), new RegExp(`\\b${max}\\b`), 'the reason gives the maximum');
  t.notRegex(reasonOf(e), /left/, 'the maximum, not what is left, refused it');
  // With the bundled maximum (above the box's size), a count at the maximum is refused for what is left, not for the maximum.
  const bundled = m.social.chest.maxDrawCount;
  t.true(bundled > boxSize(0));
  const atMax = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', rich(), { chestId: LANTERN, count: bundled });
  t.like(atMax, { field: 'count' });
  t.regex(reasonOf(atMax), new RegExp(`\\b${boxSize(0)}\\b.*left`), 'the reason gives what is left in the box');
  const over = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', rich(), { chestId: LANTERN, count: bundled + 1 });
  t.like(over, { field: 'count' });
  t.regex(reasonOf(over), new RegExp(`\\b${bundled}\\b`));
  t.notRegex(reasonOf(over), /left/);
});

test('count may be what is left in the box and not one more: the refusal says how many are left', (t) => {
  // Every prize drawn but the jackpot and one other: two left.
  const [keep, ...rest] = plain(0);
  const drawn = [...rest.map((p) => ({ prizeId: p.prizeId, count: p.count })), { prizeId: keep!.prizeId, count: keep!.count - 1 }];
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn, jackpotDrawn: false, resets: 0 }] };
  t.is(ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response.remaining, 2);
  const e = fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: 3 });
  t.like(e, { field: 'count' });
  t.regex(reasonOf(e), /\b2\b/);
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 2 });
  t.deepEqual(r.response.results.map((x) => x.prizeId).sort((a, b) => a - b), [jackpotOf(0).prizeId, keep!.prizeId].sort((a, b) => a - b));
  t.is(r.response.remaining, 0);
  t.true(r.response.jackpotDrawn);
});

test('an empty box is 317 with a reason; a reset before the jackpot is 317 with its own reason', (t) => {
  const all = lantern.steps[0]!.prizes.map((p) => ({ prizeId: p.prizeId, count: p.count }));
  const empty: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn: all, jackpotDrawn: true, resets: 0 }] };
  const e = fails(t, 'STATE_CONFLICT', 'drawPlayerChest', empty, { chestId: LANTERN, count: 1 });
  t.regex(reasonOf(e), /empty/);
  const early = fails(t, 'STATE_CONFLICT', 'resetPlayerChest', rich(), { chestId: LANTERN });
  t.regex(reasonOf(early), /jackpot/);
});

test('a draw marks the jackpot drawn only when it draws the jackpot prize; until then reset is 317', (t) => {
  let found: PlayerState | undefined;
  for (let i = 0; i < 20 && !found; i++) {
    const r = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: 1 }, { seed: `plain${i}` });
    if (r.response.results[0]!.jackpot) continue;
    t.false(r.response.jackpotDrawn);
    t.false(r.state.chests[0]!.jackpotDrawn);
    found = r.state;
  }
  if (!found) { t.fail('no plain prize in 20 draws'); return; }
  fails(t, 'STATE_CONFLICT', 'resetPlayerChest', found, { chestId: LANTERN });
});

test('a draw answers the step it drew from, counted from 1', (t) => {
  const r = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: 1 });
  t.is(r.response.step, 1);
  t.is(r.response.chestId, LANTERN);
  const second: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 1, drawn: [], jackpotDrawn: false, resets: 1 }] };
  t.is(ok(t, 'drawPlayerChest', second, { chestId: LANTERN, count: 1 }).response.step, 2);
});

test('each reset counts one more reset and moves to the next step', (t) => {
  const won: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn: [], jackpotDrawn: true, resets: 0 }] };
  const a = ok(t, 'resetPlayerChest', won, { chestId: LANTERN });
  t.like(a.response, { chestId: LANTERN, step: 2, resets: 1, jackpotDrawn: false, remaining: boxSize(1) });
  t.deepEqual(a.state.chests, [{ chestId: LANTERN, step: 1, drawn: [], jackpotDrawn: false, resets: 1 }]);
  const again: PlayerState = { ...a.state, chests: [{ ...a.state.chests[0]!, jackpotDrawn: true }] };
  const b = ok(t, 'resetPlayerChest', again, { chestId: LANTERN });
  t.like(b.response, { step: 3, resets: 2 });
});

test('get_all gives the box\'s size as total and what is left as remaining', (t) => {
  const fresh = ok(t, 'getAllPlayerChest', rich(), {}).response.chests[0]!;
  t.like(fresh, { total: boxSize(0), remaining: boxSize(0), step: 1, stepCount: lantern.steps.length, costItemId: token, costAmount: lantern.cost.amount });
  const drawn = ok(t, 'drawPlayerChest', rich(), { chestId: LANTERN, count: 5 }).state;
  t.like(ok(t, 'getAllPlayerChest', drawn, {}).response.chests[0], { total: boxSize(0), remaining: boxSize(0) - 5 });
});

test('a chest\'s progress is its own: another chest\'s step, draws and jackpot are neither read nor overwritten', (t) => {
  const s: PlayerState = { ...rich(), chests: [oldProgress] };
  // get_step and get_all read the Lantern box's own (fresh) progress.
  t.like(ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response, { step: 1, jackpotDrawn: false, resets: 0, remaining: boxSize(0) });
  t.like(ok(t, 'getAllPlayerChest', s, {}).response.chests[0], { chestId: LANTERN, jackpotDrawn: false, resets: 0, remaining: boxSize(0) });
  fails(t, 'STATE_CONFLICT', 'resetPlayerChest', s, { chestId: LANTERN });
  // A first draw adds the Lantern box's progress beside it, in chest order.
  const a = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 2 });
  t.deepEqual(a.state.chests.map((p) => p.chestId), [LANTERN, OLD]);
  t.deepEqual(a.state.chests[1], oldProgress);
  t.is(a.response.remaining, boxSize(0) - 2);
  // A later draw changes the Lantern box's progress only.
  const b = ok(t, 'drawPlayerChest', a.state, { chestId: LANTERN, count: 3 }, { seed: 'b' });
  t.deepEqual(b.state.chests[1], oldProgress);
  t.is(b.state.chests[0]!.drawn.reduce((n, d) => n + d.count, 0), 5);
  t.is(b.response.remaining, boxSize(0) - 5);
  // So does a reset.
  const won: PlayerState = { ...a.state, chests: [{ ...a.state.chests[0]!, jackpotDrawn: true }, oldProgress] };
  const c = ok(t, 'resetPlayerChest', won, { chestId: LANTERN });
  t.deepEqual(c.state.chests, [{ chestId: LANTERN, step: 1, drawn: [], jackpotDrawn: false, resets: 1 }, oldProgress]);
});

test('a prize over a capacity goes to the present box, from the chest, as a reward', (t) => {
  // Every currency and prize item at its maximum: whatever is drawn does not fit.
  const cap = m.game.currencyMax;
  const full: Record<string, number> = { [String(token)]: 10 };
  for (const p of lantern.steps[0]!.prizes) if (p.grant.kind === 'item') full[String(p.grant.objectId)] = m.item.get(p.grant.objectId)!.max;
  const s = withWealth(freshPlayer(), { gold: cap.gold, gem: cap.gem, items: full });
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 3 });
  for (const x of r.response.results) {
    t.not(x.managedPresentId, null, `prize ${x.prizeId} went to the present box`);
    const p = r.state.presents.find((q) => q.managedPresentId === x.managedPresentId)!;
    t.like(p, { kind: x.kind, objectId: x.objectId, title: lantern.name, source: 'reward', deadline: null });
    t.true(p.message.length > 0, 'the present says why it is there');
  }
  t.is(r.state.gold, cap.gold);
});

test('after a retune lowered a prize\'s count below what was drawn, that prize is never drawn and the rest keep their remaining counts as weights', (t) => {
  // Step 1 retuned: prize 2's count 2 → 1, after the player drew it twice. Of the rest, the jackpot (1) and two of prize 3 are left.
  const [jp, second, third, ...others] = lantern.steps[0]!.prizes;
  const steps = lantern.steps.map((st, i) => (i === 0 ? { prizes: st.prizes.map((p) => (p.prizeId === second!.prizeId ? { ...p, count: 1 } : p)) } : st));
  const retuned: Master = { ...m, chest: new Map([...m.chest, [LANTERN, { ...lantern, steps }]]) };
  const drawn = [{ prizeId: second!.prizeId, count: 2 }, { prizeId: third!.prizeId, count: third!.count - 2 }, ...others.map((p) => ({ prizeId: p.prizeId, count: p.count }))];
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn, jackpotDrawn: false, resets: 0 }] };
  const n = 300;
  let jackpots = 0;
  for (let i = 0; i < n; i++) {
    const id = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { seed: `retune${i}`, m: retuned }).response.results[0]!.prizeId;
    t.true(id === jp!.prizeId || id === third!.prizeId, `prize ${id}`);
    if (id === jp!.prizeId) jackpots++;
  }
  // The jackpot's weight is 1 of the 3 prizes left.
  t.true(Math.abs(jackpots / n - 1 / 3) < 0.08, `jackpot share ${jackpots / n}`);
});

test('after a retune lowered a prize\'s count below what was drawn, none of it is left (0, never negative), and the box counts the rest', (t) => {
  // Step 1 retuned: prize 2's count 2 → 1 after the player drew it twice; everything but the jackpot drawn.
  const [jp, second, ...others] = lantern.steps[0]!.prizes;
  const steps = lantern.steps.map((st, i) => (i === 0 ? { prizes: st.prizes.map((p) => (p.prizeId === second!.prizeId ? { ...p, count: 1 } : p)) } : st));
  const retuned: Master = { ...m, chest: new Map([...m.chest, [LANTERN, { ...lantern, steps }]]) };
  const drawn = [{ prizeId: second!.prizeId, count: 2 }, ...others.map((p) => ({ prizeId: p.prizeId, count: p.count }))];
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: 0, drawn, jackpotDrawn: false, resets: 0 }] };
  const step = ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }, { m: retuned }).response;
  t.is(step.prizes.find((p) => p.prizeId === second!.prizeId)?.remaining, 0);
  t.is(step.remaining, jp!.count, 'the jackpot is all that is left');
  // The box is not empty: the jackpot is drawn.
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { m: retuned });
  t.is(r.response.results[0]!.prizeId, jp!.prizeId);
});
