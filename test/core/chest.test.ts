import test from 'ava';
import fc from 'fast-check';
import { fails, freshPlayer, master, NOW, ok, runOp, withWealth, itemsOf } from '../_support/core.js';
import type { PlayerState } from '../../core/state.js';

const LANTERN = 1;
const OLD = 2;
const token = () => master().chest.get(LANTERN)!.cost.itemId;
const rich = (n = 1000): PlayerState => withWealth(freshPlayer(), { items: { [String(token())]: n } });
const stepSize = (step: number) => master().chest.get(LANTERN)!.steps[step]!.prizes.reduce((n, p) => n + p.count, 0);

/** Draws the whole current step, `chunk` at a time; returns the state and every prize id drawn. */
const drawStep = (t: Parameters<typeof ok>[0], s0: PlayerState, chunk = 10) => {
  let s = s0;
  const got: number[] = [];
  let i = 0;
  for (;;) {
    const left = ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response.remaining;
    if (left === 0) return { s, got };
    const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: Math.min(chunk, left) }, { seed: `d${i++}` });
    got.push(...r.response.results.map((x) => x.prizeId));
    s = r.state;
  }
};

test('get_all lists the chests open now with step and remaining; get_step lists the prizes', (t) => {
  const s = rich(5);
  const all = ok(t, 'getAllPlayerChest', s, {}).response.chests;
  t.deepEqual(all.map((c) => c.chestId), [LANTERN]);
  t.is(all[0]?.step, 1);
  t.is(all[0]?.remaining, stepSize(0));
  t.is(all[0]?.held, 5);
  const step = ok(t, 'getStepPlayerChest', s, { chestId: LANTERN }).response;
  t.is((step['prizes'] as unknown[]).length, master().chest.get(LANTERN)!.steps[0]!.prizes.length);
  fails(t, 'NOT_FOUND', 'getStepPlayerChest', s, { chestId: 77 });
});

test('draw pays count × cost and yields count prizes from the box', (t) => {
  const s = rich(10);
  const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 4 });
  t.is(itemsOf(r.state)[String(token())], 6);
  t.is(r.response.results.length, 4);
  t.is(r.response.remaining, stepSize(0) - 4);
  t.is(r.state.counters['chestDraws'], 4);
});

test('drawing a whole step gives every prize exactly its count; then the empty box is 317; reset moves to step 2', (t) => {
  const { s, got } = drawStep(t, rich());
  for (const p of master().chest.get(LANTERN)!.steps[0]!.prizes) t.is(got.filter((id) => id === p.prizeId).length, p.count, `prize ${p.prizeId}`);
  t.true(s.chests[0]!.jackpotDrawn);
  t.is(s.counters['chestJackpots'], 1);
  fails(t, 'STATE_CONFLICT', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 });
  const r = ok(t, 'resetPlayerChest', s, { chestId: LANTERN });
  t.is(r.response.step, 2);
  t.is(r.response.remaining, stepSize(1));
  t.false(r.state.chests[0]!.jackpotDrawn);
});

test('reset is allowed only after the jackpot (317 before), and the last step repeats', (t) => {
  fails(t, 'STATE_CONFLICT', 'resetPlayerChest', rich(), { chestId: LANTERN });
  const steps = master().chest.get(LANTERN)!.steps.length;
  // Progress at the last step with its jackpot drawn: a reset gives the last step again.
  const s: PlayerState = { ...rich(), chests: [{ chestId: LANTERN, step: steps - 1, drawn: [], jackpotDrawn: true, resets: steps - 1 }] };
  const r = ok(t, 'resetPlayerChest', s, { chestId: LANTERN });
  t.is(r.response.step, steps);
  t.is(r.response.remaining, stepSize(steps - 1));
});

test('draw: unknown 107, out of period 467, over the per-request maximum 102, more than is left 102, short of tokens 442', (t) => {
  const s = rich();
  fails(t, 'NOT_FOUND', 'drawPlayerChest', s, { chestId: 77, count: 1 });
  fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', withWealth(s, { items: { 30002: 100 } }), { chestId: OLD, count: 1 });
  fails(t, 'CHEST_OUT_OF_PERIOD', 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { now: NOW + 400 * 24 * 3600_000 });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: master().social.chest.maxDrawCount + 1 });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: stepSize(0) + 1 });
  fails(t, 'INVALID_PARAMETERS', 'drawPlayerChest', s, { chestId: LANTERN, count: 0 });
  fails(t, 'ITEM_IS_SHORT', 'drawPlayerChest', rich(2), { chestId: LANTERN, count: 3 });
});

test('reset: unknown 107, out of period 467', (t) => {
  fails(t, 'NOT_FOUND', 'resetPlayerChest', rich(), { chestId: 77 });
  fails(t, 'CHEST_OUT_OF_PERIOD', 'resetPlayerChest', { ...rich(), chests: [{ chestId: OLD, step: 0, drawn: [], jackpotDrawn: true, resets: 0 }] }, { chestId: OLD });
});

test('property: any sequence of draws never takes a prize beyond its count, and drawn plus remaining is the box', (t) => {
  const prizes = master().chest.get(LANTERN)!.steps[0]!.prizes;
  const total = stepSize(0);
  fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 8 }), fc.string({ maxLength: 8 }), (counts, seed) => {
    let s = rich();
    let drawn = 0;
    for (const [i, c] of counts.entries()) {
      const r = runOp('drawPlayerChest', s, { chestId: LANTERN, count: c }, { seed: `${seed}:${i}` });
      if (r._tag === 'Left') { if (drawn + c <= total) return false; continue; }
      s = r.right.state;
      drawn += c;
    }
    const p = s.chests[0];
    const sum = (p?.drawn ?? []).reduce((n, d) => n + d.count, 0);
    return sum === drawn && (p?.drawn ?? []).every((d) => d.count <= (prizes.find((x) => x.prizeId === d.prizeId)?.count ?? 0));
  }), { numRuns: 60 });
  t.pass();
});

test('a draw is weighted by the remaining counts: first draws follow count / total', (t) => {
  const prizes = master().chest.get(LANTERN)!.steps[0]!.prizes;
  const total = stepSize(0);
  const seen = new Map<number, number>();
  const n = 400;
  const s = rich();
  for (let i = 0; i < n; i++) {
    const r = ok(t, 'drawPlayerChest', s, { chestId: LANTERN, count: 1 }, { seed: `w${i}` });
    const id = r.response.results[0]!.prizeId;
    seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  for (const p of prizes) t.true(Math.abs((seen.get(p.prizeId) ?? 0) / n - p.count / total) < 0.08, `prize ${p.prizeId}`);
  // A prize whose count is used up is never drawn again.
  const jackpot = prizes.find((p) => p.jackpot)!;
  const gone: PlayerState = { ...s, chests: [{ chestId: LANTERN, step: 0, drawn: [{ prizeId: jackpot.prizeId, count: jackpot.count }], jackpotDrawn: true, resets: 0 }] };
  for (let i = 0; i < 50; i++) {
    const r = ok(t, 'drawPlayerChest', gone, { chestId: LANTERN, count: 1 }, { seed: `j${i}` });
    t.not(r.response.results[0]!.prizeId, jackpot.prizeId);
  }
});
